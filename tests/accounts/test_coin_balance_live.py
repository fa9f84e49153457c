"""The header's balance over the player's own socket (``/ws/user/``): a snapshot on
connect, and the re-rendered partial after every committed change, to that player only."""

from __future__ import annotations

import contextlib
import json
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.db import transaction
from django.test import Client

from accounts.services import NotEnoughCoins, grant_coins, spend_coins
from wordgame.asgi import application

pytestmark = [
    pytest.mark.asyncio,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("close_db_connection"),
]


def headers_for(user: Any | None, *, language: str = "") -> list[tuple[bytes, bytes]]:
    headers = [(b"origin", b"http://testserver")]
    if language:
        headers.append((b"accept-language", language.encode()))
    if user is not None:
        client = Client()
        client.force_login(user)
        headers.append((b"cookie", f"sessionid={client.cookies['sessionid'].value}".encode()))
    return headers


async def connect(user: Any | None, *, language: str = "") -> tuple[WebsocketCommunicator, bool]:
    headers = await sync_to_async(headers_for)(user, language=language)
    communicator = WebsocketCommunicator(application, "/ws/user/", headers=headers)
    connected, _ = await communicator.connect()
    return communicator, connected


async def test_anonymous_connection_is_refused() -> None:
    communicator, connected = await connect(None)
    assert not connected
    await communicator.disconnect()


async def test_snapshot_on_connect_then_a_push_after_each_change(ana: Any, ben: Any) -> None:
    await sync_to_async(grant_coins)(user=ana, amount=12, reason="test")
    mine, connected = await connect(ana)
    theirs, _ = await connect(ben)
    assert connected
    snapshot = await mine.receive_from(timeout=5)
    assert snapshot.startswith('<a id="coin-balance"')
    assert 'data-coins="12"' in snapshot
    assert 'data-coins="0"' in await theirs.receive_from(timeout=5)

    await sync_to_async(spend_coins)(user=ana, amount=5, reason="extra:tile_bag")
    pushed = await mine.receive_from(timeout=5)
    assert 'data-coins="7"' in pushed
    assert "7 coins, your statement" in pushed
    assert await theirs.receive_nothing(timeout=0.3)  # ben's balance did not change
    await mine.disconnect()
    await theirs.disconnect()


async def test_nothing_is_pushed_for_a_refusal_or_a_rollback(ana: Any) -> None:
    await sync_to_async(grant_coins)(user=ana, amount=3, reason="test")
    mine, _ = await connect(ana)
    await mine.receive_from(timeout=5)

    def refused_then_rolled_back() -> None:
        with contextlib.suppress(NotEnoughCoins):
            spend_coins(user=ana, amount=5, reason="extra:tile_bag")
        try:
            with transaction.atomic():
                spend_coins(user=ana, amount=2, reason="extra:tile_bag")
                raise RuntimeError("the game refused the action")
        except RuntimeError:
            pass

    await sync_to_async(refused_then_rolled_back)()
    assert await mine.receive_nothing(timeout=0.3)
    await mine.disconnect()


async def test_resync_resends_the_balance_at_most_once_a_second(ana: Any) -> None:
    mine, _ = await connect(ana)
    await mine.receive_from(timeout=5)
    await mine.send_to(text_data=json.dumps({"type": "resync"}))
    assert 'id="coin-balance"' in await mine.receive_from(timeout=5)
    await mine.send_to(text_data=json.dumps({"type": "resync"}))
    await mine.send_to(text_data="not json")
    assert await mine.receive_nothing(timeout=0.3)
    await mine.disconnect()


async def test_the_push_is_in_the_viewers_language(ana: Any) -> None:
    await sync_to_async(grant_coins)(user=ana, amount=2, reason="test")
    mine, _ = await connect(ana, language="de")
    assert "2 Münzen" in await mine.receive_from(timeout=5)
    await mine.disconnect()
