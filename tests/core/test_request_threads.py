"""``wordgame.middleware.RequestThreads``: HTTP requests run their synchronous code on a
few long-lived threads, not on a thread started (and joined) on the event loop for each
request as Django's ASGI handler does by itself; when every one is busy a request still
runs, on a thread of its own."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

from asgiref.sync import ThreadSensitiveContext, sync_to_async

from wordgame.middleware import RequestThreads


def thread_name() -> str:
    return threading.current_thread().name


class DjangoLike:
    """What Django's ``ASGIHandler`` does with a request: its own thread-sensitive
    context, the view's code through ``sync_to_async`` (thread-sensitive)."""

    def __init__(self, view: Any = thread_name) -> None:
        self.view = view
        self.threads: list[str] = []

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        async with ThreadSensitiveContext():
            self.threads.append(await sync_to_async(self.view)())


def call(app: Any, scope_type: str = "http") -> Any:
    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        pass

    return app({"type": scope_type, "path": "/"}, receive, send)


def test_requests_one_after_another_run_on_one_long_lived_thread() -> None:
    inner = DjangoLike()
    app = RequestThreads(inner, threads=2)

    async def three() -> None:
        for _ in range(3):
            await call(app)

    asyncio.run(three())
    assert len(set(inner.threads)) == 1
    assert inner.threads[0].startswith("request")
    # Without it, each request had a thread made for it.
    plain = DjangoLike()

    async def three_plain() -> None:
        for _ in range(3):
            await call(plain)

    asyncio.run(three_plain())
    assert len(set(plain.threads)) == 3
    assert not any(name.startswith("request") for name in plain.threads)


def test_when_every_thread_is_busy_a_request_runs_on_a_thread_of_its_own() -> None:
    release = threading.Event()

    def view() -> str:
        name = thread_name()
        if name.startswith("request"):
            release.wait(5)  # a long request holding the only thread
        return name

    inner = DjangoLike(view)
    app = RequestThreads(inner, threads=1)

    async def two_at_once() -> None:
        long = asyncio.ensure_future(call(app))
        await asyncio.sleep(0.05)
        await asyncio.wait_for(call(app), 5)  # not queued behind the long one
        assert not long.done()
        release.set()
        await long
        await call(app)  # the thread is free again

    asyncio.run(two_at_once())
    own, held, again = inner.threads
    assert not own.startswith("request")
    assert held.startswith("request") and again == held
    assert len(app.free) == 1


def test_websockets_are_left_alone() -> None:
    inner = DjangoLike()
    asyncio.run(call(RequestThreads(inner, threads=2), "websocket"))
    assert not inner.threads[0].startswith("request")
