from __future__ import annotations

import asyncio
import json
import re
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.db import transaction
from django.test import Client

import engine
from games import live, realtime
from games.models import Game
from tests.games.helpers import CAT_AT_CENTRE, make_game, two_plays_in_one_commit
from wordgame.asgi import application


def headers_for(
    user: Any | None, *, cookie: str = "", extra: tuple[tuple[bytes, bytes], ...] = ()
) -> list[tuple[bytes, bytes]]:
    headers = [(b"origin", b"http://testserver"), *extra]
    if user is not None:
        client = Client()
        client.force_login(user)
        session = f"sessionid={client.cookies['sessionid'].value}"
        headers.append((b"cookie", f"{session}; {cookie}".encode() if cookie else session.encode()))
    return headers


async def connect(
    path: str, user: Any | None, *, cookie: str = "", extra: tuple[tuple[bytes, bytes], ...] = ()
) -> tuple[WebsocketCommunicator, bool]:
    headers = await sync_to_async(headers_for)(user, cookie=cookie, extra=extra)
    communicator = WebsocketCommunicator(application, path, headers=headers)
    connected, _ = await communicator.connect()
    return communicator, connected


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("close_db_connection")
async def test_anonymous_connection_is_refused(ana: Any, ben: Any) -> None:
    game = await sync_to_async(make_game)(ana, ben)
    communicator, connected = await connect(f"/ws/games/{game.pk}/", None)
    assert not connected
    await communicator.disconnect()
    lobby, connected = await connect("/ws/lobby/", None)
    assert not connected
    await lobby.disconnect()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("close_db_connection")
async def test_outsider_cannot_watch_private_game(ana: Any, ben: Any, cleo: Any) -> None:
    game = await sync_to_async(make_game)(ana, ben)
    await Game.objects.filter(pk=game.pk).aupdate(is_public=False)
    communicator, connected = await connect(f"/ws/games/{game.pk}/", cleo)
    assert not connected
    await communicator.disconnect()


SQUARE_ID = re.compile(r'id="sq-(\d+)-(\d+)"')


def square_ids(html: str) -> set[tuple[int, int]]:
    return {(int(r), int(c)) for r, c in SQUARE_ID.findall(html)}


async def connect_all(game: Game, users: dict[str, Any]) -> dict[str, WebsocketCommunicator]:
    sockets = {}
    for name, user in users.items():
        communicator, connected = await connect(f"/ws/games/{game.pk}/", user)
        assert connected, name
        sockets[name] = communicator
    return sockets


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("close_db_connection")
async def test_snapshot_then_push_after_a_move_rack_only_to_owner(ana: Any, ben: Any, cleo: Any) -> None:
    game = await sync_to_async(make_game)(ana, ben, racks=("CATSEOD", "JQXZKVW"))
    sockets = await connect_all(game, {"ana": ana, "ben": ben, "cleo": cleo})
    try:
        snapshots = {name: await c.receive_from(timeout=3) for name, c in sockets.items()}
        assert 'id="rack"' in snapshots["ana"]
        assert 'id="rack"' in snapshots["ben"]
        assert 'data-letter="J"' in snapshots["ben"]  # ben's own rack
        assert 'id="rack"' not in snapshots["cleo"]
        assert 'id="chat"' not in snapshots["cleo"]
        assert all('hx-swap-oob="true"' in html for html in snapshots.values())
        assert all(len(square_ids(html)) == 225 for html in snapshots.values())

        await sync_to_async(game.play)(ana, CAT_AT_CENTRE, version=game.version)
        pushes = {name: await c.receive_from(timeout=3) for name, c in sockets.items()}
        for name, html in pushes.items():
            assert f'data-version="{game.version}" data-base="{game.version - 1}"' in html, name
            assert 'data-letter="C"' in html, name  # the new tiles are on everyone's board
            assert square_ids(html) == {(7, 7), (7, 8), (7, 9)}, name
            assert 'id="board"' not in html, name
        # Only ana's rack changed: she gets it; nobody else gets any rack.
        assert 'id="rack-tiles"' in pushes["ana"]
        assert 'id="rack' not in pushes["ben"]
        assert 'id="rack' not in pushes["cleo"]
        assert 'data-letter="J"' not in pushes["ana"]
        assert 'data-letter="J"' not in pushes["cleo"]
    finally:
        for communicator in sockets.values():
            await communicator.disconnect()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("close_db_connection")
