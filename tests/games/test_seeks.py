"""Open seeks matched by rating (issue 28, point 5): a request meets players within its
rating window, which widens with the wait; blocked players never meet; the seeks page
lists the requests live over the lobby socket and takes them up; a live seeker is
offered the computer after a while."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import Block, Rating
from games import seeks, services, tasks
from games.models import Game, GameError
from games.pace import Pace
from tests.factories import PASSWORD
from wordgame.asgi import application

LIVE = Pace.parse("5+0")
SLOW = Pace.parse("3d")


def rate(user: Any, rating: float, speed: str = "live") -> None:
    Rating.objects.create(user=user, language="en", speed=speed, rating=rating)


def seek(user: Any, pace: Pace = LIVE) -> Game:
    return services.start_game(creator=user, mode=Game.Mode.RANDOM, language="en", pace=pace)


def wait(game: Game, **delta: float) -> None:
    Game.objects.filter(pk=game.pk).update(created_at=game.created_at - timedelta(**delta))
    game.refresh_from_db()


def client_for(user: Any) -> Client:
    client = Client()
    assert client.login(username=user.username, password=PASSWORD)
    return client


def test_a_request_meets_only_players_within_its_window(ana: Any, ben: Any, cleo: Any) -> None:
    rate(ben, 1800)
    rate(cleo, 1650)
    first = seek(ana)  # 1500
    assert first.seek_rating == 1500
    far = seek(ben)  # 300 away: his own request opens instead
    assert far.pk != first.pk
    assert far.status == Game.Status.OPEN
    near = seek(cleo)  # 150 away from ana's
    assert near.pk == first.pk
    assert near.status == Game.Status.ACTIVE


def test_the_window_widens_with_the_wait_and_the_requests_meet(ana: Any, ben: Any) -> None:
    rate(ben, 1800)
    first, second = seek(ana), seek(ben)
    assert seeks.window(first, timezone.now()) == 200
    assert tasks.seek_widened.call(first.pk) is False  # not yet
    wait(first, seconds=61)  # a live request: 100 wider after a minute
    assert seeks.window(first, timezone.now()) == 300
    assert tasks.seek_widened.call(first.pk) is True
    first.refresh_from_db()
    second.refresh_from_db()
    assert first.status == Game.Status.ACTIVE
    assert {s.user_id for s in first.seats.all()} == {ana.pk, ben.pk}
    assert second.status == Game.Status.DECLINED


def test_a_correspondence_window_widens_by_the_hour(ana: Any, ben: Any) -> None:
    rate(ben, 1800, "correspondence")
    first, _second = seek(ana, SLOW), seek(ben, SLOW)
    wait(first, minutes=59)
    assert services.match_waiting(game_id=first.pk) is None
    wait(first, minutes=2)
    assert services.match_waiting(game_id=first.pk) is not None


def test_blocked_players_are_never_matched(ana: Any, ben: Any) -> None:
    Block.objects.create(blocker=ana, blocked=ben)
    first = seek(ana)
    second = seek(ben)  # same rating, but blocked: a request of his own
    assert second.pk != first.pk
    wait(first, hours=10)
    wait(second, hours=10)
    assert services.match_waiting(game_id=first.pk) is None
    assert services.match_waiting(game_id=second.pk) is None
    with pytest.raises(GameError):
        services.accept_seek(user=ben, game_id=first.pk)
    assert (
        f"games/seeks/{first.pk}/accept" not in client_for(ben).get(reverse("games:seeks")).content.decode()
    )


def test_the_seeks_page_lists_requests_and_takes_one_up(ana: Any, ben: Any, cleo: Any) -> None:
    rate(cleo, 1900)
    request = seek(ana)
    page = client_for(ben).get(reverse("games:seeks")).content.decode()
    assert "Live 5 min, overtime up to 10 min (10 points a minute)" in page
    assert "ratings 1300–1700" in page
    assert reverse("games:seek-accept", args=[request.pk]) in page
    # cleo is out of the window: no button, and a refusal with a message if she tries.
    assert (
        reverse("games:seek-accept", args=[request.pk])
        not in client_for(cleo).get(reverse("games:seeks")).content.decode()
    )
    refused = client_for(cleo).post(reverse("games:seek-accept", args=[request.pk]))
    assert refused.status_code == 409
    assert "Your rating is outside this request" in refused.content.decode()
    taken = client_for(ben).post(reverse("games:seek-accept", args=[request.pk]))
    assert taken.status_code == 302
    request.refresh_from_db()
    assert request.status == Game.Status.ACTIVE
    assert request.is_live
    gone = client_for(cleo).post(reverse("games:seek-accept", args=[request.pk]))
    assert "no longer open" in gone.content.decode()


def test_a_waiting_live_seeker_is_offered_the_computer(ana: Any) -> None:
    request = seek(ana)
    client = client_for(ana)
    assert "Play the computer instead" not in client.get(reverse("games:seeks")).content.decode()
    with pytest.raises(GameError):
        services.computer_instead(user=ana, game_id=request.pk)
    wait(request, seconds=31)
    assert "Play the computer instead" in client.get(reverse("games:seeks")).content.decode()
    answer = client.post(reverse("games:seek-computer", args=[request.pk]))
    assert answer.status_code == 302
    request.refresh_from_db()
    assert request.status == Game.Status.DECLINED
    game = Game.objects.get(created_by=ana, mode=Game.Mode.COMPUTER)
    assert game.pace == LIVE
    assert game.status == Game.Status.ACTIVE


def session_cookie(user: Any) -> bytes:
    client = Client()
    client.force_login(user)
    return f"sessionid={client.cookies['sessionid'].value}".encode()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("close_db_connection")
async def test_the_seeks_page_hears_of_a_new_request_over_the_lobby_socket(ana: Any, ben: Any) -> None:
    cookie = await sync_to_async(session_cookie)(ben)
    socket = WebsocketCommunicator(
        application, "/ws/lobby/?seeks=1", headers=[(b"cookie", cookie), (b"origin", b"http://localhost")]
    )
    connected, _ = await socket.connect()
    assert connected
    first = await socket.receive_from(timeout=10)
    assert 'id="seeks"' in first
    assert "No open requests" in first
    await sync_to_async(seek)(ana)
    pushed = await socket.receive_from(timeout=10)
    assert 'id="seeks"' in pushed
    assert "Live 5 min" in pushed
    await socket.disconnect()
