"""Quiet hours in the player's time zone hold pushes that are not urgent until they end."""

from __future__ import annotations

import zoneinfo
from datetime import datetime
from typing import Any

import pytest
from django.test import Client

from notifications import push
from notifications.models import Delivery, Kind, PushSubscription
from notifications.quiet import quiet_until
from notifications.services import notify
from notifications.tasks import dispatch
from tests.factories import PASSWORD

STOCKHOLM = zoneinfo.ZoneInfo("Europe/Stockholm")


class Player:
    time_zone = "Europe/Stockholm"
    quiet_hours_start = 22
    quiet_hours_end = 7


def test_quiet_until_in_the_players_time_zone() -> None:
    late = datetime(2026, 6, 1, 23, 30, tzinfo=STOCKHOLM)
    assert quiet_until(Player(), late) == datetime(2026, 6, 2, 7, 0, tzinfo=STOCKHOLM)
    early = datetime(2026, 6, 2, 6, 59, tzinfo=STOCKHOLM)
    assert quiet_until(Player(), early) == datetime(2026, 6, 2, 7, 0, tzinfo=STOCKHOLM)
    assert quiet_until(Player(), datetime(2026, 6, 2, 7, 0, tzinfo=STOCKHOLM)) is None
    assert quiet_until(Player(), datetime(2026, 6, 2, 12, 0, tzinfo=STOCKHOLM)) is None
    day = Player()
    day.quiet_hours_start, day.quiet_hours_end = 13, 15
    assert quiet_until(day, datetime(2026, 6, 2, 14, 10, tzinfo=STOCKHOLM)) == datetime(
        2026, 6, 2, 15, 0, tzinfo=STOCKHOLM
    )


@pytest.mark.django_db
def test_a_push_waits_for_the_morning_but_time_running_out_does_not(
    ben: Any, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from django_tasks_db.models import DBTaskResult

    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend", "QUEUES": ["default"]}}
    settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY = push.new_vapid_keys()
    ben.time_zone, ben.quiet_hours_start, ben.quiet_hours_end = "Europe/Stockholm", 22, 7
    ben.save()
    PushSubscription.objects.create(user=ben, endpoint="https://93.184.216.34/p", p256dh="x", auth="y")
    night = datetime(2026, 6, 1, 23, 30, tzinfo=STOCKHOLM)
    monkeypatch.setattr("notifications.tasks.timezone.now", lambda: night)
    chat = notify(recipient_ids=[ben.pk], kind=Kind.CHAT, params={"game": 3, "who": "ana", "text": "hi"})
    warning = notify(
        recipient_ids=[ben.pk], kind=Kind.DEADLINE_WARNING, params={"game": 3, "who": "ana", "deadline": ""}
    )
    dispatch.call(chat + warning)
    held = Delivery.objects.get(notification_id=chat[0])
    urgent = Delivery.objects.get(notification_id=warning[0])
    runs = {
        r.args_kwargs["args"][0]: r.run_after
        for r in DBTaskResult.objects.filter(task_path="notifications.tasks.deliver")
    }
    assert runs[held.pk] == datetime(2026, 6, 2, 7, 0, tzinfo=STOCKHOLM)
    assert runs[urgent.pk].year == 9999  # due at once


@pytest.mark.django_db
def test_quiet_hours_in_the_settings(ana: Any) -> None:
    client = Client()
    assert client.login(username="ana", password=PASSWORD)
    half = client.post("/accounts/notifications/", {"email": ana.email, "quiet_hours_start": "22"})
    assert half.status_code == 200  # both ends or neither
    ana.refresh_from_db()
    assert ana.quiet_hours_start is None
    client.post(
        "/accounts/notifications/", {"email": ana.email, "quiet_hours_start": "22", "quiet_hours_end": "7"}
    )
    ana.refresh_from_db()
    assert (ana.quiet_hours_start, ana.quiet_hours_end) == (22, 7)
