"""``/api/v1/notifications``: the caller's notifications, newest first, paged, the unread
filter, marking read; and the event stream carries each new notification."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from asgiref.sync import sync_to_async

from accounts.services import request_friend
from notifications.models import Kind, Notification
from notifications.services import notify
from tests.api.test_stream import open_stream, players  # noqa: F401 - the fixture

pytestmark = pytest.mark.django_db


def test_list_newest_first_paged_with_an_unread_filter(
    ana: Any, ben: Any, api_as: Callable[..., Any]
) -> None:
    for n in range(3):
        notify(
            recipient_ids=[ben.pk],
            kind=Kind.CHAT,
            params={"game": 7, "who": "ana", "text": f"line {n}"},
            path="/games/7/",
        )
    request_friend(user=ana, other=ben)
    oldest = Notification.objects.filter(recipient=ben).order_by("pk").first()
    assert oldest is not None
    oldest.read_at = oldest.created_at
    oldest.save()
    notify(recipient_ids=[ana.pk], kind=Kind.CHAT, params={"game": 7, "who": "ben", "text": "not ben's"})

    api = api_as(ben, "fr")
    page = api.get("/notifications?per_page=3").json()
    assert (page["count"], page["unread"], page["page"], page["pages"]) == (4, 3, 1, 2)
    first = page["results"][0]
    assert first["kind"] == "friend_request"
    assert first["title"] == "ana demande à être votre ami"
    assert first["url"] == "https://wordgame.example/accounts/friends/"
    assert [r["body"] for r in page["results"][1:]] == ["« line 2 »", "« line 1 »"]
    second = api.get("/notifications?per_page=3&page=2").json()
    assert [r["params"]["text"] for r in second["results"]] == ["line 0"]
    assert second["results"][0]["read_at"] is not None
    unread = api.get("/notifications?unread=true").json()
    assert unread["count"] == 3
    assert all(r["read_at"] is None for r in unread["results"])


def test_mark_read_some_then_all(ana: Any, ben: Any, api_as: Callable[..., Any]) -> None:
    ids = notify(recipient_ids=[ben.pk], kind=Kind.FRIEND_REQUEST, params={"who": "ana"})
    ids += notify(recipient_ids=[ben.pk], kind=Kind.FRIEND_REQUEST, params={"who": "cleo"})
    (anas,) = notify(recipient_ids=[ana.pk], kind=Kind.FRIEND_REQUEST, params={"who": "ben"})
    api = api_as(ben)
    assert api.post("/notifications/read", {"ids": [ids[0], anas]}).json() == {"marked": 1, "unread": 1}
    assert Notification.objects.get(pk=anas).read_at is None  # not ben's to mark
    assert api.post("/notifications/read", {}).json() == {"marked": 1, "unread": 0}
    assert api.post("/notifications/read", {"ids": ["x"]}).status_code == 400


def test_the_list_needs_a_token(api_as: Callable[..., Any]) -> None:
    assert api_as(None).get("/notifications").status_code == 401


@pytest.fixture(autouse=True)
def _site_url(settings: Any) -> None:
    settings.SITE_URL = "https://wordgame.example"


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_the_stream_carries_new_notifications(players: tuple[Any, Any, Any]) -> None:  # noqa: F811
    ana, ben, _cleo = players
    await sync_to_async(notify)(
        recipient_ids=[ben.pk], kind=Kind.CHAT, params={"game": 1, "who": "x", "text": "old"}
    )
    stream = await open_stream(ben, "?notifications=true")
    try:
        assert await stream.quiet()  # what was there before is the list's, not the stream's
        await sync_to_async(request_friend)(user=ana, other=ben)
        event = await stream.event()
        assert event["type"] == "notification"
        assert event["notification"]["kind"] == "friend_request"
        assert event["notification"]["title"] == "ana asks to be your friend"
        assert await stream.quiet()
    finally:
        await stream.close()


def test_an_app_registers_and_revokes_its_push_subscription(
    ben: Any, cleo: Any, api_as: Callable[..., Any], settings: Any
) -> None:
    from notifications.models import PushSubscription

    settings.WEBPUSH_ALLOWED_ENDPOINTS = ["http://127.0.0.1:9/"]
    keys = {"p256dh": "B" + "A" * 86, "auth": "A" * 22}
    api = api_as(ben, "de")
    refused = api.post("/notifications/push", {"endpoint": "https://10.0.0.1/push", "keys": keys})
    assert refused.status_code == 400
    assert refused.json() == {
        "error": "bad_push_endpoint",
        "message": "Eine Push-Adresse darf nicht in ein privates oder lokales Netz führen.",
    }
    made = api.post("/notifications/push", {"endpoint": "http://127.0.0.1:9/push/1", "keys": keys})
    assert made.status_code == 201
    assert made.json()["endpoint"] == "http://127.0.0.1:9/push/1"
    assert PushSubscription.objects.get().user == ben
    assert (
        api_as(cleo)
        .post("/notifications/push/revoke", {"endpoint": "http://127.0.0.1:9/push/1"})
        .json()["marked"]
        == 0
    )
    assert (
        api.post("/notifications/push/revoke", {"endpoint": "http://127.0.0.1:9/push/1"}).json()["marked"]
        == 1
    )
    assert not PushSubscription.objects.exists()
