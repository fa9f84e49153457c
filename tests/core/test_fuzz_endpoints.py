"""Fuzzing the endpoints that take a player's input: play, swap (exchange), chat and the
word look-up. Whatever is sent, by a player to move, a player waiting or an outsider:
never a 500, and a refused request changes nothing (the game's state and version, its
moves and its chat stay as they were). An accepted one moves the version on by one."""

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
