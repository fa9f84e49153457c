"""The rules and challenges through the API (issue 32): a game made with the classic
preset and a challenge rule, a phony challenged off by the opponent, the move list
saying so, and the last play accepted."""

from __future__ import annotations

from typing import Any

import pytest

from games.models import Game
from tests.games.helpers import set_racks

pytestmark = pytest.mark.django_db

CAD = [[7, 7, "C"], [7, 8, "A"], [7, 9, "D"]]  # not in the tests' small word list


def test_classic_single_challenge_game_through_the_api(api_as: Any, ana: Any, ben: Any) -> None:
    created = api_as(ana).post(
        "/games", {"opponent": "ben", "language": "en", "rules": "classic", "challenge": "single"}
    )
    assert created.status_code == 201, created.json()
    assert created.json()["rules"] == "classic"
    assert created.json()["challenge"] == "single"
    game = Game.objects.get(pk=created.json()["id"])
    game.accept(ben, version=game.version)
    set_racks(game, ("CATSEOD", "DOGSEAT"), turn=0)
    game.refresh_from_db()
    first = game.seat_user(0)
    second = game.seat_user(1)
    played = api_as(first).post(f"/games/{game.pk}/play", {"tiles": CAD, "version": game.version})
    assert played.status_code == 200, played.json()
    assert played.json()["moves"][0]["score"] == 12  # classic values on the classic centre
    seen = api_as(second).get(f"/games/{game.pk}").json()
    assert "challenge" in seen["allowed"]
    assert seen["pending"] == {"player": first.username, "final": False}
    challenged = api_as(second).post(f"/games/{game.pk}/challenge", {"version": seen["version"]})
    assert challenged.status_code == 200, challenged.json()
    moves = challenged.json()["moves"]
    assert moves[0]["withdrawn"] is True
    assert moves[1]["kind"] == "challenge"
    assert moves[1]["challenged"] == first.username
    assert moves[1]["invalid_words"] == ["CAD"]
    assert moves[1]["score"] == -12
    assert challenged.json()["scores"][first.username] == 0
    assert challenged.json()["pending"] is None
    again = api_as(second).post(f"/games/{game.pk}/challenge", {"version": challenged.json()["version"]})
    assert again.status_code == 409
    assert again.json()["error"] == "nothing_to_challenge"


def test_classic_spanish_game_is_refused(api_as: Any, ana: Any) -> None:
    response = api_as(ana).post(
        "/games", {"opponent": "computer", "level": "easy", "language": "es", "rules": "classic"}
    )
    assert response.status_code == 400
    assert response.json()["error"] == "bad_rules"
    assert not Game.objects.exists()
