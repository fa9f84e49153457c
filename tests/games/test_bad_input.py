"""Malformed input on every game endpoint: a clear sentence (or a 4xx), never a 500,
and nothing changed (status, version, state, moves, chat, games all as before)."""

from __future__ import annotations

import html
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.test import Client
from django.urls import reverse

from games.models import ChatMessage, Game, GameAction, Move
from tests.games.helpers import CAT_AT_CENTRE, make_game, tiles
from tests.games.test_game_consumer import connect

HX = {"HX-Request": "true"}

UNREADABLE = "These tiles could not be read."
OFF_BOARD = "A tile is off the board."
NOT_A_LETTER = "That letter is not part of this game's language."
NEEDS_LETTER = "Choose the letter your blank stands for."
NOT_ON_RACK = "Those tiles are not all on your rack."
NULL = "Null characters are not allowed."

# ana holds CATSEOD on an empty board; every one of these is refused.
BAD_TILES: dict[str, str] = {
    " ": "Place at least one tile on the board.",
    ";": UNREADABLE,
    ";;;": UNREADABLE,
    "x" * 400: UNREADABLE,
    "x" * 401: "Ensure this value has at most 400 characters (it has 401).",
    "7,7,C,n;" * 500: "Ensure this value has at most 400 characters (it has 4000).",
    "-1,7,C,n;-1,8,A,n": OFF_BOARD,
    "7,-1,C,n;7,0,A,n": OFF_BOARD,
    "99,99,C,n;99,100,A,n": OFF_BOARD,
    "7,7,C,n;7,7,A,n": "Two tiles are on the same square.",
    "7,7,Ñ,n;7,8,A,n": NOT_A_LETTER,
    "7,7,ß,n": UNREADABLE,  # upper-cases to two letters
    "7,7,CH,n": UNREADABLE,
    "7,7,\u0301,n;7,8,A,n": NOT_A_LETTER,  # a combining accent alone
    "7,7,\u200b,n;7,8,A,n": NOT_A_LETTER,
    "7,7,\U0001f600,n;7,8,A,n": NOT_A_LETTER,
    "7,7,É,n;7,8,A,n": NOT_A_LETTER,
    "7,7,1,n;7,8,A,n": NOT_A_LETTER,
    "7,7,?,b;7,8,A,n": NEEDS_LETTER,
    "7,7,,b;7,8,A,n": NEEDS_LETTER,
    "7,7,Z,b;7,8,A,n": NOT_ON_RACK,  # no blank on the rack
    "7,7,Z,n;7,8,A,n": NOT_ON_RACK,
    # A normal tile must name its letter (this used to ask for a blank's letter).
    "7,7,,n;7,8,A,n": UNREADABLE,
    "7,7,?,n;7,8,A,n": UNREADABLE,
    "7,7, ,n;7,8,A,n": UNREADABLE,
    # Coordinates: ASCII digits only (int() alone read "7_0" as 70 and "٧" as 7).
    "7.5,7,C,n": UNREADABLE,
    "1e3,7,C,n": UNREADABLE,
    "7_0,7,C,n": UNREADABLE,
    "٧,٧,C,n": UNREADABLE,
    "99999999999999999999,7,C,n": UNREADABLE,
    "a,b,C,n": UNREADABLE,
    "7,7,C,x": UNREADABLE,
    "7,7,C,N": UNREADABLE,
    "7,7,C": UNREADABLE,
    "7,7,C,n,extra": UNREADABLE,
    "7,7,\x00,n": NULL,
    "\x00": NULL,
}

# Errors of the form field itself (not of the tiles' format or the rules).
FORM_ERRORS = {NULL, *(m for m in BAD_TILES.values() if m.startswith("Ensure this value"))}

BAD_EXCHANGES: dict[str, str] = {
    "": "Choose between one and seven tiles to swap.",
    "   ": "Choose between one and seven tiles to swap.",
    "Q": NOT_ON_RACK,
    "CC": NOT_ON_RACK,
    "?": NOT_ON_RACK,
    "??": NOT_ON_RACK,
    "CATSEODC": "Choose between one and seven tiles to swap.",
    "x" * 17: "Ensure this value has at most 16 characters (it has 17).",
    "ß": UNREADABLE,  # would have swapped two S tiles
    "ﬀ": UNREADABLE,
    "É": NOT_ON_RACK,
    "1": NOT_ON_RACK,
    "\x00": NULL,
}

