"""Is this player's page open on this game: set by the game socket while it is open,
gone when it closes, and expiring on its own when nothing refreshes it (a killed worker)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from games.models import Game
from notifications import presence
from wordgame.asgi import application

pytestmark = [
    pytest.mark.asyncio,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("close_db_connection"),
]


def cookie_for(user: Any) -> bytes:
    client = Client()
    client.force_login(user)
    return f"sessionid={client.cookies['sessionid'].value}".encode()


async def open_game(user: Any, game: Game) -> WebsocketCommunicator:
    cookie = await sync_to_async(cookie_for)(user)
    socket = WebsocketCommunicator(
        application, f"/ws/games/{game.pk}/", headers=[(b"origin", b"http://testserver"), (b"cookie", cookie)]
    )
    connected, _ = await socket.connect()
    assert connected
    await socket.receive_from(timeout=5)  # the snapshot
    return socket


async def test_the_game_socket_marks_its_player_present_until_it_closes(
    ana: Any, ben: Any, cleo: Any, game_ana_ben: Game
) -> None:
    assert not await sync_to_async(presence.is_present)(ben.pk, game_ana_ben.pk)
    socket = await open_game(ben, game_ana_ben)
    await asyncio.sleep(0.05)
    assert await sync_to_async(presence.is_present)(ben.pk, game_ana_ben.pk)
    assert not await sync_to_async(presence.is_present)(ana.pk, game_ana_ben.pk)
    watcher = await open_game(cleo, game_ana_ben)  # a spectator is not "the recipient's page"
    await asyncio.sleep(0.05)
    assert not await sync_to_async(presence.is_present)(cleo.pk, game_ana_ben.pk)
    await socket.disconnect()
    await watcher.disconnect()
    assert not await sync_to_async(presence.is_present)(ben.pk, game_ana_ben.pk)


async def test_presence_expires_when_nothing_refreshes_it(ben: Any, settings: Any) -> None:
    settings.PRESENCE_SECONDS = 1
    await presence.amark_present(ben.pk, 42)
    assert await sync_to_async(presence.is_present)(ben.pk, 42)
    await asyncio.sleep(1.2)
    assert not await sync_to_async(presence.is_present)(ben.pk, 42)
