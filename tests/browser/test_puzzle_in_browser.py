"""The daily puzzle in a browser: answered with the keyboard alone on a phone (the game
page's own board, rack and preview), its answer shown, the result and the calendar
axe-clean in both themes on a phone and a desktop, in another interface language."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from puzzles import services
from tests.browser.conftest import in_thread, shot
from tests.browser.test_accessibility import check_both_themes

pytestmark = [pytest.mark.browser]

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}


@pytest.mark.django_db(transaction=True)
def test_daily_puzzle_answered_by_keyboard_on_a_phone(open_page: Any, ana: Any) -> None:
    puzzle = in_thread(services.daily_puzzle, services.today(), "en")
    # A play without a blank, so that typing its letters lays exactly its tiles.
    play = next(p for p in puzzle.top if not any(ch.islower() for _r, _c, ch in p["tiles"]))
    tiles = play["tiles"]
    page = open_page(ana, "/puzzles/en/", viewport=PHONE, language="fr", bypass_csp=True)
    assert "Problème du jour" in page.locator("h1").inner_text()
    check_both_themes(page)
    shot(page, "puzzle-phone-fr")
    row, col, _ = tiles[0]
    page.locator(f"#sq-{row}-{col}").focus()
    if len(tiles) > 1 and tiles[0][0] != tiles[1][0]:
        page.keyboard.press(" ")  # down, not across
    for _r, _c, letter in tiles:
        page.keyboard.type(letter)
    expect(page.locator("#move-panel .play-button")).to_be_enabled()
    expect(page.locator("#move-panel .play-button")).to_contain_text(str(play["score"]))
    page.keyboard.press("Enter")
    page.wait_for_selector("#puzzle-result")
    result = page.locator("#puzzle-result")
    expect(result).to_contain_text(f"{services.share_of(play['score'], puzzle.best_score)}")
    expect(result.locator(".top-plays > li")).to_have_count(len(puzzle.top))
    share = page.locator("#share-text").input_value()
    assert share
    assert not any(ch.isalpha() for ch in share)
    check_both_themes(page)
    shot(page, "puzzle-answer-phone-fr")
    calendar = open_page(ana, "/puzzles/en/calendar/", viewport=DESKTOP, language="de", bypass_csp=True)
    expect(calendar.locator("h1")).to_contain_text("Frühere Rätsel")
    check_both_themes(calendar)
    desktop = open_page(ana, "/puzzles/en/", viewport=DESKTOP, language="de")
    shot(desktop, "puzzle-answer-desktop-de")
    solo = open_page(ana, "/puzzles/solo/en/", viewport=PHONE, language="sv", bypass_csp=True)
    expect(solo.locator("h1")).to_contain_text("Soloutmaningar")
    check_both_themes(solo)


@pytest.mark.django_db(transaction=True)
def test_learner_mode_and_a_rack_duel(open_page: Any, ana: Any, ben: Any) -> None:
    from games.models import StudyItem
    from tests.puzzles.test_daily import make_source_game

    game = in_thread(make_source_game, (ana, ben), 41)
    page = open_page(ana, f"/games/{game.pk}/", viewport=DESKTOP, language="it", bypass_csp=True)
    expect(page.locator("#move-log .meaning").first).to_be_visible()
    check_both_themes(page)
    add = page.locator("#move-log .learn-word").first
    add.focus()
    page.keyboard.press("Enter")
    expect(page.locator("#move-log .learn-added").first).to_be_attached()
    assert in_thread(StudyItem.objects.filter(user=ana).count) == 1
    # A rack duel from that game, as the friend sees it on a phone: axe-clean too.
    from accounts.models import Friendship
    from puzzles import duels

    in_thread(Friendship.objects.create, from_user=ana, to_user=ben, status=Friendship.Status.ACCEPTED)
    duel = in_thread(duels.challenge, challenger=ana, game=game, number=1, opponent_name="ben")
    friend = open_page(ben, f"/puzzles/duels/{duel.pk}/", viewport=PHONE, language="es", bypass_csp=True)
    expect(friend.locator("h1")).to_contain_text("Duelo de atril")
    expect(friend.locator("#rack .rack-tile")).to_have_count(len(duel.rack))
    check_both_themes(friend)
