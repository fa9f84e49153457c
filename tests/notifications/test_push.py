"""Web Push with real parts: a local push service on 127.0.0.1 receives the encrypted
request and the test decrypts it with the subscription's keys (``http_ece``); a 410
removes the subscription; endpoints are checked like any address the server calls; no
push while the recipient has that game's page open."""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import http_ece
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.test import Client
from django.utils import timezone

from games.models import Game
from notifications import presence, push
from notifications.models import Channel, Delivery, Kind, PushSubscription
from tests.factories import PASSWORD
from tests.games.helpers import CAT_AT_CENTRE

pytestmark = pytest.mark.django_db


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: bytes


@dataclass
class PushService:
    url: str
    received: list[Received] = field(default_factory=list)
    answers: dict[str, int] = field(default_factory=dict)  # path -> status (default 201)


@pytest.fixture
def push_service(settings: Any) -> Iterator[PushService]:
    """A push service on a free port of 127.0.0.1, let through by the endpoint check
    only for this test; VAPID keys of the test's own."""
    service = PushService(url="")

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            service.received.append(
                Received(self.path, {k.lower(): v for k, v in self.headers.items()}, body)
            )
            self.send_response(service.answers.get(self.path, 201))
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    service.url = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    settings.WEBPUSH_ALLOWED_ENDPOINTS = [service.url + "/"]
    settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY = push.new_vapid_keys()
    settings.VAPID_SUBJECT = "mailto:ops@wordgame.example"
    try:
        yield service
    finally:
        server.shutdown()
        server.server_close()


@dataclass
class Device:
    """A browser's side of a subscription: the keys it would hold."""

    key: ec.EllipticCurvePrivateKey
    auth: bytes

    @classmethod
    def new(cls) -> Device:
        return cls(key=ec.generate_private_key(ec.SECP256R1()), auth=os.urandom(16))

    def subscription(self, endpoint: str) -> dict[str, Any]:
        public = self.key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return {"endpoint": endpoint, "keys": {"p256dh": push.b64url(public), "auth": push.b64url(self.auth)}}

    def read(self, received: Received) -> dict[str, Any]:
        plain = http_ece.decrypt(
            received.body, private_key=self.key, auth_secret=self.auth, version="aes128gcm"
        )
        data: dict[str, Any] = json.loads(plain)
        return data


def subscribe(user: Any, device: Device, endpoint: str) -> Any:
    client = Client()
    assert client.login(username=user.username, password=PASSWORD)
    return client.post(
        "/notifications/push/subscribe/",
        json.dumps(device.subscription(endpoint)),
        content_type="application/json",
    )


def test_a_turn_pushed_encrypted_in_the_recipients_language_with_ttl_and_tag(
    ana: Any, ben: Any, game_ana_ben: Game, push_service: PushService, django_capture_on_commit_callbacks: Any
) -> None:
    ben.interface_language = "sv"
    ben.save()
    device = Device.new()
    assert subscribe(ben, device, push_service.url + "/push/ben-phone").status_code == 204
    with django_capture_on_commit_callbacks(execute=True):
        game_ana_ben.play(ana, CAT_AT_CENTRE, version=game_ana_ben.version)

    (request,) = push_service.received
    assert request.path == "/push/ben-phone"
    assert request.headers["content-encoding"] == "aes128gcm"
    assert request.headers["authorization"].startswith("vapid t=")
    assert f"k={get_settings().VAPID_PUBLIC_KEY}" in request.headers["authorization"]
    message = device.read(request)
    assert message == {
        "title": "Din tur mot ana",
        "body": message["body"],
        "url": f"/games/{game_ana_ben.pk}/",
        "tag": f"game-{game_ana_ben.pk}",
    }
    assert message["body"].startswith(f"ana har gjort sitt drag i parti nr {game_ana_ben.pk}.")
    assert request.headers["topic"] == f"game-{game_ana_ben.pk}"
    assert request.headers["urgency"] == "high"
    # The TTL runs to the turn's deadline (the default cap is a day; this turn has days).
    assert game_ana_ben.turn_deadline is not None
    assert int(request.headers["ttl"]) == get_settings().WEBPUSH_TTL_SECONDS
    delivery = Delivery.objects.get(channel=Channel.PUSH)
    assert delivery.status == Delivery.Status.SENT


def test_the_ttl_ends_with_the_turn(ben: Any, push_service: PushService) -> None:
    from notifications.models import Notification

    deadline = timezone.now() + timedelta(hours=3)
    notification = Notification.objects.create(
        recipient=ben,
        kind=Kind.DEADLINE_WARNING,
        params={"game": 5, "who": "ana", "deadline": deadline.isoformat()},
    )
    ttl = push.message_for(notification).ttl
    assert 3 * 3600 - 5 <= ttl <= 3 * 3600


