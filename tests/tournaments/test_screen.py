"""The screen for the room (live over the tournament's socket, one slide per division)
and the printable pairings and standings sheets."""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.urls import reverse

from tests.games.test_game_consumer import connect
from tests.tournaments.helpers import make_players, make_tournament, run_round
from tests.tournaments.test_consumer import receive_text
from tournaments import services


@pytest.mark.django_db
def test_the_screen_shows_every_division_without_controls(olga: Any, client: Any) -> None:
    event = make_tournament(olga, name="Club weekend", system="swiss", rounds=1)
    upper = services.add_division(event=event, by=olga, name="Premier", rating_min=1500)
    lower = services.add_division(event=event, by=olga, name="Open", rating_max=1499)
    for user in make_players("ana", "ben", "cleo", "dan"):
        services.register_player(tournament=event, user=user, by=user)
    run_round(lower, olga)
    page = client.get(reverse("tournaments:screen", args=[event.pk])).content.decode()
    assert page.count("data-slide") == 2
    assert f'ws-connect="/ws/tournaments/{upper.pk}/screen/"' in page
    assert f'id="screen-{lower.pk}"' in page
    assert "Round 1" in page
    assert "<button" not in page
    assert "<form" not in page
    assert "tournament-screen.js" in page


@pytest.mark.django_db
def test_printable_sheets_list_the_pairings_and_the_standings(olga: Any, client: Any) -> None:
    tournament = make_tournament(olga, make_players("ana", "ben", "cleo"), system="swiss", rounds=1)
    run_round(tournament, olga)
    pairings = client.get(reverse("tournaments:print", args=[tournament.pk, "pairings"])).content.decode()
    assert 'data-sheet="pairings"' in pairings
    assert "Round 1" in pairings
    assert "bye" in pairings
    standings = client.get(reverse("tournaments:print", args=[tournament.pk, "standings"])).content.decode()
    assert 'data-sheet="standings"' in standings
    for name in ("ana", "ben", "cleo"):
        assert name in standings
    assert client.get(reverse("tournaments:print", args=[tournament.pk, "other"])).status_code == 404


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("close_db_connection")
async def test_the_screen_socket_pushes_its_slide_again_after_a_change(olga: Any) -> None:
    players = await sync_to_async(make_players)("ana", "ben")
    tournament = await sync_to_async(make_tournament)(olga, players, system="swiss", rounds=1)
    communicator, connected = await connect(f"/ws/tournaments/{tournament.pk}/screen/", None)
    assert connected
    snapshot = await receive_text(communicator)
    assert f'id="screen-{tournament.pk}"' in snapshot
    assert "Round 1" not in snapshot
    await sync_to_async(services.pair_round)(tournament=tournament, by=olga)
    pushed = await receive_text(communicator)
    assert "Round 1" in pushed
    assert 'hx-swap-oob="true"' in pushed
    await communicator.disconnect()
