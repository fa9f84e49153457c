"""The Challenge button (issue 32): under the single challenge rule a phony stands until
the opponent challenges it from the game page; both pages then show it taken back."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

import engine
from games.models import Game
from tests.browser.conftest import in_thread
from tests.browser.test_accessibility import axe_violations
from tests.games.helpers import make_game

pytestmark = [pytest.mark.browser]


def phony_played(ana: Any, ben: Any) -> Game:
    game = make_game(ana, ben, racks=("QXZEAIO", "DOGSEAT"), preset="classic", challenge="single")
    phony = [engine.Placement(7, 7, "Q"), engine.Placement(7, 8, "X"), engine.Placement(7, 9, "Z")]
    game.play(ana, phony, version=game.version)
    return game


@pytest.mark.django_db(transaction=True)
def test_challenge_button_takes_a_phony_back_on_both_pages(open_page: Any, ana: Any, ben: Any) -> None:
    game = in_thread(phony_played, ana, ben)
    path = f"/games/{game.pk}/"
    pa = open_page(ana, path)
    pb = open_page(ben, path, bypass_csp=True)
    expect(pb.locator("#scoreboard")).to_contain_text("Single challenge")
    assert axe_violations(pb) == []  # the challenge bar too
    pb.locator("#move-panel .challenge-button").click()
    expect(pb.locator("#move-log")).to_contain_text("not in the dictionary")
    # ana's page hears of it without reloading: the log, the board, her tiles back.
    expect(pa.locator("#move-log")).to_contain_text("withdrawn after a challenge")
    expect(pa.locator('#board .sq[data-row="7"][data-col="8"]')).not_to_have_attribute("data-letter", "X")
    expect(pa.locator('#rack .rack-tile[data-letter="Q"]')).to_have_count(1)
    expect(pb.locator("#move-panel .challenge-button")).to_have_count(0)
