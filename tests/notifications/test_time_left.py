"""How long each turn has left, on the lobby and the game page ("2 days 3 h left"), the
deadline itself in the viewer's time zone; the tab's icon marks the player's turn."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone, translation

from games.models import Game
from games.templatetags.clocks import time_left_text
from tests.factories import PASSWORD

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("left", "text"),
    [
        (timedelta(days=2, hours=3, minutes=59), "2 days 3 h left"),
        (timedelta(days=1), "1 day left"),
        (timedelta(hours=3, minutes=20), "3 h 20 min left"),
        (timedelta(minutes=7, seconds=30), "7 min left"),
        (timedelta(seconds=20), "less than a minute left"),
        (timedelta(seconds=-5), "less than a minute left"),
    ],
)
def test_time_left_text(left: timedelta, text: str) -> None:
    assert time_left_text(NOW + left, NOW) == text


def test_time_left_in_french() -> None:
    with translation.override("fr"):
        assert time_left_text(NOW + timedelta(days=2, hours=3), NOW) == "il reste 2 jours 3 h"


@pytest.mark.django_db
def test_lobby_and_game_page_show_the_time_left_and_the_deadline_in_the_viewers_zone(
    ana: Any, game_ana_ben: Game
) -> None:
    deadline = timezone.now() + timedelta(days=2, hours=3, minutes=30)
    Game.objects.filter(pk=game_ana_ben.pk).update(turn_deadline=deadline)
    ana.time_zone = "Asia/Tokyo"
    ana.save()
    client = Client()
    assert client.login(username="ana", password=PASSWORD)
    lobby = client.get("/games/").content.decode()
    assert "2 days 3 h left" in lobby
    page = client.get(f"/games/{game_ana_ben.pk}/").content.decode()
    assert "2 days 3 h left" in page
    tokyo = deadline.astimezone(timezone.get_fixed_timezone(9 * 60)).strftime("%H:%M")
    assert tokyo in page.split("2 days 3 h left")[0].rsplit("<time", 1)[1]
    assert "favicon-turn.svg" in page


@pytest.mark.django_db
def test_sign_up_takes_the_browsers_time_zone(client: Client) -> None:
    page = client.get("/accounts/signup/").content.decode()
    assert 'type="hidden" name="time_zone"' in page
    assert "js/timezone" in page
    data = {"username": "dora", "email": "dora@example.org", "password1": PASSWORD, "password2": PASSWORD}
    assert client.post("/accounts/signup/", {**data, "time_zone": "America/Sao_Paulo"}).status_code == 302
    from accounts.models import User

    assert User.objects.get(username="dora").time_zone == "America/Sao_Paulo"
    other = Client()
    answer = other.post("/accounts/signup/", {**data, "username": "eli", "time_zone": "Nowhere/Atlantis"})
    assert answer.status_code == 302  # an unknown zone is no reason to refuse
    assert User.objects.get(username="eli").time_zone == ""