BAD_VERSIONS: dict[str, str] = {
    "abc": "Enter a whole number.",
    "-1": "Ensure this value is greater than or equal to 0.",
    "1.5": "Enter a whole number.",
    "9" * 5000: "Enter a whole number.",
    "99999999999999999999": "The game moved on",
}

BAD_ACTION_IDS: dict[str, str] = {
    "x" * 10_000: "Ensure this value has at most 64 characters (it has 10000).",
    "é" * 65: "Ensure this value has at most 64 characters (it has 65).",
    "a\x00b": NULL,
}


def state_of(game: Game) -> tuple[Any, ...]:
    fresh = Game.objects.get(pk=game.pk)
    return (
        fresh.status,
        fresh.version,
        fresh.state,
        Move.objects.filter(game=game).count(),
        ChatMessage.objects.filter(game=game).count(),
        Game.objects.count(),
    )


def url(name: str, game: Game) -> str:
    return reverse(f"games:{name}", args=[game.pk])


def says(response: Any, message: str) -> bool:
    return html.escape(message) in response.content.decode()


@pytest.fixture
def ana_client(ana: Any) -> Client:
    client = Client()
    client.force_login(ana)
    return client


@pytest.mark.django_db
def test_bad_tiles_are_refused_with_a_sentence_on_play_and_preview(
    ana_client: Client, game_ana_ben: Game
) -> None:
    before = state_of(game_ana_ben)
    wrong = {}
    for text, message in BAD_TILES.items():
        for name in ("play", "preview"):
            data = {"tiles": text, "version": game_ana_ben.version, "action_id": f"{name}-bad"}
            response = ana_client.post(url(name, game_ana_ben), data, headers=HX)
            if name == "preview" and message in FORM_ERRORS:
                message = UNREADABLE  # the preview line has room for one short sentence
            if response.status_code != 200 or not says(response, message):
                wrong[(name, text[:40])] = (response.status_code, message)
    assert wrong == {}
    assert state_of(game_ana_ben) == before


@pytest.mark.django_db
def test_bad_tiles_without_htmx_redirect_with_the_message(ana_client: Client, game_ana_ben: Game) -> None:
    before = state_of(game_ana_ben)
    data = {"tiles": "7,7,,n;7,8,A,n", "version": game_ana_ben.version}
    response = ana_client.post(url("play", game_ana_ben), data, follow=True)
    assert response.status_code == 200
    assert says(response, UNREADABLE)
    assert state_of(game_ana_ben) == before


@pytest.mark.django_db
def test_a_huge_refused_tiles_string_is_not_echoed_back(ana_client: Client, game_ana_ben: Game) -> None:
    huge = "7,7,C,n;" * 100_000
    response = ana_client.post(url("play", game_ana_ben), {"tiles": huge}, headers=HX)
    assert response.status_code == 200
    assert len(response.content) < 20_000
    assert 'data-pending=""' in response.text


@pytest.mark.django_db
def test_lowercase_letters_are_read_as_capitals(ana_client: Client, game_ana_ben: Game) -> None:
    response = ana_client.post(url("preview", game_ana_ben), {"tiles": "7,7,c,n;7,8,a,n;7,9,t,n"}, headers=HX)
    assert '<span class="word">CAT</span>' in response.text


@pytest.mark.django_db
def test_bad_exchanges_are_refused_with_a_sentence(ana_client: Client, game_ana_ben: Game) -> None:
    before = state_of(game_ana_ben)
    wrong = {}
    for text, message in BAD_EXCHANGES.items():
        data = {"exchange": text, "version": game_ana_ben.version}
        response = ana_client.post(url("exchange", game_ana_ben), data, headers=HX)
        if response.status_code != 200 or not says(response, message):
            wrong[text] = (response.status_code, message)
    assert wrong == {}
    assert state_of(game_ana_ben) == before


@pytest.mark.django_db
def test_exchange_letters_in_lowercase_and_with_spaces_are_read(
    ana_client: Client, game_ana_ben: Game
) -> None:
    data = {"exchange": " c a t ", "version": game_ana_ben.version}
    ana_client.post(url("exchange", game_ana_ben), data, headers=HX)
    move = Move.objects.get(game=game_ana_ben)
    assert (move.kind, move.exchanged) == ("exchange", "CAT")


