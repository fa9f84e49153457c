"""An opponent's rack never reaches anyone else while the game is on.

ben holds JQXZKVW: J, Q, X and Z exist once each in the English set and are on no
board and no other rack, so any of them in a payload for ana or cleo would be a leak.
Every page, partial, download and WebSocket message those viewers can get is collected
and searched.
"""

from __future__ import annotations

import itertools
import json
import re
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.test import Client
from django.urls import reverse

from games.gameview import load_game
from games.models import Game
from games.services import start_game
from tests.games.helpers import CAT_AT_CENTRE, make_computer_game, make_game, set_racks, tiles
from tests.games.helpers import context as context_of
from tests.games.test_game_consumer import connect

BEN_RACK = "JQXZKVW"
UNIQUE = "JQXZ"
HX = {"HX-Request": "true"}


#: A random token (the CSRF token every page carries: 64 letters and digits) can hold
#: J, Q, X and Z in a row by chance; a rack is capitals only, never inside such a run.
RANDOM_TOKEN = re.compile(r"[A-Za-z0-9]{32,}")


def without_random_tokens(payload: str) -> str:
    return RANDOM_TOKEN.sub(lambda m: " " if re.search(r"[a-z0-9]", m.group()) else m.group(), payload)


def leaks(payload: str, rack: str = BEN_RACK, unique: str = UNIQUE) -> list[str]:
    """Every form in which ``payload`` shows ``rack``; ``unique`` are its letters that
    are on no board and no other rack, so any tile of them is a leak."""
    payload = without_random_tokens(payload)
    found = []
    for form in {rack, "".join(sorted(rack)), json.dumps(rack)}:
        if form in payload:
            found.append(form)
    for letter in unique:
        # Tile markup (board squares and rack tiles) and JSON; not bare letters, which
        # the column labels and the blank-letter picker show legitimately.
        for pattern in (f'data-letter="{letter}"', f'"letter": "{letter}"', f'class="letter">{letter}<'):
            if pattern in payload:
                found.append(pattern)
    # The rack in any order, as one run of letters.
    for perm in itertools.permutations(unique):
        if unique and "".join(perm) in payload:
            found.append("".join(perm))
    return found


def http_payloads(client: Client, game: Game) -> dict[str, str]:
    pk = game.pk
    got: dict[str, str] = {}
    for name, url, headers in [
        ("page", reverse("games:detail", args=[pk]), {}),
        ("fragments", reverse("games:fragments", args=[pk]), HX),
        ("replay", reverse("games:replay", args=[pk]), {}),
        ("replay-0", reverse("games:replay", args=[pk]) + "?move=0", HX),
        ("gcg", reverse("games:gcg", args=[pk]), {}),
        ("lobby", reverse("games:lobby"), {}),
        ("lobby-partial", reverse("games:lobby"), HX),
        ("watch", reverse("games:watch"), {}),
        ("resign-page", reverse("games:resign", args=[pk]), {}),
    ]:
        response = client.get(url, headers=headers)
        got[name] = response.content.decode()
    return got


