"""Credentials end what they opened (issue 24, point 5): logging out closes the
session's open sockets, every kind, within 5 seconds, and only that session's; a
password change closes the other sessions' sockets. Under the channel layer the tests
run with (in-memory, or Redis with ``REDIS_URL``); across Daphne processes in
``tests/production/test_realtime_recovery.py``."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client
from django.urls import reverse

from accounts.livesocket import SIGNED_OUT
from games.models import Game
from tests.factories import PASSWORD
from tests.games.helpers import make_game
from wordgame.asgi import application

pytestmark = [
    pytest.mark.asyncio,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("close_db_connection"),
]

BOUND = 5.0


def signed_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


async def open_socket(path: str, client: Client) -> WebsocketCommunicator:
    cookie = f"sessionid={client.cookies['sessionid'].value}".encode()
    communicator = WebsocketCommunicator(
        application, path, headers=[(b"origin", b"http://testserver"), (b"cookie", cookie)]
    )
    connected, _ = await communicator.connect()
    assert connected, path
    return communicator


async def close_code(communicator: WebsocketCommunicator, within: float) -> int | None:
    """The code the server closed the socket with within ``within`` seconds (pushes read
    and dropped meanwhile), or None while it stays open."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + within
    while loop.time() < deadline:
        # Not receive_output(timeout=...): its timeout cancels the application.
        if await communicator.receive_nothing(timeout=0.05, interval=0.01):
            continue
        message = await communicator.receive_output()
        if message["type"] == "websocket.close":
            return int(message.get("code", 1000))
    return None


async def test_logging_out_closes_that_sessions_sockets_and_no_other(ana: Any, ben: Any) -> None:
    game = await sync_to_async(make_game)(ana, ben)
    here, elsewhere = await sync_to_async(signed_in)(ana), await sync_to_async(signed_in)(ana)
    paths = [f"/ws/games/{game.pk}/", "/ws/lobby/", "/ws/user/"]
    mine = [await open_socket(path, here) for path in paths]
    other = await open_socket(f"/ws/games/{game.pk}/", elsewhere)
    try:
        response = await sync_to_async(here.post)(reverse("logout"))
        assert response.status_code == 302
        codes = await asyncio.gather(*(close_code(socket, BOUND) for socket in mine))
        assert codes == [SIGNED_OUT] * len(paths)
        # The other session is still signed in, and its socket still hears the game.
        assert await close_code(other, 0.5) is None
        version = (await Game.objects.aget(pk=game.pk)).version
        answer = await sync_to_async(elsewhere.post)(
            f"/games/{game.pk}/pass/", {"version": version, "action_id": "pass-after-logout"}
        )
        assert answer.status_code == 302  # to the game page (not an htmx request)
        pushed = await other.receive_output(timeout=BOUND)
        assert pushed["type"] == "websocket.send"
        assert "scoreboard" in pushed["text"]
    finally:
        for socket in [*mine, other]:
            await socket.disconnect()


async def test_a_password_change_closes_the_other_sessions_sockets(ana: Any, ben: Any) -> None:
    game = await sync_to_async(make_game)(ana, ben)
    here, elsewhere = await sync_to_async(signed_in)(ana), await sync_to_async(signed_in)(ana)
    stays = await open_socket(f"/ws/games/{game.pk}/", here)
    goes = [await open_socket(path, elsewhere) for path in (f"/ws/games/{game.pk}/", "/ws/lobby/")]
    try:
        response = await sync_to_async(here.post)(
            reverse("password_change"),
            {
                "old_password": PASSWORD,
                "new_password1": "a new pass phrase 24",
                "new_password2": "a new pass phrase 24",
            },
        )
        assert response.status_code == 302, response.content[:500]
        codes = await asyncio.gather(*(close_code(socket, BOUND) for socket in goes))
        assert codes == [SIGNED_OUT, SIGNED_OUT]
        assert await close_code(stays, 0.5) is None  # the session that changed it stays signed in
    finally:
        for socket in [stays, *goes]:
            await socket.disconnect()
