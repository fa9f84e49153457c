"""``games.outcomes.on_game_finished``: a finished rated game updates both ratings, once."""

from __future__ import annotations

from typing import Any

import pytest

from accounts.models import Rating, RatingChange
from games.models import Game
from games.outcomes import on_game_finished
from tests.games.helpers import CAT_AT_CENTRE, make_game
from tests.players.helpers import make_finished_game

pytestmark = pytest.mark.django_db


def rating(user: Any, language: str = "en") -> float | None:
    row = Rating.objects.filter(user=user, language=language).first()
    return row.rating if row else None


def test_finished_rated_game_rates_both_players(ana: Any, ben: Any) -> None:
    game = make_finished_game(ana, ben, winner=1, language="it")
    on_game_finished(game)
    assert rating(ben, "it") > 1500 > rating(ana, "it")  # type: ignore[operator]
    change = RatingChange.objects.get(user=ben)
    assert (change.reference, change.score, change.opponent) == (f"game:{game.pk}", 1, ana)
    assert change.created_at == game.finished_at


def test_calling_twice_rates_once(ana: Any, ben: Any) -> None:
    game = make_finished_game(ana, ben)
    on_game_finished(game)
    on_game_finished(game)
    assert RatingChange.objects.count() == 2
    assert Rating.objects.get(user=ana).games == 1


def test_a_draw_is_half_a_point_each(ana: Any, ben: Any) -> None:
    on_game_finished(make_finished_game(ana, ben, winner=None, scores=(200, 200)))
    assert {c.score for c in RatingChange.objects.all()} == {0.5}


def test_casual_games_are_not_rated(ana: Any, ben: Any) -> None:
    on_game_finished(make_finished_game(ana, ben, rated=False))
    assert not RatingChange.objects.exists()


def test_games_against_the_computer_are_not_rated(ana: Any) -> None:
    game = make_finished_game(ana, None, mode=Game.Mode.COMPUTER, moves=[(0, "play", "CAT", 10, False)])
    game.rated = True  # even if a row says so
    on_game_finished(game)
    assert not RatingChange.objects.exists()


def test_a_game_over_before_both_players_moved_is_not_rated(ana: Any, ben: Any) -> None:
    resigned_at_once = make_finished_game(
        ana,
        ben,
        winner=0,
        end_reason="resign",
        moves=[(0, "play", "CAT", 10, False), (1, "resign", "", 0, False)],
    )
    on_game_finished(resigned_at_once)
    timed_out = make_finished_game(
        ana, ben, winner=1, end_reason="timeout", moves=[(0, "timeout", "", 0, False)]
    )
    on_game_finished(timed_out)
    assert not RatingChange.objects.exists()


def test_a_pass_or_a_swap_counts_as_having_moved(ana: Any, ben: Any) -> None:
    game = make_finished_game(
        ana,
        ben,
        winner=1,
        end_reason="resign",
        moves=[(0, "play", "CAT", 10, False), (1, "exchange", "", 0, False), (0, "resign", "", 0, False)],
    )
    on_game_finished(game)
    assert rating(ben) > 1500  # type: ignore[operator]


def test_an_unfinished_game_is_not_rated(ana: Any, ben: Any) -> None:
    game = make_finished_game(ana, ben)
    game.status = Game.Status.ACTIVE
    on_game_finished(game)
    assert not RatingChange.objects.exists()


def test_a_rated_game_played_through_the_models(ana: Any, ben: Any) -> None:
    """The rows the game-over path really writes: ana plays, ben passes, ana resigns."""
    game = make_game(ana, ben, racks=("CATSEOD", "JQXZKVW"))
    Game.objects.filter(pk=game.pk).update(rated=True)
    game.refresh_from_db()
    game.play(ana, CAT_AT_CENTRE, version=game.version)
    game.pass_turn(ben, version=game.version)
    game.resign(ana, version=game.version)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    on_game_finished(game)
    assert rating(ben) > 1500 > rating(ana)  # type: ignore[operator]
