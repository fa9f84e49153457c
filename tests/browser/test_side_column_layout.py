"""The rack and the action bar sit under the board on every screen, however much the side
column holds: a bought tile bag, all three paid extras and 40 lines of chat (issue 26). The
side column scrolls on its own instead of stretching the board's rows, and the footer never
runs over it (game, replay and analysis pages)."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page

from accounts.services import grant_coins
from games import extras
from games.models import Game
from games.services import buy_extra
from tests.browser.conftest import ARTIFACTS, in_thread
from tests.games.helpers import CAT_AT_CENTRE, make_game

pytestmark = [pytest.mark.browser]

SIZES = [(1280, 800), (1366, 768), (1920, 1080), (390, 844)]


def crowded_game(ana: Any, ben: Any) -> Game:
    """ana to move, with the tile bag, word strength and hindsight bought and 40 chat lines."""
    game = make_game(ana, ben, racks=("CATSEOD", "AEIOULN"))
    game.play(ana, CAT_AT_CENTRE, version=game.version)
    game.pass_turn(ben, version=game.version)
    grant_coins(user=ana, amount=200, reason="test")
    for extra in (extras.TILE_BAG, extras.WORD_STRENGTH, extras.HINDSIGHT):
        game = Game.objects.get(pk=game.pk)
        buy_extra(game=game, user=ana, extra=extra, version=game.version)
    for n in range(40):
        game.post_chat(ana if n % 2 else ben, f"Line {n + 1} of a long conversation about the game so far")
    return Game.objects.get(pk=game.pk)


def shot(page: Page, name: str) -> None:
    """The viewport as the player sees it (a full-page capture lays the page out again
    in a taller window)."""
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"))


def inside_viewport(page: Page, selector: str) -> dict[str, float]:
    return page.evaluate(
        """(selector) => {
            const r = document.querySelector(selector).getBoundingClientRect();
            return {top: r.top, bottom: r.bottom, left: r.left, right: r.right,
                    width: innerWidth, height: innerHeight};
        }""",
        selector,
    )


def footer_clear_of_side_column(page: Page) -> bool:
    return page.evaluate(
        """() => {
            const side = document.querySelector('.side-panels').getBoundingClientRect();
            const footer = document.querySelector('.site-footer').getBoundingClientRect();
            return footer.top >= side.bottom - 0.5;
        }"""
    )


@pytest.mark.django_db(transaction=True)
def test_rack_and_play_stay_in_view_beside_a_crowded_side_column(open_page: Any, ana: Any, ben: Any) -> None:
    game = in_thread(crowded_game, ana, ben)
    for width, height in SIZES:
        page = open_page(ana, f"/games/{game.pk}/", viewport={"width": width, "height": height})
        page.wait_for_selector("#extras .tile-bag")
        shot(page, f"side-column-{width}x{height}")
        for selector in ("#move-panel .play-button", "#rack"):
            r = inside_viewport(page, selector)
            where = (width, height, selector, r)
            assert r["top"] >= 0, where
            assert r["bottom"] <= r["height"], where
            assert r["left"] >= 0, where
            assert r["right"] <= r["width"], where
        if width >= 900:
            # Directly under the board: no gap left by a stretched row.
            gap = page.evaluate(
                """() => document.querySelector('.controls').getBoundingClientRect().top
                         - document.querySelector('#board').getBoundingClientRect().bottom"""
            )
            assert gap < 24, (width, height, gap)
        assert footer_clear_of_side_column(page), (width, height)


@pytest.mark.django_db(transaction=True)
def test_footer_never_runs_over_the_replay_or_analysis_column(open_page: Any, ana: Any, ben: Any) -> None:
    game = in_thread(make_game, ana, ben, racks=("CATSEOD", "AEIOULN"))
    in_thread(game.play, ana, CAT_AT_CENTRE, version=game.version)
    for _ in range(6):
        in_thread(game.pass_turn, ben if game.turn_seat == 1 else ana, version=game.version)
        if game.status != "active":
            break
    if game.status == "active":
        in_thread(game.resign, ana, version=game.version)
    for path in (f"/games/{game.pk}/replay/", f"/games/{game.pk}/analysis/"):
        for width, height in SIZES[:2]:
            page = open_page(ana, path, viewport={"width": width, "height": height})
            assert footer_clear_of_side_column(page), (path, width)
            # The move list or analysis sits beside the position, not below it.
            beside = page.evaluate(
                """() => {
                    const side = document.querySelector('.side-panels').getBoundingClientRect();
                    const board = document.querySelector('#replay').getBoundingClientRect();
                    return side.top < board.bottom && side.left >= board.right - 1;
                }"""
            )
            assert beside, (path, width)
            shot(page, f"side-column{path.replace('/', '-')}{width}")
