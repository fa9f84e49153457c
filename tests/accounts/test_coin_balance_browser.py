"""The header's balance in a real browser: a staff member grants coins in the admin and
the player's open page shows them at once, on any page; the header's own socket does
not disturb the game page's connection state."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import CHROMIUM, browser, in_thread, live_db, open_page, server_url
from tests.factories import make_user
from tests.games.helpers import make_game

__all__ = ["browser", "live_db", "open_page", "server_url"]  # the fixtures used below

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not CHROMIUM.exists(), reason=f"{CHROMIUM} is not installed (apt-get install chromium)"
    ),
]


def shown(page: Page) -> int:
    return int(page.locator("#coin-balance").get_attribute("data-coins") or "")


def grant_in_the_admin(admin: Page, username: str, amount: int, note: str) -> None:
    admin.goto(admin.url.split("/admin/")[0] + "/admin/accounts/user/")
    admin.locator("tr", has_text=username).locator("input.action-select").check()
    admin.select_option("select[name=action]", "adjust_coins_action")
    admin.locator("button[name=index]").click()
    admin.fill("input[name=amount]", str(amount))
    admin.fill("input[name=note]", note)
    admin.locator("input[type=submit]").click()
    expect(admin.locator(".messagelist")).to_contain_text("balance now")


@pytest.mark.django_db(transaction=True)
def test_a_grant_in_the_admin_shows_at_once_in_the_players_header(open_page: Any, ana: Any) -> None:
    boss = in_thread(make_user, "boss", is_staff=True, is_superuser=True)
    page = open_page(ana, "/words/")
    before = shown(page)  # the first page of the day may have added the daily bonus
    grant_in_the_admin(open_page(boss, "/admin/"), "ana", 12, "Tournament prize")
    expect(page.locator("#coin-balance")).to_have_attribute("data-coins", str(before + 12))
    expect(page.locator("#coin-balance")).to_contain_text(str(before + 12))


@pytest.mark.django_db(transaction=True)
def test_game_page_balance_is_live_and_keeps_the_games_connection_state(
    open_page: Any, ana: Any, ben: Any
) -> None:
    boss = in_thread(make_user, "boss", is_staff=True, is_superuser=True)
    game = in_thread(make_game, ana, ben)
    page = open_page(ana, f"/games/{game.pk}/")  # waits for the game's own socket
    before = shown(page)
    grant_in_the_admin(open_page(boss, "/admin/"), "ana", 3, "Sorry for the outage")
    expect(page.locator("#coin-balance")).to_have_attribute("data-coins", str(before + 3))
    # The header socket closing is not the game's connection closing.
    page.evaluate(
        "document.getElementById('user-socket').dispatchEvent("
        "new CustomEvent('htmx:wsClose', {bubbles: true, detail: {}}))"
    )
    expect(page.locator("#game")).to_have_attribute("data-live", "true")
    expect(page.locator("#connection-note")).to_be_hidden()