@pytest.mark.django_db
def test_rack_content_never_sent_to_opponent_or_spectator(ana: Any, ben: Any, cleo: Any) -> None:
    game = make_game(ana, ben, racks=("CATSEOD", BEN_RACK))
    ana_client, cleo_client, ben_client = Client(), Client(), Client()
    ana_client.force_login(ana)
    cleo_client.force_login(cleo)
    ben_client.force_login(ben)
    # Sanity: the search does find ben's rack in what ben himself gets.
    assert leaks(ben_client.get(reverse("games:detail", args=[game.pk])).content.decode())

    payloads = {f"ana:{k}": v for k, v in http_payloads(ana_client, game).items()}
    payloads |= {f"cleo:{k}": v for k, v in http_payloads(cleo_client, game).items()}
    # What ana's own actions return: a preview, a refused play, a play, a chat line.
    url = lambda name: reverse(f"games:{name}", args=[game.pk])  # noqa: E731
    payloads["ana:preview"] = ana_client.post(
        url("preview"), {"tiles": tiles((7, 7, "C"), (7, 8, "A"))}, headers=HX
    ).text
    payloads["ana:refused"] = ana_client.post(url("play"), {"tiles": tiles((0, 0, "C"))}, headers=HX).text
    payloads["ana:play"] = ana_client.post(
        url("play"),
        {"tiles": tiles((7, 7, "C"), (7, 8, "A"), (7, 9, "T")), "version": game.version},
        headers=HX,
    ).text
    payloads["ana:chat"] = ana_client.post(url("chat"), {"text": "hi"}, headers=HX).text
    game.refresh_from_db()
    payloads |= {f"ana-after:{k}": v for k, v in http_payloads(ana_client, game).items()}
    payloads |= {f"cleo-after:{k}": v for k, v in http_payloads(cleo_client, game).items()}
    # And the context itself, as the consumer renders it.
    for viewer in (ana, cleo):
        context = context_of(load_game(game.pk), viewer)
        payloads[f"context:{viewer}"] = json.dumps(
            {k: v for k, v in context.items() if k != "game"}, default=str
        )

    assert game.state_obj().racks[1] == BEN_RACK  # ben has not moved: the rack is still secret
    found = {name: leaks(text) for name, text in payloads.items()}
    assert {name: hits for name, hits in found.items() if hits} == {}


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("close_db_connection")
async def test_websocket_messages_never_carry_the_opponents_rack(ana: Any, ben: Any, cleo: Any) -> None:
    game = await sync_to_async(make_game)(ana, ben, racks=("CATSEOD", BEN_RACK))
    sockets = {}
    received: dict[str, list[str]] = {"ana": [], "cleo": []}
    try:
        for name, user in (("ana", ana), ("cleo", cleo)):
            sockets[name], connected = await connect(f"/ws/games/{game.pk}/", user)
            assert connected
            received[name].append(await sockets[name].receive_from(timeout=3))
        await sync_to_async(game.play)(ana, CAT_AT_CENTRE, version=game.version)
        await sync_to_async(game.post_chat)(ana, "your move")
        for name, socket in sockets.items():
            received[name].append(await socket.receive_from(timeout=3))
            if name == "ana":
                received[name].append(await socket.receive_from(timeout=3))  # the chat line
            await socket.send_to(text_data='{"type": "resync"}')
            received[name].append(await socket.receive_from(timeout=3))
    finally:
        for socket in sockets.values():
            await socket.disconnect()
    assert all(len(messages) >= 3 for messages in received.values())
    assert {name: [leaks(m) for m in messages if leaks(m)] for name, messages in received.items()} == {
        "ana": [],
        "cleo": [],
    }


# ----- less obvious leaks ------------------------------------------------------------

ANA_RACK = "JQXZAEI"  # ana swaps JQXZ: which tiles she swapped is hers to know


def state_leaks(payload: str, game: Game) -> list[str]:
    """The engine state itself, the bag's contents or order, and any rack."""
    state = game.state_obj()
    found = [
        key
        for key in ('"bag": "', '"racks": [', "'bag': '", "'racks': [", "&quot;bag&quot;")
        if key in payload
    ]
    if state.bag[:8] in payload or state.bag[-8:] in payload:
        found.append("bag order")
    return found


def swap_leaks(payload: str, game: Game) -> list[str]:
    """ana's swapped tiles (J Q X Z: back in the bag or on her rack), her new rack, the bag."""
    new_rack = game.state_obj().racks[0]
    return (
        leaks(payload, rack="JQXZ", unique="JQXZ")
        + leaks(payload, rack=new_rack, unique="")
        + state_leaks(payload, game)
    )


@pytest.mark.django_db
def test_which_tiles_were_swapped_stays_with_the_swapper(ana: Any, ben: Any, cleo: Any) -> None:
    game = make_game(ana, ben, racks=(ANA_RACK, "CATSEOD"))
    # A fixed seed: the tiles drawn (searched for below) are the same on every run, so a
    # random rack cannot happen to spell something the page shows anyway.
    Game.objects.filter(pk=game.pk).update(seed=1)
    game.refresh_from_db()
    game.exchange(ana, "JQXZ", version=game.version)
    game.refresh_from_db()
    clients = {name: Client() for name in ("ben", "cleo")}
    clients["ben"].force_login(ben)
    clients["cleo"].force_login(cleo)
    payloads: dict[str, str] = {}
    for name, client in clients.items():
        payloads |= {f"{name}:{k}": v for k, v in http_payloads(client, game).items()}
        context = context_of(load_game(game.pk), ben if name == "ben" else cleo)
        payloads[f"{name}:context"] = json.dumps(
            {k: v for k, v in context.items() if k != "game"}, default=str
        )
    # The move log says how many, never which.
    assert "swapped 4 tiles" in payloads["ben:fragments"]
    assert "swapped 4 tiles" in payloads["cleo:replay"]
    found = {name: swap_leaks(text, game) for name, text in payloads.items()}
    assert {name: hits for name, hits in found.items() if hits} == {}
    # Once the game is over the record is public: the same search finds the swap.
    game.resign(ben, version=game.version)
    assert "JQXZ" in http_payloads(clients["cleo"], game)["gcg"]


