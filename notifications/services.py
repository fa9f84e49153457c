"""The one way to tell a person something: :func:`notify` (STYLE.md 3.3c).

Call it inside the transaction of the change that concerns the recipients: it inserts
their notifications (one INSERT for all of them) and enqueues one ``dispatch`` task in
the same transaction (django-tasks-db keeps tasks in the same database, so both commit
or roll back with the change: a process that dies after the commit loses nothing). The
open pages' bells are told after the commit.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone

from accounts.hooks import Coverage, Unfinished
from accounts.realtime import notifications_changed
from notifications.models import Kind, Notification

logger = logging.getLogger(__name__)


def notify(
    *, recipient_ids: Iterable[int], kind: str, params: dict[str, Any], path: str = "", read: bool = False
) -> list[int]:
    """Record a notification of ``kind`` for each recipient and enqueue its delivery.
    ``params`` must be JSON values; ``read``: recorded as read (a mail's summary of what
    the bell already showed). Returns the notifications' ids."""
    recipients = sorted(set(recipient_ids))
    if not recipients:
        return []
    read_at = timezone.now() if read else None
    rows = Notification.objects.bulk_create(
        [
            Notification(recipient_id=r, kind=kind, params=params, path=path, read_at=read_at)
            for r in recipients
        ]
    )
    ids = [row.pk for row in rows]
    from notifications.tasks import enqueue_dispatch  # tasks import this module

    enqueue_dispatch(ids)
    notifications_changed(*recipients)
    return ids


@dataclass(frozen=True, slots=True)
class Note:
    """One recipient's notification, for :func:`notify_each`."""

    recipient_id: int
    kind: str
    params: dict[str, Any]
    path: str = ""


def notify_each(notes: Iterable[Note]) -> list[int]:
    """Record notifications that differ per recipient (a tournament round: each player's
    own opponent and game) in one INSERT, and enqueue one delivery task for all of them;
    inside the transaction of the change, like :func:`notify`. Returns their ids."""
    rows = Notification.objects.bulk_create(
        [Notification(recipient_id=n.recipient_id, kind=n.kind, params=n.params, path=n.path) for n in notes]
    )
    if not rows:
        return []
    ids = [row.pk for row in rows]
    from notifications.tasks import enqueue_dispatch  # tasks import this module

    enqueue_dispatch(ids)
    notifications_changed(*sorted({row.recipient_id for row in rows}))
    return ids


def on_friend_requested(*, from_user: Any, to_user: Any) -> None:
    """``accounts``' hook: a new friend request (inside its transaction)."""
    notify(
        recipient_ids=[to_user.pk],
        kind=Kind.FRIEND_REQUEST,
        params={"who": from_user.display_name or from_user.username},
        path="/accounts/friends/",
    )


def on_signed_up(user: Any) -> None:
    """``accounts``' hook: a new account gave an address; nothing goes to it until the
    link in this mail confirms it. A mail server that is away does not stop the sign-up
    (the settings page sends the link again)."""
    from notifications.emails import verification_email

    if user.email:
        try:
            verification_email(user, address=user.email).send()
        except Exception:
            logger.exception("verification mail to new account %s failed", user.pk)


def on_notice_left(notice: Any) -> None:
    """``accounts``' hook: a moderator's decision, a report dealt with, a suggested word
    approved or rejected (``accounts.notices``), inside its transaction."""
    notify(recipient_ids=[notice.user_id], kind=Kind.NOTICE, params={"notice": notice.pk}, path="/")


def unread_count(user: Any) -> int:
    if not getattr(user, "is_authenticated", False):
        return 0
    return Notification.objects.filter(recipient=user, read_at__isnull=True).count()


def mark_read(*, user: Any, ids: Iterable[int] | None = None) -> int:
    """Mark ``user``'s notifications read (``ids``, or all of them); how many changed."""
    unread = Notification.objects.filter(recipient=user, read_at__isnull=True)
    if ids is not None:
        unread = unread.filter(pk__in=list(ids))
    with transaction.atomic():
        changed = unread.update(read_at=timezone.now())
        if changed:
            notifications_changed(user.pk)
    return changed


class NotificationsPlayerData:
    """The notification centre's side of ``accounts.hooks.PlayerData``: a player's
    notifications, choices and devices are in "download my data" and go with the account."""

    def statistics(self, user: Any) -> list[Any]:
        return []

    def export(self, user: Any) -> dict[str, Any]:
        from notifications.models import Preference, PushSubscription

        return {
            "notifications": [
                {
                    "kind": n.kind,
                    "params": n.params,
                    "created_at": n.created_at.isoformat(),
                    "read": n.read_at is not None,
                }
                for n in Notification.objects.filter(recipient=user).order_by("pk")
            ],
            "preferences": list(Preference.objects.filter(user=user).values("kind", "channel", "enabled")),
            "push_devices": list(
                PushSubscription.objects.filter(user=user).values_list("user_agent", flat=True)
            ),
        }

    covers = {
        "notifications.Notification.recipient": Coverage("notifications.notifications", "deleted"),
        "notifications.Preference.user": Coverage("notifications.preferences", "deleted"),
        "notifications.PushSubscription.user": Coverage("notifications.push_devices", "deleted"),
    }

    def unfinished(self, user: Any) -> list[Unfinished]:
        return []  # nothing here stands in the way of deleting an account

    def give_up(self, user: Any) -> None:
        """Nothing to give up (see ``unfinished``)."""

    def erase(self, user: Any) -> None:
        from notifications.models import Preference, PushSubscription

        Notification.objects.filter(recipient=user).delete()
        Preference.objects.filter(user=user).delete()
        PushSubscription.objects.filter(user=user).delete()
