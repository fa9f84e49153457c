"""The daily puzzle through the API: the same puzzle as the page, the answer hidden until
the caller has answered, the first answer counting, clear refusals."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from games.models import Game
from puzzles import services
from puzzles.models import Attempt
from tests.api.conftest import ApiClient

pytestmark = pytest.mark.django_db

Api = Callable[..., ApiClient]


def test_daily_puzzle_answered_once_with_the_answer_after(api_as: Api, ana: Any, ben: Any) -> None:
    a, b = api_as(ana), api_as(ben)
    first = a.get("/puzzles/daily/en").json()
    assert first == b.get("/puzzles/daily/en").json()
    puzzle = services.daily_puzzle(services.today(), "en")
    assert (first["rack"], first["board"], first["answered"], first["result"]) == (
        puzzle.rack,
        puzzle.board,
        False,
        None,
    )
    second = puzzle.top[1]
    tiles = [[r, c, ch] for r, c, ch in second["tiles"]]
    answered = a.post("/puzzles/daily/en", {"tiles": tiles}).json()
    assert answered["answered"] is True
    result = answered["result"]
    assert (result["score"], result["best"], result["rated"]) == (second["score"], puzzle.best_score, True)
    assert [p["score"] for p in result["top"]] == [p["score"] for p in puzzle.top]
    assert not any(ch.isalpha() for ch in result["share_text"])
    # A second answer changes nothing.
    best = [[r, c, ch] for r, c, ch in puzzle.top[0]["tiles"]]
    assert a.post("/puzzles/daily/en", {"tiles": best}).json()["result"]["score"] == second["score"]
    # ben has still not seen the answer.
    assert b.get(f"/puzzles/en/{puzzle.day.isoformat()}").json()["result"] is None
    days = a.get("/puzzles/en/days").json()
    assert days == [
        {"day": puzzle.day.isoformat(), "score": second["score"], "best": puzzle.best_score, "rated": True}
    ]
    preview = b.post(f"/puzzles/en/{puzzle.day.isoformat()}/preview", {"tiles": best}).json()
    assert (preview["valid"], preview["score"]) == (True, puzzle.best_score)


def test_puzzle_refusals_are_clear(api_as: Api, ana: Any) -> None:
    a = api_as(ana)
    unknown = a.get("/puzzles/daily/xx")
    assert (unknown.status_code, unknown.json()["error"]) == (404, "unknown_language")
    assert unknown.json()["message"] == "There is no such game language."
    assert a.get("/puzzles/en/yesterday").json()["error"] == "bad_day"
    assert a.get("/puzzles/en/2020-01-01").json()["error"] == "no_puzzle"
    illegal = a.post("/puzzles/daily/en", {"tiles": [[0, 0, "Q"], [14, 14, "Q"]]})
    assert illegal.status_code == 400
    assert illegal.json()["message"]
    assert a.post("/puzzles/daily/en", {"tiles": [[0, 0, "QQ"]]}).json()["error"] == "bad_tiles"
    assert not Attempt.objects.exists()


def test_solo_challenge_started_and_listed(api_as: Api, ana: Any) -> None:
    a = api_as(ana)
    started = a.post("/puzzles/solo/en", {"kind": "daily"}).json()
    assert (started["turns"], started["score"], started["kind"]) == (5, None, "daily")
    assert started["target"] > 0
    assert a.post("/puzzles/solo/en", {"kind": "daily"}).json()["game"] == started["game"]
    assert a.get(f"/games/{started['game']}").status_code == 200
    assert a.get("/puzzles/solo/en").json() == {"mine": [started], "today_best": []}
    assert a.post("/puzzles/solo/en", {"kind": "weekly"}).status_code == 400
    assert a.get("/puzzles/solo/xx").json()["error"] == "unknown_language"


def test_rack_duel_through_the_api(api_as: Api, ana: Any, ben: Any, cleo: Any) -> None:
    from accounts.models import Friendship
    from tests.puzzles.test_daily import make_source_game

    Friendship.objects.create(from_user=ana, to_user=ben, status=Friendship.Status.ACCEPTED)
    game = make_source_game((ana, ben), 31)
    a, b = api_as(ana), api_as(ben)
    assert (
        a.post("/puzzles/duels", {"game": game.pk, "move": 2, "opponent": "ben"}).json()["error"]
        == "duel_not_yours"
    )
    made = a.post("/puzzles/duels", {"game": game.pk, "move": 1, "opponent": "ben"}).json()
    assert (made["answered"], made["result"]) == (False, None)
    assert b.get(f"/puzzles/duels/{made['id']}").json() == made
    assert api_as(cleo).get(f"/puzzles/duels/{made['id']}").status_code == 404
    from puzzles.models import Duel

    best = [[r, c, ch] for r, c, ch in Duel.objects.get().top[0]["tiles"]]
    assert b.post(f"/puzzles/duels/{made['id']}/preview", {"tiles": best}).json()["valid"] is True
    assert a.post(f"/puzzles/duels/{made['id']}", {"tiles": best}).status_code == 403
    played = b.post(f"/puzzles/duels/{made['id']}", {"tiles": best}).json()
    assert played["result"]["score"] == played["result"]["best"]


def test_study_word_from_a_games_moves(api_as: Api, ana: Any, ben: Any, cleo: Any) -> None:
    from tests.puzzles.test_daily import make_source_game

    game = make_source_game((ana, ben), 51)
    Game.objects.filter(pk=game.pk).update(is_public=False)
    move = game.moves.filter(kind="play").order_by("number").first()
    assert move is not None
    word = move.words[0]["word"]
    added = api_as(ana).post(f"/games/{game.pk}/study-word", {"move": move.number, "word": word})
    assert added.status_code == 201
    assert (added.json()["word"], added.json()["kind"]) == (word, "word")
    assert (
        api_as(ana).post(f"/games/{game.pk}/study-word", {"move": move.number, "word": "ZZZ"}).status_code
        == 400
    )
    # A private game's words are not for outsiders.
    assert (
        api_as(cleo).post(f"/games/{game.pk}/study-word", {"move": move.number, "word": word}).status_code
        == 404
    )