def test_a_410_removes_the_subscription(
    ana: Any, ben: Any, game_ana_ben: Game, push_service: PushService, django_capture_on_commit_callbacks: Any
) -> None:
    gone, kept = Device.new(), Device.new()
    subscribe(ben, gone, push_service.url + "/push/old-laptop")
    subscribe(ben, kept, push_service.url + "/push/phone")
    push_service.answers["/push/old-laptop"] = 410
    with django_capture_on_commit_callbacks(execute=True):
        game_ana_ben.play(ana, CAT_AT_CENTRE, version=game_ana_ben.version)
    assert sorted(r.path for r in push_service.received) == ["/push/old-laptop", "/push/phone"]
    assert list(PushSubscription.objects.values_list("endpoint", flat=True)) == [
        push_service.url + "/push/phone"
    ]
    assert Delivery.objects.get(channel=Channel.PUSH).status == Delivery.Status.SENT


def test_no_push_while_the_recipient_has_the_game_open(
    ana: Any, ben: Any, game_ana_ben: Game, push_service: PushService, django_capture_on_commit_callbacks: Any
) -> None:
    from asgiref.sync import async_to_sync

    subscribe(ben, Device.new(), push_service.url + "/push/phone")
    async_to_sync(presence.amark_present)(ben.pk, game_ana_ben.pk)
    with django_capture_on_commit_callbacks(execute=True):
        game_ana_ben.play(ana, CAT_AT_CENTRE, version=game_ana_ben.version)
    assert push_service.received == []
    assert not Delivery.objects.filter(channel=Channel.PUSH).exists()
    # Gone from the page (or its worker killed and the key expired): pushed again.
    async_to_sync(presence.amark_gone)(ben.pk, game_ana_ben.pk)
    game = Game.objects.get(pk=game_ana_ben.pk)
    with django_capture_on_commit_callbacks(execute=True):
        game.post_chat(ana, "your move!")
    assert len(push_service.received) == 1


@pytest.mark.parametrize(
    "endpoint",
    [
        "http://push.example.com/x",  # not https
        "https://127.0.0.1/x",
        "https://localhost/x",
        "https://10.1.2.3/x",
        "https://192.168.0.10/x",
        "https://169.254.169.254/latest/meta-data/",
        "https://[::1]/x",
        "https://[::ffff:127.0.0.1]/x",
        "https://[fe80::1]/x",
        "https://user:pw@93.184.216.34/x",
        "ftp://93.184.216.34/x",
    ],
)
def test_endpoints_the_server_will_not_call(ben: Any, endpoint: str) -> None:
    answer = subscribe(ben, Device.new(), endpoint)
    assert answer.status_code == 400
    assert answer.content
    assert not PushSubscription.objects.exists()


def test_a_public_https_endpoint_is_accepted(ben: Any) -> None:
    assert push.check_endpoint("https://93.184.216.34/push/abc") == "https://93.184.216.34/push/abc"


def test_bad_keys_are_refused(ben: Any, push_service: PushService) -> None:
    client = Client()
    assert client.login(username="ben", password=PASSWORD)
    body = {"endpoint": push_service.url + "/push/x", "keys": {"p256dh": "short", "auth": "x"}}
    answer = client.post("/notifications/push/subscribe/", json.dumps(body), content_type="application/json")
    assert answer.status_code == 400
    assert (
        client.post("/notifications/push/subscribe/", "not json", content_type="application/json").status_code
        == 400
    )
    assert not PushSubscription.objects.exists()


def test_devices_are_listed_and_removable_in_the_settings(
    ben: Any, cleo: Any, push_service: PushService
) -> None:
    subscribe(ben, Device.new(), push_service.url + "/push/phone")
    device = PushSubscription.objects.get()
    client = Client()
    assert client.login(username="ben", password=PASSWORD)
    page = client.get("/accounts/notifications/").content.decode()
    assert f"/notifications/push/{device.pk}/remove/" in page
    assert 'id="push-subscribe"' in page
    other = Client()
    assert other.login(username="cleo", password=PASSWORD)
    other.post(f"/notifications/push/{device.pk}/remove/")
    assert PushSubscription.objects.exists()  # not cleo's to remove
    client.post(f"/notifications/push/{device.pk}/remove/")
    assert not PushSubscription.objects.exists()


def test_the_service_worker_is_served_at_the_root(client: Client) -> None:
    answer = client.get("/sw.js")
    assert answer.status_code == 200
    assert answer["Content-Type"].startswith("text/javascript")
    body = answer.content.decode()
    assert 'addEventListener("push"' in body
    assert 'addEventListener("notificationclick"' in body


def test_vapid_keys_command_prints_a_usable_pair(tmp_path: Any) -> None:
    from io import StringIO

    from django.core.management import call_command
    from py_vapid import Vapid

    out = StringIO()
    call_command("vapid_keys", stdout=out)
    lines = dict(line.split("=", 1) for line in out.getvalue().split())
    vapid = Vapid.from_string(private_key=lines["VAPID_PRIVATE_KEY"])
    public = vapid.public_key.public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    assert push.b64url(public) == lines["VAPID_PUBLIC_KEY"]
    target = tmp_path / "vapid.json"
    call_command("vapid_keys", write=str(target), stdout=StringIO())
    first = target.read_text()
    call_command("vapid_keys", write=str(target), stdout=StringIO())
    assert target.read_text() == first  # kept on later starts
    assert json.loads(first).keys() == {"public", "private"}


