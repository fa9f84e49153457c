"""A daily puzzle streak about to end is recalled, once, through the notification path:
to each player who answered yesterday's puzzle on its day and not yet today's, in their
own language, never to one in their quiet hours."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from typing import Any

import pytest
from django.urls import reverse
from django.utils import translation

import engine
from notifications.models import Kind, Notification
from notifications.texts import as_recipient, render
from puzzles import services, tasks

pytestmark = pytest.mark.django_db

DAY = date(2026, 11, 27)


def answer(user: Any, day: date, *, on: date | None = None) -> None:
    puzzle = services.daily_puzzle(day, "en")
    tiles = puzzle.top[0]["tiles"]
    services.submit(
        puzzle=puzzle,
        user=user,
        placements=[engine.Placement(r, c, ch.upper(), ch.islower()) for r, c, ch in tiles],
        now=datetime.combine(on or day, datetime.min.time(), tzinfo=UTC) + timedelta(hours=12),
    )


def test_an_open_streak_is_recalled_once_and_a_closed_or_kept_one_is_not(
    ana: Any, ben: Any, cleo: Any, mia: Any, settings: Any
) -> None:
    ana.interface_language = "sv"
    ana.save(update_fields=["interface_language"])
    for day in (DAY - timedelta(days=2), DAY - timedelta(days=1)):
        answer(ana, day)  # two days in a row, not today's yet: recalled
        answer(ben, day)
    answer(ben, DAY)  # today's answered: nothing to recall
    answer(cleo, DAY - timedelta(days=2))  # missed yesterday: no streak left to keep
    answer(mia, DAY - timedelta(days=1), on=DAY)  # yesterday's, answered late: not on its day

    assert services.streaks_to_remind(DAY) == [(ana.pk, "en", 2)]
    assert tasks.remind_streaks.call(DAY.isoformat()) == 1
    assert tasks.remind_streaks.call(DAY.isoformat()) == 0  # run again: nobody told twice
    sent = Notification.objects.get(kind=Kind.PUZZLE_STREAK)
    assert sent.recipient_id == ana.pk
    assert sent.path == reverse("puzzles:daily", args=["en"])
    with as_recipient(ana):
        text = render(sent)
        assert translation.get_language() == "sv"
    assert "(2)" in text.title
    assert text.title != "Your daily puzzle streak (2) ends at midnight UTC"  # in Swedish


def clock_at(monkeypatch: pytest.MonkeyPatch, when: datetime) -> None:
    monkeypatch.setattr("django.utils.timezone.now", lambda: when)


def test_a_player_in_their_quiet_hours_is_not_woken_for_a_streak(
    ana: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    answer(ana, DAY - timedelta(days=1))
    ana.quiet_hours_start, ana.quiet_hours_end, ana.time_zone = 22, 7, "Asia/Tokyo"
    ana.save(update_fields=["quiet_hours_start", "quiet_hours_end", "time_zone"])
    clock_at(monkeypatch, datetime(2026, 11, 27, 20, 0, tzinfo=UTC))  # 05:00 in Tokyo
    assert tasks.remind_streaks.call(DAY.isoformat()) == 0
    clock_at(monkeypatch, datetime(2026, 11, 27, 14, 0, tzinfo=UTC))  # 23:00 in Tokyo: quiet too
    assert tasks.remind_streaks.call(DAY.isoformat()) == 0
    clock_at(monkeypatch, datetime(2026, 11, 27, 10, 0, tzinfo=UTC))  # 19:00 in Tokyo
    assert tasks.remind_streaks.call(DAY.isoformat()) == 1


def test_the_nightly_choice_schedules_the_days_reminder(
    settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from django_tasks_db.models import DBTaskResult

    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend", "QUEUES": ["default"]}}
    clock_at(monkeypatch, datetime(2026, 11, 27, 0, 1, tzinfo=UTC))
    tasks.choose_daily_puzzles.call(DAY.isoformat(), True)
    reminder = DBTaskResult.objects.get(task_path=tasks.remind_streaks.module_path)
    assert reminder.run_after == datetime(2026, 11, 27, 20, 0, tzinfo=UTC)
    assert reminder.args_kwargs["args"] == [DAY.isoformat()]
