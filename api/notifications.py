"""``/api/v1/notifications``: the caller's notifications, newest first, paged, with an
unread filter, and marking them read. Each is rendered in the caller's language (the
request's, ``Accept-Language``) and their own time zone. ``/push``: an app registers
and revokes its device's Web Push subscription. ``/settings``: what reaches the caller by
which channel, quiet hours, time zone, address (the settings page's choices)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.core.paginator import Paginator
from django.http import HttpRequest
from django.utils import timezone
from ninja import Query, Router, Schema, Status
from pydantic import Field

from api.errors import ApiError
from api.games import REFUSALS
from api.players import example
from api.ratelimit import LOOKUP, WRITE
from api.schemas import Body
from notifications import preferences, push, services
from notifications.emails import absolute, verification_email
from notifications.forms import NotificationSettingsForm, data_for
from notifications.models import Channel, Kind, Notification, PushSubscription
from notifications.texts import render, time_zone_of

router = Router(tags=["notifications"])


class NotificationOut(Schema):
    id: int
    kind: str = Field(
        description="your_turn, invitation, invitation_answer, game_over, chat, friend_request, …"
    )
    title: str
    body: str
    url: str = Field(description="The page it is about (absolute), or empty.")
    params: dict[str, Any] = Field(description="The plain values it was made from (game id, names…).")
    created_at: datetime
    read_at: datetime | None


class NotificationPage(Schema):
    count: int = Field(description="How many match the filter.")
    unread: int = Field(description="How many of yours are unread.")
    page: int
    pages: int
    results: list[NotificationOut]


class NotificationFilter(Schema):
    unread: bool = False
    page: int = Field(default=1, ge=1)
    per_page: int = Field(default=50, ge=1, le=200)


class MarkReadIn(Body):
    ids: list[int] | None = Field(default=None, max_length=1000, description="Which to mark; none: all.")


class MarkedOut(Schema):
    marked: int
    unread: int


def represent(notification: Notification) -> dict[str, Any]:
    text = render(notification)
    return {
        "id": notification.pk,
        "kind": notification.kind,
        "title": text.title,
        "body": text.body,
        "url": absolute(text.path) if text.path else "",
        "params": notification.params,
        "created_at": notification.created_at,
        "read_at": notification.read_at,
    }


@router.get("", response={200: NotificationPage, **REFUSALS}, throttle=LOOKUP, summary="My notifications")
def list_notifications(request: HttpRequest, filters: Query[NotificationFilter]) -> Any:
    """Your notifications, newest first; ``unread=true`` for the unread ones only."""
    user: Any = request.user
    rows = Notification.objects.filter(recipient=user)
    if filters.unread:
        rows = rows.filter(read_at__isnull=True)
    paginator = Paginator(rows, filters.per_page)
    page = paginator.get_page(filters.page)
    with timezone.override(time_zone_of(user)):
        results = [represent(n) for n in page.object_list]
    return {
        "count": paginator.count,
        "unread": services.unread_count(user),
        "page": page.number,
        "pages": paginator.num_pages,
        "results": results,
    }


@router.post(
    "/read", response={200: MarkedOut, **REFUSALS}, throttle=WRITE, summary="Mark notifications read"
)
def mark_read(request: HttpRequest, body: MarkReadIn) -> Any:
    """Mark the given notifications of yours read (``{"ids": [...]}``), or all of them
    (``{}``). Ids that are not yours or already read are left alone."""
    user: Any = request.user
    marked = services.mark_read(user=user, ids=body.ids)
    return {"marked": marked, "unread": services.unread_count(user)}


class PushKeysIn(Body):
    p256dh: str = Field(max_length=200)
    auth: str = Field(max_length=200)


class PushSubscriptionIn(Body):
    endpoint: str = Field(max_length=500)
    keys: PushKeysIn


class PushEndpointIn(Body):
    endpoint: str = Field(max_length=500)


class PushSubscriptionOut(Schema):
    id: int
    endpoint: str
    created_at: datetime


@router.post(
    "/push",
    response={201: PushSubscriptionOut, **REFUSALS},
    throttle=WRITE,
    summary="Register a push subscription",
)
def register_push(request: HttpRequest, body: PushSubscriptionIn) -> Any:
    """Your device's Web Push subscription (``PushSubscription.toJSON()``): the endpoint
    must be https on a public address (400 ``bad_push_endpoint`` otherwise)."""
    try:
        subscription = push.subscribe(
            user=request.user,
            endpoint=body.endpoint,
            p256dh=body.keys.p256dh,
            auth=body.keys.auth,
            user_agent=request.headers.get("User-Agent", ""),
        )
    except push.BadEndpoint as exc:
        # The reason, already translated, is the message.
        raise ApiError("bad_push_endpoint", status=400, message=str(exc)) from None
    return Status(
        201, {"id": subscription.pk, "endpoint": subscription.endpoint, "created_at": subscription.created_at}
    )


@router.post(
    "/push/revoke",
    response={200: MarkedOut, **REFUSALS},
    throttle=WRITE,
    summary="Revoke a push subscription",
)
def revoke_push(request: HttpRequest, body: PushEndpointIn) -> Any:
    """Stop pushing to the device with this endpoint (``marked``: 1 if it was yours)."""
    user: Any = request.user
    removed, _ = PushSubscription.objects.filter(user=user, endpoint=body.endpoint).delete()
    return {"marked": removed, "unread": services.unread_count(user)}


# ----- settings: which kinds reach you by which channel, quiet hours, time zone --------

CHANNELS_EXAMPLE = {
    "your_turn": {"push": True, "email": False},
    "chat": {"push": False, "email": False},
    "deadline_warning": {"push": True, "email": True},
}


class QuietHours(Schema):
    start: int = Field(ge=0, le=23, description="The hour they begin, in your time zone (0-23).")
    end: int = Field(ge=0, le=23, description="The hour they end (0-23).")


class DeviceOut(Schema):
    id: int
    endpoint: str
    user_agent: str
    created_at: datetime
    last_used_at: datetime | None


class NotificationSettingsOut(Schema):
    model_config = example(
        {
            "email": "ana@example.org",
            "email_verified": True,
            "time_zone": "Europe/Stockholm",
            "quiet_hours": {"start": 22, "end": 7},
            "digest": True,
            "channels": CHANNELS_EXAMPLE,
            "devices": [
                {
                    "id": 3,
                    "endpoint": "https://fcm.googleapis.com/fcm/send/…",
                    "user_agent": "Mozilla/5.0 (Android 14) …",
                    "created_at": "2026-11-20T08:00:00Z",
                    "last_used_at": "2026-11-27T07:12:00Z",
                }
            ],
        }
    )
    email: str = Field(description="Where mail goes once verified; empty: none.")
    email_verified: bool = Field(description="Mail goes out only to a verified address.")
    time_zone: str = Field(description='An IANA time zone ("Europe/Paris"); empty: UTC.')
    quiet_hours: QuietHours | None = Field(
        description="Push notifications wait until they end, except time running out; null: none."
    )
    digest: bool = Field(description="The daily mail of the games waiting for you (channels.digest.email).")
    channels: dict[str, dict[str, bool]] = Field(
        description="For each kind of notification, whether it goes by push and by e-mail "
        "(the bell always has it)."
    )
    devices: list[DeviceOut] = Field(description="The devices subscribed to push notifications.")


class NotificationSettingsIn(Body):
    model_config = {
        **Body.model_config,
        **example({"quiet_hours": {"start": 22, "end": 7}, "channels": {"chat": {"push": False}}}),
    }
    email: str | None = Field(
        default=None, max_length=254, description="A new address (unverified until its link is followed)."
    )
    time_zone: str | None = Field(default=None, max_length=64, description='IANA name; "" for UTC.')
    quiet_hours: QuietHours | None = Field(default=None, description="null turns the quiet hours off.")
    digest: bool | None = None
    channels: dict[str, dict[str, bool]] | None = Field(
        default=None, description="Only the kinds and channels sent change."
    )


class SentOut(Schema):
    sent: bool = Field(description="Whether a new confirmation link went to the address.")


def settings_of(user: Any) -> dict[str, Any]:
    wanted = preferences.wanted(user)
    start, end = user.quiet_hours_start, user.quiet_hours_end
    return {
        "email": user.email,
        "email_verified": bool(preferences.email_address(user)),
        "time_zone": user.time_zone,
        "quiet_hours": None if start is None or end is None else {"start": start, "end": end},
        "digest": Channel.EMAIL in wanted.get(Kind.DIGEST, set()),
        "channels": {
            kind: {channel: channel in wanted.get(kind, set()) for channel in Channel.values}
            for kind in Kind.values
        },
        "devices": [
            {
                "id": d.pk,
                "endpoint": d.endpoint,
                "user_agent": d.user_agent,
                "created_at": d.created_at,
                "last_used_at": d.last_used_at,
            }
            for d in PushSubscription.objects.filter(user=user)
        ],
    }


def box(data: dict[str, Any], kind: str, channel: str, enabled: bool) -> None:
    """Tick or untick one box of the settings form's data (an unticked box is absent)."""
    name = NotificationSettingsForm.field_name(kind, channel)
    if enabled:
        data[name] = "on"
    else:
        data.pop(name, None)


