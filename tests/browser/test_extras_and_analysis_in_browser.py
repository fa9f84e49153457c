"""Paid extras and the post-game analysis in a real browser (issues 10 and 17)."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from accounts.services import grant_coins
from tests.browser.conftest import CHROMIUM, browser, in_thread, live_db, open_page, server_url
from tests.games.helpers import CAT_AT_CENTRE, make_computer_game, make_game

__all__ = ["browser", "live_db", "open_page", "server_url"]  # the fixtures used below

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not CHROMIUM.exists(), reason=f"{CHROMIUM} is not installed (apt-get install chromium)"
    ),
]


def balance(page: Page) -> int:
    return int(page.locator("#coin-balance").get_attribute("data-coins") or "")


@pytest.mark.django_db(transaction=True)
def test_buying_the_tile_bag_and_hindsight_drops_the_balance_live(open_page: Any, ana: Any, ben: Any) -> None:
    in_thread(grant_coins, user=ana, amount=40, reason="test")
    game = in_thread(make_game, ana, ben, racks=("CATSEOD", "JQXZKVW"))
    page = open_page(ana, f"/games/{game.pk}/")
    before = balance(page)
    page.locator('#extras button[data-extra="tile_bag"]').click()
    expect(page.locator("#extras .tile-bag")).to_be_visible()
    expect(page.locator("#coin-balance")).to_have_attribute("data-coins", str(before - 5))
    expect(page.locator("#aids")).to_contain_text("Tile bag")
    # ana plays (from another device, here on the server: the test process and the
    # server share the database, not the channel layer) and comes back to the page:
    # hindsight for that move is on sale now.
    fresh = in_thread(lambda: type(game).objects.get(pk=game.pk))
    in_thread(fresh.play, ana, CAT_AT_CENTRE, version=fresh.version)
    page.reload()
    page.wait_for_selector('#game[data-live="true"]', state="attached")
    hindsight = page.locator('#extras button[data-extra="hindsight"]')
    expect(hindsight).to_be_visible()
    hindsight.click()
    expect(page.locator("#extras .hindsight .mini-board")).to_be_visible()
    expect(page.locator("#coin-balance")).to_have_attribute("data-coins", str(before - 15))


@pytest.mark.django_db(transaction=True)
def test_a_game_against_the_computer_ends_and_its_analysis_opens(open_page: Any, ana: Any) -> None:
    game = in_thread(make_computer_game, ana, level="easy", racks=("CATSEOD", "DOGSEAT"))
    in_thread(game.play, ana, CAT_AT_CENTRE, version=game.version)  # the computer answers at once
    page = open_page(ana, f"/games/{game.pk}/")
    page.locator(".more-menu summary").click()
    page.locator('[data-dialog="resign-dialog"]').click()
    page.locator('#resign-dialog button[data-action="confirm-resign"]').click()
    expect(page.locator("#game-over .banner")).to_be_visible()
    page.locator("#game-over a", has_text="Analysis").click()
    expect(page.locator("#analysis .analysis-moves li").first).to_be_visible()
    expect(page.locator("#analysis")).to_contain_text("rank")
    page.locator("#analysis .analysis-moves a.num").first.click()
    expect(page.locator("#replay")).to_have_attribute("data-step", "1")
