"""The sentences of the notices a player must acknowledge (``Notice``), translated into
the language of the page that shows them, and the one way to send one.

Notices are the site's one way to tell a player something that happened while they were
away (a moderator's warning, a mute, a suspension, the outcome of a word they suggested
or of a report they made): a banner on every page until they acknowledge it. Push and
mail delivery belong to the notification centre, which records each notice as a
notification too (``accounts.hooks.register_notice_left``).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.utils import formats, timezone
from django.utils.functional import Promise
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from accounts import hooks
from accounts.models import Notice

SENTENCES: dict[str, Promise] = {
    Notice.Kind.WARNING: _("A moderator warns you: %(reason)s"),
    Notice.Kind.MUTED: _("A moderator muted your chat until %(until)s. Reason: %(reason)s"),
    Notice.Kind.SUSPENDED: _(
        "A moderator suspended you from starting or joining games until %(until)s (your games "
        "under way go on). Reason: %(reason)s"
    ),
    Notice.Kind.REPORT_RESOLVED: _("A moderator dealt with your report about %(player)s. Thank you."),
    Notice.Kind.WORD_APPROVED: _(
        "The word “%(word)s” you suggested (%(language)s) was approved: it is valid from "
        "dictionary version %(version)s."
    ),
    Notice.Kind.WORD_REJECTED: _(
        "The word “%(word)s” you suggested (%(language)s) was rejected. Reason: %(reason)s"
    ),
}


def notify(*, user: Any, kind: str, **params: Any) -> Notice:
    """Leave ``user`` a notice of ``kind``; ``params`` must be JSON values (a time as
    ``until``, a ``datetime``, is stored as ISO text)."""
    stored = {k: v.isoformat() if isinstance(v, datetime) else v for k, v in params.items()}
    notice = Notice.objects.create(user=user, kind=kind, params=stored)
    # Also a notification (the bell, push, mail), recorded in the same transaction.
    hooks.notice_left(notice)
    return notice


def notice_text(notice: Notice) -> str:
    params: dict[str, Any] = dict(notice.params)
    if "until" in params:
        until = timezone.localtime(datetime.fromisoformat(params["until"]))
        params["until"] = formats.date_format(until, "DATETIME_FORMAT")
    if "language" in params:
        # Stored as the language's English name, which is a message id of the catalogue.
        params["language"] = gettext(params["language"])
    if not params.get("reason"):
        params["reason"] = gettext("none given")
    return str(SENTENCES[notice.kind]) % params


@dataclass(frozen=True, slots=True)
class OpenNotice:
    """A notice as the banner shows it: its sentence in the active language."""

    pk: int
    kind: str
    params: dict[str, Any]
    text: str


def unread(user: Any) -> list[Notice]:
    """``user``'s notices not acknowledged yet, oldest first."""
    if not getattr(user, "is_authenticated", False):
        return []
    return list(Notice.objects.filter(user=user, acknowledged_at__isnull=True))


def open_notices(user: Any) -> list[OpenNotice]:
    """:func:`unread`, as the banner shows them (their sentences in the active language)."""
    return [OpenNotice(n.pk, n.kind, n.params, notice_text(n)) for n in unread(user)]


def acknowledge(*, user: Any, notice_id: int) -> bool:
    """Mark ``user``'s notice read; False when there is no such open notice of theirs."""
    return bool(
        Notice.objects.filter(pk=notice_id, user=user, acknowledged_at__isnull=True).update(
            acknowledged_at=timezone.now()
        )
    )
