"""What players earn: sign-up, finished games and wins, the daily bonus."""

from __future__ import annotations

from datetime import UTC, date, datetime
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from accounts import reasons
from accounts.models import CoinEntry, User
from accounts.services import CoinError, award_game_coins, grant_daily_bonus


@pytest.fixture
def earnings(settings: Any) -> Any:
    settings.COINS_SIGNUP = 50
    settings.COINS_DAILY_BONUS = 5
    settings.COINS_GAME_FINISHED = 4
    settings.COINS_GAME_WON = 6
    settings.COINS_GAME_MIN_MOVES = 3
    return settings


def coins(user: Any) -> int:
    return User.objects.get(pk=user.pk).coins


def signup_form(name: str) -> dict[str, str]:
    """A valid sign-up for ``name``."""
    return {
        "username": name,
        "email": f"{name}@example.org",
        "password1": "a-long-pass-9",
        "password2": "a-long-pass-9",
    }


@pytest.mark.django_db
def test_signup_grants_the_welcome_coins(client: Client, earnings: Any) -> None:
    answer = client.post(reverse("signup"), signup_form("dora"), follow=True)
    assert answer.redirect_chain[0][1] == 302
    dora = User.objects.get(username="dora")
    entry = CoinEntry.objects.get(user=dora, reason=reasons.SIGNUP)
    assert entry.amount == 50
    # The page the new player lands on says the account is there, and what it holds.
    assert (
        "Welcome, dora! Your account is ready, with 50 coins to spend on extras." in answer.content.decode()
    )
    # The first page of the day (the one landed on) adds the daily bonus on top, once.
    client.get(reverse("home"))
    client.get(reverse("home"))
    assert coins(dora) == 55


@pytest.mark.django_db
def test_signup_without_welcome_coins_greets_without_a_count(client: Client, earnings: Any) -> None:
    earnings.COINS_SIGNUP = 0
    page = client.post(reverse("signup"), signup_form("eli"), follow=True).content.decode()
    assert "Welcome, eli! Your account is ready." in page
    assert "to spend on extras" not in page


@pytest.mark.django_db
def test_a_refused_signup_grants_nothing(client: Client, earnings: Any) -> None:
    data = {"username": "dora", "email": "d@example.org", "password1": "short", "password2": "other"}
    assert client.post(reverse("signup"), data).status_code == 200
    assert not CoinEntry.objects.exists()


@pytest.mark.django_db
def test_finished_game_pays_both_players_and_the_winner_more(ana: Any, ben: Any, earnings: Any) -> None:
    entries = award_game_coins(players=[ana, ben], moves_by_player=[5, 4], winner=ben, reference="game:9")
    assert sorted((e.user.username, e.reason, e.amount) for e in entries) == [
        ("ana", reasons.GAME_FINISHED, 4),
        ("ben", reasons.GAME_FINISHED, 4),
        ("ben", reasons.GAME_WON, 6),
    ]
    assert (coins(ana), coins(ben)) == (4, 10)
    # The game-over path run twice (a retried task) pays nothing more.
    award_game_coins(players=[ana, ben], moves_by_player=[5, 4], winner=ben, reference="game:9")
    assert (coins(ana), coins(ben)) == (4, 10)


@pytest.mark.django_db
def test_a_draw_pays_only_for_the_game(ana: Any, ben: Any, earnings: Any) -> None:
    award_game_coins(players=[ana, ben], moves_by_player=[3, 3], winner=None, reference="game:10")
    assert (coins(ana), coins(ben)) == (4, 4)


@pytest.mark.django_db
def test_resigning_at_once_earns_nothing_for_either_player(ana: Any, ben: Any, earnings: Any) -> None:
    assert award_game_coins(players=[ana, ben], moves_by_player=[3, 2], winner=ana, reference="game:11") == []
    assert (coins(ana), coins(ben)) == (0, 0)
    assert not CoinEntry.objects.exists()