@pytest.mark.django_db
def test_no_payload_carries_the_engine_state_or_the_bag(ana: Any, ben: Any, cleo: Any) -> None:
    game = make_game(ana, ben, racks=("CATSEOD", BEN_RACK))
    game.play(ana, CAT_AT_CENTRE, version=game.version)
    game.refresh_from_db()
    for user in (ana, ben, cleo):
        client = Client()
        client.force_login(user)
        for name, text in http_payloads(client, game).items():
            assert state_leaks(text, game) == [], (str(user), name)
            # Template notes are {% comment %}s: nothing hidden travels in HTML comments.
            assert "<!--" not in text, (str(user), name)


@pytest.mark.django_db
def test_computer_rack_is_never_shown_to_its_opponent(ana: Any, cleo: Any) -> None:
    game = make_computer_game(ana, racks=("CATSEOD", BEN_RACK))
    for user in (ana, cleo):
        client = Client()
        client.force_login(user)
        found = {name: leaks(text) for name, text in http_payloads(client, game).items()}
        assert {name: hits for name, hits in found.items() if hits} == {}, str(user)


@pytest.mark.django_db
def test_invited_and_declined_games_keep_racks_private(ana: Any, ben: Any) -> None:
    game = start_game(creator=ana, mode=Game.Mode.FRIEND, language="en", opponent=ben, first=0)
    set_racks(game, ("CATSEOD", BEN_RACK))
    ana_client = Client()
    ana_client.force_login(ana)
    invited = http_payloads(ana_client, game)
    game.decline(ben, version=game.version)
    declined = http_payloads(ana_client, game)
    assert declined["gcg"] == "The game record can be downloaded once the game is over."
    found = {
        f"{when}:{name}": leaks(text)
        for when, got in (("invited", invited), ("declined", declined))
        for name, text in got.items()
    }
    assert {name: hits for name, hits in found.items() if hits} == {}


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("close_db_connection")
async def test_websockets_never_say_which_tiles_were_swapped(ana: Any, ben: Any, cleo: Any) -> None:
    game = await sync_to_async(make_game)(ana, ben, racks=(ANA_RACK, "CATSEOD"))
    sockets = {}
    received: dict[str, list[str]] = {"ben": [], "cleo": [], "ben-lobby": []}
    try:
        for name, user, path in (
            ("ben", ben, f"/ws/games/{game.pk}/"),
            ("cleo", cleo, f"/ws/games/{game.pk}/"),
            ("ben-lobby", ben, "/ws/lobby/"),
        ):
            sockets[name], connected = await connect(path, user)
            assert connected
            received[name].append(await sockets[name].receive_from(timeout=3))
        await sync_to_async(game.exchange)(ana, "JQXZ", version=game.version)
        for name, socket in sockets.items():
            received[name].append(await socket.receive_from(timeout=3))
    finally:
        for socket in sockets.values():
            await socket.disconnect()
    await sync_to_async(game.refresh_from_db)()
    assert "swapped 4 tiles" in received["cleo"][-1]
    found = {name: [swap_leaks(m, game) for m in messages] for name, messages in received.items()}
    assert {name: [h for h in hits if h] for name, hits in found.items()} == {
        "ben": [],
        "cleo": [],
        "ben-lobby": [],
    }


def test_a_random_token_holding_the_rare_letters_is_no_leak_but_the_rack_is() -> None:
    token = "aB3" + "XZQJ" + "k9" * 30
    assert leaks(f'<input name="csrfmiddlewaretoken" value="{token}">') == []
    assert leaks(f'<body hx-headers=\'{{"x-csrftoken": "{token}"}}\'>') == []
    assert leaks(f'<span class="rack">{BEN_RACK}</span>') != []
    assert leaks(f"{'A' * 40}JQXZ") != []
