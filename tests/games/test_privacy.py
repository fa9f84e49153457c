"""What each viewer may see, in every output: an opponent's rack never reaches anyone
else while the game is on, and the HTML snapshot, a live delta, the API and the event
stream agree on the rack, the actions and the move log's racks (they all serialise one
view, ``games.gameview``).

ben holds JQXZKVW: J, Q, X and Z exist once each in the English set and are on no
board and no other rack, so any of them in a payload for ana or cleo would be a leak.
Every page, partial, download and WebSocket message those viewers can get is collected
and searched.
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Callable
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.test import Client
from django.urls import reverse

from api.models import ApiToken
from api.stream import EventTracker
from games.gameview import load_game
from games.models import Game
from games.services import start_game
from tests.api.conftest import (
    ApiClient,
    _api_settings,  # noqa: F401 (the API's settings: a fixture)
)
from tests.api.test_stream import open_stream
from tests.factories import make_user
from tests.games.helpers import CAT_AT_CENTRE, make_computer_game, make_game, push, set_racks, tiles
from tests.games.helpers import context as context_of
from tests.games.test_game_consumer import connect

BEN_RACK = "JQXZKVW"
UNIQUE = "JQXZ"
HX = {"HX-Request": "true"}
TIMESTAMP = re.compile(r"\d{4}-\d\d-\d\dT[\d:.]+(?:Z|[+-]\d\d:\d\d)")


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


@pytest.fixture
def token_for() -> Callable[[Any], str]:
    """``token_for(user)``: a new personal API token (the raw string) for ``user``."""
    return lambda user: ApiToken.issue(user, "test")[1]


# ----- one view, every output: the HTML snapshot, a live delta, the API, the stream -------

#: The actions a page offers with a button of its own (extras have their own panel).
PAGE_ACTIONS = frozenset({"play", "exchange", "pass", "resign", "accept", "decline"})


def html_rack(html: str) -> str | None:
    """The rack tiles an HTML payload shows (None: no rack at all)."""
    found = re.search(r'<ol id="rack-tiles".*?</ol>', html, re.S)
    return "".join(re.findall(r'data-letter="([^"]*)"', found.group())) if found else None


def html_allowed(html: str) -> set[str]:
    """The actions a move panel offers."""
    panel = re.search(r'<section id="move-panel".*?</section>', html, re.S)
    text = panel.group() if panel else ""
    offered = set()
    if re.search(r'data-action="swap"[^>]*data-focus-key="swap"(?![^>]*disabled)', text):
        offered |= {"play", "exchange", "pass"}
    if 'data-dialog="resign-dialog"' in text:
        offered.add("resign")
    if 'form="accept-form"' in text:
        offered.add("accept")
    if 'form="decline-form"' in text:
        offered.add("decline")
    return offered


def html_log_racks(html: str) -> list[str]:
    return re.findall(r'<span class="racks">([^<]*)</span>', html)


def api_log_racks(game: dict[str, Any]) -> list[str]:
    return [f"{m['rack_before']} → {m['rack_after'] or '–'}" for m in game["moves"] if m["rack_before"]]


def stream_allowed(user: Any, game: Game) -> set[str] | None:
    """The actions the event stream's first event about ``game`` says ``user`` may take."""
    events = EventTracker(user).look(Game.objects.select_related("created_by").with_seats().get(pk=game.pk))
    return set(events[0]["game"]["allowed"]) & PAGE_ACTIONS if events else None


def agree(html: str, api: dict[str, Any], rack: str | None, *, over: bool) -> None:
    """``html`` (a snapshot or a delta) and the API's game say the same of the rack, the
    actions and the move log's racks, and both what the view holds."""
    assert api["rack"] == rack
    if html_rack(html) is not None or 'id="rack"' in html:
        assert html_rack(html) == (rack or None)
    if 'id="move-panel"' in html:
        assert html_allowed(html) == set(api["allowed"]) & PAGE_ACTIONS
    assert all(m["rack_before"] is None for m in api["moves"]) != over
    for line in html_log_racks(html):
        assert over
        assert line in api_log_racks(api)


@pytest.mark.django_db
@pytest.mark.parametrize("over", [False, True], ids=["active", "finished"])
def test_every_output_agrees_on_racks_actions_and_the_logs_racks(
    over: bool, ana: Any, ben: Any, cleo: Any, token_for: Any
) -> None:
    game = make_game(ana, ben, racks=("CATSEOD", BEN_RACK))
    users = {"ana": ana, "ben": ben, "cleo": cleo}
    game.play(ana, CAT_AT_CENTRE, version=game.version)
    shown = {name: push(game.pk, user, None)[1] for name, user in users.items()}
    if over:
        game.resign(ben, version=game.version)
    else:
        game.pass_turn(ben, version=game.version)
    game.refresh_from_db()
    state = game.state_obj()
    for name, user in users.items():
        client = Client()
        client.force_login(user)
        snapshot = client.get(reverse("games:fragments", args=[game.pk]), headers=HX).text
        delta, _ = push(game.pk, user, shown[name])
        assert f'data-base="{shown[name].version}"' in delta  # a delta, not a snapshot
        api = ApiClient(token_for(user)).get(f"/games/{game.pk}").json()
        rack = state.racks[["ana", "ben"].index(name)] if name != "cleo" else None
        for html in (snapshot, delta):
            agree(html, api, rack, over=over)
        assert len(html_log_racks(snapshot)) == (2 if over else 0)
        assert stream_allowed(user, game) in (None, set(api["allowed"]) & PAGE_ACTIONS)
        if name != "cleo":  # a player's stream tells of the game
            assert stream_allowed(user, game) is not None


