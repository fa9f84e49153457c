"""Fuzzing the endpoints that take a player's input: play, swap (exchange), chat, the
word look-up, the study quiz and every endpoint of the JSON API. Whatever is sent, by a
player to move, a player waiting or an outsider: never a 500, and a refused request
changes nothing (the game's state and version, its moves and its chat stay as they were).
An accepted one moves the version on by one."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.models import ChatMessage, Game, Move
from tests.games.helpers import make_game

FUZZ = settings(
    max_examples=120,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
# Per API operation (twenty of them): fewer examples each.
API_FUZZ = settings(FUZZ, max_examples=60)

# Text a form may get: anything, including NUL, surrogate-free unicode, huge numbers.
any_text = st.one_of(
    st.text(max_size=40),
    st.text(alphabet=st.characters(codec="utf-8"), max_size=600),
    st.sampled_from(["", " ", "\x00", "-1", "9" * 30, "1e9", "null", "[]", "{}", "NaN", "０"]),
)
letter = st.one_of(st.sampled_from(list("ACTSEODJQXZKVWÑÇÄß?*")), st.text(min_size=0, max_size=3))
number = st.one_of(st.integers(-3, 17), st.integers(), st.sampled_from(["", "x", "7.5", "0x7", "٣"]))
placement = st.builds(
    lambda r, c, ch, flag: f"{r},{c},{ch},{flag}",
    number,
    number,
    letter,
    st.sampled_from(["n", "b", "", "x", "n,n"]),
)
tiles_text = st.one_of(any_text, st.lists(placement, max_size=9).map(";".join))
version = st.one_of(st.none(), number, any_text)


def snapshot(game: Game) -> tuple[Any, ...]:
    game.refresh_from_db()
    return (
        game.version,
        game.state,
        game.status,
        game.turn_seat,
        Move.objects.filter(game=game).count(),
        ChatMessage.objects.filter(game=game).count(),
    )


def form(data: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in data.items() if v is not None}


@pytest.fixture
def players(ana: Any, ben: Any, cleo: Any) -> dict[str, Client]:
    clients = {}
    for name, user in (("ana", ana), ("ben", ben), ("cleo", cleo)):
        clients[name] = Client()
        clients[name].force_login(user)
    return clients


def post_and_check(game: Game, client: Client, url: str, data: dict[str, Any], htmx: bool) -> None:
    before = snapshot(game)
    headers = {"HX-Request": "true"} if htmx else {}
    response = client.post(url, form(data), headers=headers)
    assert response.status_code < 500, (url, data, response.status_code)
    after = snapshot(game)
    if after != before:
        # Accepted: exactly one step forward, recorded.
        assert after[0] == before[0] + 1, (data, before[0], after[0])


@pytest.mark.django_db
@FUZZ
@given(
    who=st.sampled_from(["ana", "ben", "cleo"]),
    tiles=tiles_text,
    version=version,
    action_id=st.one_of(st.none(), any_text),
    htmx=st.booleans(),
)
def test_fuzzed_plays_never_fail_and_refusals_change_nothing(
    players: dict[str, Client],
    ana: Any,
    ben: Any,
    who: str,
    tiles: str,
    version: Any,
    action_id: Any,
    htmx: bool,
) -> None:
    game = Game.objects.filter(seats__user=ana).first() or make_game(ana, ben, racks=("CATSEOD", "JQXZKVW"))
    url = reverse("games:play", args=[game.pk])
    post_and_check(
        game, players[who], url, {"tiles": tiles, "version": version, "action_id": action_id}, htmx
    )


@pytest.mark.django_db
@FUZZ
@given(
    who=st.sampled_from(["ana", "ben", "cleo"]),
    exchange=st.one_of(any_text, st.text(alphabet="CATSEODJQXZKVW?", max_size=9)),
    version=version,
    action_id=st.one_of(st.none(), any_text),
    htmx=st.booleans(),
)
def test_fuzzed_swaps_never_fail_and_refusals_change_nothing(
    players: dict[str, Client],
    ana: Any,
    ben: Any,
    who: str,
    exchange: str,
    version: Any,
    action_id: Any,
    htmx: bool,
) -> None:
    game = Game.objects.filter(seats__user=ana).first() or make_game(ana, ben, racks=("CATSEOD", "JQXZKVW"))
    url = reverse("games:exchange", args=[game.pk])
    post_and_check(
        game, players[who], url, {"exchange": exchange, "version": version, "action_id": action_id}, htmx
    )


@pytest.mark.django_db
@FUZZ
@given(who=st.sampled_from(["ana", "ben", "cleo"]), text=any_text, htmx=st.booleans())
def test_fuzzed_chat_never_fails_and_only_a_real_line_from_a_player_is_kept(
    players: dict[str, Client], ana: Any, ben: Any, who: str, text: str, htmx: bool
) -> None:
    game = Game.objects.filter(seats__user=ana).first() or make_game(ana, ben)
    before = snapshot(game)
    headers = {"HX-Request": "true"} if htmx else {}
    response = players[who].post(reverse("games:chat", args=[game.pk]), {"text": text}, headers=headers)
    assert response.status_code < 500
    after = snapshot(game)
    assert after[:5] == before[:5]  # chat never touches the game itself
    if who == "cleo" or not text.strip() or len(text) > 500 or "\x00" in text:
        assert after[5] == before[5], (who, text)  # refused: nothing kept
    else:
        assert after[5] - before[5] in {0, 1}, (
            who,
            text,
        )  # one line at most (control characters are refused)


@pytest.mark.django_db
@FUZZ
@given(
    word=any_text,
    language=st.one_of(st.none(), any_text, st.sampled_from(["en", "en-GB", "de", "pt-BR"])),
    htmx=st.booleans(),
)
def test_fuzzed_word_lookups_never_fail(client: Client, word: str, language: Any, htmx: bool) -> None:
    params = form({"word": word, "language": language})
    headers = {"HX-Request": "true"} if htmx else {}
    response = client.get(reverse("dictionaries:lookup"), params, headers=headers)
    assert response.status_code < 500


@pytest.mark.django_db
@FUZZ
@given(
    item=st.one_of(any_text, number),
    answer=st.one_of(st.none(), any_text),
    language=st.one_of(st.sampled_from(["en", "de", "pt-BR"]), st.text(alphabet="abcdefgh-", max_size=6)),
    htmx=st.booleans(),
)
def test_fuzzed_quiz_answers_never_fail_and_what_is_not_a_number_is_a_400(
    players: dict[str, Client], item: Any, answer: Any, language: str, htmx: bool
) -> None:
    headers = {"HX-Request": "true"} if htmx else {}
    url = f"/games/study/{language}/quiz/"
    response = players["ana"].post(url, form({"item": item, "answer": answer}), headers=headers)
    assert response.status_code < 500, (item, answer, language, response.status_code)
    if response.status_code == 400:
        assert "This answer could not be read" in response.content.decode()
    elif language in {"en", "de", "pt-BR"}:
        # Only something that reads as a number gets as far as looking the item up.
        assert any(ch.isdigit() for ch in str(item)), (item, response.status_code)


# ----- the JSON API: every endpoint it documents --------------------------------------

json_value = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), st.text(max_size=20)),
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=6,
)
placement_json = st.fixed_dictionaries(
    {"row": number, "col": number, "letter": letter},
    optional={"blank": st.one_of(st.booleans(), json_value)},
)
#: Values for the fields the API's bodies have, from plausible to absurd.
FIELD_VALUES: dict[str, Any] = {
    "version": st.one_of(st.just("current"), st.integers(-2, 40), json_value),
    "tiles": st.one_of(st.lists(placement_json, max_size=8), any_text, json_value),
    "action_id": st.one_of(any_text, json_value),
    "opponent": st.one_of(st.sampled_from(["computer", "random", "ben", "ana", "cleo", "nobody"]), any_text),
    "language": st.one_of(st.sampled_from(["en", "en-GB", "de", "pt-BR", "xx"]), any_text),
    "level": st.one_of(st.sampled_from(["easy", "medium", "hard"]), any_text, json_value),
}


def api_operations() -> list[tuple[str, str, dict[str, Any]]]:
    """(method, path, operation) for every operation of the API's OpenAPI schema, but the
    event stream (an endless response; its refusals are tested in tests/api/test_stream.py)."""
    from api.v1 import api

    schema = api.get_openapi_schema()
    operations = []
    for path, methods in schema["paths"].items():
        for method, operation in methods.items():
            if path.endswith("/stream/events"):
                continue
            operations.append((method.upper(), path, operation))
    return operations


def body_fields(operation: dict[str, Any]) -> list[str]:
    from api.v1 import api

    if "requestBody" not in operation:
        return []
    schema = operation["requestBody"]["content"]["application/json"]["schema"]
    if "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[-1]
        schema = api.get_openapi_schema()["components"]["schemas"][name]
    return list(schema.get("properties", {}))


API_OPERATIONS = api_operations()


@pytest.fixture
def api_tokens(ana: Any, cleo: Any, settings: Any, monkeypatch: Any) -> dict[str, str]:
    from api.models import ApiToken
    from games import models
    from tests.games.helpers import lexicon

    words = lexicon()
    monkeypatch.setattr(models, "lexicon_for", lambda language, version=None: words)
    settings.CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "fuzz"}
    }
    settings.API_WRITES_PER_MINUTE = settings.API_LOOKUPS_PER_MINUTE = 0  # off: fuzzing is not abuse
    settings.API_TOKEN_REQUESTS_PER_MINUTE = 0
    return {"ana": ApiToken.issue(ana, "fuzz")[1], "cleo": ApiToken.issue(cleo, "fuzz")[1], "anonymous": ""}


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("method", "path", "operation"), API_OPERATIONS, ids=[f"{m} {p}" for m, p, _ in API_OPERATIONS]
)
def test_fuzzed_api_requests_never_fail_and_refusals_change_nothing(
    api_tokens: dict[str, str], ana: Any, ben: Any, method: str, path: str, operation: dict[str, Any]
) -> None:
    from urllib.parse import quote

    fields = body_fields(operation)
    query = [p["name"] for p in operation.get("parameters", []) if p["in"] == "query"]

    @API_FUZZ
    @given(
        who=st.sampled_from(["ana", "cleo", "anonymous"]),
        ids=st.one_of(st.just("real"), number, any_text),
        word=st.one_of(st.sampled_from(["cat", "CAT", "zzz"]), any_text),
        body=st.one_of(
            st.fixed_dictionaries({}, optional={f: FIELD_VALUES.get(f, json_value) for f in fields}),
            json_value,
            st.binary(max_size=40),
        ),
        params=st.fixed_dictionaries({}, optional={q: st.one_of(any_text, number) for q in query}),
    )
    def fuzz(who: str, ids: Any, word: Any, body: Any, params: dict[str, Any]) -> None:
        game = Game.objects.filter(seats__user=ana).first() or make_game(
            ana, ben, racks=("CATSEOD", "JQXZKVW")
        )
        url = path
        for name in ("game_id", "tournament_id"):
            url = url.replace("{" + name + "}", str(game.pk) if ids == "real" else quote(str(ids), safe=""))
        url = url.replace("{language}", "en" if ids == "real" else quote(str(ids), safe=""))
        url = url.replace("{word}", quote(str(word), safe="") or "x")
        if isinstance(body, dict) and body.get("version") == "current":
            body["version"] = Game.objects.get(pk=game.pk).version
        headers = {"Authorization": f"Bearer {api_tokens[who]}"} if api_tokens[who] else {}
        before = snapshot(game)
        client = Client()
        if method == "GET":
            response = client.get(url, form(params), headers=headers)
        else:
            import json

            data = body if isinstance(body, bytes) else json.dumps(body)
            response = client.generic(method, url, data, content_type="application/json", headers=headers)
        assert response.status_code < 500, (method, url, body, response.status_code)
        if response.status_code >= 400:
            answer = response.json()
            assert set(answer) >= {"error", "message"}, answer
            assert snapshot(game) == before, (method, url, body)

    fuzz()
