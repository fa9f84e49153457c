"""The nightly choice of the daily puzzles (django-tasks).

``choose_daily_puzzles`` stores the puzzle of a UTC day in every game language and
defers itself to the next midnight (UTC), so one run keeps the chain going;
:func:`ensure_nightly_choice` starts it when none is waiting, and runs wherever the sweep's
chain is made sure of (``games.hooks.register_chain``: each sweep, each task worker that
starts, ``setup_site``), so a chain never started or lost with its worker comes back. Running it twice, or a page asking for today's puzzle before
it ran, changes nothing: the choice is deterministic and stored once per day and
language (``puzzles.services.daily_puzzle``).
"""

from __future__ import annotations

import logging
from datetime import UTC, date, datetime, time, timedelta

from django_tasks import task
from django_tasks.base import TaskResultStatus

import engine
from games.tasks import enqueue
from puzzles import services

logger = logging.getLogger(__name__)


def next_midnight(day: date) -> datetime:
    return datetime.combine(day + timedelta(days=1), time.min, tzinfo=UTC)


@task()
def choose_daily_puzzles(day: str = "", schedule: bool = False) -> list[int]:
    """Store the puzzles of ``day`` (ISO date; today, UTC, when empty) in every game
    language; with ``schedule``, enqueue the next day's run for its midnight."""
    chosen_day = date.fromisoformat(day) if day else services.today()
    ids = [services.daily_puzzle(chosen_day, language).pk for language in engine.LANGUAGES]
    logger.info("daily puzzles for %s: %s", chosen_day.isoformat(), ids)
    if schedule:
        following = chosen_day + timedelta(days=1)
        enqueue(choose_daily_puzzles, following.isoformat(), True, at=next_midnight(chosen_day))
    return ids


def ensure_nightly_choice() -> bool:
    """Start the nightly chain (today's puzzles now, the next run at midnight, UTC) unless
    a run of it is waiting or under way; whether it enqueued one. Nothing to keep on a
    backend that cannot defer (the tests' immediate one: a page chooses on demand)."""
    from django_tasks_db.models import DBTaskResult

    if not choose_daily_puzzles.get_backend().supports_defer:
        return False
    chain = DBTaskResult.objects.filter(
        task_path=choose_daily_puzzles.module_path,
        status__in=[TaskResultStatus.READY, TaskResultStatus.RUNNING],
    )
    if chain.exists():
        return False
    enqueue(choose_daily_puzzles, services.today().isoformat(), True)
    return True
