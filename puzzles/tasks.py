"""The nightly choice of the daily puzzles (django-tasks).

``choose_daily_puzzles`` stores the puzzle of a UTC day in every game language and
defers itself to the next midnight (UTC), so one run keeps the chain going; ``manage.py
daily_puzzles`` starts it. Running it twice, or a page asking for today's puzzle before
it ran, changes nothing: the choice is deterministic and stored once per day and
language (``puzzles.services.daily_puzzle``).
"""

from __future__ import annotations

import logging
from datetime import UTC, date, datetime, time, timedelta

from django_tasks import task

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
