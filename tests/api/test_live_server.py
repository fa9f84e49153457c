"""Against a real server (Daphne in a second process, on the test database): the example
bot plays a whole game against the computer through the API, and the API docs render
in Chromium under their strict Content-Security-Policy, loading nothing from elsewhere."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from api.models import ApiToken
from games.models import Game, GameAction, Move
from tests.browser.conftest import ARTIFACTS, CHROMIUM, CHROMIUM_ARGS, daphne_server
from tests.factories import make_user

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def api_server(django_db_setup: None, django_db_blocker: Any) -> Iterator[str]:
    """Daphne serving the site (static files too) on the test database."""
    from django.db import connection

    with django_db_blocker.unblock():
        db_name = str(connection.settings_dict["NAME"])
    # Counters in a shared Redis outlive a test run; this test is not about limits.
    with daphne_server(
        db_name, "api-server.log", API_WRITES_PER_MINUTE="0", API_LOOKUPS_PER_MINUTE="0"
    ) as url:
        yield url


@pytest.mark.django_db(transaction=True)
def test_the_example_bot_plays_a_whole_game(api_server: str) -> None:
    bot = make_user("botty")
    raw = ApiToken.issue(bot, "example bot")[1]
    result = subprocess.run(
        [sys.executable, "examples/bot.py", "--url", api_server, "--token", raw, "--level", "easy"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "game over" in result.stdout
    game = Game.objects.get(created_by=bot)
    assert game.status == Game.Status.FINISHED
    assert game.end_reason in (Game.EndReason.OUT, Game.EndReason.SCORELESS)
    seat = game.seat_of(bot)
    assert seat is not None
    mine = Move.objects.filter(game=game, seat=seat)
    assert mine.filter(kind=Move.Kind.PLAY).count() >= 3
    assert Move.objects.filter(game=game).exclude(seat=seat).exists()
    # Every one of the bot's moves came through the API with its own action id.
    ids = list(GameAction.objects.filter(game=game, user=bot).values_list("action_id", flat=True))
    assert len(ids) == mine.count()
    assert all(i.startswith(f"bot-{game.pk}-") for i in ids)
    assert f"game {game.pk} against computer:easy" in result.stdout


@pytest.mark.browser
@pytest.mark.skipif(not CHROMIUM.exists(), reason=f"{CHROMIUM} is not installed")
def test_docs_render_under_their_csp(api_server: str) -> None:
    from playwright.sync_api import sync_playwright

    problems: list[str] = []
    previous = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True)
            page = browser.new_page()
            page.on(
                "console", lambda m: problems.append(f"{m.type}: {m.text}") if m.type == "error" else None
            )
            page.on("pageerror", lambda exc: problems.append(f"page error: {exc}"))
            page.on("request", lambda r: None if r.url.startswith(api_server) else problems.append(r.url))
            response = page.goto(api_server + "/api/v1/docs")
            assert response is not None
            assert "script-src 'self'" in response.headers["content-security-policy"]
            page.wait_for_selector(".opblock", timeout=15_000)
            assert page.locator(".opblock").count() >= 14
            assert page.get_by_text("/api/v1/games/{game_id}/play").count() >= 1
            ARTIFACTS.mkdir(exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / "api-docs.png"))
            browser.close()
    finally:
        if previous is None:
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = previous
    assert not problems, problems
