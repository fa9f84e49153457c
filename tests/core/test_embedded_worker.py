"""The task worker inside the server process (``make run``): only on the in-memory layer
and when asked for, and its live updates run on the server's event loop."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from typing import Any

import pytest

from accounts import liveloop
from wordgame import embedded_worker


@pytest.fixture
def server_loop() -> Iterator[asyncio.AbstractEventLoop]:
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    yield loop
    loop.call_soon_threadsafe(loop.stop)
    thread.join(5)
    loop.close()


def test_wanted_only_when_asked_for_and_on_the_in_memory_layer(settings: Any) -> None:
    settings.EMBEDDED_TASK_WORKER = False
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    assert not embedded_worker.wanted()
    settings.EMBEDDED_TASK_WORKER = True
    assert embedded_worker.wanted()
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "wordgame.channel_layer.RedisChannelLayer"}}
    assert not embedded_worker.wanted()


def test_a_send_from_the_worker_thread_runs_on_the_servers_loop(
    server_loop: asyncio.AbstractEventLoop, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def which_loop() -> asyncio.AbstractEventLoop:
        return asyncio.get_running_loop()

    # Any other thread: its own loop, as async_to_sync gives it.
    assert liveloop.run_coroutine(which_loop) is not server_loop
    monkeypatch.setattr(liveloop, "_server_loop", server_loop)
    monkeypatch.setattr(liveloop, "_threads", frozenset({threading.current_thread()}))  # as a worker
    assert liveloop.run_coroutine(which_loop) is server_loop
