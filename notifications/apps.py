from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class NotificationsConfig(AppConfig):
    name = "notifications"
    verbose_name = _("Notifications")

    def ready(self) -> None:
        # accounts imports no app: a friend request reaches the outbox through its hook.
        from accounts.hooks import register_friend_requested
        from notifications.services import on_friend_requested

        register_friend_requested(on_friend_requested)
        from accounts.hooks import register_signed_up
        from notifications.services import on_signed_up

        register_signed_up(on_signed_up)
        from accounts.hooks import register_notice_left
        from notifications.services import on_notice_left

        register_notice_left(on_notice_left)
        from accounts.hooks import register_player_data
        from notifications.services import NotificationsPlayerData

        register_player_data("notifications", NotificationsPlayerData())
