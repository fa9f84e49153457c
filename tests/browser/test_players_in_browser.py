"""A new player's way in, end to end: sign up, add a friend, play a rated game against
them to its end, and see both profiles change.

The middle of the game is played on the server (the best play each turn, through the
models) until the bag is empty, to keep the test fast; the first moves and the last ones
are played in the browser by both players.
"""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from playwright.sync_api import Page, expect

import engine
from accounts.models import RatingChange, User
from engine import movegen
from games.models import Game
from tests.browser.conftest import in_thread, shot
from tests.browser.test_play_in_browser import enter_play, expect_my_turn, play_button

pytestmark = [pytest.mark.browser]

#: The game-over path calls ``games.outcomes.on_game_finished`` (issue 9's wiring). Until it
#: does, the test stops before the ratings with an expected failure; once it does, this
#: must be True, and the test says so if it is not.
GAME_OVER_RATES = True

PASSWORD = "violet-otter-harbour-42"


def best_play(game: Game) -> list[engine.Placement]:
    state = game.state_obj()
    found = movegen.best(
        state.board,
        state.racks[state.turn],
        tileset=state.tileset,
        layout=engine.layout(state.layout),
        lexicon=game.lexicon(),
        k=1,
    )
    return list(found[0].placements) if found else []


def play_until_the_bag_is_empty(game_id: int) -> None:
    """Both players' best plays, on the server, until the bag is empty."""
    for _ in range(60):
        game = Game.objects.prefetch_related("seats__user").get(pk=game_id)
        state = game.state_obj()
        if game.status != Game.Status.ACTIVE or not state.bag:
            return
        user = game.seat_user(state.turn)
        if placements := best_play(game):
            game.play(user, placements, version=game.version)
        else:
            game.pass_turn(user, version=game.version)


def wait_for_version_after(game: Game, version: int, timeout: float = 15) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        game.refresh_from_db()
        if game.version > version:
            return
        time.sleep(0.1)
    raise AssertionError(f"game {game.pk} stayed at version {version}")


def open_game(page: Page, server_url: str, game: Game) -> None:
    page.goto(f"{server_url}/games/{game.pk}/")
    page.wait_for_selector('#game[data-live="true"]', state="attached")


@pytest.mark.django_db(transaction=True)
def test_sign_up_add_a_friend_play_a_rated_game_and_see_the_profiles_change(
    browser: Any, server_url: str, open_page: Any, ben: Any
) -> None:
    # dora signs up in the browser.
    context = browser.new_context(locale="en-GB", viewport={"width": 1280, "height": 900})
    errors: list[str] = []
    try:
        pd = context.new_page()
        pd.set_default_timeout(10_000)
        pd.on("pageerror", lambda exc: errors.append(str(exc)))
        pd.goto(server_url + "/accounts/signup/")
        pd.get_by_label("Username").fill("dora")
        pd.get_by_label("Email address").fill("dora@example.org")
        pd.get_by_label("Password", exact=True).fill(PASSWORD)
        pd.get_by_label("Password confirmation").fill(PASSWORD)
        pd.get_by_role("button", name="Create account").click()
        expect(pd.locator(".account-menu summary")).to_contain_text("dora")
        dora = User.objects.get(username="dora")

        # Before any game, dora's profile has no statistics and no rating.
        pd.goto(server_url + "/players/dora/")
        expect(pd.locator("body")).to_contain_text("No finished games yet.")
        expect(pd.locator("body")).to_contain_text("No rated games yet.")

        # She asks ben to be her friend; he accepts on his friends page.
        pd.goto(server_url + "/accounts/friends/")
        pd.get_by_label("Username").fill("ben")
        pd.get_by_role("button", name="Send a friend request").click()
        expect(pd.locator("#messages")).to_contain_text("Friend request sent to ben.")
        pb = open_page(ben, "/accounts/friends/")
        pb.get_by_role("button", name="Accept").click()
        expect(pb.locator("#messages")).to_contain_text("You and dora are friends now.")

        # "Play" beside ben opens the new-game form with him filled in; a rated game.
        pd.goto(server_url + "/accounts/friends/")
        pd.get_by_role("link", name="Play with ben").click()
        expect(pd.locator('input[name="opponent"]')).to_have_value("ben")
        expect(pd.locator('input[name="mode"][value="friend"]')).to_be_checked()
        pd.get_by_label("Game language").select_option("en")
        pd.get_by_label("Rated", exact=True).check()
        pd.get_by_role("button", name="Start the game").click()
        expect(pd).to_have_url(re.compile(r"/games/\d+/$"))
        game = Game.objects.get(created_by=dora)
        assert game.rated
        assert game.status == Game.Status.INVITED

        # ben accepts the invitation on the game page.
        open_game(pb, server_url, game)
        pb.get_by_role("button", name="Accept").click()
        wait_for_version_after(game, game.version)
        assert game.status == Game.Status.ACTIVE

        # The middle of the game, on the server; then both reload and finish it here.
        in_thread(play_until_the_bag_is_empty, game.pk)
        pages = {dora.pk: pd, ben.pk: pb}
        for page in pages.values():
            open_game(page, server_url, game)
        for _ in range(40):
            game = Game.objects.prefetch_related("seats__user").get(pk=game.pk)
            if game.status == Game.Status.FINISHED:
                break
            assert game.turn_seat is not None
            mover = game.seat_user(game.turn_seat)
            page = pages[mover.pk]
            expect_my_turn(page, True)
            version = game.version
            if placements := best_play(game):
                enter_play(page, placements)
                expect(play_button(page)).to_be_enabled()
                play_button(page).click()
            else:
                page.locator("button[form='pass-form']").click()
            wait_for_version_after(game, version)
        game.refresh_from_db()
        assert game.status == Game.Status.FINISHED
        for page in pages.values():
            expect(page.locator("#game-over .banner")).to_be_visible()
        shot(pd, "players-rated-game-over")

        # Both profiles now count the game.
        dora_seat = game.seat_of(dora)
        dora_won = game.winner_seat == dora_seat
        for name, page in (("dora", pd), ("ben", pb)):
            page.goto(f"{server_url}/players/{name}/")
            stats = page.locator(".stat-language").first
            expect(stats).to_contain_text("English (US)")
            expect(stats.locator(".stat-grid div").first).to_contain_text("1")
        wins = pd.locator(".stat-language .stat-grid div").nth(1)
        expect(wins).to_contain_text("1" if dora_won else "0")

        # And both ratings moved, on the profiles and the leaderboard.
        rated = RatingChange.objects.filter(reference=f"game:{game.pk}").exists()
        if not GAME_OVER_RATES:
            assert not rated, "the game-over path rates games now: set GAME_OVER_RATES = True"
            pytest.xfail("the game-over path does not call games.outcomes.on_game_finished yet (issue 9)")
        assert rated
        for name, page in (("dora", pd), ("ben", pb)):
            page.goto(f"{server_url}/players/{name}/")
            value = int(page.locator(".rating-value strong").first.inner_text())
            if game.winner_seat is None:
                assert value == 1500  # a draw between two newcomers
            else:
                assert (value > 1500) == ((name == "dora") == dora_won)
        pd.goto(f"{server_url}/leaderboard/?language=en")
        expect(pd.locator(".leaderboard-table tbody tr")).to_have_count(2)
        shot(pd, "players-leaderboard")
    finally:
        context.close()
    assert not errors, errors
