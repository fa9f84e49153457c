from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PuzzlesConfig(AppConfig):
    name = "puzzles"
    verbose_name = _("Puzzles")

    def ready(self) -> None:
        from accounts.hooks import register_player_data
        from games.hooks import register_chain, register_game_notes, register_replay_links
        from games.models import register_followups
        from puzzles.duels import replay_links
        from puzzles.player_data import PuzzlesPlayerData
        from puzzles.solo import lobby_notes, on_game_committed
        from puzzles.tasks import ensure_nightly_choice

        register_followups(on_game_committed)
        register_replay_links(replay_links)
        register_game_notes(lobby_notes)
        register_chain(ensure_nightly_choice)
        register_player_data("puzzles", PuzzlesPlayerData())