@pytest.mark.django_db
def test_a_game_against_the_computer_pays_the_human(ana: Any, earnings: Any) -> None:
    award_game_coins(players=[None, ana], moves_by_player=[6, 6], winner=ana, reference="game:12")
    assert coins(ana) == 10


@pytest.mark.django_db
def test_bad_game_results_are_refused(ana: Any, ben: Any, cleo: Any, earnings: Any) -> None:
    with pytest.raises(CoinError):
        award_game_coins(players=[ana, ben], moves_by_player=[5], winner=None, reference="game:1")
    with pytest.raises(CoinError):
        award_game_coins(players=[ana, ben], moves_by_player=[5, 5], winner=cleo, reference="game:1")
    with pytest.raises(CoinError):
        award_game_coins(players=[ana, ben], moves_by_player=[5, 5], winner=None, reference="")
    assert not CoinEntry.objects.exists()


@pytest.mark.django_db
def test_an_earning_set_to_zero_is_switched_off(ana: Any, ben: Any, earnings: Any) -> None:
    earnings.COINS_GAME_FINISHED = 0
    entries = award_game_coins(players=[ana, ben], moves_by_player=[5, 5], winner=ana, reference="game:2")
    assert [(e.user, e.reason) for e in entries] == [(ana, reasons.GAME_WON)]
    earnings.COINS_DAILY_BONUS = 0
    assert grant_daily_bonus(user=ana, today=date(2026, 1, 1)) is None


@pytest.mark.django_db
def test_daily_bonus_once_per_utc_day(ana: Any, earnings: Any) -> None:
    monday, tuesday = date(2026, 11, 23), date(2026, 11, 24)
    assert grant_daily_bonus(user=ana, today=monday) is not None
    assert grant_daily_bonus(user=ana, today=monday) is None
    # A stale copy of the user (another request's) is caught by the locked re-read.
    stale = User.objects.get(pk=ana.pk)
    stale.last_daily_bonus = None
    assert grant_daily_bonus(user=stale, today=monday) is None
    assert grant_daily_bonus(user=ana, today=tuesday) is not None
    assert coins(ana) == 10
    assert list(
        CoinEntry.objects.filter(user=ana, reason=reasons.DAILY_BONUS)
        .order_by("pk")
        .values_list("reference", flat=True)
    ) == ["2026-11-23", "2026-11-24"]


@pytest.mark.django_db
def test_first_page_of_the_day_grants_the_bonus_and_says_so(
    client: Client, ana: Any, earnings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from django.utils import timezone

    now = datetime(2026, 11, 24, 23, 59, tzinfo=UTC)
    monkeypatch.setattr(timezone, "now", lambda: now)
    client.force_login(ana)
    first = client.get(reverse("home"))
    assert "Daily bonus: 5 coins." in first.text
    assert 'data-coins="5"' in first.text  # the header already shows it
    second = client.get(reverse("home"))
    assert "Daily bonus" not in second.text
    assert coins(ana) == 5
    # One minute later it is another UTC day.
    now = datetime(2026, 11, 25, 0, 0, tzinfo=UTC)
    client.get(reverse("home"))
    assert coins(ana) == 10


@pytest.mark.django_db
def test_visitors_get_no_bonus(client: Client, earnings: Any) -> None:
    assert client.get(reverse("home")).status_code == 200
    assert not CoinEntry.objects.exists()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("close_db_connection")
async def test_daily_bonus_under_asgi_once(async_client: Any, ana: Any, earnings: Any) -> None:
    """The middleware's async path (Daphne) grants the bonus the same way, once."""
    await async_client.aforce_login(ana)
    first = await async_client.get(reverse("home"))
    assert "Daily bonus: 5 coins." in first.content.decode()
    second = await async_client.get(reverse("home"))
    assert "Daily bonus" not in second.content.decode()
    assert await User.objects.filter(pk=ana.pk).values_list("coins", flat=True).aget() == 5