def get_settings() -> Any:
    from django.conf import settings

    return settings


# ----- DNS rebinding: the address checked is the address connected to ------------------

PUBLIC = "93.184.216.34"


@pytest.fixture
def dns(monkeypatch: pytest.MonkeyPatch) -> dict[str, list[str]]:
    """Names of ``*.rebind.test`` answered from this table, one answer per lookup (the
    last one repeats): a name may resolve to a public address first, to 127.0.0.1 next."""
    table: dict[str, list[str]] = {}
    real = push.socket.getaddrinfo

    def getaddrinfo(host: Any, port: Any, *args: Any, **kwargs: Any) -> Any:
        if isinstance(host, str) and host in table:
            answers = table[host]
            address = answers.pop(0) if len(answers) > 1 else answers[0]
            return [(push.socket.AF_INET, push.socket.SOCK_STREAM, 6, "", (address, port))]
        return real(host, port, *args, **kwargs)

    monkeypatch.setattr(push.socket, "getaddrinfo", getaddrinfo)
    return table


def a_subscription(user: Any, endpoint: str) -> PushSubscription:
    device = Device.new().subscription(endpoint)
    return PushSubscription.objects.create(
        user=user, endpoint=endpoint, p256dh=device["keys"]["p256dh"], auth=device["keys"]["auth"]
    )


def test_a_name_that_now_resolves_to_loopback_is_refused_at_send_time(
    ben: Any, push_service: PushService, dns: dict[str, list[str]]
) -> None:
    """Accepted when it resolved to a public address; by the send it leads to 127.0.0.1
    (where a service listens): refused, nothing POSTed, the allowed prefixes notwithstanding
    (they name the test's own service by address, not this name)."""
    dns["push.rebind.test"] = [PUBLIC]
    subscription = push.subscribe(
        user=ben, endpoint="https://push.rebind.test/sub/1", **Device.new().subscription("x")["keys"]
    )
    dns["push.rebind.test"] = ["127.0.0.1"]
    message = push.Message(payload="{}", ttl=60, topic="t", urgency="normal")
    with pytest.raises(push.BadEndpoint):
        push.send_to(subscription, message)
    assert push_service.received == []


def test_the_post_goes_to_the_address_that_was_checked(
    ben: Any, push_service: PushService, dns: dict[str, list[str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The name resolves to a public address for the check and to 127.0.0.1 for any
    lookup after it: the connection is made to the checked address, the name is not
    looked up again."""
    import requests
    import urllib3.util.connection

    dns["push.rebind.test"] = [PUBLIC, "127.0.0.1"]
    subscription = a_subscription(ben, "https://push.rebind.test/sub/2")
    connected: list[tuple[str, int]] = []

    def create_connection(address: tuple[str, int], *args: Any, **kwargs: Any) -> Any:
        connected.append(address)
        raise ConnectionRefusedError("no network in the tests")

    monkeypatch.setattr(urllib3.util.connection, "create_connection", create_connection)
    message = push.Message(payload="{}", ttl=60, topic="t", urgency="normal")
    with pytest.raises(requests.ConnectionError):
        push.send_to(subscription, message)
    assert connected == [(PUBLIC, 443)]
    assert dns["push.rebind.test"] == ["127.0.0.1"]  # looked up once, for the check
    assert push_service.received == []


def test_the_pinned_connection_keeps_the_name_for_host_and_tls(push_service: PushService) -> None:
    port = int(push_service.url.rsplit(":", 1)[1])
    target = push.Target(url="", hostname="push.example.test", address="127.0.0.1")
    session = push.session_for(target)
    # The socket goes to the pinned address; the request names the host it was given.
    answer = session.post(f"http://push.example.test:{port}/sub/3", data=b"x", timeout=5)
    assert answer.status_code == 201
    (received,) = push_service.received
    assert received.headers["host"] == f"push.example.test:{port}"
    # Over TLS the server name and the certificate's name are the host's, not the address's.
    import requests

    request = requests.Request("POST", "https://push.example.test/sub/3").prepare()
    adapter = session.get_adapter("https://push.example.test/")
    assert isinstance(adapter, push.PinnedAdapter)
    host, pool = adapter.build_connection_pool_key_attributes(request, True)
    assert (host["host"], pool["server_hostname"], pool["assert_hostname"]) == (
        "127.0.0.1",
        "push.example.test",
        "push.example.test",
    )
    # Any other host (a redirect elsewhere) is refused without a lookup.
    with pytest.raises(requests.ConnectionError):
        session.post(f"http://elsewhere.test:{port}/", timeout=5)
    assert len(push_service.received) == 1
