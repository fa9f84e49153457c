"""Malformed input on every endpoint: a JSON refusal with a 4xx status, never a 500 or
an HTML page, and nothing changed (hypothesis generates the bodies)."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from api.models import ApiToken
from games.models import Game, GameAction, Move
from tests.api.conftest import ApiClient

pytestmark = pytest.mark.django_db

FUZZ = settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
ALLOWED = {200, 201, 400, 401, 403, 404, 405, 409, 413, 429}

json_scalars = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=20)
)
json_values = st.recursive(
    json_scalars,
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=10), inner, max_size=5),
    max_leaves=20,
)
tile = st.one_of(
    st.tuples(st.integers(-3, 17), st.integers(-3, 17), st.text(min_size=0, max_size=3)).map(list),
    json_values,
)
# Bodies that look almost right: the real field names with values of any shape.
near_misses = st.fixed_dictionaries(
    {},
    optional={
        "tiles": st.lists(tile, max_size=9) | st.text(max_size=12) | json_values,
        "version": st.integers(-2, 12) | json_values,
        "action_id": st.text(max_size=80) | json_values,
        "opponent": st.sampled_from(["computer", "random", "ben", "ana", ""]) | st.text(max_size=20),
        "language": st.sampled_from(["en", "fr", "pt-BR", "xx", ""]) | st.text(max_size=10),
        "level": st.sampled_from(["easy", "medium", "hard", "EASY"]) | json_values,
        "public": json_values,
        "username": st.sampled_from(["ana", "ben"]) | st.text(max_size=20),
        "password": st.text(max_size=20),
        "name": st.text(max_size=120),
        "rated": json_values,
    },
)
bodies = near_misses | json_values
raw_bodies = st.binary(max_size=200) | st.sampled_from(
    [
        b"{",
        b"[" * 100_000,
        b'{"version": NaN}',
        b'{"version": Infinity}',
        b"\xff\xfe",
        b'{"tiles": "\\ud800"}',
    ]
)
# Strings that can go into a URL (a lone surrogate cannot be UTF-8 encoded at all).
url_text = st.text(alphabet=st.characters(exclude_categories=["Cs"]), min_size=1, max_size=80)


def state() -> tuple[Any, ...]:
    return (
        sorted(Game.objects.values_list("pk", "version", "status")),
        Move.objects.count(),
        GameAction.objects.count(),
        ApiToken.objects.count(),
    )


def check(response: Any, before: tuple[Any, ...]) -> None:
    assert response.status_code in ALLOWED, (response.status_code, response.content[:300])
    if response.status_code >= 400:
        assert response["Content-Type"].startswith("application/json"), response.content[:300]
        body = response.json()
        assert set(body) >= {"error", "message"}
        assert body["message"]
        assert state() == before


@pytest.fixture
def setting(ana: Any, ben: Any, game_ana_ben: Game, token_for: Any) -> tuple[ApiClient, Game]:
    return ApiClient(token_for(ana)), game_ana_ben


ACTIONS = ["play", "exchange", "pass", "resign", "accept", "decline", "preview"]


@FUZZ
@given(action=st.sampled_from(ACTIONS), body=bodies)
def test_game_actions_with_any_json(setting: tuple[ApiClient, Game], action: str, body: Any) -> None:
    api, game = setting
    before = state()
    check(api.post(f"/games/{game.pk}/{action}", body), before)


@FUZZ
@given(path=st.sampled_from(["/games", "/token", *(f"/games/GAME/{a}" for a in ACTIONS)]), raw=raw_bodies)
def test_any_bytes(setting: tuple[ApiClient, Game], path: str, raw: bytes) -> None:
    api, game = setting
    before = state()
    check(api.post(path.replace("GAME", str(game.pk)), raw=raw), before)


@FUZZ
@given(body=bodies)
def test_new_games_and_tokens_with_any_json(setting: tuple[ApiClient, Game], body: Any) -> None:
    api, _game = setting
    before = state()
    check(api.post("/games", body), before)
    before = state()
    check(api.client.post("/api/v1/token", data=json.dumps(body), content_type="application/json"), before)


@FUZZ
@given(language=url_text | st.sampled_from(["en", "fr", "de"]), word=url_text, query=url_text)
def test_any_text_in_addresses(setting: tuple[ApiClient, Game], language: str, word: str, query: str) -> None:
    api, _game = setting
    before = state()
    check(api.get(f"/words/{quote(language, safe='')}/{quote(word, safe='')}"), before)
    check(api.get(f"/games?status={quote(query, safe='')}&limit={quote(query, safe='')}"), before)
    check(api.get(f"/games/{quote(query, safe='')}"), before)


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"tiles": [[7, 7, "C"]], "version": 2, "action_id": "a\x00b"}, "bad_request"),
        ({"tiles": [[7, 7, "C"]], "version": 2, "action_id": "\ud800"}, "bad_request"),
        ({"tiles": [[7, 7, "C"]], "version": "2"}, "bad_request"),
        ({"tiles": [[7, 7, "C"]], "version": 2.0}, "bad_request"),
        ({"tiles": [[7, 7, "C"]], "version": True}, "bad_request"),
        ({"tiles": [[7, 7, "C"]], "version": -1}, "bad_request"),
        ({"tiles": [["7", 7, "C"]], "version": 2}, "bad_request"),
        ({"tiles": [[7, 7, "C", "n"]], "version": 2}, "bad_request"),
        ({"tiles": [[7, 7, "CH"]], "version": 2}, "bad_tiles"),
        ({"tiles": [[7, 7, "ß"]], "version": 2}, "bad_tiles"),
        ({"tiles": [[7, 7, "1"]], "version": 2}, "bad_tiles"),
        ({"tiles": [[7, 7, "\x00"]], "version": 2}, "bad_request"),
        ({"tiles": [[7, 7, "Ñ"], [7, 8, "A"]], "version": 2}, "letter_not_in_language"),
        ({"tiles": [[10**30, 7, "C"], [7, 8, "A"]], "version": 2}, "off_board"),
        ({"tiles": [], "version": 2}, "empty_move"),
        ({"tiles": [[7, 7, "C"]] * 31, "version": 2}, "bad_request"),
        ({"tiles": [[7, 7, "C"]]}, "bad_request"),
        ({"tiles": [[7, 7, "C"]], "version": 10**30}, "game_moved_on"),
    ],
)
def test_specific_bad_plays(setting: tuple[ApiClient, Game], body: dict[str, Any], code: str) -> None:
    api, game = setting
    assert game.version == 2
    before = state()
    response = api.post(f"/games/{game.pk}/play", body)
    check(response, before)
    assert response.json()["error"] == code


def test_bodies_too_large_or_too_deep(setting: tuple[ApiClient, Game], settings: Any) -> None:
    api, game = setting
    before = state()
    big = api.post(f"/games/{game.pk}/play", raw=b'{"tiles": "' + b"x" * 3_000_000 + b'"}')
    check(big, before)
    assert (big.status_code, big.json()["error"]) == (413, "payload_too_large")
    deep = api.post(f"/games/{game.pk}/play", raw=b"[" * 200_000 + b"]" * 200_000)
    check(deep, before)
    assert deep.json()["error"] == "bad_request"


def test_huge_ids_are_404(setting: tuple[ApiClient, Game]) -> None:
    api, _game = setting
    for path in ("/games/99999999999999999999999999", "/games/9223372036854775808/pass"):
        response = api.get(path) if path.count("/") == 2 else api.post(path, {"version": 1})
        assert response.status_code == 404
        assert response.json()["error"] == "not_found"
