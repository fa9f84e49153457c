"""An organiser runs a small round robin to the end in the browser and downloads the
organiser's bundle; the standings and the round buttons follow the games live.

Each game starts prepared near its end (the computer plays both sides until the bag is
empty, in the test process); then the player who is behind resigns from the game page,
and the organiser's page, open all along, changes without a reload.
"""

from __future__ import annotations

import io
import zipfile
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect

from engine.actions import computer_action
from engine.analysis import computer_move
from games.models import Game, rng_for
from tests.browser.conftest import in_thread, shot
from tests.factories import make_user
from tournaments import services
from tournaments.models import Pairing, Tournament

pytestmark = [pytest.mark.browser]


def set_up() -> tuple[Any, Tournament]:
    olga = make_user("olga")
    olga.groups.add(services.ensure_organisers_group())
    olga = type(olga).objects.get(pk=olga.pk)
    players = [make_user(name) for name in ("ana", "ben", "cleo")]
    tournament = services.create_tournament(
        organiser=olga,
        name="Browser round robin",
        language="en",
        system="roundrobin",
        rounds=3,
        days_per_move=3,
        starts_at=timezone.now() + timedelta(days=1),
    )
    for user in players[:2]:
        services.register_player(tournament=tournament, user=user, by=user)
    return olga, tournament


def prepare_near_the_end(tournament_id: int, round_number: int) -> tuple[int, Any]:
    """Play the round's game until the bag is empty; return it and its trailing player."""
    pairing = Pairing.objects.select_related("game").get(
        round__tournament_id=tournament_id, round__number=round_number, second__isnull=False
    )
    game = pairing.game
    assert game is not None
    while True:
        game.refresh_from_db()
        state = game.state_obj()
        if not state.bag or game.status != Game.Status.ACTIVE:
            break
        choice = computer_move(
            state, state.turn, game.lexicon(), "hard", rng_for(game.seed, "computer", state.moves_played)
        )
        game.act(game.seat_user(state.turn), computer_action(choice), version=game.version)
    assert game.status == Game.Status.ACTIVE
    seats = sorted(game.seat_list(), key=lambda s: s.score)
    return game.pk, seats[0].user


def resign_in_browser(page: Page) -> None:
    page.locator("#move-panel .more-menu summary").click()
    page.get_by_role("link", name="Resign…").click()
    expect(page.locator("#resign-dialog")).to_be_visible()
    page.locator("#resign-dialog button[type=submit]").click()
    expect(page.locator("#game-over .banner")).to_be_visible()


@pytest.mark.django_db(transaction=True)
def test_organiser_runs_a_round_robin_to_the_end_and_downloads_the_bundle(open_page: Any) -> None:
    olga, tournament = in_thread(set_up)
    path = f"/tournaments/{tournament.pk}/"
    po = open_page(olga, path)
    expect(po.locator("h1")).to_have_text("Browser round robin")

    # cleo is added from the organiser's panel.
    po.locator("#add-username").fill("cleo")
    po.locator("#add-username").press("Enter")
    expect(po.locator("#messages")).to_contain_text("cleo is registered.")
    expect(po.locator("#standings .player-list li")).to_have_count(3)

    for number in (1, 2, 3):
        po.locator('[data-action="pair-round"]').click()
        expect(po.locator(f'#pairings details[data-round="{number}"]')).to_contain_text(
            "paired, not started yet"
        )
        po.locator('[data-action="start-round"]').click()
        round_box = po.locator(f'#pairings details[data-round="{number}"]')
        expect(round_box).to_contain_text("1 of 2 results in")  # the bye counts at once
        expect(round_box.locator("li.pairing")).to_have_count(2)
        game_id, trailing = in_thread(prepare_near_the_end, tournament.pk, number)
        player = open_page(trailing, f"/games/{game_id}/")
        resign_in_browser(player)
        # The organiser's page follows without a reload: the result, the standings and
        # (when there is one) the next round's button.
        expect(round_box).to_contain_text("2 of 2 results in")
        expect(po.locator("#standings tbody tr")).to_have_count(3)
        if number < 3:
            expect(po.locator('[data-action="pair-round"]')).to_be_visible()
    expect(po.locator("#log")).to_contain_text("The tournament is over.")
    expect(po.locator("#round-controls")).to_contain_text("The tournament is over.")
    expect(po.locator("#tournament-status")).to_have_attribute("data-status", "finished")
    shot(po, "tournament-organiser-finished")

    with po.expect_download() as download_info:
        po.locator('#round-controls a[data-format="bundle"]').click()
    download = download_info.value
    assert download.suggested_filename == f"tournament-{tournament.pk}-bundle.zip"
    with zipfile.ZipFile(io.BytesIO(open(download.path(), "rb").read())) as bundle:
        names = bundle.namelist()
        tsh = bundle.read("a.t").decode("utf-8").splitlines()
    assert {"standings.csv", "results.csv", "tournament.json", "a.t", "config.tsh"} <= set(names)
    assert len([n for n in names if n.startswith("games/")]) == 3
    assert len(tsh) == 3
    assert all("; p12 " in line for line in tsh)

    finished = in_thread(lambda: Tournament.objects.get(pk=tournament.pk).status)
    assert finished == Tournament.Status.FINISHED

    # On a phone the page fits the width: nothing scrolls sideways.
    phone = open_page(olga, path, viewport={"width": 390, "height": 844})
    expect(phone.locator("#standings tbody tr")).to_have_count(3)
    shot(phone, "tournament-organiser-phone")
    assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
