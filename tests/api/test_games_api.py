"""The games endpoints: each acts through ``Game.act`` as the pages do, and answers
with the game as the caller may see it, or a JSON refusal with the right status."""

from __future__ import annotations

from typing import Any

import pytest

from games.models import Game, GameAction, Move
from tests.games.helpers import make_game

pytestmark = pytest.mark.django_db

CAT = [[7, 7, "C"], [7, 8, "A"], [7, 9, "T"]]
GAME_KEYS = {
    "id",
    "language",
    "status",
    "your_turn",
    "to_move",
    "version",
    "board",
    "rack",
    "scores",
    "bag",
    "moves",
    "players",
    "allowed",
}


def test_game_as_a_player_sees_it(api_as: Any, ana: Any, game_ana_ben: Game) -> None:
    response = api_as(ana).get(f"/games/{game_ana_ben.pk}")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json; charset=utf-8"
    game = response.json()
    assert set(game) >= GAME_KEYS
    assert game["status"] == "active"
    assert game["your_turn"] is True
    assert game["to_move"] == "ana"
    assert game["version"] == game_ana_ben.version
    assert game["board"] == ["." * 15] * 15
    assert game["rack"] == "CATSEOD"
    assert game["scores"] == {"ana": 0, "ben": 0}
    assert game["bag"] == 104 - 14
    assert game["moves"] == []
    assert game["allowed"] == ["buy_extra", "exchange", "pass", "play", "resign"]


def test_play_goes_through_the_game_and_answers_the_new_position(
    api_as: Any, ana: Any, ben: Any, game_ana_ben: Game
) -> None:
    version = game_ana_ben.version
    response = api_as(ana).post(
        f"/games/{game_ana_ben.pk}/play", {"tiles": CAT, "version": version, "action_id": "a-1"}
    )
    assert response.status_code == 200, response.json()
    game = response.json()
    assert game["version"] == version + 1
    assert game["board"][7] == ".......CAT....."
    assert game["your_turn"] is False
    assert game["to_move"] == "ben"
    assert game["scores"]["ana"] == game["moves"][0]["score"] > 0
    assert game["moves"][0] == {
        "number": 1,
        "player": "ana",
        "kind": "play",
        "tiles": [[7, 7, "C"], [7, 8, "A"], [7, 9, "T"]],
        "words": [{"word": "CAT", "score": game["moves"][0]["score"]}],
        "score": game["moves"][0]["score"],
        "total": game["moves"][0]["score"],
        "bingo": False,
        "exchanged": 0,
        "rack_before": None,  # private while the game is on
        "rack_after": None,
        "note": None,  # a line of the log that is not a move has one (kind "extend")
        "withdrawn": False,
        "challenged": None,
        "invalid_words": [],
    }
    assert len(game["rack"]) == 7
    action = GameAction.objects.get(game=game_ana_ben, version=version + 1)
    assert (action.kind, action.user, action.action_id) == ("play", ana, "a-1")
    # ben sees it, from his side.
    seen = api_as(ben).get(f"/games/{game_ana_ben.pk}").json()
    assert seen["your_turn"] is True
    assert seen["rack"] == "JQXZKVW"


def test_a_retried_action_id_is_applied_once(api_as: Any, ana: Any, game_ana_ben: Game) -> None:
    api = api_as(ana)
    body = {"tiles": CAT, "version": game_ana_ben.version, "action_id": "retry-me"}
    first = api.post(f"/games/{game_ana_ben.pk}/play", body)
    again = api.post(f"/games/{game_ana_ben.pk}/play", body)
    assert first.status_code == again.status_code == 200
    assert again.json()["version"] == first.json()["version"]
    assert Move.objects.filter(game=game_ana_ben).count() == 1


def test_stale_version_is_409_and_says_who_moved(api_as: Any, ana: Any, ben: Any, game_ana_ben: Game) -> None:
    version = game_ana_ben.version
    api = api_as(ana)
    assert api.post(f"/games/{game_ana_ben.pk}/play", {"tiles": CAT, "version": version}).status_code == 200
    # ana again, from another tab still at the old version: she moved herself.
    mine = api.post(f"/games/{game_ana_ben.pk}/pass", {"version": version})
    assert mine.status_code == 409
    assert mine.json()["error"] == "already_moved"
    # ben at the old version: the game moved on.
    theirs = api_as(ben).post(f"/games/{game_ana_ben.pk}/pass", {"version": version})
    assert theirs.status_code == 409
    assert theirs.json() == {
        "error": "game_moved_on",
        "message": "The game moved on: your opponent played first. Have a look and try again.",
    }


