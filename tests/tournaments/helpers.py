"""Helpers for the tournament tests: organisers, players, tournaments and their games."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.utils import timezone

from games.models import Game
from tests.factories import make_user
from tournaments import services
from tournaments.models import Pairing, Tournament

FIXED_START = datetime(2030, 5, 4, 10, 0, tzinfo=UTC)


def make_organiser(username: str) -> Any:
    user = make_user(username)
    # The migration creates the group; a transactional test before may have flushed it.
    user.groups.add(services.ensure_organisers_group())
    return get_user_model().objects.get(pk=user.pk)  # fresh permission cache


def make_players(*names: str) -> list[Any]:
    User = get_user_model()
    return [User.objects.filter(username=n).first() or make_user(n) for n in names]


def make_tournament(organiser: Any, players: list[Any] = (), **overrides: Any) -> Tournament:  # type: ignore[assignment]
    fields: dict[str, Any] = {
        "name": "Spring open",
        "language": "en",
        "system": "roundrobin",
        "rounds": 3,
        "days_per_move": 4,
        "starts_at": timezone.now() + timedelta(days=1),
    }
    fields.update(overrides)
    tournament = services.create_tournament(organiser=organiser, **fields)
    for player in players:
        services.register_player(tournament=tournament, user=player, by=organiser)
    return tournament


def run_round(tournament: Tournament, organiser: Any, *, seed: int | None = 1) -> list[Pairing]:
    """Pair and start the next round; returns its tables."""
    round_ = services.pair_round(tournament=tournament, by=organiser)
    services.start_round(tournament=tournament, by=organiser, seed=seed)
    return list(round_.pairings.select_related("first__user", "second__user", "game").order_by("table"))


def resign(game: Game, loser: Any) -> None:
    """End ``game`` at once: ``loser`` resigns."""
    game.refresh_from_db()
    game.resign(loser, version=game.version)


def finish_round(tables: list[Pairing]) -> None:
    """Every game of the round ends: the player going second resigns."""
    for table in tables:
        if table.game is not None:
            resign(table.game, table.second.user)  # type: ignore[union-attr]
