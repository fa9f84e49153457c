"""``wordgame.middleware.EndsStartedResponses``: an HTTP application that fails after its
response started never hands its exception to Daphne (whose once-a-second
``application_checker`` died answering it with a 500 page, and with it the close frames of
every WebSocket of the process that ended afterwards: issue 24, point 4)."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import pytest

from wordgame.middleware import EndsStartedResponses


def run(app: Any, scope_type: str = "http") -> list[dict[str, Any]]:
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    asyncio.run(EndsStartedResponses(app)({"type": scope_type, "method": "GET", "path": "/s"}, receive, send))
    return sent


def test_a_failure_after_the_response_started_ends_it_and_is_logged(caplog: pytest.LogCaptureFixture) -> None:
    async def stream(scope: Any, receive: Any, send: Any) -> None:
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"line\n", "more_body": True})
        raise ConnectionError("the channel layer went away")

    with caplog.at_level(logging.ERROR, logger="wordgame.middleware"):
        sent = run(stream)
    assert sent[-1] == {"type": "http.response.body", "body": b"", "more_body": False}
    assert "cut short" in caplog.text
    assert "the channel layer went away" in caplog.text


def test_a_failure_before_the_response_started_is_the_servers_to_answer() -> None:
    async def broken(scope: Any, receive: Any, send: Any) -> None:
        raise ValueError("before anything was sent")

    with pytest.raises(ValueError, match="before anything"):
        run(broken)


def test_a_finished_response_is_not_ended_twice() -> None:
    async def done_then_fails(scope: Any, receive: Any, send: Any) -> None:
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"all", "more_body": False})
        raise RuntimeError("cleanup failed")

    sent = run(done_then_fails)
    assert [m.get("more_body", False) for m in sent if m["type"] == "http.response.body"] == [False]
