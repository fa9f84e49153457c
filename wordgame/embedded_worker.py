"""The task worker inside the server process, for a development site (`make run`).

With the in-memory channel layer a separate ``db_worker`` process cannot reach the
server's sockets, so what a task causes (the computer's reply, a lapsed turn, a
notification's bell) would show only on a reload. With ``EMBEDDED_TASK_WORKER`` on (and
only with the in-memory layer), the server starts one worker thread on its first request
(Daphne has no start-up hook; ``runserver``'s autoreloader parent never serves a request,
so it never starts one: one worker, started deliberately, once per serving process).

A send from that thread on the in-memory layer is unsafe (its queues belong to the
server's event loop: measured, a send from another loop arrived seconds late), so every
live update the worker makes is handed to the server's loop (``accounts.liveloop``,
which every app's ``realtime.py`` sends through).
"""

from __future__ import annotations

import asyncio
import logging
import threading
from typing import Any

from accounts import liveloop

logger = logging.getLogger(__name__)
_lock = threading.Lock()
_server_loop: asyncio.AbstractEventLoop | None = None
_thread: threading.Thread | None = None


def wanted() -> bool:
    from django.conf import settings

    layer = str(settings.CHANNEL_LAYERS["default"]["BACKEND"])
    return bool(settings.EMBEDDED_TASK_WORKER) and layer.endswith("InMemoryChannelLayer")


def start(loop: asyncio.AbstractEventLoop) -> bool:
    """Start the worker thread (once); ``loop`` is the server's. Returns whether it started."""
    global _server_loop, _thread
    with _lock:
        if _thread is not None:
            return False
        from django_tasks_db.management.commands.db_worker import Worker

        from games.clocks import CLOCK_QUEUE

        # Two workers: live clocks' flags have one of their own, never behind other work.
        threads = []
        for queues, name in ((["default"], "embedded"), ([CLOCK_QUEUE], "embedded-clocks")):
            worker = Worker(
                queue_names=queues,
                interval=0.2,
                batch=False,
                backend_name="default",
                startup_delay=False,
                max_tasks=None,
                worker_id=name,
                excluded_queue_names=[],
            )
            threads.append(threading.Thread(target=worker.run, name=f"{name}-task-worker", daemon=True))
        _server_loop = loop
        _thread = threads[0]
        liveloop.attach(loop, *threads)
        for thread in threads:
            thread.start()
    logger.info("task worker started inside the server process")
    return True


class StartsEmbeddedWorker:
    """ASGI middleware: the first request (or socket) of the serving process starts the
    worker when the settings want one."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.checked = False

    async def __call__(self, scope: Any, receive: Any, send: Any) -> Any:
        if not self.checked:
            self.checked = True
            if wanted():
                start(asyncio.get_running_loop())
        return await self.app(scope, receive, send)
