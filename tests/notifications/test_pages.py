"""In the site: the bell with the unread count in the header, live over the player's own
socket; ``/notifications/`` newest first, each linking to its page, "mark all read"."""

from __future__ import annotations

import re
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from accounts.services import request_friend
from games.models import Game
from notifications.models import Kind, Notification
from notifications.services import notify
from tests.factories import PASSWORD
from tests.games.helpers import CAT_AT_CENTRE
from wordgame.asgi import application


def client_for(user: Any) -> Client:
    client = Client()
    assert client.login(username=user.username, password=PASSWORD)
    return client


def bell_count(html: str) -> int:
    found = re.search(r'id="notification-bell"[^>]*data-unread="(\d+)"', html)
    assert found is not None, "no bell in the page"
    return int(found.group(1))


@pytest.mark.django_db
def test_the_bell_counts_unread_and_the_list_leads_to_each_page(
    ana: Any, ben: Any, cleo: Any, game_ana_ben: Game
) -> None:
    ben_client = client_for(ben)
    before = bell_count(ben_client.get("/notifications/").content.decode())
    game_ana_ben.play(ana, CAT_AT_CENTRE, version=game_ana_ben.version)
    request_friend(user=cleo, other=ben)
    page = ben_client.get("/notifications/").content.decode()
    assert bell_count(page) == before + 2
    # Newest first: the friend request, then the turn.
    assert page.index("cleo asks to be your friend") < page.index("Your turn against ana")
    turn = Notification.objects.get(recipient=ben, kind=Kind.YOUR_TURN)
    opened = ben_client.get(f"/notifications/{turn.pk}/")
    assert opened.status_code == 302
    assert opened["Location"] == f"/games/{game_ana_ben.pk}/"
    turn.refresh_from_db()
    assert turn.read_at is not None
    assert bell_count(ben_client.get("/notifications/").content.decode()) == before + 1
    # Someone else's notification is not there for ana.
    assert client_for(ana).get(f"/notifications/{turn.pk}/").status_code == 404

    assert ben_client.post("/notifications/read/").status_code == 302
    assert bell_count(ben_client.get("/").content.decode()) == 0
    assert not Notification.objects.filter(recipient=ben, read_at__isnull=True).exists()


@pytest.mark.django_db
def test_the_list_is_in_the_viewers_language(ana: Any, ben: Any, game_ana_ben: Game) -> None:
    game_ana_ben.play(ana, CAT_AT_CENTRE, version=game_ana_ben.version)
    ben_client = client_for(ben)
    ben_client.cookies["django_language"] = "de"
    page = ben_client.get("/notifications/").content.decode()
    assert "Du bist am Zug gegen ana" in page


@pytest.mark.django_db
def test_the_list_needs_a_login(client: Client) -> None:
    assert client.get("/notifications/").status_code == 302


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("close_db_connection")
async def test_the_bell_follows_live_over_the_players_socket(ana: Any, ben: Any) -> None:
    def session_cookie(user: Any) -> bytes:
        client = Client()
        client.force_login(user)
        return f"sessionid={client.cookies['sessionid'].value}".encode()

    cookie = await sync_to_async(session_cookie)(ben)
    socket = WebsocketCommunicator(
        application, "/ws/user/", headers=[(b"origin", b"http://testserver"), (b"cookie", cookie)]
    )
    connected, _ = await socket.connect()
    assert connected
    assert bell_count(await socket.receive_from(timeout=5)) == 0
    await sync_to_async(notify)(recipient_ids=[ben.pk], kind=Kind.FRIEND_REQUEST, params={"who": "ana"})
    assert bell_count(await socket.receive_from(timeout=5)) == 1
    await socket.disconnect()
