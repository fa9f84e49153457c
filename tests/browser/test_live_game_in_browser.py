"""A live game in the browser (issue 28, point 7): two players see both clocks, the one to
move ticking from the server's figures; a move hands the clock over; the flag falls through
the clock task (worked inside the server on the `clocks` queue, as under `make run`) and
both pages show the game lost on time. Clocks of a few seconds (LIVE_CLOCK_SECONDS)."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from games.models import Game
from games.pace import Pace
from tests.browser.conftest import daphne_server, in_thread
from tests.browser.test_play_in_browser import expect_my_turn
from tests.games.helpers import make_game

pytestmark = [pytest.mark.browser]

CLOCK_SECONDS = 12


@pytest.fixture(scope="module")
def server_url(django_db_setup: None, django_db_blocker: Any) -> Iterator[str]:
    """Daphne with the task workers inside it (default and clocks queues), tasks in the database."""
    from django.db import connection

    with django_db_blocker.unblock():
        db_name = str(connection.settings_dict["NAME"])
    with daphne_server(
        db_name,
        "server-live-clocks.log",
        EMBEDDED_TASK_WORKER="1",
        WORDGAME_TEST_TASKS="database",
        REDIS_URL="",
    ) as url:
        yield url


def start_live_game(ana: Any, ben: Any) -> Game:
    return make_game(ana, ben, pace=Pace.parse("1+0", sudden_death=True))


def seconds_shown(locator: Any) -> int:
    minutes, seconds = re.fullmatch(r"(\d+):(\d\d)", locator.inner_text().strip()).groups()  # type: ignore[union-attr]
    return int(minutes) * 60 + int(seconds)


@pytest.mark.django_db(transaction=True)
def test_two_players_see_both_clocks_and_the_flag_falls(
    open_page: Any, ana: Any, ben: Any, settings: Any
) -> None:
    settings.TASKS = {
        "default": {"BACKEND": "django_tasks_db.DatabaseBackend", "QUEUES": ["default", "clocks"]}
    }
    settings.LIVE_CLOCK_SECONDS = CLOCK_SECONDS
    game = in_thread(start_live_game, ana, ben)
    pa = open_page(ana, f"/games/{game.pk}/")
    pb = open_page(ben, f"/games/{game.pk}/")
    for page in (pa, pb):
        expect(page.locator("#scoreboard .clock")).to_have_count(2)
    expect_my_turn(pa, True)
    ana_clock_on_ben = pb.locator("#scoreboard .clock").first
    expect(ana_clock_on_ben).to_have_attribute("data-running", "true")
    expect(pb.locator("#scoreboard .clock").nth(1)).to_have_attribute("data-running", "false")
    before = seconds_shown(ana_clock_on_ben)
    assert 0 < before <= CLOCK_SECONDS
    time.sleep(1.5)
    ticked = seconds_shown(ana_clock_on_ben)
    assert ticked < before  # ticking on the opponent's page too
    # A reload shows the server's time left, not the clock's start again.
    pb.reload()
    expect(pb.locator("#scoreboard .clock")).to_have_count(2)
    assert seconds_shown(pb.locator("#scoreboard .clock").first) <= ticked

    # ana passes: her clock stops, ben's runs.
    pa.locator("button[form='pass-form']").click()
    expect_my_turn(pb, True)
    expect(pb.locator("#scoreboard .clock").nth(1)).to_have_attribute("data-running", "true")
    expect(pa.locator("#scoreboard .clock").first).to_have_attribute("data-running", "false")

    # ben does nothing: his flag falls, through the clock task inside the server.
    for page in (pa, pb):
        expect(page.locator("#scoreboard")).to_have_attribute(
            "data-status", "finished", timeout=CLOCK_SECONDS * 1000 + 8000
        )
    game.refresh_from_db()
    assert (game.end_reason, game.winner_seat) == ("timeout", 0)
    assert game.clock_ms is not None
    assert game.clock_ms[1] == 0
    pa.screenshot(path="test-artifacts/live-game-flag.png")
