"""``Authorization: Bearer TOKEN``: the caller is the token's user. The token is a
personal token (every scope) or an app's OAuth access token (its granted scopes,
``api.oauth``); a request outside the scopes is refused (403 ``insufficient_scope``)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from ninja.security import HttpBearer

from accounts.models import User
from api.errors import ApiError
from api.models import ApiToken
from api.oauth import app_grant, required_scope


class TokenAuth(HttpBearer):
    def authenticate(self, request: HttpRequest, token: str) -> Any:
        found = ApiToken.find(token.strip())
        if found is None:
            grant = app_grant(request)
            if grant is None:
                return None
            if required_scope(request) not in grant.scopes:
                raise ApiError("insufficient_scope")
            request.user = grant.user
            return grant
        found.touch()
        # The same user object the pages would have: model methods take request.user.
        request.user = found.user
        return found


def still_valid(auth: Any) -> bool:
    """Whether what authenticated a long request (the event stream) still stands: the
    personal token not revoked and its user active, or the app's access token neither
    revoked nor expired. One query."""
    from django.utils import timezone
    from oauth2_provider.models import get_access_token_model

    from api.oauth import AppGrant

    if isinstance(auth, AppGrant):
        token_id = int(auth.pk.removeprefix("oauth-"))
        return (
            get_access_token_model()
            .objects.filter(pk=token_id, expires__gt=timezone.now(), user__is_active=True)
            .exists()
        )
    return ApiToken.objects.filter(pk=getattr(auth, "pk", 0), user__is_active=True).exists()


def signed_in(request: HttpRequest) -> User:
    """The caller of an endpoint behind the API's authentication (a token or an app's
    grant): always a user."""
    user = request.user
    assert isinstance(user, User), "the API's authentication lets only users through"
    return user
