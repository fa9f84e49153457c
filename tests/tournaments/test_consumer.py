"""The tournament page's WebSocket: a snapshot on connect, the standings, pairings and
log pushed again after an organiser's action and when a game ends."""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from tests.games.test_game_consumer import connect
from tests.tournaments.helpers import make_players, make_tournament, resign, run_round
from tournaments import services
from tournaments.models import Tournament
from wordgame.asgi import application


async def receive_text(communicator: WebsocketCommunicator) -> str:
    text = await communicator.receive_from(timeout=5)
    assert isinstance(text, str)
    return text


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("close_db_connection")
async def test_anyone_gets_the_standings_pairings_and_log_on_connect(olga: Any) -> None:
    tournament = await sync_to_async(make_tournament)(olga, name="Live cup")
    communicator, connected = await connect(f"/ws/tournaments/{tournament.pk}/", None)
    assert connected
    html = await receive_text(communicator)
    for part in ('id="tournament-status"', 'id="standings"', 'id="pairings"', 'id="log"', 'id="notices"'):
        assert part in html
    assert html.count('hx-swap-oob="true"') == 5
    assert "Created the tournament." in html
    await communicator.disconnect()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("close_db_connection")
async def test_unknown_tournament_is_refused() -> None:
    communicator = WebsocketCommunicator(
        application, "/ws/tournaments/999999/", headers=[(b"origin", b"http://testserver")]
    )
    connected, _ = await communicator.connect()
    assert not connected
    await communicator.disconnect()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("close_db_connection")
async def test_changes_are_pushed_live(olga: Any) -> None:
    ana, ben = await sync_to_async(make_players)("ana", "ben")
    tournament = await sync_to_async(make_tournament)(olga, [ana], rounds=1)
    communicator, connected = await connect(f"/ws/tournaments/{tournament.pk}/", ben)
    assert connected
    await receive_text(communicator)
    await sync_to_async(services.register_player)(tournament=tournament, user=ben, by=olga)
    html = await receive_text(communicator)
    assert "ben entered." in html
    tables = await sync_to_async(run_round)(tournament, olga)
    html = await receive_text(communicator)  # paired
    html = await receive_text(communicator)  # started
    assert "Round 1 started: its games are on." in html
    game = tables[0].game
    assert game is not None
    await sync_to_async(resign)(game, tables[0].first.user)
    html = await receive_text(communicator)
    assert "The tournament is over." in html
    assert (await Tournament.objects.aget(pk=tournament.pk)).status == Tournament.Status.FINISHED
    await communicator.disconnect()
