"""Starting and leaving a live game (issue 28, point 3): a live game nobody moved in is
aborted after LIVE_ABORT_SECONDS and counts for nothing; a player whose page is gone is
shown away to the opponent while the clock runs on."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import Rating
from games import tasks
from games.actions import Abort, Play
from games.models import Game, GameError
from notifications import presence
from tests.factories import PASSWORD
from tests.games.helpers import CAT_AT_CENTRE
from tests.games.test_live_clocks import live_game


def age(game: Game, seconds: float) -> Game:
    """As if the game had begun ``seconds`` earlier."""
    assert game.turn_started_at is not None
    Game.objects.filter(pk=game.pk).update(turn_started_at=game.turn_started_at - timedelta(seconds=seconds))
    game.refresh_from_db()
    return game


def test_a_live_game_nobody_moved_in_is_aborted_and_counts_for_nothing(ana: Any, ben: Any) -> None:
    game = live_game(ana, ben, "5+0")
    assert game.abort_at() == game.turn_started_at + timedelta(seconds=60)  # type: ignore[operator]
    version = game.version
    assert tasks.abort_unstarted.call(game.pk, version) is False  # not yet
    game = age(game, 61)
    assert tasks.abort_unstarted.call(game.pk, version) is True
    assert tasks.abort_unstarted.call(game.pk, version) is False  # run twice: nothing more
    game.refresh_from_db()
    assert game.status == Game.Status.ABORTED
    assert (game.end_reason, game.winner_seat, game.final_scores, game.finished_at) == ("", None, None, None)
    assert not Game.objects.active_for(ana).exists()
    assert not Rating.objects.exists()
    # Nothing more can be played in it, with a clear message.
    with pytest.raises(GameError) as refused:
        game.act(ana, Play.of(CAT_AT_CENTRE), version=game.version)
    assert refused.value.code == "aborted"
    client = Client()
    client.login(username="ana", password=PASSWORD)
    page = client.get(reverse("games:detail", args=[game.pk])).content.decode()
    assert "This live game was called off" in page


def test_the_sweep_aborts_a_game_whose_abort_task_was_lost(ana: Any, ben: Any) -> None:
    from games.services import expire_games

    game = live_game(ana, ben, "5+0")
    assert expire_games().aborted == []
    game = age(game, 61)
    assert expire_games().aborted == [game.pk]
    game.refresh_from_db()
    assert game.status == Game.Status.ABORTED


def test_a_first_move_in_time_keeps_the_game(ana: Any, ben: Any) -> None:
    game = live_game(ana, ben, "5+0")
    version = game.version
    game.act(ana, Play.of(CAT_AT_CENTRE), version=version)
    game = age(game, 120)
    assert tasks.abort_unstarted.call(game.pk, version) is False
    assert "abort" not in game.allowed_actions(ana)
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE


def test_only_the_system_aborts(ana: Any, ben: Any) -> None:
    game = age(live_game(ana, ben, "5+0"), 61)
    with pytest.raises(GameError) as refused:
        game.act(ben, Abort(), version=game.version)
    assert refused.value.code == "not_allowed"


def test_correspondence_games_are_never_aborted(ana: Any, ben: Any) -> None:
    from tests.games.helpers import make_game

    game = make_game(ana, ben)
    assert game.abort_at() is None
    Game.objects.filter(pk=game.pk).update(updated_at=timezone.now() - timedelta(days=1))
    assert tasks.abort_unstarted.call(game.pk, game.version) is False


def test_the_opponent_sees_a_player_away_while_their_page_is_closed(ana: Any, ben: Any) -> None:
    game = live_game(ana, ben, "5+0")
    client = Client()
    client.login(username="ben", password=PASSWORD)
    url = reverse("games:detail", args=[game.pk])
    page = client.get(url).content.decode()
    assert page.count(">Away<") == 1  # ana, whose page is not open; never ben himself
    async_to_sync(presence.amark_present)(ana.pk, game.pk)
    assert ">Away<" not in client.get(url).content.decode()
    async_to_sync(presence.amark_gone)(ana.pk, game.pk)
    page = client.get(url).content.decode()
    assert ">Away<" in page
    assert 'data-running="true"' in page  # her clock runs on


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("close_db_connection")
async def test_the_opponent_sees_a_player_leave_and_come_back_live(ana: Any, ben: Any) -> None:
    from tests.games.test_game_consumer import connect

    game = await sync_to_async(live_game)(ana, ben, "5+0")
    path = f"/ws/games/{game.pk}/"
    ben_socket, connected = await connect(path, ben)
    assert connected
    assert ">Away<" in await ben_socket.receive_from(timeout=10)  # ana's page is not open
    ana_socket, connected = await connect(path, ana)
    assert connected
    await ana_socket.receive_from(timeout=10)  # her own snapshot
    assert ">Away<" not in await ben_socket.receive_from(timeout=10)
    await ana_socket.disconnect()
    assert ">Away<" in await ben_socket.receive_from(timeout=10)
    await ben_socket.disconnect()
