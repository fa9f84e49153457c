"""Sign-in for third-party apps: OAuth 2.0, the authorisation-code flow with PKCE
(django-oauth-toolkit; settings ``OAUTH2_PROVIDER``).

- ``/oauth/authorize/`` (the consent page, ``templates/oauth2_provider/authorize.html``),
  ``/oauth/token/`` and ``/oauth/revoke_token/``: the toolkit's own views, nothing else of
  it (apps are registered by staff in the admin).
- An access token is accepted by the API like a personal token (``api.auth``), for the
  scopes the player granted: ``read`` for every GET, ``chat`` for a game's chat,
  ``play`` for every other change. A personal token holds all three.
- The player's grants are listed, per app, beside their personal tokens and revoked
  there (``revoke_app``): every token of that app for them is deleted, so the next
  request with one of them is refused.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Max
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import path
from django.utils.translation import gettext
from django.views.decorators.http import require_POST
from oauth2_provider import views as oauth_views
from oauth2_provider.models import (
    get_access_token_model,
    get_application_model,
    get_grant_model,
    get_refresh_token_model,
)
from oauth2_provider.oauth2_backends import get_oauthlib_core

SCOPES = ("read", "play", "chat")
CHAT_PATH = re.compile(r"/games/\d+/chat/?$")

#: Included by the project's ``urls.py`` under ``/oauth/`` in the namespace ``oauth2_provider``.
urlpatterns = [
    path("authorize/", oauth_views.AuthorizationView.as_view(), name="authorize"),
    path("token/", oauth_views.TokenView.as_view(), name="token"),
    path("revoke_token/", oauth_views.RevokeTokenView.as_view(), name="revoke-token"),
]


@dataclass(frozen=True)
class AppGrant:
    """``request.auth`` for a request made with an app's access token. ``pk`` keeps its
    rate-limit counters apart from the personal tokens' (``api.ratelimit``)."""

    pk: str
    user: Any
    application: str
    scopes: frozenset[str]


def required_scope(request: HttpRequest) -> str:
    """The scope a request needs: ``chat`` for a game's chat, ``read`` for any other
    read, ``play`` for any other change."""
    if CHAT_PATH.search(request.path):
        return "chat"
    return "read" if request.method in ("GET", "HEAD", "OPTIONS") else "play"


def app_grant(request: HttpRequest) -> AppGrant | None:
    """The app's grant behind the request's bearer token, if it is a valid access token
    (not expired, not revoked: read from the database on every request)."""
    valid, found = get_oauthlib_core().verify_request(request, scopes=[])
    if not valid or found is None or found.access_token is None:
        return None
    token = found.access_token
    if not token.user.is_active:
        return None
    return AppGrant(
        pk=f"oauth-{token.pk}",
        user=token.user,
        application=token.application.name if token.application else "",
        scopes=frozenset(token.scope.split()),
    )


@dataclass(frozen=True)
class GrantRow:
    application_id: int
    name: str
    scopes: list[str]
    last_granted: Any


def grants_of(user: Any) -> list[GrantRow]:
    """The apps ``user`` let in that still hold a token, with the scopes granted."""
    tokens = get_access_token_model().objects.filter(user=user, application__isnull=False)
    refresh = get_refresh_token_model().objects.filter(user=user, revoked__isnull=True)
    apps = set(tokens.values_list("application_id", flat=True)) | set(
        refresh.values_list("application_id", flat=True)
    )
    rows = []
    for app in get_application_model().objects.filter(pk__in=apps).order_by("name"):
        scopes = {
            s
            for scope in tokens.filter(application=app).values_list("scope", flat=True)
            for s in scope.split()
        }
        last = tokens.filter(application=app).aggregate(last=Max("created"))["last"]
        rows.append(GrantRow(app.pk, app.name, [s for s in SCOPES if s in scopes], last))
    return rows


def revoke_grant(*, user: Any, application_id: int) -> int:
    """Delete every token and pending code of the app for ``user``: its requests are
    refused from the next one on. Returns how many tokens went."""
    gone = get_access_token_model().objects.filter(user=user, application_id=application_id).delete()[0]
    gone += get_refresh_token_model().objects.filter(user=user, application_id=application_id).delete()[0]
    get_grant_model().objects.filter(user=user, application_id=application_id).delete()
    return int(gone)


@require_POST
@login_required
def revoke_app(request: HttpRequest, application_id: int) -> HttpResponse:
    app = get_object_or_404(get_application_model(), pk=application_id)
    revoke_grant(user=request.user, application_id=app.pk)
    messages.success(request, gettext("“%(name)s” can no longer use your account.") % {"name": app.name})
    return redirect("api:tokens")
