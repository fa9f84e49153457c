from __future__ import annotations

from typing import Any

from django.apps import AppConfig
from django.db.models.signals import post_migrate
from django.utils.translation import gettext_lazy as _


def restore_chat_permissions(**kwargs: Any) -> None:
    """After every migrate and flush (framework plumbing, like Django's own permissions):
    moderators read the chat lines to hide them (migration 0008 grants it first; a flush,
    as transactional tests do, empties the group)."""
    from django.contrib.auth.models import Group, Permission

    group, _created = Group.objects.get_or_create(name="Moderators")
    group.permissions.add(
        *Permission.objects.filter(content_type__app_label="games", codename="view_chatmessage")
    )


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = _("Games")

    def ready(self) -> None:
        from accounts.reasons import register_reason
        from dictionaries.hooks import register_word_usage_counter
        from games.extras import LABELS
        from games.models import register_followups
        from games.services import count_finished_games_with_word
        from games.tasks import schedule_followups

        register_word_usage_counter(count_finished_games_with_word)
        # Models never import tasks (tasks import models): the follow-up work of every
        # change is handed over here, enqueued inside the change's transaction.
        register_followups(schedule_followups)
        # An open random request looks for a match again each time its window widens.
        from games.services import register_seek_opened
        from games.tasks import schedule_seek

        register_seek_opened(schedule_seek)
        # What a change tells its players, recorded in its transaction (models read no
        # notifications: the notifier reads models).
        from games import notify
        from games.models import register_notifier

        register_notifier(notify)
        # A move's answer and pushes are made from the game as this process last held it
        # and the move, when it holds the version before (models never import games.live).
        from games.live import loaded_games
        from games.models import register_move_committed

        register_move_committed(loaded_games.after_move)
        for extra, label in LABELS.items():
            register_reason(f"extra:{extra}", label)
        from accounts.hooks import register_player_data
        from games.profiles import GamesPlayerData

        register_player_data("games", GamesPlayerData())
        from accounts.hooks import register_game_summary
        from games.moderation import game_summary

        register_game_summary(game_summary)
        post_migrate.connect(restore_chat_permissions, sender=self, dispatch_uid="games.moderators")
        from games.notify import on_delivered
        from notifications.hooks import register_delivered

        # A delivered deadline warning lets the turn lapse (games.rules._extend).
        register_delivered(on_delivered)
