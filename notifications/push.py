"""Web Push (RFC 8030/8291/8292) with ``pywebpush``: subscriptions per device, VAPID keys
from the settings, and the check every endpoint passes before the server POSTs to it.

A subscription's endpoint is a URL a browser gave us, i.e. user input the server will
call: it must be ``https`` and resolve only to public addresses (no loopback, private,
link-local, multicast or reserved ones), checked when it is registered and again before
each send. At a send the name is resolved once, checked, and the connection made to that
very address (:class:`PinnedAdapter`: the URL's host name stays the ``Host`` header, the
TLS server name and the name the certificate must match), so a name that resolves to a
public address for the check and to a private one a moment later (DNS rebinding) cannot
lead the server's POST inside. ``WEBPUSH_ALLOWED_ENDPOINTS`` lists URL prefixes let
through regardless (the tests' local push service; empty in production).
"""

from __future__ import annotations

import base64
import ipaddress
import json
import socket
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from urllib.parse import urlsplit

import requests
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.conf import settings
from django.utils import timezone
from django.utils.translation import gettext
from requests import PreparedRequest, Response
from requests.adapters import HTTPAdapter

from notifications.models import Notification, PushSubscription
from notifications.texts import as_recipient, render


class BadEndpoint(ValueError):
    """A push endpoint the server will not call; the message says why (translated)."""


class Revoked(Exception):
    """The push service says the subscription is gone (404 or 410)."""


class NoDevice(Exception):
    """The recipient has no subscribed device left: nothing to retry."""


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def new_vapid_keys() -> tuple[str, str]:
    """A new VAPID key pair as (public, private): the public key in the form browsers take
    as ``applicationServerKey`` (the uncompressed P-256 point), the private one as the
    raw 32-byte scalar; both base64url without padding."""
    key = ec.generate_private_key(ec.SECP256R1())
    public = key.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    private = key.private_numbers().private_value.to_bytes(32, "big")
    return b64url(public), b64url(private)


def enabled() -> bool:
    return bool(settings.VAPID_PUBLIC_KEY and settings.VAPID_PRIVATE_KEY)


def _public(address: str) -> bool:
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return ip.is_global and not (ip.is_multicast or ip.is_reserved or ip.is_link_local or ip.is_loopback)


@dataclass(frozen=True, slots=True)
class Target:
    """Where a push goes: the endpoint's host name and the checked address the
    connection is made to (None: a prefix of ``WEBPUSH_ALLOWED_ENDPOINTS``, not pinned)."""

    url: str
    hostname: str
    address: str | None


def resolve_endpoint(url: str) -> Target:
    """Resolve ``url``'s host once and check every address it has; the :class:`Target`
    to connect to, else ``BadEndpoint``."""
    if len(url) > PushSubscription._meta.get_field("endpoint").max_length:  # type: ignore[operator]
        raise BadEndpoint(gettext("This push address is too long."))
    parts = urlsplit(url)
    if any(url.startswith(prefix) for prefix in settings.WEBPUSH_ALLOWED_ENDPOINTS):
        return Target(url=url, hostname=parts.hostname or "", address=None)
    if parts.scheme != "https" or not parts.hostname or parts.username or parts.password:
        raise BadEndpoint(gettext("A push address must be an https address."))
    try:
        port = parts.port or 443
        found = socket.getaddrinfo(parts.hostname, port, proto=socket.IPPROTO_TCP)
    except (OSError, ValueError, UnicodeError):
        raise BadEndpoint(gettext("This push address does not resolve.")) from None
    addresses = [str(info[4][0]) for info in found]
    if not addresses or not all(_public(a) for a in addresses):
        raise BadEndpoint(gettext("A push address must not lead to a private or local network."))
    return Target(url=url, hostname=parts.hostname, address=addresses[0].split("%", 1)[0])


def check_endpoint(url: str) -> str:
    """``url`` if the server may POST to it, else ``BadEndpoint``."""
    resolve_endpoint(url)
    return url


