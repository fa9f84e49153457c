"""Personal tokens: obtained with a password (through ``authenticate`` with the request,
so log-in throttling counts it), stored hashed, listed and revoked on /accounts/tokens/."""

from __future__ import annotations

import hashlib
import json
from typing import Any

import pytest
from django.apps import apps
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.signals import user_logged_in, user_login_failed
from django.core.exceptions import PermissionDenied
from django.test import Client
from django.urls import reverse

from api.models import ApiToken
from tests.api.conftest import ApiClient
from tests.factories import PASSWORD

pytestmark = pytest.mark.django_db

SEEN: list[Any] = []


class RecordingBackend(ModelBackend):
    """The default backend, noting the request each attempt came with."""

    def authenticate(
        self, request: Any, username: str | None = None, password: str | None = None, **kw: Any
    ) -> Any:
        SEEN.append(request)
        return super().authenticate(request, username=username, password=password, **kw)


class LockedOutBackend(ModelBackend):
    """What django-axes' backend does once an address or user is locked out."""

    def authenticate(
        self, request: Any, username: str | None = None, password: str | None = None, **kw: Any
    ) -> Any:
        request.axes_locked_out = True
        raise PermissionDenied


def post_token(body: Any, **headers: str) -> Any:
    return Client().post(
        "/api/v1/token", data=json.dumps(body), content_type="application/json", headers=headers
    )


def test_token_lifecycle(ana: Any) -> None:
    response = post_token({"username": "ANA", "password": PASSWORD, "name": "my bot"})
    assert response.status_code == 201
    raw = response.json()["token"]
    assert response.json()["name"] == "my bot"
    assert raw.startswith("wg_")
    assert len(raw) > 40
    # Stored hashed: the database holds the SHA-256 and a short prefix, never the token.
    stored = ApiToken.objects.get(user=ana)
    assert stored.key_hash == hashlib.sha256(raw.encode()).hexdigest()
    assert stored.prefix == raw[:11]
    assert raw not in json.dumps(list(ApiToken.objects.values()), default=str)
    assert stored.last_used_at is None

    api = ApiClient(raw)
    assert api.get("/account").json()["username"] == "ana"
    stored.refresh_from_db()
    assert stored.last_used_at is not None

    # Listed on the page by name and prefix, then revoked there.
    page = Client()
    page.force_login(ana)
    listing = page.get(reverse("api:tokens")).content.decode()
    assert "my bot" in listing
    assert stored.prefix in listing
    assert raw not in listing
    revoked = page.post(reverse("api:token-revoke", args=[stored.pk]))
    assert revoked.status_code == 302
    assert not ApiToken.objects.exists()
    refused = api.get("/account")
    assert refused.status_code == 401
    assert refused.json()["error"] == "unauthenticated"
    assert refused["WWW-Authenticate"].startswith("Bearer")


def test_wrong_password_is_401_and_a_failed_login(ana: Any, settings: Any) -> None:
    failures: list[dict[str, Any]] = []

    def note(sender: Any, credentials: Any, request: Any, **kw: Any) -> None:
        failures.append({"credentials": credentials, "request": request})

    user_login_failed.connect(note)
    try:
        response = post_token({"username": "ana", "password": "nope"})
    finally:
        user_login_failed.disconnect(note)
    assert response.status_code == 401
    assert response.json() == {"error": "bad_credentials", "message": "Wrong username or password."}
    # The signal log-in throttling listens to, with the request (its address) attached.
    assert len(failures) == 1
    assert failures[0]["credentials"]["username"] == "ana"
    assert failures[0]["request"] is not None
    assert failures[0]["request"].path == "/api/v1/token"
    assert not ApiToken.objects.exists()


def test_a_token_is_a_login_without_a_session(ana: Any) -> None:
    logins: list[Any] = []

    def note(sender: Any, request: Any, user: Any, **kw: Any) -> None:
        logins.append((request.path, user))

    user_logged_in.connect(note)
    try:
        response = post_token({"username": "ana", "password": PASSWORD})
    finally:
        user_logged_in.disconnect(note)
    assert response.status_code == 201
    assert logins == [("/api/v1/token", ana)]
    ana.refresh_from_db()
    assert ana.last_login is not None
    assert "sessionid" not in response.cookies


def test_authenticate_gets_the_request(ana: Any, settings: Any) -> None:
    settings.AUTHENTICATION_BACKENDS = ["tests.api.test_tokens.RecordingBackend"]
    SEEN.clear()
    assert post_token({"username": "ana", "password": PASSWORD}).status_code == 201
    assert len(SEEN) == 1
    assert SEEN[0].path == "/api/v1/token"
    assert SEEN[0].META["REMOTE_ADDR"] == "127.0.0.1"


def test_a_locked_out_login_is_429_json(ana: Any, settings: Any) -> None:
    settings.AUTHENTICATION_BACKENDS = ["tests.api.test_tokens.LockedOutBackend"]
    response = post_token({"username": "ana", "password": PASSWORD})
    assert response.status_code == 429
    assert response.json()["error"] == "too_many_attempts"
    assert not ApiToken.objects.exists()
    # Answered: the flag AxesMiddleware looks at is cleared, so it leaves this JSON alone.
    assert not response.wsgi_request.axes_locked_out