def test_not_your_turn_is_409_with_the_engine_code(api_as: Any, ben: Any, game_ana_ben: Game) -> None:
    response = api_as(ben).post(f"/games/{game_ana_ben.pk}/pass", {"version": game_ana_ben.version})
    assert response.status_code == 409
    assert response.json() == {"error": "not_your_turn", "message": "It is not your turn."}


def test_illegal_play_is_400_with_the_engine_code_and_the_words(
    api_as: Any, ana: Any, game_ana_ben: Game
) -> None:
    response = api_as(ana).post(
        f"/games/{game_ana_ben.pk}/play",
        {"tiles": [[7, 7, "D"], [7, 8, "C"], [7, 9, "T"]], "version": game_ana_ben.version},
    )
    assert response.status_code == 400
    assert response.json() == {
        "error": "word_not_in_lexicon",
        "message": "Not in the dictionary: DCT.",
        "words": ["DCT"],
    }
    off = api_as(ana).post(
        f"/games/{game_ana_ben.pk}/play",
        {"tiles": [[7, 14, "C"], [7, 15, "A"]], "version": game_ana_ben.version},
    )
    assert (off.status_code, off.json()["error"]) == (400, "off_board")
    assert Game.objects.get(pk=game_ana_ben.pk).version == game_ana_ben.version


def test_blanks_are_lowercase_and_an_unchosen_blank_is_refused(api_as: Any, ana: Any, ben: Any) -> None:
    game = make_game(ana, ben, racks=("CA?SEOD", "JQXZKVW"))
    api = api_as(ana)
    unchosen = api.post(
        f"/games/{game.pk}/play", {"tiles": [[7, 7, "C"], [7, 8, "?"]], "version": game.version}
    )
    assert (unchosen.status_code, unchosen.json()["error"]) == (400, "blank_needs_letter")
    played = api.post(
        f"/games/{game.pk}/play", {"tiles": [[7, 7, "C"], [7, 8, "A"], [7, 9, "t"]], "version": game.version}
    )
    assert played.status_code == 200, played.json()
    assert played.json()["board"][7] == ".......CAt....."
    assert played.json()["moves"][0]["tiles"][2] == [7, 9, "t"]


def test_messages_follow_accept_language(api_as: Any, ben: Any, game_ana_ben: Game) -> None:
    response = api_as(ben, "fr").post(f"/games/{game_ana_ben.pk}/pass", {"version": game_ana_ben.version})
    assert response.json() == {"error": "not_your_turn", "message": "Ce n'est pas votre tour."}
    german = api_as(ben, "de").get("/games/999999")
    assert german.json()["error"] == "not_found"
    assert german.json()["message"] != api_as(ben).get("/games/999999").json()["message"]


def test_exchange_pass_and_resign(api_as: Any, ana: Any, ben: Any, game_ana_ben: Game) -> None:
    pk = game_ana_ben.pk
    swapped = api_as(ana).post(f"/games/{pk}/exchange", {"tiles": "cat", "version": game_ana_ben.version})
    assert swapped.status_code == 200, swapped.json()
    game = swapped.json()
    assert game["moves"][-1]["kind"] == "exchange"
    assert game["moves"][-1]["exchanged"] == 3
    assert game["moves"][-1]["tiles"] == []
    passed = api_as(ben).post(f"/games/{pk}/pass", {"version": game["version"], "action_id": "p"})
    assert passed.status_code == 200
    assert passed.json()["moves"][-1]["kind"] == "pass"
    resigned = api_as(ben).post(f"/games/{pk}/resign", {"version": passed.json()["version"]})
    assert resigned.status_code == 200
    final = resigned.json()
    assert final["status"] == "finished"
    assert final["end_reason"] == "resign"
    assert final["winner"] == "ana"
    assert final["allowed"] == []
    bad_swap = api_as(ana).post(f"/games/{pk}/exchange", {"tiles": "QQ", "version": final["version"]})
    assert (bad_swap.status_code, bad_swap.json()["error"]) == (409, "game_over")


def test_spectators_see_public_games_without_a_rack_and_cannot_act(
    api_as: Any, cleo: Any, game_ana_ben: Game
) -> None:
    api = api_as(cleo)
    game = api.get(f"/games/{game_ana_ben.pk}").json()
    assert game["rack"] is None
    assert game["your_seat"] is None
    assert game["allowed"] == []
    refused = api.post(f"/games/{game_ana_ben.pk}/play", {"tiles": CAT, "version": game["version"]})
    assert refused.status_code == 403
    assert refused.json()["error"] == "not_a_player"
    assert api.post(f"/games/{game_ana_ben.pk}/preview", {"tiles": CAT}).status_code == 403


