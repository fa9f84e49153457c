"""`make run`'s shape: the task worker inside the server process on the in-memory layer.
What its tasks cause reaches an open page at once, without polling: the computer's reply
and a lapsed turn."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from playwright.sync_api import expect

from games.models import Game
from tests.browser.conftest import daphne_server, in_thread
from tests.browser.test_play_in_browser import expect_my_turn
from tests.games.helpers import make_computer_game, make_game

pytestmark = [pytest.mark.browser]


@pytest.fixture(scope="module")
def server_url(django_db_setup: None, django_db_blocker: Any) -> Iterator[str]:
    """Daphne with the worker inside it, tasks queued in the database (for this module)."""
    from django.db import connection

    with django_db_blocker.unblock():
        db_name = str(connection.settings_dict["NAME"])
    with daphne_server(
        db_name,
        "server-embedded.log",
        EMBEDDED_TASK_WORKER="1",
        WORDGAME_TEST_TASKS="database",
        # As under `make run`: the in-memory layer (the worker runs in the server only with
        # it), also in CI's run with Redis.
        REDIS_URL="",
    ) as url:
        yield url


@pytest.mark.django_db(transaction=True)
def test_the_computers_reply_and_a_lapsed_turn_appear_live(
    open_page: Any, ana: Any, ben: Any, settings: Any
) -> None:
    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend", "QUEUES": ["default"]}}
    # The computer moves first: its turn is a task in the queue, worked inside the server.
    game = in_thread(make_computer_game, ana, level="easy", first=1)
    page = open_page(ana, f"/games/{game.pk}/")
    expect_my_turn(page, True)  # the reply came over the socket: the page never polls
    expect(page.locator("#scoreboard")).to_have_attribute("data-computer-thinking", "false")

    # A lapsed turn: the deadline task (queued here, due now) runs in the server's worker.
    other = in_thread(make_game, ana, ben)
    watched = open_page(ben, f"/games/{other.pk}/")
    expect_my_turn(watched, False)

    def lapse() -> None:
        from django.utils import timezone

        from games import tasks

        past = timezone.now() - timedelta(minutes=1)
        Game.objects.filter(pk=other.pk).update(turn_deadline=past, turn_noticed_at=past)  # ana was warned
        tasks.turn_deadline.enqueue(other.pk, other.version)

    in_thread(lapse)
    expect(watched.locator("#scoreboard")).to_have_attribute("data-status", "finished", timeout=10_000)