class PinnedAdapter(HTTPAdapter):
    """A ``requests`` transport that connects to one checked address for one host name:
    the URL keeps the name (so the ``Host`` header, the TLS server name and the name the
    certificate is checked against are the name's), the socket goes to ``address``. Any
    other host (a redirect elsewhere) is refused, never resolved."""

    def __init__(self, *, hostname: str, address: str) -> None:
        self.hostname = hostname.lower()
        self.address = address
        super().__init__(max_retries=0)

    def send(self, request: PreparedRequest, *args: Any, **kwargs: Any) -> Response:
        parts = urlsplit(request.url or "")
        if (parts.hostname or "").lower() != self.hostname:
            raise requests.ConnectionError(f"push: {parts.hostname} is not the checked host")
        request.headers["Host"] = parts.netloc
        return super().send(request, *args, **kwargs)

    def build_connection_pool_key_attributes(
        self, request: PreparedRequest, verify: Any, cert: Any = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        host_params, pool_kwargs = super().build_connection_pool_key_attributes(request, verify, cert)
        host_params["host"] = self.address
        if host_params["scheme"] == "https":
            pool_kwargs["server_hostname"] = self.hostname
            pool_kwargs["assert_hostname"] = self.hostname
        return host_params, pool_kwargs


def session_for(target: Target) -> requests.Session:
    """A session whose every connection goes to ``target``'s checked address (no proxy
    from the environment either: a proxy would resolve the name again)."""
    session = requests.Session()
    if target.address is not None:
        session.trust_env = False
        adapter = PinnedAdapter(hostname=target.hostname, address=target.address)
        session.mount("https://", adapter)
        session.mount("http://", adapter)
    return session


def _key(value: Any, size: int) -> str:
    """A subscription key: base64url that decodes to ``size`` bytes."""
    if not isinstance(value, str) or len(value) > 200:
        raise BadEndpoint(gettext("This push subscription's keys are not valid."))
    try:
        raw = base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
    except ValueError:
        raise BadEndpoint(gettext("This push subscription's keys are not valid.")) from None
    if len(raw) != size:
        raise BadEndpoint(gettext("This push subscription's keys are not valid."))
    return value


def subscribe(*, user: Any, endpoint: Any, p256dh: Any, auth: Any, user_agent: str = "") -> PushSubscription:
    """Register (or move to ``user``) the subscription of one device; ``BadEndpoint``
    for anything the server will not call."""
    if not isinstance(endpoint, str):
        raise BadEndpoint(gettext("A push address must be an https address."))
    check_endpoint(endpoint)
    subscription, _created = PushSubscription.objects.update_or_create(
        endpoint=endpoint,
        defaults={
            "user": user,
            "p256dh": _key(p256dh, 65),
            "auth": _key(auth, 16),
            "user_agent": user_agent[:200],
        },
    )
    return subscription


@dataclass(frozen=True, slots=True)
class Message:
    payload: str
    ttl: int
    topic: str
    urgency: str


def message_for(notification: Notification, now: datetime | None = None) -> Message:
    """What the service worker shows: title and body already in the recipient's language,
    the page to open, and one tag per game (or per kind), so five chat lines of a game
    are one notification. Its TTL runs to the turn's deadline when it has one."""
    now = now or timezone.now()
    with as_recipient(notification.recipient):
        text = render(notification)
    game, tournament = notification.params.get("game"), notification.params.get("tournament_id")
    # One notification per game (five chat lines are one), per tournament for a bye, else per kind.
    tag = f"game-{game}" if game else f"tournament-{tournament}" if tournament else notification.kind
    payload = json.dumps({"title": text.title, "body": text.body, "url": text.path or "/", "tag": tag})
    ttl = settings.WEBPUSH_TTL_SECONDS
    if deadline := notification.params.get("deadline"):
        ttl = max(0, min(ttl, int((datetime.fromisoformat(deadline) - now).total_seconds())))
    urgent = notification.kind in ("your_turn", "deadline_warning", "invitation")
    # Topic: the push service keeps only the newest undelivered message of a topic (≤ 32
    # characters of the URL-safe alphabet).
    return Message(
        payload=payload, ttl=ttl, topic=tag.replace("_", "-")[:32], urgency="high" if urgent else "normal"
    )


def send_to(subscription: PushSubscription, message: Message) -> None:
    """POST ``message`` to one device. ``Revoked`` (and the subscription deleted) when the
    push service answers 404 or 410; any other failure raises for the retry."""
    from pywebpush import WebPushException, webpush

    # Resolved and checked now, and the POST goes to the address checked (DNS rebinding).
    target = resolve_endpoint(subscription.endpoint)
    try:
        webpush(
            subscription_info={
                "endpoint": subscription.endpoint,
                "keys": {"p256dh": subscription.p256dh, "auth": subscription.auth},
            },
            data=message.payload,
            vapid_private_key=settings.VAPID_PRIVATE_KEY,
            vapid_claims={"sub": settings.VAPID_SUBJECT},
            ttl=message.ttl,
            headers={"Topic": message.topic, "Urgency": message.urgency},
            # pywebpush's own default is 10000 s; a stuck push service must not hold a worker.
            timeout=settings.WEBPUSH_TIMEOUT_SECONDS,
            requests_session=session_for(target),
        )
    except WebPushException as exc:
        status = getattr(exc.response, "status_code", None)
        if status in (404, 410):
            subscription.delete()
            raise Revoked(subscription.endpoint) from None
        raise
    PushSubscription.objects.filter(pk=subscription.pk).update(last_used_at=timezone.now())


def send_notification(notification: Notification) -> int:
    """Push ``notification`` to every device of its recipient; how many took it."""
    message = message_for(notification)
    took = 0
    errors: list[Exception] = []
    for subscription in PushSubscription.objects.filter(user_id=notification.recipient_id):
        try:
            send_to(subscription, message)
            took += 1
        except Revoked:
            continue
        except Exception as exc:  # noqa: BLE001 - one device failing does not stop the others
            errors.append(exc)
    if errors:
        raise errors[0]
    if not took:
        raise NoDevice(notification.recipient_id)
    return took