def test_private_games_are_404_to_outsiders(api_as: Any, cleo: Any, game_ana_ben: Game) -> None:
    Game.objects.filter(pk=game_ana_ben.pk).update(is_public=False)
    api = api_as(cleo)
    for response in (
        api.get(f"/games/{game_ana_ben.pk}"),
        api.post(f"/games/{game_ana_ben.pk}/pass", {"version": game_ana_ben.version}),
        api.get(f"/games/{game_ana_ben.pk}/gcg"),
    ):
        assert response.status_code == 404
        assert response.json()["error"] == "not_found"
    # Exactly as for a game that does not exist.
    assert api.get("/games/987654").json() == api.get(f"/games/{game_ana_ben.pk}").json()


def test_preview_scores_without_changing_anything(api_as: Any, ana: Any, game_ana_ben: Game) -> None:
    api = api_as(ana)
    good = api.post(f"/games/{game_ana_ben.pk}/preview", {"tiles": CAT})
    assert good.status_code == 200
    assert good.json()["valid"] is True
    assert good.json()["words"] == [{"word": "CAT", "score": good.json()["score"]}]
    assert good.json()["error"] is None
    bad = api.post(f"/games/{game_ana_ben.pk}/preview", {"tiles": [[0, 0, "C"], [0, 1, "A"]]})
    assert bad.status_code == 200
    assert bad.json() == {
        "valid": False,
        "score": 0,
        "bingo": False,
        "words": [],
        "error": "first_move_off_center",
        "message": "The first word must cover the centre star.",
    }
    assert Game.objects.get(pk=game_ana_ben.pk).version == game_ana_ben.version
    assert not Move.objects.filter(game=game_ana_ben).exists()


def test_gcg_only_once_the_game_is_over(api_as: Any, ana: Any, game_ana_ben: Game) -> None:
    api = api_as(ana)
    early = api.get(f"/games/{game_ana_ben.pk}/gcg")
    assert early.status_code == 403
    assert early.json()["error"] == "not_finished"
    api.post(f"/games/{game_ana_ben.pk}/play", {"tiles": CAT, "version": game_ana_ben.version})
    api.post(f"/games/{game_ana_ben.pk}/resign", {"version": game_ana_ben.version + 1})
    record = api.get(f"/games/{game_ana_ben.pk}/gcg")
    assert record.status_code == 200
    assert record["Content-Type"] == "text/plain; charset=utf-8"
    text = record.content.decode()
    assert text.startswith("#character-encoding UTF-8")
    assert ">ana: CATSEOD 8H CAT" in text
    assert "#note Wordgame-End: resign ana" in text


def test_start_a_game_against_the_computer(
    api_as: Any, ana: Any, django_capture_on_commit_callbacks: Any
) -> None:
    # The computer moves first half the time: its turn is work queued on commit.
    with django_capture_on_commit_callbacks(execute=True):
        response = api_as(ana).post("/games", {"opponent": "computer", "level": "easy", "language": "en"})
    assert response.status_code == 201, response.json()
    created = response.json()
    assert created["status"] == "active"
    assert created["mode"] == "computer"
    assert {p["name"] for p in created["players"]} == {"ana", "computer:easy"}
    # Its first move (if it has it) is played once the game is committed: ana's turn next.
    game = api_as(ana).get(f"/games/{created['id']}").json()
    assert game["your_turn"] is True
    assert game["to_move"] == "ana"
    assert len(game["rack"]) == 7
    assert Game.objects.get(pk=game["id"]).created_by == ana


def test_invite_a_player_who_accepts(api_as: Any, ana: Any, ben: Any) -> None:
    created = api_as(ana).post("/games", {"opponent": "BEN", "language": "fr", "public": False})
    assert created.status_code == 201, created.json()
    invitation = created.json()
    assert (invitation["status"], invitation["language"], invitation["public"]) == ("invited", "fr", False)
    assert invitation["allowed"] == ["decline"]
    ben_api = api_as(ben)
    listed = ben_api.get("/games?status=invited").json()
    assert [g["id"] for g in listed] == [invitation["id"]]
    assert listed[0]["allowed"] == ["accept", "decline"]
    assert listed[0]["created_by"] == "ana"
    accepted = ben_api.post(f"/games/{invitation['id']}/accept", {"version": invitation["version"]})
    assert accepted.status_code == 200
    assert accepted.json()["status"] == "active"
    again = ben_api.post(f"/games/{invitation['id']}/accept", {"version": accepted.json()["version"]})
    assert (again.status_code, again.json()["error"]) == (403, "not_invited")


