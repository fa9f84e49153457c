"""The screen for the room follows the tournament live: the organiser pairs a round on
their page and the projector shows it without a reload."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from tests.browser.conftest import in_thread, shot
from tests.factories import make_user
from tournaments import services
from tournaments.models import Tournament

pytestmark = [pytest.mark.browser]


def set_up() -> tuple[Any, Tournament]:
    olga = make_user("olga")
    olga.groups.add(services.ensure_organisers_group())
    olga = type(olga).objects.get(pk=olga.pk)
    tournament = services.create_tournament(
        organiser=olga,
        name="Screen cup",
        language="en",
        system="swiss",
        rounds=2,
        days_per_move=3,
        starts_at=timezone.now() + timedelta(days=1),
    )
    for name in ("ana", "ben", "cleo", "dan"):
        services.register_player(tournament=tournament, user=make_user(name), by=olga)
    return olga, tournament


@pytest.mark.django_db(transaction=True)
def test_the_projector_page_updates_live(open_page: Any) -> None:
    olga, tournament = in_thread(set_up)
    screen = open_page(
        olga, f"/tournaments/{tournament.pk}/screen/", viewport={"width": 1920, "height": 1080}
    )
    slide = screen.locator(f"#screen-{tournament.pk}")
    # The socket's first snapshot has been swapped in: the screen is live.
    screen.wait_for_selector(f'#screen-{tournament.pk}[data-live="true"]', state="attached")
    expect(slide).not_to_contain_text("Round 1")
    expect(screen.locator("button, form")).to_have_count(0)

    organiser = open_page(olga, f"/tournaments/{tournament.pk}/")
    organiser.locator('[data-action="pair-round"]').click()
    expect(slide).to_contain_text("Round 1")
    expect(slide.locator("tr[data-table]")).to_have_count(2)
    organiser.locator('[data-action="start-round"]').click()
    expect(slide.locator("tr[data-player]")).to_have_count(4)
    # Large type: the names on the screen are at least 24 px high on a 1080p projector.
    size = screen.evaluate(
        f"parseFloat(getComputedStyle(document.querySelector('#screen-{tournament.pk} td')).fontSize)"
    )
    assert size >= 24
    shot(screen, "tournament-screen")


def set_up_event() -> tuple[Any, Tournament, list[Tournament]]:
    olga = make_user("olga")
    olga.groups.add(services.ensure_organisers_group())
    olga = type(olga).objects.get(pk=olga.pk)
    event = services.create_tournament(
        organiser=olga,
        name="Club weekend",
        language="en",
        system="swiss",
        rounds=1,
        days_per_move=3,
        starts_at=timezone.now() + timedelta(days=1),
    )
    divisions = [
        services.add_division(event=event, by=olga, name="Premier", rating_min=1500),
        services.add_division(event=event, by=olga, name="Open", rating_max=1499),
    ]
    return olga, event, divisions


@pytest.mark.django_db(transaction=True)
def test_the_projector_cycles_through_the_divisions(open_page: Any) -> None:
    olga, event, _divisions = in_thread(set_up_event)
    screen = open_page(olga, f"/tournaments/{event.pk}/screen/?every=1")
    first = screen.locator("[data-slide]").nth(0)
    second = screen.locator("[data-slide]").nth(1)
    expect(first).to_contain_text("A · Premier")
    expect(second).to_contain_text("B · Open")
    expect(first).to_be_visible()
    expect(second).to_be_hidden()
    expect(second).to_be_visible(timeout=5_000)
    expect(first).to_be_hidden()
    expect(first).to_be_visible(timeout=5_000)
