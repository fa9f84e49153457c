"""Delivering notifications after the commit, one task per channel (STYLE.md 3.3c).

- :func:`dispatch` (enqueued by ``services.notify`` inside the change's transaction):
  for each notification, a ``Delivery`` row per channel its recipient wants, each handed
  to :func:`deliver`.
- :func:`deliver`: sends one delivery; idempotent (a sent one is not sent again). A
  failure is logged and retried after ``NOTIFICATION_RETRY_SECONDS`` × 2^(attempts - 1),
  at most ``NOTIFICATION_ATTEMPTS`` times; it never touches the game or whatever caused
  the notification.
"""

from __future__ import annotations

import logging
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django_tasks import task

from accounts import metrics
from notifications import hooks, preferences, presence, push, quiet
from notifications.emails import notification_email
from notifications.models import Channel, Delivery, Notification

logger = logging.getLogger(__name__)


def enqueue_dispatch(ids: list[int]) -> None:
    """Enqueue :func:`dispatch` for ``ids``. With a queue in the database it is enqueued
    in the caller's transaction (it commits or rolls back with the change); a backend
    that runs tasks at once (tests) would deliver what may still roll back, so there it
    runs on commit."""
    if dispatch.get_backend().supports_defer:
        dispatch.enqueue(ids)
    else:
        transaction.on_commit(lambda: dispatch.enqueue(ids))


@task()
def dispatch(ids: list[int]) -> int:
    """One delivery per notification and channel its recipient wants; returns how many
    deliveries it handed on."""
    handed = 0
    for notification in Notification.objects.filter(pk__in=ids).select_related("recipient"):
        recipient = notification.recipient
        if not recipient.is_active:
            continue
        hold = None if notification.kind in quiet.URGENT else quiet.quiet_until(recipient, timezone.now())
        for channel in channels_for(notification):
            delivery, created = Delivery.objects.get_or_create(notification=notification, channel=channel)
            if not created:
                continue
            if channel == Channel.PUSH and hold is not None and deliver.get_backend().supports_defer:
                # Quiet hours: a push that is not urgent waits until they end.
                deliver.using(run_after=hold).enqueue(delivery.pk)
            else:
                deliver.enqueue(delivery.pk)
            handed += 1
    return handed


def channels_for(notification: Notification) -> list[str]:
    """The channels ``notification`` goes out on: those its recipient wants and can be
    reached on (a verified address; a device subscribed, and not that game's page open)."""
    recipient = notification.recipient
    wanted = preferences.wanted(recipient).get(notification.kind, set())
    channels: list[str] = []
    if Channel.PUSH in wanted and push.enabled() and recipient.push_subscriptions.exists():
        game = notification.params.get("game")
        if not (isinstance(game, int) and presence.is_present(recipient.pk, game)):
            channels.append(Channel.PUSH)
    if Channel.EMAIL in wanted and preferences.email_address(recipient):
        channels.append(Channel.EMAIL)
    return channels


def send(delivery: Delivery) -> None:
    """Send ``delivery`` on its channel; raises when the channel refused it."""
    notification = delivery.notification
    if delivery.channel == Channel.EMAIL:
        address = preferences.email_address(notification.recipient)
        if not address:
            raise RuntimeError("no verified address any more")
        notification_email(notification, address=address).send()
    elif delivery.channel == Channel.PUSH:
        push.send_notification(notification)
    else:
        raise RuntimeError(f"unknown channel {delivery.channel}")


@task()
def deliver(delivery_id: int) -> bool:
    """Send one delivery (unless it was sent or given up); True when it is sent."""
    # The row is locked while it is sent: a duplicate of this task waits, then finds it sent.
    with transaction.atomic():
        delivery = (
            Delivery.objects.select_for_update()
            .filter(pk=delivery_id)
            .select_related("notification__recipient")
            .first()
        )
        if delivery is None:
            return False
        if delivery.status == Delivery.Status.PENDING:  # sent, or given up: nothing more
            _attempt(delivery)
    return delivery.status == Delivery.Status.SENT


def _attempt(delivery: Delivery) -> None:
    delivery.attempts += 1
    try:
        send(delivery)
    except push.NoDevice:
        # Every device was revoked (404/410): a retry would find none either.
        delivery.status = Delivery.Status.FAILED
        delivery.last_error = "no subscribed device left"
        delivery.save(update_fields=["attempts", "last_error", "status"])
        metrics.notification_deliveries.labels(delivery.channel, "failed").inc()
        return
    except Exception as exc:  # noqa: BLE001 - any failure of a channel is retried, never raised
        delivery.last_error = f"{type(exc).__name__}: {exc}"[:2000]
        retry = delivery.attempts < settings.NOTIFICATION_ATTEMPTS
        delivery.status = Delivery.Status.PENDING if retry else Delivery.Status.FAILED
        delivery.save(update_fields=["attempts", "last_error", "status"])
        metrics.notification_deliveries.labels(delivery.channel, "retry" if retry else "failed").inc()
        logger.warning(
            "notification %s on %s failed (attempt %s): %s",
            delivery.notification_id,
            delivery.channel,
            delivery.attempts,
            delivery.last_error,
        )
        if retry and deliver.get_backend().supports_defer:
            delay = settings.NOTIFICATION_RETRY_SECONDS * 2 ** (delivery.attempts - 1)
            deliver.using(run_after=timezone.now() + timedelta(seconds=delay)).enqueue(delivery.pk)
        return
    delivery.status = Delivery.Status.SENT
    delivery.sent_at = timezone.now()
    delivery.last_error = ""
    delivery.save(update_fields=["attempts", "last_error", "status", "sent_at"])
    metrics.notification_deliveries.labels(delivery.channel, "sent").inc()
    hooks.delivered(delivery)
