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

from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django_tasks import task
from django_tasks.base import TaskResultStatus

import engine
from accounts.models import User
from games.tasks import chain_missing, enqueue
from puzzles import services

logger = logging.getLogger(__name__)


#: When a streak still open that day is recalled (UTC): four hours before it would end.
STREAK_REMINDER_AT = time(20, 0)


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
        reminder = datetime.combine(chosen_day, STREAK_REMINDER_AT, tzinfo=UTC)
        if reminder > timezone.now():  # a chain started later that day recalls nobody
            enqueue(remind_streaks, chosen_day.isoformat(), at=reminder)
    return ids


@task()
def remind_streaks(day: str) -> int:
    """Tell each player whose streak is still open on ``day`` (they answered the day
    before's puzzle, not yet this one) that it ends at midnight, UTC: one notification per
    player and language, through the notification path (the bell, and push by default).
    Nobody is told twice on one day (a task run again); a player in their quiet hours is
    not woken for it (the reminder would be held past the streak's end). Returns how many
    were told."""
    from notifications.models import Kind, Notification
    from notifications.quiet import quiet_until
    from notifications.services import Note, notify_each

    reminded_day = date.fromisoformat(day)
    open_streaks = services.streaks_to_remind(reminded_day)
    users = User.objects.in_bulk({user_id for user_id, _, _ in open_streaks})
    told = set(
        Notification.objects.filter(kind=Kind.PUZZLE_STREAK, params__day=day).values_list(
            "recipient_id", "params__language"
        )
    )
    now = timezone.now()
    notes = [
        Note(
            recipient_id=user_id,
            kind=Kind.PUZZLE_STREAK,
            params={"day": day, "language": language, "days": days},
            path=reverse("puzzles:daily", args=[language]),
        )
        for user_id, language, days in open_streaks
        if (user_id, language) not in told and quiet_until(users[user_id], now) is None
    ]
    with transaction.atomic():
        notify_each(notes)
    logger.info("daily puzzle streaks recalled for %s: %s", day, len(notes))
    return len(notes)


def ensure_nightly_choice() -> bool:
    """Start the nightly chain (today's puzzles now, the next run at midnight, UTC) unless
    a run of it is waiting or under way; whether it enqueued one. Nothing to keep on a
    backend that cannot defer (the tests' immediate one: a page chooses on demand)."""
    if not chain_missing(choose_daily_puzzles, TaskResultStatus.READY, TaskResultStatus.RUNNING):
        return False
    enqueue(choose_daily_puzzles, services.today().isoformat(), True)
    return True
