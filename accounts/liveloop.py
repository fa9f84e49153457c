"""Live updates sent from the task worker inside the server process (``make run``).

A send on the in-memory channel layer from another thread is unsafe (its queues belong to
the server's event loop: measured, a send from another loop arrived seconds late), so a
send made on the embedded worker's thread (``wordgame.embedded_worker``, which attaches
it here) runs on the server's loop. Every app's ``realtime.py`` sends through
:func:`run_coroutine`; it lives here, at the bottom, because every app may depend on
accounts and none on the project's wiring.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Awaitable, Callable
from typing import TypeVar

from asgiref.sync import async_to_sync

T = TypeVar("T")
_server_loop: asyncio.AbstractEventLoop | None = None
_threads: frozenset[threading.Thread] = frozenset()


def attach(loop: asyncio.AbstractEventLoop, *threads: threading.Thread) -> None:
    """The server's loop, and the embedded workers' threads whose sends run on it."""
    global _server_loop, _threads
    _server_loop, _threads = loop, frozenset(threads)


def run_coroutine(make: Callable[[], Awaitable[T]]) -> T:
    """``make()`` run to its end: on the server's loop when called from the embedded
    worker's thread, else as ``async_to_sync`` runs it."""

    async def run() -> T:
        return await make()

    loop = _server_loop
    if loop is not None and threading.current_thread() in _threads and loop.is_running():
        return asyncio.run_coroutine_threadsafe(run(), loop).result(timeout=10)
    return async_to_sync(run)()