def test_decline_an_invitation_and_withdraw_a_seek(api_as: Any, ana: Any, ben: Any) -> None:
    invitation = api_as(ana).post("/games", {"opponent": "ben", "language": "en"}).json()
    declined = api_as(ben).post(f"/games/{invitation['id']}/decline", {"version": invitation["version"]})
    assert declined.status_code == 200
    assert declined.json()["status"] == "declined"
    seek = api_as(ana).post("/games", {"opponent": "random", "language": "es"})
    assert seek.status_code == 201
    assert seek.json()["status"] == "open"
    assert seek.json()["players"] == []
    withdrawn = api_as(ana).post(f"/games/{seek.json()['id']}/decline", {"version": seek.json()["version"]})
    assert withdrawn.json()["status"] == "declined"


def test_random_opponents_are_matched(api_as: Any, ana: Any, ben: Any) -> None:
    seek = api_as(ana).post("/games", {"opponent": "random", "language": "it"}).json()
    assert [g["id"] for g in api_as(ana).get("/games?status=open").json()] == [seek["id"]]
    joined = api_as(ben).post("/games", {"opponent": "random", "language": "it"})
    assert joined.status_code == 201
    assert joined.json()["id"] == seek["id"]
    assert joined.json()["status"] == "active"
    assert {p["name"] for p in joined.json()["players"]} == {"ana", "ben"}


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"opponent": "ana", "language": "en"}, 400, "bad_opponent"),
        ({"opponent": "nobody", "language": "en"}, 404, "unknown_opponent"),
        ({"opponent": "computer", "language": "en"}, 400, "bad_level"),
        ({"opponent": "computer", "language": "xx", "level": "easy"}, 400, "bad_language"),
        ({"opponent": "computer", "language": "en", "level": "expert"}, 400, "bad_request"),
        ({"opponent": "ben", "language": "en", "rated": "yes"}, 400, "bad_request"),
        ({"language": "en"}, 400, "bad_request"),
    ],
)
def test_start_refusals(
    api_as: Any, ana: Any, ben: Any, body: dict[str, Any], status: int, code: str
) -> None:
    response = api_as(ana).post("/games", body)
    assert response.status_code == status
    assert response.json()["error"] == code
    assert not Game.objects.exists()


def test_unknown_keys_are_named(api_as: Any, ana: Any) -> None:
    response = api_as(ana).post(
        "/games", {"opponent": "computer", "language": "en", "level": "easy", "colour": "blue"}
    )
    assert response.json()["details"] == [
        {"in": "body", "field": "colour", "msg": "Extra inputs are not permitted"}
    ]


def test_too_many_games(api_as: Any, ana: Any, settings: Any) -> None:
    settings.MAX_ACTIVE_GAMES = 1
    api = api_as(ana)
    assert api.post("/games", {"opponent": "computer", "level": "easy", "language": "en"}).status_code == 201
    refused = api.post("/games", {"opponent": "computer", "level": "easy", "language": "en"})
    assert refused.status_code == 403
    assert refused.json() == {
        "error": "too_many_games",
        "message": "You already have the maximum number of games going (1). Finish one before starting another.",
    }
    assert api.get("/account").json() == {
        "username": "ana",
        "coins": 0,
        "ratings": {},
        "live_ratings": {},
        "active_games": 1,
        "max_active_games": 1,
    }


def test_my_games_lists_mine_only(api_as: Any, ana: Any, ben: Any, cleo: Any, game_ana_ben: Game) -> None:
    make_game(ben, cleo)
    finished = make_game(ana, cleo)
    finished.resign(cleo, version=finished.version)
    mine = api_as(ana).get("/games").json()
    assert {g["id"] for g in mine} == {game_ana_ben.pk, finished.pk}
    assert [g["id"] for g in api_as(ana).get("/games?status=finished").json()] == [finished.pk]
    assert len(api_as(ana).get("/games?limit=1").json()) == 1
    assert api_as(ana).get("/games?limit=0").status_code == 400
    assert api_as(ana).get("/games?status=nonsense").status_code == 400
    summary = next(g for g in mine if g["id"] == game_ana_ben.pk)
    assert "rack" not in summary
    assert "board" not in summary
