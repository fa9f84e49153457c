"""Notifications: the outbox of everything that concerns a person (STYLE.md 3.3c).

A ``Notification`` is recorded in the transaction of the change that causes it (a move,
an invitation, a chat line, a friend request) and is itself what the site shows (the
bell, ``/notifications/``). Its delivery to the other channels (e-mail, later Web Push)
is one ``Delivery`` row per channel, made and worked by tasks after the commit
(``notifications.tasks``), retried with back-off; a failed channel never touches what
caused it. The text is not stored: it is rendered for the recipient, in their language
and time zone, from ``kind`` and ``params`` (``notifications.texts``).

This app knows nothing of games: callers pass plain values (ids, names, a path).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Kind(models.TextChoices):
    YOUR_TURN = "your_turn", _("Your turn")
    INVITATION = "invitation", _("Invitations")
    INVITATION_ANSWER = "invitation_answer", _("Answers to your invitations")
    GAME_OVER = "game_over", _("A game's end")
    CHAT = "chat", _("Chat lines")
    FRIEND_REQUEST = "friend_request", _("Friend requests")
    DEADLINE_WARNING = "deadline_warning", _("Time running out")
    DIGEST = "digest", _("Daily summary of the games waiting for you")
    NOTICE = "notice", _("Moderators' decisions and your suggested words")
    TOURNAMENT_ROUND = "tournament_round", _("Tournament rounds: your pairing")
    DUEL = "duel", _("Rack duels")


class Channel(models.TextChoices):
    PUSH = "push", _("Push notifications")
    EMAIL = "email", _("E-mail")


class Notification(models.Model):
    recipient = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications"
    )
    kind = models.CharField(_("kind"), max_length=24, choices=Kind.choices)
    # JSON values only (names, numbers, ISO times): rendered for the recipient when shown.
    params = models.JSONField(_("parameters"), default=dict, blank=True)
    # The site-relative page it leads to ("/games/12/").
    path = models.CharField(_("link"), max_length=200, blank=True)
    created_at = models.DateTimeField(_("created"), auto_now_add=True, db_index=True)
    read_at = models.DateTimeField(_("read"), null=True, blank=True)

    class Meta:
        verbose_name = _("notification")
        verbose_name_plural = _("notifications")
        ordering = ["-created_at", "-pk"]
        indexes = [models.Index(fields=["recipient", "read_at"], name="notif_recipient_unread")]

    def __str__(self) -> str:
        return f"{self.recipient_id} {self.kind} {self.path}"


class Delivery(models.Model):
    """One notification on one channel: what happened to it (idempotent work of
    ``notifications.tasks.deliver``)."""

    class Status(models.TextChoices):
        PENDING = "pending", _("Pending")
        SENT = "sent", _("Sent")
        FAILED = "failed", _("Failed")

    notification = models.ForeignKey(Notification, on_delete=models.CASCADE, related_name="deliveries")
    channel = models.CharField(_("channel"), max_length=10, choices=Channel.choices)
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.PENDING)
    attempts = models.PositiveSmallIntegerField(_("attempts"), default=0)
    last_error = models.TextField(_("last error"), blank=True)
    sent_at = models.DateTimeField(_("sent"), null=True, blank=True)

    class Meta:
        verbose_name = _("delivery")
        verbose_name_plural = _("deliveries")
        constraints = [
            models.UniqueConstraint(
                fields=["notification", "channel"], name="notif_delivery_once_per_channel"
            )
        ]

    def __str__(self) -> str:
        return f"{self.notification_id} {self.channel} {self.status}"


class Preference(models.Model):
    """A player's choice for one kind on one channel, where it differs from the default
    (``notifications.preferences.DEFAULTS``)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notification_preferences"
    )
    kind = models.CharField(_("kind"), max_length=24, choices=Kind.choices)
    channel = models.CharField(_("channel"), max_length=10, choices=Channel.choices)
    enabled = models.BooleanField(_("on"))

    class Meta:
        verbose_name = _("notification preference")
        verbose_name_plural = _("notification preferences")
        constraints = [
            models.UniqueConstraint(fields=["user", "kind", "channel"], name="notif_preference_unique")
        ]

    def __str__(self) -> str:
        return f"{self.user_id} {self.kind} {self.channel} {self.enabled}"


class PushSubscription(models.Model):
    """One device's Web Push subscription (``notifications.push``): the endpoint the
    browser's push service gave it and the keys the payload is encrypted with. Deleted
    when the push service answers 404 or 410, or when the player removes the device."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_subscriptions"
    )
    endpoint = models.URLField(_("endpoint"), max_length=500, unique=True)
    p256dh = models.CharField(_("public key"), max_length=200)
    auth = models.CharField(_("auth secret"), max_length=200)
    user_agent = models.CharField(_("device"), max_length=200, blank=True)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    last_used_at = models.DateTimeField(_("last used"), null=True, blank=True)

    class Meta:
        verbose_name = _("push subscription")
        verbose_name_plural = _("push subscriptions")
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.user_id} {self.endpoint[:60]}"
