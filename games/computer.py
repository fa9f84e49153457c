"""Running the computer player without blocking anything.

After a human's move commits with a computer to move next, ``Game._commit`` calls
:func:`schedule` on commit. The thinking (``games.thinking.think``) runs in a
``ProcessPoolExecutor`` of ``COMPUTER_WORKERS`` spawned processes, because move
generation holds the GIL. The turn is driven by an asyncio task on the server's event
loop: it reads the game in a worker thread (``sync_to_async``), awaits the process
pool, and applies the result through the locked ``Game.play_computer`` (which checks
the version, so a duplicate or stale job does nothing). Driving it from the server's
loop rather than a thread of its own matters for the in-memory channel layer, whose
queues belong to that loop: the broadcast after the computer's move must be sent from
it. Outside a server (management commands, scripts) a plain background thread does
the same work.

``COMPUTER_SYNC = True`` (tests) thinks and applies at once, in the caller's thread.

Restarts: a computer turn in flight when the server stops is simply lost, and the
game stays active with a computer seat to move. :func:`resume_pending_computer_turns`
schedules every such game again; ``GamesConfig.ready`` connects it to the first request
a server process handles (see ``games.apps``).
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import threading
from concurrent.futures import Future, ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any

from asgiref.sync import SyncToAsync
from channels.db import database_sync_to_async
from django.conf import settings
from django.db import connection

from games.models import Game
from games.thinking import Job, LexiconSpec, think

logger = logging.getLogger(__name__)

_lock = threading.Lock()
_pool: ProcessPoolExecutor | None = None
_threads: ThreadPoolExecutor | None = None
# (game id, version) of the turns this process is thinking about, so that a resume
# racing with a fresh schedule does not think twice.
_in_flight: set[tuple[int, int]] = set()


def process_pool() -> ProcessPoolExecutor:
    """The shared pool, created on first use. ``spawn``: a fork of a threaded server
    process could inherit held locks; spawned workers import only the engine."""
    global _pool
    with _lock:
        if _pool is None:
            _pool = ProcessPoolExecutor(
                max_workers=max(1, settings.COMPUTER_WORKERS), mp_context=multiprocessing.get_context("spawn")
            )
        return _pool


def shutdown() -> None:
    """Stop the pool and the fallback threads (tests; a clean exit)."""
    global _pool, _threads
    with _lock:
        pool, threads, _pool, _threads = _pool, _threads, None, None
    if pool is not None:
        pool.shutdown(wait=True, cancel_futures=True)
    if threads is not None:
        threads.shutdown(wait=True)


def build_job(game_id: int, version: int) -> Job | None:
    """What the worker needs for the game's computer turn, or None if there is none
    (any more) at ``version``."""
    game = Game.objects.filter(pk=game_id).prefetch_related("seats").first()
    if game is None or game.version != version:
        return None
    seat = game.computer_seat_to_move()
    if seat is None:
        return None
    state = game.state_obj()
    return Job(
        game_id=game.pk,
        version=game.version,
        state=game.state,
        seat=seat.index,
        level=seat.computer_level,
        rng_seed=f"{game.seed}:computer:{state.moves_played}",
        lexicon=LexiconSpec.of(game.lexicon()),
    )


def apply(job: Job, decision: dict[str, Any]) -> bool:
    game = Game.objects.get(pk=job.game_id)
    return game.play_computer(decision, version=job.version) is not None


def run_turn_sync(game_id: int, version: int) -> bool:
    """Think in this process and apply: the test mode, and the no-pool fallback."""
    job = build_job(game_id, version)
    if job is None:
        return False
    return apply(job, think(job))


def _claim(game_id: int, version: int) -> bool:
    with _lock:
        if (game_id, version) in _in_flight:
            return False
        _in_flight.add((game_id, version))
        return True


def _release(game_id: int, version: int) -> None:
    with _lock:
        _in_flight.discard((game_id, version))


async def run_turn(game_id: int, version: int) -> bool:
    """The computer's turn on the event loop: read (thread), think (process pool),
    apply (thread, locked). Returns whether a move was applied."""
    if not _claim(game_id, version):
        return False
    try:
        # database_sync_to_async gives the connection back (to the pool) when done: this
        # task may run in a thread of its own that nothing else would ever close.
        job = await database_sync_to_async(build_job)(game_id, version)
        if job is None:
            return False
        loop = asyncio.get_running_loop()
        decision = await loop.run_in_executor(process_pool(), think, job)
        return await database_sync_to_async(apply)(job, decision)
    except Exception:
        logger.exception("computer turn failed for game %s at version %s", game_id, version)
        return False
    finally:
        _release(game_id, version)


def _run_turn_in_thread(game_id: int, version: int) -> bool:
    if not _claim(game_id, version):
        return False
    try:
        job = build_job(game_id, version)
        if job is None:
            return False
        decision = process_pool().submit(think, job).result()
        return apply(job, decision)
    except Exception:
        logger.exception("computer turn failed for game %s at version %s", game_id, version)
        return False
    finally:
        _release(game_id, version)
        # This thread is ours: its connection would otherwise stay open until exit.
        connection.close()


def _server_loop() -> asyncio.AbstractEventLoop | None:
    """The ASGI server's event loop when called from it or from one of its
    ``sync_to_async`` threads (where Django runs sync views and on-commit hooks)."""
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        loop = getattr(SyncToAsync.threadlocal, "main_event_loop", None)
        return loop if isinstance(loop, asyncio.AbstractEventLoop) and loop.is_running() else None


def schedule(game_id: int, version: int) -> Future[bool] | None:
    """Start the computer's turn for ``game_id`` at ``version`` without waiting for it.
    Call after the commit that made it the computer's turn."""
    global _threads
    if settings.COMPUTER_SYNC:
        run_turn_sync(game_id, version)
        return None
    loop = _server_loop()
    if loop is not None:
        return asyncio.run_coroutine_threadsafe(run_turn(game_id, version), loop)
    with _lock:
        if _threads is None:
            _threads = ThreadPoolExecutor(
                max_workers=max(1, settings.COMPUTER_WORKERS), thread_name_prefix="computer"
            )
        threads = _threads
    return threads.submit(_run_turn_in_thread, game_id, version)


def resume_pending_computer_turns() -> list[int]:
    """Schedule every active game waiting for a computer move (after a restart, the
    turns that were being thought about are gone). Returns the game ids."""
    pending = list(Game.objects.computer_to_move().values_list("pk", "version"))
    for game_id, version in pending:
        schedule(game_id, version)
    return [game_id for game_id, _ in pending]
