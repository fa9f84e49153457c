"""Vacation: inactivity clocks stand still, up to a yearly allowance (a setting)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from accounts.services import (
    AccountError,
    end_vacation,
    on_vacation,
    overlap_seconds,
    paused_seconds,
    start_vacation,
    vacation_status,
)

DAY = 86400.0
T0 = datetime(2026, 3, 1, 12, tzinfo=UTC)


@pytest.mark.pure
def test_overlap_seconds() -> None:
    periods = [(T0, T0 + timedelta(days=2)), (T0 + timedelta(days=5), T0 + timedelta(days=6))]
    assert overlap_seconds(periods, T0 - timedelta(days=1), T0 + timedelta(days=10)) == 3 * DAY
    assert overlap_seconds(periods, T0 + timedelta(days=1), T0 + timedelta(days=5, hours=12)) == 1.5 * DAY
    assert overlap_seconds(periods, T0 + timedelta(days=3), T0 + timedelta(days=4)) == 0
    assert overlap_seconds([], T0, T0 + timedelta(days=1)) == 0


@pytest.mark.django_db
def test_vacation_pauses_the_clock_until_the_player_is_back(ana: Any) -> None:
    start_vacation(user=ana, now=T0)
    assert on_vacation(ana, T0 + timedelta(days=1)) is not None
    end_vacation(user=ana, now=T0 + timedelta(days=3))
    assert on_vacation(ana, T0 + timedelta(days=4)) is None
    # A deadline set a day before the vacation, looked at a week later: 3 days paused.
    assert paused_seconds(ana, T0 - timedelta(days=1), T0 + timedelta(days=7)) == 3 * DAY
    assert paused_seconds(ana, T0 + timedelta(days=1), T0 + timedelta(days=2)) == DAY
    assert paused_seconds(None, T0, T0 + timedelta(days=1)) == 0


@pytest.mark.django_db
def test_the_yearly_allowance_caps_vacations(ana: Any, settings: Any) -> None:
    settings.VACATION_DAYS_PER_YEAR = 10
    start_vacation(user=ana, now=T0)
    end_vacation(user=ana, now=T0 + timedelta(days=4))
    second = start_vacation(user=ana, now=T0 + timedelta(days=20))
    assert second.ends_by == T0 + timedelta(days=26)  # 6 days left
    # Never back: the clocks start again when the allowance runs out.
    status = vacation_status(ana, T0 + timedelta(days=40))
    assert status.used == timedelta(days=10)
    assert status.remaining == timedelta()
    assert not status.on_vacation
    assert paused_seconds(ana, T0, T0 + timedelta(days=60)) == 10 * DAY
    with pytest.raises(AccountError, match="no_vacation_left"):
        start_vacation(user=ana, now=T0 + timedelta(days=50))
    # A new year, a new allowance.
    assert vacation_status(ana, datetime(2027, 1, 2, tzinfo=UTC)).remaining == timedelta(days=10)


@pytest.mark.django_db
def test_refusals(ana: Any) -> None:
    with pytest.raises(AccountError, match="not_on_vacation"):
        end_vacation(user=ana, now=T0)
    start_vacation(user=ana, now=T0)
    with pytest.raises(AccountError, match="on_vacation"):
        start_vacation(user=ana, now=T0 + timedelta(hours=1))


@pytest.mark.django_db
def test_vacation_page_and_opponents_see_it_on_the_profile(client: Client, ana: Any, ben: Any) -> None:
    client.force_login(ana)
    page = client.get(reverse("vacation")).content.decode()
    assert "21 days of vacation a year" in page
    response = client.post(reverse("vacation"), {"action": "start"}, follow=True)
    assert "I am back" in response.content.decode()
    refused = client.post(reverse("vacation"), {"action": "start"}, follow=True)
    assert "You are already on vacation." in refused.content.decode()
    client.force_login(ben)
    assert "On vacation until" in client.get(reverse("players:profile", args=["ana"])).content.decode()
    client.force_login(ana)
    client.post(reverse("vacation"), {"action": "end"})
    client.force_login(ben)
    assert "On vacation until" not in client.get(reverse("players:profile", args=["ana"])).content.decode()


@pytest.mark.django_db
def test_an_unknown_vacation_action_is_refused(client: Client, ana: Any) -> None:
    client.force_login(ana)
    assert client.post(reverse("vacation"), {"action": "forever"}).status_code == 400
    assert on_vacation(ana) is None
