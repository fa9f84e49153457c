"""Sign-in for apps: OAuth 2.0 authorisation code with PKCE, scopes, the consent page,
grants listed and revoked beside the personal tokens (``api.oauth``)."""

from __future__ import annotations

import base64
import hashlib
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from django.test import Client
from django.urls import reverse
from oauth2_provider.models import AccessToken, Application

from games.models import Game

pytestmark = pytest.mark.django_db

REDIRECT = "https://app.example/callback"
VERIFIER = "a-long-enough-code-verifier-for-pkce-0123456789-abcdefghijk"


def challenge(verifier: str) -> str:
    return base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).decode().rstrip("=")


@pytest.fixture
def app(mia: Any) -> Application:
    """A phone app registered by staff: public (no secret), authorisation code."""
    return Application.objects.create(
        name="Pocket Words",
        user=None,
        client_type=Application.CLIENT_PUBLIC,
        authorization_grant_type=Application.GRANT_AUTHORIZATION_CODE,
        redirect_uris=REDIRECT,
        skip_authorization=False,
    )


def authorize(client: Client, app: Application, scope: str, *, pkce: bool = True) -> Any:
    params = {
        "response_type": "code",
        "client_id": app.client_id,
        "redirect_uri": REDIRECT,
        "scope": scope,
        "state": "s1",
    }
    if pkce:
        params.update(code_challenge=challenge(VERIFIER), code_challenge_method="S256")
    return client.get(reverse("oauth2_provider:authorize"), params)


def sign_in(user: Any, app: Application, scope: str) -> str:
    """The whole flow as an app and its player go through it: the access token."""
    browser = Client()
    browser.force_login(user)
    consent = authorize(browser, app, scope)
    assert consent.status_code == 200
    assert "Pocket Words" in consent.text
    form = consent.context["form"]
    allowed = browser.post(
        reverse("oauth2_provider:authorize"),
        {**{f.name: f.value() for f in form if f.is_hidden and f.value() is not None}, "allow": "Authorize"},
    )
    assert allowed.status_code == 302, allowed.content
    query = parse_qs(urlsplit(allowed["Location"]).query)
    assert query["state"] == ["s1"]
    answer = Client().post(
        reverse("oauth2_provider:token"),
        {
            "grant_type": "authorization_code",
            "code": query["code"][0],
            "redirect_uri": REDIRECT,
            "client_id": app.client_id,
            "code_verifier": VERIFIER,
        },
    )
    assert answer.status_code == 200, answer.content
    assert answer.json()["scope"] == scope
    return str(answer.json()["access_token"])


def api(token: str, method: str, path: str, body: str = "{}") -> Any:
    client = Client()
    headers = {"Authorization": f"Bearer {token}"}
    if method == "get":
        return client.get("/api/v1" + path, headers=headers)
    return client.generic(
        method.upper(), "/api/v1" + path, body, content_type="application/json", headers=headers
    )


def test_an_app_with_the_read_scope_cannot_play(app: Application, ana: Any, ben: Any) -> None:
    token = sign_in(ana, app, "read")
    assert api(token, "get", "/account").json()["username"] == "ana"
    assert api(token, "get", "/games").status_code == 200
    refused = api(token, "post", "/games", '{"opponent": "ben", "language": "en"}')
    assert (refused.status_code, refused.json()["error"]) == (403, "insufficient_scope")
    assert not Game.objects.exists()
    assert api(token, "get", "/friends").status_code == 200
    assert api(token, "put", "/friends/ben").json()["error"] == "insufficient_scope"


def test_play_and_chat_scopes(app: Application, ana: Any, ben: Any) -> None:
    token = sign_in(ana, app, "read play")
    made = api(token, "post", "/games", '{"opponent": "ben", "language": "en"}')
    assert made.status_code == 201
    game = made.json()["id"]
    # Chatting needs its own scope.
    assert api(token, "post", f"/games/{game}/chat", '{"text": "hi"}').json()["error"] == "insufficient_scope"
    chatty = sign_in(ana, app, "read chat")
    assert api(chatty, "post", f"/games/{game}/chat", '{"text": "hi"}').status_code == 201


def test_a_revoked_grant_is_refused_at_once(app: Application, ana: Any) -> None:
    token = sign_in(ana, app, "read")
    assert api(token, "get", "/account").status_code == 200
    page = Client()
    page.force_login(ana)
    tokens_page = page.get(reverse("api:tokens"))
    assert 'id="app-grants"' in tokens_page.text
    assert "Pocket Words" in tokens_page.text
    assert page.post(reverse("api:app-revoke", args=[app.pk])).status_code == 302
    after = api(token, "get", "/account")
    assert (after.status_code, after.json()["error"]) == (401, "unauthenticated")
    assert not AccessToken.objects.filter(user=ana).exists()
    after_page = page.get(reverse("api:tokens")).text
    assert "can no longer use your account" in after_page
    assert 'id="app-grants"' not in after_page


def test_pkce_is_required(app: Application, ana: Any) -> None:
    browser = Client()
    browser.force_login(ana)
    answer = authorize(browser, app, "read", pkce=False)
    # Refused: back to the app with the error, no consent page, never a code.
    assert answer.status_code == 302
    query = parse_qs(urlsplit(answer["Location"]).query)
    assert query["error"] == ["invalid_request"]
    assert "code" not in query


def test_an_app_token_counts_apart_from_personal_tokens(app: Application, ana: Any) -> None:
    from api.oauth import app_grant

    token = sign_in(ana, app, "read")
    request = Client().get("/api/v1/account", headers={"Authorization": f"Bearer {token}"}).wsgi_request
    grant = app_grant(request)
    assert grant is not None
    assert grant.pk.startswith("oauth-")
    assert grant.scopes == frozenset({"read"})
