from __future__ import annotations

from typing import Any

from django.apps import AppConfig
from django.db.models import QuerySet
from django.db.models.signals import post_migrate
from django.utils.translation import gettext_lazy as _


def restore_organisers_group(**kwargs: Any) -> None:
    from tournaments.services import ensure_organisers_group

    ensure_organisers_group()


def tournament_game_ids() -> QuerySet[Any]:
    from tournaments.models import Pairing

    return Pairing.objects.filter(game__isnull=False).values("game_id")


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = _("Tournaments")

    def ready(self) -> None:
        from games.archive import register_tournament_games
        from games.demo import register_demo_loader
        from games.hooks import register_game_notes
        from games.models import register_after_commit
        from tournaments.demo import load_demo_tournament
        from tournaments.services import lobby_notes, on_game_committed, register_round_close
        from tournaments.tasks import schedule_close_round

        # games never imports tournaments: it runs this after every committed change of
        # a game, and a finished tournament game updates its tournament.
        register_after_commit(on_game_committed)
        # The games lobby marks tournament games and shows an organiser's override.
        register_game_notes(lobby_notes)
        # A round's time limit is a task; services never import tasks.
        register_round_close(schedule_close_round)
        # The archive's "tournament game" filter: the games of every pairing.
        register_tournament_games(tournament_game_ids)
        from accounts.hooks import register_player_data
        from tournaments.player_data import TournamentsPlayerData

        # "Download my data": entries, memberships, tournaments organised.
        register_player_data("tournaments", TournamentsPlayerData())
        # setup_site --demo also loads the finished demo tournament.
        register_demo_loader(load_demo_tournament)
        # The "Organisers" group exists after every migrate and flush (framework plumbing,
        # like Django's own permissions; the migration creates it first).
        post_migrate.connect(restore_organisers_group, sender=self, dispatch_uid="tournaments.organisers")
