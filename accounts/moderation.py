"""What moderators do to players: mute their chat, suspend them from new games, warn
them, and the log of it all (``ModerationAction``, append-only).

Every action records one row and tells the player through a notice. Mutes and
suspensions end on their own: they are in force while ``until`` is in the future, so
nothing has to run when they end. Hiding a chat line is ``games.moderation.hide_chat_line``
(chat is the games app's), which records through :func:`record` here.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.models import ModerationAction, Notice, Report, User
from accounts.notices import notify

#: The longest mute or suspension one action may give.
MAX_DAYS = 365


def _check(reason: str, days: int | None = None) -> None:
    if not reason.strip():
        raise ValidationError(_("Give a reason: the player is told it."), code="no_reason")
    if len(reason) > 1000:
        raise ValidationError(_("A reason has at most 1000 characters."), code="reason_too_long")
    if days is not None and not 1 <= days <= MAX_DAYS:
        raise ValidationError(
            _("Choose between 1 and %(max)d days."), code="bad_days", params={"max": MAX_DAYS}
        )


def record(
    *,
    moderator: User,
    subject: Any,
    kind: str,
    reason: str,
    until: datetime | None = None,
    game_id: int | None = None,
    chat_message_id: int | None = None,
    report: Report | None = None,
) -> ModerationAction:
    """Append one entry to the moderation log."""
    return ModerationAction.objects.create(
        moderator=moderator,
        subject=subject,
        kind=kind,
        reason=reason.strip(),
        until=until,
        game_id=game_id,
        chat_message_id=chat_message_id,
        report=report,
    )


def mute_chat(
    *, moderator: User, player: User, days: int, reason: str, report: Report | None = None
) -> ModerationAction:
    """Refuse ``player``'s new chat lines for ``days`` days; the player is told."""
    return _for_days(ModerationAction.Kind.MUTE, Notice.Kind.MUTED, moderator, player, days, reason, report)


def suspend(
    *, moderator: User, player: User, days: int, reason: str, report: Report | None = None
) -> ModerationAction:
    """Refuse ``player`` starting or joining games for ``days`` days (their games under
    way go on); the player is told."""
    return _for_days(
        ModerationAction.Kind.SUSPEND, Notice.Kind.SUSPENDED, moderator, player, days, reason, report
    )


def _for_days(
    kind: str, notice: str, moderator: User, player: User, days: int, reason: str, report: Report | None
) -> ModerationAction:
    _check(reason, days)
    until = timezone.now() + timedelta(days=days)
    with transaction.atomic():
        action = record(
            moderator=moderator,
            subject=player,
            kind=kind,
            reason=reason,
            until=until,
            report=report,
            game_id=report.game_id if report else None,
        )
        notify(user=player, kind=notice, until=until, reason=reason.strip())
    return action


def warn(*, moderator: User, player: User, reason: str, report: Report | None = None) -> ModerationAction:
    """Warn ``player``: a message they see on every page until they acknowledge it."""
    _check(reason)
    with transaction.atomic():
        action = record(
            moderator=moderator,
            subject=player,
            kind=ModerationAction.Kind.WARN,
            reason=reason,
            report=report,
            game_id=report.game_id if report else None,
        )
        notify(user=player, kind=Notice.Kind.WARNING, reason=reason.strip())
    return action


def _until(user: Any, kind: str, now: datetime | None) -> datetime | None:
    if not getattr(user, "is_authenticated", False):
        return None
    ends = (
        ModerationAction.objects.filter(subject=user)
        .in_force(kind, now)
        .order_by("-until")
        .values_list("until", flat=True)
        .first()
    )
    return ends


def chat_muted_until(user: Any, now: datetime | None = None) -> datetime | None:
    """When ``user``'s chat mute ends, or None when they are not muted."""
    return _until(user, ModerationAction.Kind.MUTE, now)


def suspended_until(user: Any, now: datetime | None = None) -> datetime | None:
    """When ``user``'s suspension from new games ends, or None when not suspended."""
    return _until(user, ModerationAction.Kind.SUSPEND, now)


def suspended_ids(now: datetime | None = None) -> QuerySet[ModerationAction, Any]:
    """The ids of the players suspended now, as a subquery for ``__in``."""
    return ModerationAction.objects.in_force(ModerationAction.Kind.SUSPEND, now).values("subject")