async def test_delta_holds_only_the_changed_squares_and_never_an_opponents_rack(
    ana: Any, ben: Any, cleo: Any
) -> None:
    game = await sync_to_async(make_game)(ana, ben, racks=("CATSEOD", "SJQXZKV"))
    await sync_to_async(game.play)(ana, CAT_AT_CENTRE, version=game.version)
    sockets = await connect_all(game, {"ana": ana, "ben": ben, "cleo": cleo})
    try:
        for c in sockets.values():
            await c.receive_from(timeout=3)
        # ben adds S to make CATS: only the new square is sent. The version marker lists
        # the squares of the last move, and the page takes the highlight off CAT itself.
        await sync_to_async(game.play)(ben, [engine.Placement(7, 10, "S")], version=game.version)
        pushes = {name: await c.receive_from(timeout=3) for name, c in sockets.items()}
        for name, html in pushes.items():
            assert square_ids(html) == {(7, 10)}, name
            assert html.count('class="sq') == 1, name
            assert 'data-last="7-10"' in html, name
            assert 'class="sq last-move"' in html, name
            assert html.count('<li class="move"') == 1, name  # the new log line only
            assert "CATS" in html, name
        assert 'id="rack-tiles"' in pushes["ben"]
        for name in ("ana", "cleo"):
            assert 'id="rack' not in pushes[name], name
            for letter in "JQXZ":
                assert f'data-letter="{letter}"' not in pushes[name], (name, letter)
        # Every delta is far smaller than the snapshot.
        assert all(len(html) < 8000 for html in pushes.values())
    finally:
        for communicator in sockets.values():
            await communicator.disconnect()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("close_db_connection")
async def test_viewer_that_missed_a_version_gets_the_full_snapshot(ana: Any, ben: Any) -> None:
    game = await sync_to_async(make_game)(ana, ben, racks=("CATSEOD", "SJQXZKV"))
    communicator, connected = await connect(f"/ws/games/{game.pk}/", ana)
    try:
        assert connected
        await communicator.receive_from(timeout=3)
        # As a process that holds no version of the game (it did not render the last).
        live.loaded_games.latest.clear()

        # One transaction: both events are sent after both moves, so the consumer
        # reads version + 2 when it handles the first.
        await sync_to_async(two_plays_in_one_commit)(game, ana, ben)
        html = await communicator.receive_from(timeout=3)
        assert f'data-version="{game.version}" data-base=""' in html
        assert 'id="board"' in html
        assert len(square_ids(html)) == 225
        assert 'id="rack"' in html
        # The second event finds nothing new to send.
        assert await communicator.receive_nothing(timeout=0.3)
    finally:
        await communicator.disconnect()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("close_db_connection")
async def test_two_moves_in_one_commit_are_two_deltas_when_the_version_before_is_held(
    ana: Any, ben: Any
) -> None:
    game = await sync_to_async(make_game)(ana, ben, racks=("CATSEOD", "SJQXZKV"))
    communicator, connected = await connect(f"/ws/games/{game.pk}/", ana)
    try:
        assert connected
        await communicator.receive_from(timeout=3)  # the snapshot: this process holds the game
        start = game.version
        await sync_to_async(two_plays_in_one_commit)(game, ana, ben)
        # Each version was made when its move committed: each event its own delta.
        first = await communicator.receive_from(timeout=3)
        second = await communicator.receive_from(timeout=3)
        assert f'data-version="{start + 1}" data-base="{start}"' in first
        assert square_ids(first) == {(7, 7), (7, 8), (7, 9)}
        assert f'data-version="{start + 2}" data-base="{start + 1}"' in second
        assert square_ids(second) == {(7, 10)}
    finally:
        await communicator.disconnect()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("close_db_connection")
