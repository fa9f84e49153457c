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


def patch(client: Any, path: str, body: Any) -> Any:
    import json

    return client.client.patch(
        "/api/v1" + path, data=json.dumps(body), content_type="application/json", headers=client.headers
    )


def test_notification_settings_read_and_changed_as_on_the_page(
    api_as: Callable[..., Any], ana: Any, settings: Any
) -> None:
    from django.core import mail

    from notifications import preferences
    from notifications.models import Channel, PushSubscription

    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    PushSubscription.objects.create(
        user=ana, endpoint="https://push.example.org/ana-phone", p256dh="k", auth="a", user_agent="phone"
    )
    client = api_as(ana)
    got = client.get("/notifications/settings").json()
    assert got["channels"]["deadline_warning"] == {"push": True, "email": True}  # the defaults
    assert got["channels"]["tournament_round"] == {"push": True, "email": True}
    assert got["digest"] is True
    assert got["quiet_hours"] is None
    assert [d["user_agent"] for d in got["devices"]] == ["phone"]
    assert got["email_verified"] is False

    mail.outbox.clear()
    changed = patch(
        client,
        "/notifications/settings",
        {
            "time_zone": "Europe/Stockholm",
            "quiet_hours": {"start": 22, "end": 7},
            "digest": False,
            "channels": {"chat": {"push": False}, "your_turn": {"email": True}},
            "email": "ana.new@example.org",
        },
    )
    assert changed.status_code == 200, changed.json()
    body = changed.json()
    assert (body["time_zone"], body["quiet_hours"], body["digest"]) == (
        "Europe/Stockholm",
        {"start": 22, "end": 7},
        False,
    )
    assert body["channels"]["chat"] == {"push": False, "email": False}
    assert body["channels"]["your_turn"] == {"push": True, "email": True}
    ana.refresh_from_db()
    assert (ana.time_zone, ana.quiet_hours_start, ana.quiet_hours_end) == ("Europe/Stockholm", 22, 7)
    wanted = preferences.wanted(ana)
    assert Channel.PUSH not in wanted[Kind.CHAT]
    assert Channel.EMAIL not in wanted[Kind.DIGEST]
    # The new address is unverified; its confirmation link went to it.
    assert (body["email"], body["email_verified"]) == ("ana.new@example.org", False)
    assert [m.to for m in mail.outbox] == [["ana.new@example.org"]]
    assert client.post("/notifications/settings/verify-email").json() == {"sent": True}

    # Only what is sent changes; quiet hours null turns them off.
    off = patch(client, "/notifications/settings", {"quiet_hours": None}).json()
    assert off["quiet_hours"] is None
    assert off["time_zone"] == "Europe/Stockholm"
    assert off["channels"]["chat"]["push"] is False


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"time_zone": "Mars/Olympus"}, "time_zone"),
        ({"channels": {"no_such_kind": {"push": True}}}, "channels.no_such_kind.push"),
        ({"channels": {"chat": {"pigeon": True}}}, "channels.chat.pigeon"),
        ({"email": "not an address"}, "email"),
        ({"quiet_hours": {"start": 25, "end": 7}}, None),
        ({"colour": "blue"}, None),
    ],
)
def test_bad_notification_settings_are_refused_and_change_nothing(
    api_as: Callable[..., Any], ana: Any, body: dict[str, Any], field: str | None
) -> None:
    client = api_as(ana)
    before = client.get("/notifications/settings").json()
    answer = patch(client, "/notifications/settings", {**body, "digest": False})
    assert answer.status_code == 400
    error = answer.json()
    assert error["error"] == "bad_request"
    assert error["message"]
    if field is not None:
        assert field in [d["field"] for d in error["details"]]
    assert client.get("/notifications/settings").json() == before


def test_notification_settings_need_a_token(api_as: Callable[..., Any]) -> None:
    anonymous = api_as(None)
    assert anonymous.get("/notifications/settings").status_code == 401
    assert patch(anonymous, "/notifications/settings", {"digest": False}).status_code == 401