@pytest.mark.django_db
def test_bad_versions_are_refused_on_every_action(ana_client: Client, game_ana_ben: Game) -> None:
    before = state_of(game_ana_ben)
    wrong = {}
    for version, message in BAD_VERSIONS.items():
        for name, data in (
            ("play", {"tiles": tiles((7, 7, "C"), (7, 8, "A"), (7, 9, "T"))}),
            ("exchange", {"exchange": "CAT"}),
            ("pass", {}),
            ("resign", {"confirm": "yes"}),
        ):
            response = ana_client.post(url(name, game_ana_ben), {**data, "version": version}, headers=HX)
            if response.status_code != 200 or not says(response, message):
                wrong[(name, version[:20])] = (response.status_code, message)
    assert wrong == {}
    assert state_of(game_ana_ben) == before


@pytest.mark.django_db
def test_bad_action_ids_are_refused(ana_client: Client, game_ana_ben: Game) -> None:
    before = state_of(game_ana_ben)
    wrong = {}
    for action_id, message in BAD_ACTION_IDS.items():
        for name in ("pass", "resign"):
            data = {"version": game_ana_ben.version, "action_id": action_id, "confirm": "yes"}
            response = ana_client.post(url(name, game_ana_ben), data, headers=HX)
            if response.status_code != 200 or not says(response, message):
                wrong[(name, action_id[:20])] = (response.status_code, message)
    assert wrong == {}
    assert state_of(game_ana_ben) == before


@pytest.mark.django_db
def test_unicode_action_id_is_kept_and_a_repeat_applies_once(ana_client: Client, game_ana_ben: Game) -> None:
    data = {"version": game_ana_ben.version, "action_id": "é" * 64}
    ana_client.post(url("pass", game_ana_ben), data, headers=HX)
    again = ana_client.post(url("pass", game_ana_ben), data, headers=HX)
    assert "moved on" not in again.text
    assert list(
        GameAction.objects.filter(game=game_ana_ben, move__isnull=False).values_list("action_id", flat=True)
    ) == ["é" * 64]


@pytest.mark.django_db
def test_resign_without_confirmation_asks_for_it(ana_client: Client, game_ana_ben: Game) -> None:
    before = state_of(game_ana_ben)
    for confirm in ("", "no", "YES", "yes "):
        response = ana_client.post(url("resign", game_ana_ben), {"confirm": confirm}, headers=HX)
        assert response.status_code == 400
        assert response.text == "Confirm that you want to resign."
    assert state_of(game_ana_ben) == before


@pytest.mark.django_db
def test_bad_chat_lines_are_refused(ana_client: Client, game_ana_ben: Game) -> None:
    before = state_of(game_ana_ben)
    for text, message in {
        "": "This field is required.",
        "   ": "This field is required.",
        "x" * 501: "Ensure this value has at most 500 characters (it has 501).",
        "\u200b\u200b": "Write a message first.",  # zero-width spaces only
        "\u2066\u2069": "Write a message first.",  # bidi isolates only
        "hi\x00": NULL,
    }.items():
        response = ana_client.post(url("chat", game_ana_ben), {"text": text}, headers=HX)
        assert response.status_code == 200
        assert says(response, message), text[:20]
    assert state_of(game_ana_ben) == before


SCRIPT = '<script>alert("x")</script><img src=x onerror=alert(1)>'


@pytest.mark.django_db
def test_chat_markup_is_escaped_in_the_answer_and_the_page(ana_client: Client, game_ana_ben: Game) -> None:
    answer = ana_client.post(url("chat", game_ana_ben), {"text": SCRIPT}, headers=HX)
    page = ana_client.get(url("detail", game_ana_ben))
    fragments = ana_client.get(url("fragments", game_ana_ben))
    for response in (answer, page, fragments):
        assert "<script>alert" not in response.text
        assert "<img src=x" not in response.text
        assert html.escape(SCRIPT) in response.text


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("close_db_connection")
async def test_chat_markup_is_escaped_in_websocket_pushes(ana: Any, ben: Any) -> None:
    game = await sync_to_async(make_game)(ana, ben)
    socket, connected = await connect(f"/ws/games/{game.pk}/", ben)
    assert connected
    try:
        await socket.receive_from(timeout=3)  # the snapshot on connect
        await sync_to_async(game.post_chat)(ana, SCRIPT)
        pushed = await socket.receive_from(timeout=3)
        await socket.send_to(text_data='{"type": "resync"}')
        snapshot = await socket.receive_from(timeout=3)
    finally:
        await socket.disconnect()
    for message in (pushed, snapshot):
        assert "<script>alert" not in message
        assert html.escape(SCRIPT) in message


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("close_db_connection")
async def test_odd_websocket_frames_are_ignored(ana: Any, ben: Any) -> None:
    game = await sync_to_async(make_game)(ana, ben)
    socket, connected = await connect(f"/ws/games/{game.pk}/", ana)
    assert connected
    try:
        await socket.receive_from(timeout=3)
        for frame in ("not json", "5", "[]", "null", '"resync', '{"type": "play"}', "x" * 100_000):
            await socket.send_to(text_data=frame)
        assert await socket.receive_nothing(timeout=0.3)
        await socket.send_to(text_data='{"type": "resync", "version": -1}')
        assert 'id="board"' in await socket.receive_from(timeout=3)
    finally:
        await socket.disconnect()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("close_db_connection")