def test_a_locked_out_login_stays_json_behind_axes_middleware(ana: Any, settings: Any) -> None:
    if not apps.is_installed("axes"):
        pytest.skip("django-axes is not installed on this branch")
    settings.AUTHENTICATION_BACKENDS = ["tests.api.test_tokens.LockedOutBackend"]
    settings.MIDDLEWARE = [*settings.MIDDLEWARE, "axes.middleware.AxesMiddleware"]
    response = post_token({"username": "ana", "password": PASSWORD})
    assert response.status_code == 429
    assert response.json()["error"] == "too_many_attempts"


def test_inactive_users_get_no_token_and_their_tokens_stop(ana: Any, token_for: Any) -> None:
    raw = token_for(ana)
    ana.is_active = False
    ana.save()
    assert ApiClient(raw).get("/account").status_code == 401
    assert post_token({"username": "ana", "password": PASSWORD}).status_code == 401


@pytest.mark.parametrize(
    "header",
    [
        "",
        "Bearer",
        "Bearer ",
        "Token wg_abc",
        "Basic YW5hOmNvcnJlY3Q=",
        "Bearer wg_not-a-token",
        "Bearer " + "x" * 5000,
        "Bearer wg_\u00e9\u00e9",
    ],
)
def test_bad_authorization_headers_are_401(ana: Any, token_for: Any, header: str) -> None:
    token_for(ana)
    response = Client().get("/api/v1/account", headers={"Authorization": header} if header else {})
    assert response.status_code == 401
    assert response.json()["error"] == "unauthenticated"


def test_a_token_is_its_owners_only(ana: Any, ben: Any, token_for: Any) -> None:
    ana_token = ApiToken.objects.get(key_hash=hashlib.sha256(token_for(ana).encode()).hexdigest())
    page = Client()
    page.force_login(ben)
    assert page.post(reverse("api:token-revoke", args=[ana_token.pk])).status_code == 404
    assert ApiToken.objects.filter(pk=ana_token.pk).exists()
    assert (
        "test"
        not in page.get(reverse("api:tokens")).content.decode().split("<main", 1)[1].split("New token")[0]
    )


def test_the_page_shows_a_new_token_once(ana: Any) -> None:
    page = Client()
    page.force_login(ana)
    created = page.post(reverse("api:tokens"), {"name": "phone app"})
    assert created.status_code == 200
    token = ApiToken.objects.get(user=ana)
    html = created.content.decode()
    assert 'id="new-token"' in html
    raw = html.split('id="new-token-value" type="text" readonly value="', 1)[1].split('"', 1)[0]
    assert hashlib.sha256(raw.encode()).hexdigest() == token.key_hash
    assert ApiClient(raw).get("/account").status_code == 200
    again = page.get(reverse("api:tokens")).content.decode()
    assert raw not in again
    assert "phone app" in again
    assert page.post(reverse("api:tokens"), {"name": ""}).status_code == 400


def test_the_page_needs_a_login() -> None:
    response = Client().get(reverse("api:tokens"))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def test_tokens_per_player_are_limited(ana: Any, settings: Any) -> None:
    settings.API_MAX_TOKENS = 2
    for _ in range(2):
        assert post_token({"username": "ana", "password": PASSWORD}).status_code == 201
    refused = post_token({"username": "ana", "password": PASSWORD})
    assert refused.status_code == 403
    assert refused.json() == {
        "error": "too_many_tokens",
        "message": "You already have 2 tokens. Revoke one before creating another.",
    }
    page = Client()
    page.force_login(ana)
    assert page.post(reverse("api:tokens"), {"name": "third"}).status_code == 400
    assert ApiToken.objects.count() == 2


def test_token_requests_are_rate_limited_per_address(ana: Any, settings: Any) -> None:
    settings.API_TOKEN_REQUESTS_PER_MINUTE = 3
    for _ in range(3):
        assert post_token({"username": "ana", "password": "wrong"}).status_code == 401
    limited = post_token({"username": "ana", "password": PASSWORD})
    assert limited.status_code == 429
    assert limited.json()["error"] == "rate_limited"
    assert int(limited["Retry-After"]) >= 1
    assert not ApiToken.objects.exists()
    other = Client(REMOTE_ADDR="10.0.0.2").post(
        "/api/v1/token",
        data=json.dumps({"username": "ana", "password": PASSWORD}),
        content_type="application/json",
    )
    assert other.status_code == 201


def test_staff_can_find_and_revoke_a_token_in_the_admin(ana: Any, token_for: Any) -> None:
    from tests.factories import make_user

    raw = token_for(ana)
    boss = make_user("boss", is_staff=True, is_superuser=True)
    admin = Client()
    admin.force_login(boss)
    listing = admin.get("/admin/api/apitoken/?q=ana")
    assert listing.status_code == 200
    assert raw[:11] in listing.content.decode()
    assert raw not in listing.content.decode()
    assert admin.get("/admin/api/apitoken/add/").status_code == 403
    token = ApiToken.objects.get(user=ana)
    admin.post(f"/admin/api/apitoken/{token.pk}/delete/", {"post": "yes"})
    assert ApiClient(raw).get("/account").status_code == 401
