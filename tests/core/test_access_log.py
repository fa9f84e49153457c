"""One structured (JSON) log line per HTTP request and per WebSocket connect/disconnect."""

from __future__ import annotations

import json
import logging
from collections.abc import AsyncIterator
from typing import Any

import pytest
import pytest_asyncio
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.db import connection
from django.test import Client

from wordgame.asgi import application


def access_lines(caplog: pytest.LogCaptureFixture) -> list[dict[str, Any]]:
    """The request and socket lines. A long garbage collection's line (``{"event": "gc"}``,
    logged with the next line once ``wordgame.asgi`` is imported in this process) comes
    whenever a collection stopped the process for 10 ms, which a busy machine does often:
    it is not the request's."""
    lines = [json.loads(r.getMessage()) for r in caplog.records if r.name == "wordgame.access"]
    return [line for line in lines if line["event"] != "gc"]


@pytest.mark.django_db
def test_each_request_logs_one_json_line(client: Client, ana: Any, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="wordgame.access")
    client.get("/words/?q=cat", REMOTE_ADDR="203.0.113.5")
    client.force_login(ana)
    client.get("/games/404404/")
    lines = access_lines(caplog)
    assert len(lines) == 2
    first, second = lines
    assert first["event"] == "http"
    assert (first["method"], first["path"], first["status"], first["client"]) == (
        "GET",
        "/words/",
        200,
        "203.0.113.5",
    )
    assert first["user"] is None
    assert isinstance(first["ms"], float)
    assert (second["path"], second["status"], second["user"]) == ("/games/404404/", 404, ana.pk)


@pytest_asyncio.fixture
async def close_db_connection() -> AsyncIterator[None]:
    yield

    def close() -> None:
        connection.close()

    await sync_to_async(close)()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("close_db_connection")
async def test_websocket_connect_and_disconnect_are_logged(
    ana: Any, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="wordgame.access")

    def cookie() -> bytes:
        client = Client()
        client.force_login(ana)
        return f"sessionid={client.cookies['sessionid'].value}".encode()

    headers = [
        (b"host", b"localhost"),
        (b"origin", b"http://localhost"),
        (b"cookie", await sync_to_async(cookie)()),
    ]
    communicator = WebsocketCommunicator(application, "/ws/lobby/", headers=headers)
    connected, _ = await communicator.connect()
    assert connected
    await communicator.disconnect(code=1001)
    refused = WebsocketCommunicator(application, "/ws/lobby/", headers=[(b"origin", b"http://evil.example")])
    connected, _ = await refused.connect()
    assert not connected
    await refused.disconnect()
    events = [(line["event"], line.get("path"), line.get("user")) for line in access_lines(caplog)]
    assert events == [
        ("ws_connect", "/ws/lobby/", ana.pk),
        ("ws_disconnect", "/ws/lobby/", ana.pk),
        ("ws_refused", "/ws/lobby/", None),
    ]
    disconnect = access_lines(caplog)[1]
    assert (disconnect["by"], disconnect["code"]) == ("client", 1001)
