"""``/api/v1/notifications``: the caller's notifications, newest first, paged, with an
unread filter, and marking them read. Each is rendered in the caller's language (the
request's, ``Accept-Language``) and their own time zone. ``/push``: an app registers
and revokes its device's Web Push subscription."""

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
from api.ratelimit import LOOKUP, WRITE
from api.schemas import Body
from notifications import push, services
from notifications.emails import absolute
from notifications.models import Notification, PushSubscription
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