async def test_delta_at_the_end_brings_the_banner_and_the_last_line(ana: Any, ben: Any, cleo: Any) -> None:
    game = await sync_to_async(make_game)(ana, ben, racks=("CATSEOD", "SJQXZKV"))
    await sync_to_async(game.play)(ana, CAT_AT_CENTRE, version=game.version)
    sockets = await connect_all(game, {"ana": ana, "cleo": cleo})
    try:
        for c in sockets.values():
            await c.receive_from(timeout=3)
        await sync_to_async(game.resign)(ben, version=game.version)
        pushes = {name: await c.receive_from(timeout=3) for name, c in sockets.items()}
        for name, html in pushes.items():
            assert f'data-base="{game.version - 1}"' in html, name
            assert 'id="game-over"' in html, name
            assert "ana won" in html, name
            assert 'id="move-list"' in html, name  # the resignation's line, appended
            assert 'id="move-log"' not in html, name  # not the whole log again
            assert square_ids(html) == set(), name  # a resignation lays no tile
        assert 'id="rack"' in pushes["ana"]  # hidden now the game is over
        assert 'id="rack' not in pushes["cleo"]
    finally:
        for communicator in sockets.values():
            await communicator.disconnect()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("close_db_connection")
async def test_the_analysis_being_ready_redraws_nothing_on_the_game_page(ana: Any, ben: Any) -> None:
    """The game page shows nothing of the analysis: its 'ready' sends the game page's
    socket nothing (a snapshot re-drew the game-over links under a player's click)."""
    game = await sync_to_async(make_game)(ana, ben, racks=("CATSEOD", "SJQXZKV"))
    await sync_to_async(game.play)(ana, CAT_AT_CENTRE, version=game.version)
    await sync_to_async(game.resign)(ben, version=game.version)
    communicator, connected = await connect(f"/ws/games/{game.pk}/", ana)
    assert connected
    try:
        await communicator.receive_from(timeout=3)  # the snapshot on connect
        await sync_to_async(realtime_analysis_ready)(game.pk)
        assert await communicator.receive_nothing(timeout=0.5)
    finally:
        await communicator.disconnect()


def realtime_analysis_ready(game_id: int) -> None:
    with transaction.atomic():
        realtime.analysis_ready(game_id)


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("close_db_connection")
async def test_resync_message_sends_a_fresh_snapshot(
    ana: Any, ben: Any, monkeypatch: pytest.MonkeyPatch
) -> None:

    # A long interval, so a slow render of the answer cannot outlast it.
    monkeypatch.setattr(live, "RESYNC_INTERVAL", 10.0)
    game = await sync_to_async(make_game)(ana, ben)
    communicator, connected = await connect(f"/ws/games/{game.pk}/", ana)
    try:
        assert connected
        await communicator.receive_from(timeout=3)
        await communicator.send_to(text_data="play C at H8")  # anything else is ignored
        assert await communicator.receive_nothing(timeout=0.2)
        await communicator.send_to(text_data=json.dumps({"type": "resync", "version": 0}))
        again = await communicator.receive_from(timeout=3)
        assert 'id="board"' in again
        # Resyncs and checks are answered together at most once per interval.
        for message in ({"type": "resync"}, {"type": "check"}, {"type": "resync"}):
            await communicator.send_to(text_data=json.dumps(message))
        assert await communicator.receive_nothing(timeout=0.3)
    finally:
        await communicator.disconnect()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("close_db_connection")
async def test_chat_line_is_pushed_to_players(ana: Any, ben: Any) -> None:
    game = await sync_to_async(make_game)(ana, ben)
    communicator, connected = await connect(f"/ws/games/{game.pk}/", ben)
    try:
        assert connected
        await communicator.receive_from(timeout=3)
        await sync_to_async(game.post_chat)(ana, "hello ben")
        html = await communicator.receive_from(timeout=3)
        assert 'id="chat"' in html
        assert "hello ben" in html
    finally:
        await communicator.disconnect()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("close_db_connection")