@router.get(
    "/settings",
    response={200: NotificationSettingsOut, **REFUSALS},
    throttle=LOOKUP,
    summary="My notification settings",
)
def get_notification_settings(request: HttpRequest) -> Any:
    """What reaches you by which channel, your quiet hours, time zone and devices (the
    page ``/notifications/settings/``)."""
    return settings_of(request.user)


@router.patch(
    "/settings",
    response={200: NotificationSettingsOut, **REFUSALS},
    throttle=WRITE,
    summary="Change my notification settings",
)
def change_notification_settings(request: HttpRequest, body: NotificationSettingsIn) -> Any:
    """The fields sent change, checked as on the settings page; anything refused (an
    unknown kind, channel or time zone, an address that is not one) is a 400
    ``bad_request`` naming the field, and nothing changes."""
    user: Any = request.user
    sent = body.model_fields_set
    data = data_for(user, preferences.wanted(user))
    details: list[dict[str, Any]] = []
    if "email" in sent and body.email is not None:
        data["email"] = body.email
    if "time_zone" in sent and body.time_zone is not None:
        data["time_zone"] = body.time_zone
    if "quiet_hours" in sent:
        hours = body.quiet_hours
        data["quiet_hours_start"] = "" if hours is None else str(hours.start)
        data["quiet_hours_end"] = "" if hours is None else str(hours.end)
    for kind, channels in (body.channels or {}).items():
        for channel, enabled in channels.items():
            if kind not in Kind.values or channel not in Channel.values:
                details.append({"in": "body", "field": f"channels.{kind}.{channel}", "msg": "unknown"})
                continue
            box(data, kind, channel, enabled)
    if body.digest is not None:
        box(data, Kind.DIGEST, Channel.EMAIL, body.digest)
    form = NotificationSettingsForm(data, wanted={})
    if not form.is_valid():
        details += [
            {"in": "body", "field": name if name != "__all__" else "quiet_hours", "msg": str(errors[0])}
            for name, errors in form.errors.items()
        ]
    if details:
        raise ApiError("bad_request", details=details)
    form.save(user)
    return settings_of(user)


@router.post(
    "/settings/verify-email",
    response={200: SentOut, **REFUSALS},
    throttle=WRITE,
    summary="Send the confirmation link again",
)
def resend_verification(request: HttpRequest) -> Any:
    """Mail the confirmation link to your address again (``sent``: false when there is
    no address or it is confirmed already)."""
    user: Any = request.user
    if not user.email or preferences.email_address(user):
        return {"sent": False}
    verification_email(user, address=user.email).send()
    return {"sent": True}
