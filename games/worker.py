"""What every task worker does besides running tasks: take back the tasks of workers that
died, and keep the sweep chain going.

``django-tasks-db`` marks a task RUNNING when a worker claims it and never looks at it
again: a worker killed mid-task (an analysis, a rating, the sweep) leaves its row RUNNING
for good and the work undone, and a sweep lost that way ends the sweep chain. So every
``manage.py db_worker`` (``games/management/commands/db_worker.py``) runs
:func:`recover_tasks` when it starts and every ``TASK_LEASE_CHECK_SECONDS`` after:

- a RUNNING task whose worker is gone is put back in the queue at once. A worker's id
  names its host and process (:func:`worker_id`); on the same host a process that no
  longer exists is gone;
- any other RUNNING task older than ``TASK_LEASE_SECONDS`` (its lease) is taken as lost
  too (a worker on another machine that died, or hangs);
- a task that has been claimed ``TASK_MAX_ATTEMPTS`` times is not tried again: it is
  marked FAILED with a log line (a task that kills its worker must not kill them all);
- then, if no sweep is waiting, one is enqueued (:func:`games.tasks.ensure_sweep`).

Every task here is idempotent (it re-reads the game and acts through ``Game.act`` with
its version and action id, a rating is applied once per game, an analysis stored once),
so a task taken back from a worker that was only slow runs twice and changes nothing
the second time.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
import time
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.conf import settings
from django.db import connections, transaction
from django.utils import timezone
from django.utils.crypto import get_random_string
from django_tasks.base import TaskResultStatus

from accounts import metrics

logger = logging.getLogger(__name__)

#: The host part of a worker id (ids are at most 64 characters).
HOST = socket.gethostname()[:40]


def worker_id() -> str:
    """A new worker's id: ``host:pid:random`` (unique, and tells another worker on the
    same host whether this one still runs)."""
    return f"{HOST}:{os.getpid()}:{get_random_string(8)}"


def process_exists(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # someone else's process
    try:  # a killed process not yet reaped by its parent is gone too
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            return stat.read().rsplit(")", 1)[-1].split()[0] != "Z"
    except OSError:
        return True


def worker_is_gone(worker: str) -> bool:
    """Whether ``worker`` (an id from :func:`worker_id`) ran on this host in a process
    that no longer exists. Other ids (another host, another scheme) are not known to be
    gone: their tasks wait for their lease."""
    host, _, rest = worker.partition(":")
    pid, _, _ = rest.partition(":")
    if host != HOST or not pid.isdigit():
        return False
    return int(pid) != os.getpid() and not process_exists(int(pid))


@dataclass
class Recovery:
    requeued: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)
    sweep_enqueued: bool = False


def recover_tasks(*, now: datetime | None = None) -> Recovery:
    """Put back in the queue the RUNNING tasks whose worker is gone or whose lease ran
    out, fail those claimed too often, and restart the sweep chain if it is missing.
    Opens its own transaction; rows another worker is updating are left for next time."""
    from django_tasks_db.models import DBTaskResult

    from games.tasks import ensure_sweep

    now = now or timezone.now()
    expired = now - timedelta(seconds=settings.TASK_LEASE_SECONDS)
    done = Recovery()
    with transaction.atomic():
        for row in DBTaskResult.objects.running().select_for_update(skip_locked=True):
            owner = row.worker_ids[-1] if row.worker_ids else ""
            lost = worker_is_gone(owner) or row.started_at is None or row.started_at <= expired
            if not lost:
                continue
            if len(row.worker_ids) >= settings.TASK_MAX_ATTEMPTS:
                row.status = TaskResultStatus.FAILED
                row.finished_at = now
                row.exception_class_path = "games.worker.TaskLost"
                row.traceback = (
                    f"claimed {len(row.worker_ids)} times, by {', '.join(row.worker_ids)}; lost each time"
                )
                row.save(update_fields=["status", "finished_at", "exception_class_path", "traceback"])
                logger.error(
                    "task %s (%s) lost %s times: not tried again", row.pk, row.task_path, len(row.worker_ids)
                )
                done.failed.append(str(row.pk))
                transaction.on_commit(metrics.task_runs.labels(row.task_path, TaskResultStatus.FAILED).inc)
            else:
                row.status = TaskResultStatus.READY
                row.started_at = None
                row.save(update_fields=["status", "started_at"])
                logger.warning(
                    "task %s (%s) of worker %s taken back: queued again", row.pk, row.task_path, owner
                )
                done.requeued.append(str(row.pk))
    done.sweep_enqueued = ensure_sweep()
    return done


def watch(interval: float) -> threading.Thread:
    """Run :func:`recover_tasks` every ``interval`` seconds on a daemon thread of this
    worker (it ends with the process)."""

    def loop() -> None:
        while True:
            time.sleep(interval)
            try:
                recover_tasks()
            except Exception:
                logger.exception("recovering lost tasks failed; trying again in %s s", interval)
            finally:
                connections.close_all()  # this thread's own connections

    thread = threading.Thread(target=loop, name="task-leases", daemon=True)
    thread.start()
    return thread
