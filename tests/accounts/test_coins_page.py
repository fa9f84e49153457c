"""The coins page (the player's statement) and the balance in the page header."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils.translation import gettext_lazy

from accounts.reasons import register_reason
from accounts.services import adjust_coins, grant_coins, refund_coins, spend_coins


@pytest.fixture(autouse=True)
def _no_daily_bonus(settings: Any) -> None:
    settings.COINS_DAILY_BONUS = 0


def total(html: str, name: str) -> str:
    match = re.search(rf'<dd class="{name}">([^<]*)</dd>', html)
    assert match, name
    return match.group(1)


@pytest.mark.django_db
def test_statement_shows_totals_balance_and_entries(client: Client, ana: Any, ben: Any, mia: Any) -> None:
    register_reason("extra:tile_bag", gettext_lazy("Tile bag"))
    grant_coins(user=ana, amount=50, reason="signup", reference="signup")
    bag = spend_coins(user=ana, amount=5, reason="extra:tile_bag", reference="game:4:turn:2")
    spend_coins(user=ana, amount=5, reason="extra:tile_bag", reference="game:4:turn:4")
    refund_coins(entry=bag)
    adjust_coins(user=ana, amount=-7, note="Duplicate welcome coins", by=mia)
    grant_coins(user=ben, amount=999, reason="signup", reference="signup")
    client.force_login(ana)
    html = client.get(reverse("coins")).text
    assert (
        total(html, "earned"),
        total(html, "spent"),
        total(html, "refunded"),
        total(html, "adjusted"),
    ) == (
        "50",
        "10",
        "5",
        "-7",
    )
    assert '<dd id="statement-balance">38</dd>' in html
    assert "Welcome coins" in html
    assert html.count("Tile bag") == 3  # two purchases and the refund naming it
    assert "Refund: Tile bag" in html
    assert "Duplicate welcome coins" in html
    assert ">+999<" not in html  # only the player's own entries (a timestamp may hold 999)
    rows = re.findall(r'<td class="num amount">([^<]*)</td>\s*<td class="num">(\d+)</td>', html)
    assert rows == [("-7", "38"), ("+5", "45"), ("-5", "40"), ("-5", "45"), ("+50", "50")]


@pytest.mark.django_db
def test_statement_pages_through_many_entries(client: Client, ana: Any) -> None:
    for n in range(60):
        grant_coins(user=ana, amount=1, reason="test", reference=f"r{n}")
    client.force_login(ana)
    first = client.get(reverse("coins")).text
    assert first.count('class="entry earned"') == 50
    assert "Page 1 of 2" in first
    second = client.get(reverse("coins"), {"page": 2}).text
    assert second.count('class="entry earned"') == 10
    assert client.get(reverse("coins"), {"page": "x"}).status_code == 200


@pytest.mark.django_db
def test_a_new_player_sees_an_empty_statement(client: Client, ana: Any) -> None:
    client.force_login(ana)
    html = client.get(reverse("coins")).text
    assert "No coins have come in or gone out yet." in html
    assert '<dd id="statement-balance">0</dd>' in html


@pytest.mark.django_db
def test_coins_page_needs_a_login(client: Client) -> None:
    response = client.get(reverse("coins"))
    assert response.status_code == 302
    assert reverse("login") in response["Location"]
    assert client.post(reverse("coins")).status_code == 405


@pytest.mark.django_db
def test_header_shows_the_balance_and_opens_the_players_socket(client: Client, ana: Any) -> None:
    grant_coins(user=ana, amount=42, reason="test")
    client.force_login(ana)
    html = client.get(reverse("dictionaries:lookup")).text
    assert re.search(r'<a id="coin-balance"[^>]*href="/accounts/coins/"[^>]*data-coins="42"', html)
    assert "42 coins, your statement" in html
    assert 'ws-connect="/ws/user/"' in html


@pytest.mark.django_db
def test_visitors_see_no_balance(client: Client) -> None:
    html = client.get(reverse("home")).text
    assert 'id="coin-balance"' not in html
    assert "/ws/user/" not in html


@pytest.mark.django_db
def test_header_balance_in_french(client: Client, ana: Any) -> None:
    grant_coins(user=ana, amount=1, reason="test")
    client.force_login(ana)
    html = client.get(reverse("coins"), headers={"accept-language": "fr"}).text
    assert "1 pièce, votre relevé" in html
    assert "Vos pièces" in html
