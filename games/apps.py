from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = _("Games")

    def ready(self) -> None:
        from accounts.reasons import register_reason
        from dictionaries.hooks import register_word_usage_counter
        from games.extras import LABELS
        from games.models import register_after_commit
        from games.services import count_finished_games_with_word
        from games.tasks import schedule_followups

        register_word_usage_counter(count_finished_games_with_word)
        # Models never import tasks (tasks import models): the follow-up work of every
        # committed change is handed over here.
        register_after_commit(schedule_followups)
        for extra, label in LABELS.items():
            register_reason(f"extra:{extra}", label)
        from accounts.hooks import register_player_data
        from games.profiles import GamesPlayerData

        register_player_data("games", GamesPlayerData())
        from accounts.hooks import register_game_summary
        from games.moderation import game_summary

        register_game_summary(game_summary)
        from games.notify import on_delivered
        from notifications.hooks import register_delivered

        # A delivered deadline warning lets the turn lapse (games.rules._extend).
        register_delivered(on_delivered)
