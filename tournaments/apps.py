from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = _("Tournaments")

    def ready(self) -> None:
        from games.demo import register_demo_loader
        from games.models import register_after_commit
        from tournaments.demo import load_demo_tournament
        from tournaments.services import on_game_committed

        # games never imports tournaments: it runs this after every committed change of
        # a game, and a finished tournament game updates its tournament.
        register_after_commit(on_game_committed)
        # setup_site --demo also loads the finished demo tournament.
        register_demo_loader(load_demo_tournament)
