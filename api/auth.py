"""``Authorization: Bearer TOKEN``: the caller is the token's user."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from ninja.security import HttpBearer

from api.models import ApiToken


class TokenAuth(HttpBearer):
    def authenticate(self, request: HttpRequest, token: str) -> Any:
        found = ApiToken.find(token.strip())
        if found is None:
            return None
        found.touch()
        # The same user object the pages would have: model methods take request.user.
        request.user = found.user
        return found