async def test_websocket_for_a_game_id_out_of_range_is_closed(ana: Any) -> None:
    socket, connected = await connect("/ws/games/99999999999999999999/", ana)
    assert not connected
    await socket.disconnect()


BAD_NEW_GAMES: list[tuple[dict[str, Any], str]] = [
    ({}, "This field is required."),
    (
        {"mode": "chess", "language": "en"},
        "Select a valid choice. chess is not one of the available choices.",
    ),
    ({"mode": "computer", "language": "xx", "level": "easy"}, "Select a valid choice. xx is not one"),
    ({"mode": "computer", "language": "EN", "level": "easy"}, "Select a valid choice. EN is not one"),
    ({"mode": "computer", "language": "en"}, "Choose easy, medium or hard."),
    ({"mode": "computer", "language": "en", "level": "godlike"}, "Select a valid choice. godlike is not one"),
    ({"mode": "friend", "language": "en"}, "Choose another player (not yourself) by their username."),
    ({"mode": "friend", "language": "en", "opponent": "ana"}, "Choose another player (not yourself)"),
    ({"mode": "friend", "language": "en", "opponent": " ANA "}, "Choose another player (not yourself)"),
    ({"mode": "friend", "language": "en", "opponent": "nobody"}, "There is no player with that username."),
    ({"mode": "friend", "language": "en", "opponent": "b" * 10_000}, "at most 150 characters"),
    ({"mode": "friend", "language": "en", "opponent": "ben\x00"}, NULL),
    ({"mode": "friend", "language": "en", "opponent": "bén"}, "There is no player with that username."),
]


@pytest.mark.django_db
def test_bad_new_game_forms_are_refused_with_a_sentence(ana_client: Client, ben: Any) -> None:
    wrong = {}
    for data, message in BAD_NEW_GAMES:
        for headers in (HX, {}):
            response = ana_client.post(reverse("games:new"), data, headers=headers)
            if response.status_code != 200 or not says(response, message):
                wrong[repr(data)[:60]] = (response.status_code, message)
    assert wrong == {}
    assert not Game.objects.exists()


@pytest.mark.django_db
def test_friend_is_found_whatever_the_case_of_the_username(ana_client: Client, ben: Any) -> None:
    data = {"mode": "friend", "language": "en", "opponent": " BEN "}
    response = ana_client.post(reverse("games:new"), data)
    assert response.status_code == 302
    game = Game.objects.get()
    assert game.invitee == ben


@pytest.mark.django_db
def test_inactive_user_cannot_be_invited(ana_client: Client, ben: Any) -> None:
    ben.is_active = False
    ben.save()
    response = ana_client.post(reverse("games:new"), {"mode": "friend", "language": "en", "opponent": "ben"})
    assert says(response, "There is no player with that username.")
    assert not Game.objects.exists()


@pytest.mark.django_db
def test_odd_replay_steps_show_a_real_step(ana: Any, ana_client: Client, game_ana_ben: Game) -> None:
    game_ana_ben.play(ana, CAT_AT_CENTRE, version=game_ana_ben.version)
    for query, step in {
        "-1": 0,
        "0": 0,
        "abc": 1,
        "": 1,
        "1.5": 1,
        "99999999999999999999": 1,
        "9" * 5000: 1,
        "%00": 1,
        "\u0661": 1,  # ARABIC-INDIC DIGIT ONE, which int() reads as 1
    }.items():
        response = ana_client.get(url("replay", game_ana_ben) + f"?move={query}", headers=HX)
        assert response.status_code == 200, query[:20]
        assert f'data-step="{step}"' in response.text, query[:20]


@pytest.mark.django_db
def test_game_ids_out_of_range_are_404(ana_client: Client) -> None:
    for path in ("/games/99999999999999999999/", "/games/9223372036854775808/fragments/"):
        assert ana_client.get(path).status_code == 404
    assert ana_client.post("/games/99999999999999999999/play/", {"tiles": "7,7,C,n"}).status_code == 404
