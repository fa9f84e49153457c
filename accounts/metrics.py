"""The site's metrics for operators (Prometheus), defined once for every app.

Here, beside the rate limiter every app uses, so that games and notifications record
without importing the wiring; ``wordgame.metrics`` serves them at ``/metrics`` and adds
what is read at scrape time (the task queue, the database pool).

Several processes (Daphne workers, task workers) each count their own. With
``PROMETHEUS_MULTIPROC_DIR`` set (production: ``deploy/wordgame.env.example``) every
process of a machine writes its figures to files in that folder and any worker's
``/metrics`` adds them up (prometheus_client's multiprocess mode): one scrape per machine.
Gauges then say how they combine: the open sockets and the pool's figures are per
process (a ``pid`` label), only for processes still alive.
"""

from __future__ import annotations

import atexit
import os
import time
from pathlib import Path

from prometheus_client import Counter, Gauge, Histogram

#: Where each process writes its figures in multiprocess mode ("" otherwise).
MULTIPROC_DIR = os.environ.get("PROMETHEUS_MULTIPROC_DIR", "")

#: Latency buckets, in seconds: a move is answered in tens of milliseconds, and a slow
#: one under load in hundreds.
LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)

move_post_seconds = Histogram(
    "wordgame_move_post_seconds",
    "Time to answer a move's POST (play, exchange, pass; pages and API), whole request.",
    ["view"],
    buckets=LATENCY_BUCKETS,
)
push_seconds = Histogram(
    "wordgame_push_seconds",
    "Time from a game change's commit to its push being sent on a socket, by who the "
    "viewer is: opponent (a seated player who did not make the change), mover (the "
    "player who made it, on their socket), spectator.",
    ["viewer"],
    buckets=LATENCY_BUCKETS,
)
game_actions = Counter(
    "wordgame_game_actions",
    "Game actions committed, by kind (play, exchange, pass, resign, timeout...): "
    "moves per second is the rate of play, exchange and pass.",
    ["kind"],
)
open_sockets = Gauge(
    "wordgame_open_sockets",
    "WebSockets open in this worker, by route (games, lobby, user, tournaments).",
    ["route"],
    multiprocess_mode="liveall",
)
task_runs = Counter(
    "wordgame_task_runs",
    "Background tasks finished, by task and status (SUCCESSFUL or FAILED); FAILED ones "
    "also when a worker gave up a task that killed its workers too often.",
    ["task", "status"],
)
notification_deliveries = Counter(
    "wordgame_notification_deliveries",
    "Attempts to deliver a notification, by channel (push, email) and outcome: sent, "
    "retry (failed, tried again later), failed (given up).",
    ["channel", "outcome"],
)
db_pool = Gauge(
    "wordgame_db_pool",
    "Django's psycopg connection pool in this process: pool_min, pool_max, pool_size "
    "(connections open), pool_available (idle), requests_waiting (waiting for one), and "
    "since the process started requests_num, requests_wait_ms, requests_errors, "
    "connections_lost.",
    ["figure"],
    multiprocess_mode="liveall",
)

#: The figures of ``psycopg_pool``'s ``get_stats()`` exposed (others are left out).
POOL_FIGURES = (
    "pool_min",
    "pool_max",
    "pool_size",
    "pool_available",
    "requests_waiting",
    "requests_num",
    "requests_wait_ms",
    "requests_errors",
    "connections_lost",
)


def set_pool_figures(stats: dict[str, int]) -> None:
    for figure in POOL_FIGURES:
        db_pool.labels(figure).set(stats.get(figure, 0))


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def forget_dead_processes(folder: str) -> list[int]:
    """Remove the live gauges of processes that are gone (killed without their exit
    hook running); their counters stay, so totals never go back. Returns their pids."""
    from prometheus_client import multiprocess

    gone: set[int] = set()
    for path in Path(folder).glob("gauge_live*_*.db"):
        try:
            pid = int(path.stem.rsplit("_", 1)[1])
        except ValueError:
            continue
        if pid != os.getpid() and not _pid_alive(pid):
            gone.add(pid)
    for pid in gone:
        multiprocess.mark_process_dead(pid, folder)
    return sorted(gone)


if MULTIPROC_DIR:
    from prometheus_client import multiprocess as _multiprocess

    # Each process, as it starts, clears what dead ones left live; and its own at exit.
    forget_dead_processes(MULTIPROC_DIR)
    atexit.register(_multiprocess.mark_process_dead, os.getpid(), MULTIPROC_DIR)


# ----- recorded as things happen -----------------------------------------------------------


def refresh_pool_figures() -> None:
    """This process's database pool, when Django's psycopg pool is configured and has
    been opened (never opened here just to be measured)."""
    from django.db import connections

    for alias in connections:
        pools = getattr(connections[alias], "_connection_pools", None)
        if pools and alias in pools:
            set_pool_figures(pools[alias].get_stats())
            return


_pool_refreshed = [0.0]
POOL_REFRESH_SECONDS = 1.0


def _refresh_pool_now_and_then(**kwargs: object) -> None:
    """Each process refreshes its pool's figures as it finishes requests and tasks, at
    most once a second (in multiprocess mode the answering worker reads them all)."""
    now = time.monotonic()
    if now - _pool_refreshed[0] >= POOL_REFRESH_SECONDS:
        _pool_refreshed[0] = now
        refresh_pool_figures()


def _count_task(sender: object, task_result: object, **kwargs: object) -> None:
    task = getattr(getattr(task_result, "task", None), "module_path", "") or "?"
    task_runs.labels(task, str(getattr(task_result, "status", "?"))).inc()


def connect_signals() -> None:
    """From ``AccountsConfig.ready``: count finished tasks (in whichever process runs
    them), refresh the pool's figures."""
    from django.core.signals import request_finished
    from django_tasks.signals import task_finished

    request_finished.connect(_refresh_pool_now_and_then, dispatch_uid="metrics-pool")
    task_finished.connect(_refresh_pool_now_and_then, dispatch_uid="metrics-pool-task")
    task_finished.connect(_count_task, dispatch_uid="metrics-task-runs")
