"""Small things seen in Chromium (issue 26): replay keys, the phone header, avatar colours,
the admin's word-change list."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import in_thread
from tests.factories import make_user
from tests.games.helpers import CAT_AT_CENTRE, make_game

pytestmark = [pytest.mark.browser]


def finished_game_of_four_moves(ana: Any, ben: Any) -> Any:
    game = make_game(ana, ben, racks=("CATSEOD", "AEIOULN"))
    game.play(ana, CAT_AT_CENTRE, version=game.version)
    for _ in range(3):  # three scoreless turns end it: four moves to step through
        game.pass_turn(ben if game.turn_seat == 1 else ana, version=game.version)
    assert game.status == "finished"
    return game


@pytest.mark.django_db(transaction=True)
def test_two_quick_arrow_presses_move_the_replay_two_steps(open_page: Any, ana: Any, ben: Any) -> None:
    game = in_thread(finished_game_of_four_moves, ana, ben)
    page = open_page(ana, f"/games/{game.pk}/replay/?move=0")
    expect(page.locator("#replay")).to_have_attribute("data-step", "0")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    expect(page.locator("#replay")).to_have_attribute("data-step", "2")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowLeft")
    expect(page.locator("#replay")).to_have_attribute("data-step", "3")
    page.keyboard.press("Home")
    expect(page.locator("#replay")).to_have_attribute("data-step", "0")
    # No orphan separator before the language on the replay's scoreboard.
    before = page.evaluate(
        "() => getComputedStyle(document.querySelector('#replay .game-facts .lang'), '::before').content"
    )
    assert before in ("none", "normal"), before


@pytest.mark.django_db(transaction=True)
def test_every_header_link_shows_whole_on_a_phone(open_page: Any, ana: Any) -> None:
    page = open_page(ana, "/games/", viewport={"width": 390, "height": 844})
    clipped = page.evaluate(
        """() => {
            const nav = document.querySelector('.nav-links');
            const box = nav.getBoundingClientRect();
            return Array.from(nav.querySelectorAll('a')).filter(a => {
                const r = a.getBoundingClientRect();
                return r.left < box.left - 0.5 || r.right > box.right + 0.5 || r.right > innerWidth;
            }).map(a => a.textContent.trim());
        }"""
    )
    assert clipped == []
    expect(page.locator(".nav-links a", has_text="Tournaments")).to_be_visible()


@pytest.mark.django_db(transaction=True)
def test_a_players_avatar_has_one_colour_on_every_page(open_page: Any, ana: Any, ben: Any) -> None:
    game = in_thread(make_game, ana, ben)
    colours = []
    page = open_page(ana, f"/games/{game.pk}/")
    colours.append(
        page.evaluate("() => getComputedStyle(document.querySelector('.avatar-mini')).backgroundColor")
    )
    colours.append(
        page.evaluate("() => getComputedStyle(document.querySelector('#scoreboard .avatar')).backgroundColor")
    )
    page.goto(page.url.split("/games/")[0] + f"/players/{ana.username}/")
    colours.append(
        page.evaluate("() => getComputedStyle(document.querySelector('.avatar.large')).backgroundColor")
    )
    assert len(set(colours)) == 1, colours


@pytest.mark.django_db(transaction=True)
def test_the_admins_word_change_list_fits_the_window(open_page: Any) -> None:
    from dictionaries.models import Dictionary, WordChange
    from dictionaries.services import ensure_dictionaries

    admin = in_thread(lambda: make_user("root", is_staff=True, is_superuser=True))

    def some_changes() -> None:
        ensure_dictionaries()
        english = Dictionary.objects.get(language="en")
        for word in ("zorbing", "yeet", "vlog"):
            WordChange.objects.create(
                dictionary=english, word=word, action="add", reason="common", proposed_by=admin
            )

    in_thread(some_changes)
    page = open_page(admin, "/admin/dictionaries/wordchange/", viewport={"width": 1280, "height": 800})
    last = page.locator("#result_list thead th").last.bounding_box()
    assert last is not None
    assert last["x"] + last["width"] <= 1280, last
