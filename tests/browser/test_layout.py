"""The game page's layout (UI.md): on a desktop the board is the largest thing on the screen
and fits the viewport with rack and actions; phones still work; long names and long
translations stay readable; every page has an icon. Screenshots go to test-artifacts/."""

from __future__ import annotations

import time
from typing import Any
from urllib.parse import urljoin

import pytest
from playwright.sync_api import FloatRect, Page, expect

from tests.browser.conftest import in_thread
from tests.factories import make_user
from tests.games.helpers import make_computer_game, make_game

pytestmark = [pytest.mark.browser]

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
LONG_NAME = "Maximilian_von_Habsburg_Lothringen"


def box(page: Page, selector: str) -> FloatRect:
    found = page.locator(selector).first.bounding_box()
    assert found is not None, selector
    return found


def viewport_shot(page: Page, name: str) -> None:
    from tests.browser.conftest import ARTIFACTS

    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"))


def words_unbroken(page: Page, selector: str) -> list[str]:
    """The words of the names in ``selector`` that are broken across lines (each word is
    one inline box: more than one client rect means it wrapped in the middle)."""
    return page.eval_on_selector_all(
        f"{selector} .w",
        "els => els.filter(el => el.getClientRects().length !== 1).map(el => el.textContent)",
    )


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("language", ["en", "de"])
def test_desktop_board_is_the_largest_thing_and_fits_with_rack_and_actions(
    open_page: Any, ana: Any, ben: Any, language: str
) -> None:
    game = in_thread(make_game, ana, ben, racks=("CATSEOD", "AEIOULN"))
    page = open_page(ana, f"/games/{game.pk}/", viewport=DESKTOP, language=language)
    viewport_shot(page, f"layout-desktop-1280x800-{language}")
    board = box(page, "#board .board-grid")
    # About 450 px before; now the window's height decides, less what must fit under it.
    assert board["width"] >= 520
    assert abs(board["width"] - board["height"]) <= 2
    side = box(page, ".side-panels")
    scoreboard = box(page, "#scoreboard")
    assert board["width"] > side["width"]
    assert board["width"] > scoreboard["width"]
    # Board, rack, preview line and action bar are all on screen without scrolling.
    for selector in ("#board", "#rack", "#move-panel .preview-line", "#move-panel .action-bar"):
        found = box(page, selector)
        assert found["y"] >= 0, selector
        assert found["y"] + found["height"] <= DESKTOP["height"], selector
    assert page.evaluate("document.documentElement.scrollWidth") <= DESKTOP["width"]
    assert page.evaluate("window.scrollY") == 0


@pytest.mark.django_db(transaction=True)
def test_phone_layout_keeps_long_names_and_german_readable(open_page: Any, ana: Any) -> None:
    bob = in_thread(make_user, LONG_NAME)
    game = in_thread(make_game, bob, ana, racks=("CATSEOD", "AEIOULN"))
    page = open_page(bob, f"/games/{game.pk}/", viewport=PHONE, touch=True, language="de")
    expect(page.locator("#scoreboard .turn-flag")).to_have_text("Du bist dran")
    # "Du bist dran" on one line; the long name is cut with an ellipsis, never broken
    # in the middle of a word, and stays within its box.
    flag = page.locator("#scoreboard .turn-flag").first
    assert flag.evaluate("el => el.getClientRects().length") == 1
    line_height = flag.evaluate("el => parseFloat(getComputedStyle(el).lineHeight)")
    assert box(page, "#scoreboard .turn-flag")["height"] <= line_height * 1.2
    assert words_unbroken(page, "#scoreboard .name") == []
    name = page.locator("#scoreboard .player").first.locator(".name .w")
    assert name.evaluate("el => el.scrollWidth > el.clientWidth")  # cut, with an ellipsis
    assert name.evaluate("el => getComputedStyle(el).textOverflow") == "ellipsis"
    assert page.locator("#scoreboard .name").first.get_attribute("title") == LONG_NAME
    # A short name is shown whole.
    other = page.locator("#scoreboard .player").nth(1).locator(".name .w")
    assert other.evaluate("el => el.scrollWidth <= el.clientWidth")
    # The phone layout still holds: board across the width, rack and actions in view.
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert box(page, "#board .board-grid")["width"] >= 15 * 23
    for selector in ("#rack", "#move-panel .action-bar"):
        found = box(page, selector)
        assert found["y"] + found["height"] <= PHONE["height"], selector
    viewport_shot(page, "layout-phone-390x844-de-long-name")


@pytest.mark.django_db(transaction=True)
def test_phone_lobby_shows_the_computers_level(open_page: Any, ana: Any, ben: Any) -> None:
    in_thread(make_computer_game, ana, level="medium")
    in_thread(make_game, ana, ben)
    page = open_page(ana, "/games/", viewport=PHONE, touch=True, language="de")
    row = page.locator(".game-row", has_text="Computer")
    expect(row).to_contain_text("(Mittel)")
    # Every word of the opponent's name is shown whole (wrapped between words if needed),
    # once the page has settled: a loaded machine may measure while the lobby's first
    # live update is still being laid out. A word not laid out yet has no box at all (no
    # client rect, and nothing to overflow): it is measured once every word has one.
    deadline = time.monotonic() + 5
    while True:
        truncated = row.locator(".opp .w").evaluate_all(
            "els => els.filter(el => el.scrollWidth > el.clientWidth).map(el => el.textContent)"
        )
        unlaid = page.eval_on_selector_all(
            ".game-row .opp .w", "els => els.filter(el => el.getClientRects().length === 0).length"
        )
        if (not truncated and not unlaid) or time.monotonic() > deadline:
            break
        page.wait_for_timeout(200)
    assert truncated == []
    assert unlaid == 0
    assert words_unbroken(page, ".game-row .opp") == []
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    viewport_shot(page, "lobby-phone-390x844-de")


@pytest.mark.django_db(transaction=True)
def test_every_page_has_an_icon_and_no_request_is_missing(
    open_page: Any, ana: Any, ben: Any, mia: Any
) -> None:
    game = in_thread(make_game, ana, ben)
    missing: list[str] = []
    pages = {
        ana: ["/", "/games/", f"/games/{game.pk}/", f"/games/{game.pk}/replay/", "/words/", "/games/watch/"],
        mia: ["/admin/", "/admin/password_change/"],
    }
    for user, paths in pages.items():
        for path in paths:
            page = open_page(user, path)
            page.on("response", lambda r: missing.append(f"{r.status} {r.url}") if r.status >= 400 else None)
            page.reload(wait_until="networkidle")
            # The icon the page names (the admin names none: the browser asks /favicon.ico).
            hrefs = page.eval_on_selector_all('link[rel~="icon"]', "els => els.map(el => el.href)")
            for href in hrefs or [urljoin(page.url, "/favicon.ico")]:
                response = page.request.get(href)
                assert response.status == 200, (path, href)
                assert response.headers["content-type"].startswith("image/"), (path, href)
    assert missing == []