async def test_lobby_updates_when_a_game_changes(ana: Any, ben: Any) -> None:
    game = await sync_to_async(make_game)(ana, ben, racks=("CATSEOD", "JQXZKVW"))
    communicator, connected = await connect("/ws/lobby/", ben)
    try:
        assert connected
        first = await communicator.receive_from(timeout=3)
        assert 'id="lobby-games"' in first
        await sync_to_async(game.play)(ana, CAT_AT_CENTRE, version=game.version)
        pushed = await communicator.receive_from(timeout=3)
        assert 'id="lobby-games"' in pushed
        assert f"/games/{game.pk}/" in pushed
    finally:
        await communicator.disconnect()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("close_db_connection")
async def test_resync_flood_is_answered_at_most_once_a_second(ana: Any, ben: Any) -> None:
    game = await sync_to_async(make_game)(ana, ben)
    for path in (f"/ws/games/{game.pk}/", "/ws/lobby/"):
        communicator, connected = await connect(path, ana)
        try:
            assert connected
            await communicator.receive_from(timeout=3)
            for _ in range(20):
                await communicator.send_to(text_data='{"type": "resync"}')
            await communicator.receive_from(timeout=3)
            assert await communicator.receive_nothing(timeout=0.3)
        finally:
            await communicator.disconnect()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("close_db_connection")
async def test_pushes_are_in_the_viewers_interface_language(ana: Any, ben: Any) -> None:
    game = await sync_to_async(make_game)(ana, ben)
    path = f"/ws/games/{game.pk}/"
    for options, expected, unexpected in (
        ({"cookie": "django_language=fr"}, "Mélanger", "Shuffle"),
        ({}, "Shuffle", "Mélanger"),
        # The browser's Accept-Language counts too when no cookie says otherwise.
        ({"extra": ((b"accept-language", b"de-DE,de;q=0.9"),)}, "", "Shuffle"),
    ):
        communicator, connected = await connect(path, ana, **options)
        try:
            assert connected
            snapshot = await communicator.receive_from(timeout=3)
            assert expected in snapshot
            assert unexpected not in snapshot
        finally:
            await communicator.disconnect()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("close_db_connection")
async def test_check_message_sends_only_what_the_socket_missed(
    ana: Any, ben: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A change whose live update never reached this process (a task worker beside a
    server on the in-memory channel layer) reaches the page when it asks ``check``;
    a page that is current gets nothing."""
    from games import realtime

    monkeypatch.setattr(live, "RESYNC_INTERVAL", 0.05)
    game = await sync_to_async(make_game)(ana, ben)
    version = game.version
    communicator, connected = await connect(f"/ws/games/{game.pk}/", ben)
    try:
        assert connected
        await communicator.receive_from(timeout=3)
        await communicator.send_to(text_data=json.dumps({"type": "check", "version": version}))
        assert await communicator.receive_nothing(timeout=0.3)

        monkeypatch.setattr(realtime, "game_changed", lambda *args, **kwargs: None)
        await sync_to_async(game.pass_turn)(ana, version=version)
        assert await communicator.receive_nothing(timeout=0.3)  # no live update came

        await communicator.send_to(text_data=json.dumps({"type": "check", "version": version}))
        frame = await communicator.receive_from(timeout=3)
        head = re.match(r'\s*<div id="game-sync"[^>]*data-version="(\d+)"[^>]*data-base="(\d*)"', frame)
        assert head is not None, frame[:300]
        assert (int(head.group(1)), head.group(2)) == (version + 1, str(version))  # a delta
        await asyncio.sleep(0.1)  # past the rate limit: this check is answered, with nothing
        await communicator.send_to(text_data=json.dumps({"type": "check", "version": version + 1}))
        assert await communicator.receive_nothing(timeout=0.3)
    finally:
        await communicator.disconnect()
