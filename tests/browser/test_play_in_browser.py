"""Playing in the browser, end to end: two players live, the computer to the end, a phone.

Each test drives Debian's Chromium against a Daphne server (see conftest.py). The words
used are checked by the server against the real English lexicon.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Locator, Page, expect

import engine
from engine import movegen
from games.models import Game
from games.services import start_game
from tests.browser.conftest import in_thread, shot
from tests.games.helpers import make_computer_game, make_game

pytestmark = [pytest.mark.browser]

PHONE = {"width": 390, "height": 844}


def square(page: Page, row: int, col: int) -> Locator:
    return page.locator(f'#board .sq[data-row="{row}"][data-col="{col}"]')


def rack_tile(page: Page, letter: str) -> Locator:
    return page.locator(f'#rack .rack-tile[data-letter="{letter}"]:not(.is-used)').first


def drag(page: Page, source: Locator, target: Locator) -> None:
    """A pointer drag in small steps, as a finger or mouse makes it."""
    a, b = source.bounding_box(), target.bounding_box()
    assert a is not None
    assert b is not None
    page.mouse.move(a["x"] + a["width"] / 2, a["y"] + a["height"] / 2)
    page.mouse.down()
    page.mouse.move(a["x"] + a["width"] / 2, a["y"] - 20, steps=4)
    page.mouse.move(b["x"] + b["width"] / 2, b["y"] + b["height"] / 2, steps=8)
    page.mouse.up()


def play_button(page: Page) -> Locator:
    return page.locator("#move-panel .play-button")


def expect_my_turn(page: Page, mine: bool) -> None:
    expect(page.locator("#scoreboard")).to_have_attribute("data-my-turn", "true" if mine else "false")


@pytest.mark.django_db(transaction=True)
def test_two_players_play_live_with_drag_keyboard_swap_pass_and_blank(
    open_page: Any, ana: Any, ben: Any
) -> None:
    game = in_thread(make_game, ana, ben, racks=("CAT?QVW", "AEIOULN"))
    path = f"/games/{game.pk}/"
    pa = open_page(ana, path)
    pb = open_page(ben, path)
    expect(pa).to_have_title(re.compile("Your turn"))
    expect_my_turn(pb, False)

    # ana drags C, A, T onto H8, I8, J8; the preview names the word and the score.
    for letter, col in (("C", 7), ("A", 8), ("T", 9)):
        drag(pa, rack_tile(pa, letter), square(pa, 7, col))
    expect(square(pa, 7, 7).locator(".tile.pending")).to_have_text(re.compile("C"))
    expect(pa.locator("#move-panel .preview-line")).to_contain_text("CAT")
    expect(play_button(pa)).to_be_enabled()
    expect(play_button(pa)).to_have_text(re.compile(r"Play \d+"))
    play_button(pa).click()
    # ben sees it without reloading, and it is now his turn.
    expect(square(pb, 7, 8)).to_have_attribute("data-letter", "A")
    expect_my_turn(pb, True)
    expect(pb).to_have_title(re.compile("Your turn"))
    expect(pb.locator("#move-log")).to_contain_text("CAT")
    expect(square(pa, 7, 7).locator(".tile.pending")).to_have_count(0)

    # ben plays ATE down column J from the keyboard alone: Tab to the board (the cursor
    # starts at H8), arrows to J7, Space for "down", type A and E (the T is skipped), Enter.
    pb.locator("#board .sq[tabindex='0']").focus()
    for key in ("ArrowUp", "ArrowRight", "ArrowRight", "Space", "a", "e"):
        pb.keyboard.press(key)
    expect(square(pb, 6, 9).locator(".tile.pending")).to_have_count(1)
    expect(square(pb, 8, 9).locator(".tile.pending")).to_have_count(1)
    expect(play_button(pb)).to_be_enabled()
    pb.keyboard.press("Enter")
    expect(square(pa, 6, 9)).to_have_attribute("data-letter", "A")
    expect(square(pa, 8, 9)).to_have_attribute("data-letter", "E")
    expect_my_turn(pa, True)

    # ana swaps Q and V through the dialog.
    pa.locator('#move-panel [data-action="swap"]').click()
    dialog = pa.locator("#swap-dialog")
    expect(dialog).to_be_visible()
    for letter in ("Q", "V"):
        # The three tiles drawn after CAT come from a random bag: one may be a second V.
        dialog.locator(f'.swap-tiles button[data-letter="{letter}"]').first.click()
    dialog.locator('[data-action="confirm-swap"]').click()
    expect(pb.locator("#move-log")).to_contain_text("swapped 2 tiles")
    expect_my_turn(pb, True)

    # ben passes.
    pb.locator("button[form='pass-form']").click()
    expect_my_turn(pa, True)
    expect(pa.locator("#move-log .move")).to_have_count(4)

    # ana taps her blank, taps K8 and names it S: CATS.
    rack_tile(pa, "?").click()
    square(pa, 7, 10).click()
    picker = pa.locator("#blank-picker")
    expect(picker).to_be_visible()
    picker.locator('button[value="S"]').click()
    expect(square(pa, 7, 10).locator(".tile.pending.blank")).to_have_text("S")
    expect(pa.locator("#move-panel .preview-line")).to_contain_text("CATS")
    expect(play_button(pa)).to_be_enabled()
    shot(pa, "two-players-ana-before-blank-play")
    play_button(pa).click()
    expect(square(pb, 7, 10)).to_have_attribute("data-letter", "S")
    expect(square(pb, 7, 10).locator(".tile.blank .value")).to_have_count(0)
    expect(pb.locator("#move-log .move")).to_have_count(5)
    shot(pa, "two-players-ana-desktop")

    # A chat line arrives live; then ben resigns from the menu, after confirming.
    pb.locator("#chat-text").fill("well played")
    pb.locator("#chat-text").press("Enter")
    expect(pa.locator("#chat .line").last).to_contain_text("well played")
    expect(pb.locator("#chat-text")).to_have_value("")
    pb.locator("#move-panel .more-menu summary").click()
    pb.get_by_role("link", name="Resign…").click()
    expect(pb.locator("#resign-dialog")).to_be_visible()
    pb.locator("#resign-dialog button[type=submit]").click()
    for page in (pa, pb):
        expect(page.locator("#game-over .banner")).to_contain_text("ana won")
    shot(pb, "two-players-ben-resigned-desktop")

    game.refresh_from_db()
    assert [m.kind for m in game.moves.all()] == ["play", "play", "exchange", "pass", "play", "resign"]
    blank_play = game.moves.get(number=5)
    assert blank_play.tiles[0]["blank"] is True


def enter_play(page: Page, placements: list[engine.Placement]) -> None:
    """Lay a play by tapping rack tiles and squares (the blank picker for blanks)."""
    for p in placements:
        rack_tile(page, "?" if p.blank else p.letter).click()
        square(page, p.row, p.col).click()
        if p.blank:
            page.locator(f'#blank-picker button[value="{p.letter}"]').click()
        expect(square(page, p.row, p.col).locator(".tile.pending")).to_have_count(1)


@pytest.mark.django_db(transaction=True)
def test_game_against_the_computer_is_played_to_the_end_live(open_page: Any, ana: Any) -> None:
    # The whole game, from the empty board, is played in the browser: ana's best play
    # entered by tapping (or a pass when she has none), the computer's reply arriving
    # live, until the game ends.
    game = in_thread(make_computer_game, ana, level="easy")
    page = open_page(ana, f"/games/{game.pk}/")
    expect_my_turn(page, True)
    for _ in range(60):
        game.refresh_from_db()
        if game.status == Game.Status.FINISHED:
            break
        version = game.version
        state = game.state_obj()
        found = movegen.best(
            state.board,
            state.racks[0],
            tileset=state.tileset,
            layout=engine.layout(state.layout),
            lexicon=game.lexicon(),
            k=1,
        )
        if found:
            enter_play(page, list(found[0].placements))
            expect(play_button(page)).to_be_enabled()
            play_button(page).click()
        else:
            page.locator("button[form='pass-form']").click()
        # The computer's reply (or the end) arrives over the WebSocket, no reload.
        page.wait_for_function(
            """(v) => {
                const board = document.getElementById('board');
                const over = document.querySelector('#game-over .banner');
                const sb = document.getElementById('scoreboard');
                return over || (Number(board.dataset.version) > v + 1 && sb.dataset.myTurn === 'true');
            }""",
            arg=version,
            timeout=15_000,
        )
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    banner = page.locator("#game-over .banner")
    expect(banner).to_be_visible()
    expect(banner).to_contain_text(game.get_end_reason_display())
    expect(banner.locator(".transfers li")).to_have_count(2)
    expect(banner.get_by_role("link", name="Replay")).to_be_visible()
    expect(banner.get_by_role("button", name="Rematch")).to_be_visible()
    expect(page.locator("#move-panel .action-bar")).to_have_count(0)
    shot(page, "computer-game-over-desktop")


@pytest.mark.django_db(transaction=True)
def test_game_page_fits_a_phone_without_horizontal_scrolling(open_page: Any, ana: Any, ben: Any) -> None:
    game = in_thread(make_game, ana, ben, racks=("CATSEOD", "AEIOULN"))
    page = open_page(ana, f"/games/{game.pk}/", viewport=PHONE, touch=True)
    expect(page.locator("#board")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    board = page.locator("#board .board-grid").bounding_box()
    assert board is not None
    assert board["width"] >= 15 * 23
    # Rack and action bar are on screen at the bottom without scrolling.
    for selector in ("#rack", "#move-panel .action-bar"):
        box = page.locator(selector).bounding_box()
        assert box is not None
        assert box["y"] + box["height"] <= PHONE["height"]
    # Tap a tile, tap a square: it is laid there, and nothing scrolls sideways.
    rack_tile(page, "C").tap()
    square(page, 7, 7).tap()
    expect(square(page, 7, 7).locator(".tile.pending")).to_have_text(re.compile("C"))
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(page, "phone-game-390x844")


@pytest.mark.django_db(transaction=True)
def test_waiting_seek_page_turns_into_the_game_when_an_opponent_joins(
    open_page: Any, ana: Any, ben: Any
) -> None:
    seek = in_thread(start_game, creator=ana, mode="random", language="en")
    pa = open_page(ana, f"/games/{seek.pk}/")
    expect(pa.locator("#move-panel")).to_contain_text("Waiting for an opponent")
    expect(pa.locator("#game")).to_have_attribute("data-live", "true")
    # ben asks for a random opponent in the browser and is matched with ana's seek.
    pb = open_page(ben, "/games/new/")
    pb.locator('input[name="mode"][value="random"]').check()
    pb.locator("#new-game-form button[type=submit]").click()
    pb.wait_for_url(f"**/games/{seek.pk}/")
    # ana's page, built without a rack, becomes the full game page by itself.
    expect(pa.locator("#rack .rack-tile")).to_have_count(7, timeout=10_000)
    expect(pa.locator("#move-panel .action-bar")).to_have_count(1)