@pytest.mark.django_db
def test_every_output_agrees_for_an_invitation_and_a_seek(ana: Any, ben: Any, token_for: Any) -> None:
    invitation = start_game(creator=ana, mode=Game.Mode.FRIEND, language="en", opponent=ben, first=0)
    seek = start_game(creator=ben, mode=Game.Mode.RANDOM, language="en")
    expected = {("ana", invitation.pk): {"decline"}, ("ben", invitation.pk): {"accept", "decline"}}
    expected[("ben", seek.pk)] = {"decline"}  # the seek's creator, who holds no seat yet
    for (name, game_id), allowed in expected.items():
        user = ana if name == "ana" else ben
        client = Client()
        client.force_login(user)
        snapshot = client.get(reverse("games:fragments", args=[game_id]), headers=HX).text
        api = ApiClient(token_for(user)).get(f"/games/{game_id}").json()
        assert set(api["allowed"]) & PAGE_ACTIONS == allowed, name
        assert html_allowed(snapshot) == allowed, name
        game = Game.objects.get(pk=game_id)
        seated = game_id == invitation.pk
        rack = game.state_obj().racks[0 if name == "ana" else 1] if seated else None
        agree(snapshot, api, rack, over=False)
        assert stream_allowed(user, game) in (None, allowed)
    assert stream_allowed(ben, invitation) == {"accept", "decline"}  # "invitation" for ben


# ----- the API and the event stream ---------------------------------------------------


def leaked(payload: str) -> list[str]:
    text = TIMESTAMP.sub("", payload)
    return re.findall(r"[JQXZ]", text)


def api_payloads(api: ApiClient, game_id: int, version: int) -> dict[str, str]:
    got = {}
    for name, response in {
        "game": api.get(f"/games/{game_id}"),
        "games": api.get("/games"),
        "active": api.get("/games?status=active"),
        "account": api.get("/account"),
        "gcg": api.get(f"/games/{game_id}/gcg"),
        "preview": api.post(f"/games/{game_id}/preview", {"tiles": [[7, 7, "C"], [7, 8, "A"], [7, 9, "T"]]}),
        "stale": api.post(f"/games/{game_id}/pass", {"version": version - 1}),
        "word": api.get("/words/en/cat"),
    }.items():
        got[name] = response.content.decode()
    return got


@pytest.mark.django_db
def test_no_api_response_shows_the_opponents_rack(ana: Any, ben: Any, cleo: Any, token_for: Any) -> None:
    game = make_game(ana, ben, racks=("CATSEOD", BEN_RACK))
    ana_api, ben_api, cleo_api = (ApiClient(token_for(u)) for u in (ana, ben, cleo))
    # The check can fail: ben's own view of the game does show his rack.
    assert leaked(ben_api.get(f"/games/{game.pk}").content.decode())

    seen = {f"ana:{k}": v for k, v in api_payloads(ana_api, game.pk, game.version).items()}
    seen |= {f"cleo:{k}": v for k, v in api_payloads(cleo_api, game.pk, game.version).items()}
    # ana plays, swaps and passes: every answer is the game as she sees it.
    played = ana_api.post(
        f"/games/{game.pk}/play", {"tiles": [[7, 7, "C"], [7, 8, "A"], [7, 9, "T"]], "version": game.version}
    )
    seen["ana:play"] = played.content.decode()
    version = played.json()["version"]
    ben_api.post(f"/games/{game.pk}/pass", {"version": version})
    seen["ana:exchange"] = ana_api.post(
        f"/games/{game.pk}/exchange", {"tiles": "SE", "version": version + 1}
    ).content.decode()
    seen |= {f"ana-later:{k}": v for k, v in api_payloads(ana_api, game.pk, version + 2).items()}
    seen |= {f"cleo-later:{k}": v for k, v in api_payloads(cleo_api, game.pk, version + 2).items()}
    found = {name: leaked(text) for name, text in seen.items() if leaked(text)}
    assert not found, found


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_stream_events_show_no_rack(close_db_connection: None) -> None:
    ana = await sync_to_async(make_user)("ana")
    ben = await sync_to_async(make_user)("ben")
    game = await sync_to_async(make_game)(ana, ben, racks=("CATSEOD", BEN_RACK))
    stream = await open_stream(ana)
    try:
        lines = [(await stream.line()).decode() for _ in range(2)]
    finally:
        await stream.close()
    assert [json.loads(line)["type"] for line in lines] == ["game_started", "your_turn"]
    assert json.loads(lines[0])["game"]["id"] == game.pk
    assert not leaked("".join(lines))
