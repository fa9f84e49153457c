"""What ``api`` holds about a player, for "download my data" and account deletion
(``accounts.hooks``): their personal tokens and the apps they let in (by name, never a
secret nor its hash), and the apps they registered."""

from __future__ import annotations

from typing import Any

from oauth2_provider.models import (
    get_access_token_model,
    get_application_model,
    get_grant_model,
    get_id_token_model,
    get_refresh_token_model,
)

from accounts.hooks import Coverage, LanguageStatistics, Unfinished
from api.models import ApiToken
from api.oauth import grants_of

#: django-oauth-toolkit's models that hold a player's grants (deleted with the account).
GRANT_MODELS = ("Grant", "AccessToken", "RefreshToken", "IDToken", "DeviceGrant")


class ApiPlayerData:
    covers = {
        "api.ApiToken.user": Coverage("api.tokens", "deleted: every token stops working"),
        **{
            f"oauth2_provider.{name}.user": Coverage("api.apps", "deleted: every app loses access")
            for name in GRANT_MODELS
        },
        "oauth2_provider.Application.user": Coverage("api.apps_registered", "deleted with its tokens"),
    }

    def statistics(self, user: Any) -> list[LanguageStatistics]:
        return []

    def export(self, user: Any) -> dict[str, Any]:
        return {
            "tokens": [
                {
                    "name": t.name,
                    "bot": t.is_bot,
                    "created_at": t.created_at.isoformat(),
                    "last_used_at": t.last_used_at.isoformat() if t.last_used_at else None,
                }
                for t in ApiToken.objects.filter(user=user).order_by("created_at", "pk")
            ],
            "apps": [
                {
                    "app": g.name,
                    "scopes": g.scopes,
                    "allowed_at": g.last_granted.isoformat() if g.last_granted else None,
                }
                for g in grants_of(user)
            ],
            "apps_registered": [
                {"name": a.name, "client_id": a.client_id, "redirect_uris": a.redirect_uris}
                for a in get_application_model().objects.filter(user=user).order_by("pk")
            ],
        }

    def unfinished(self, user: Any) -> list[Unfinished]:
        return []  # nothing here stands in the way of deleting an account

    def give_up(self, user: Any) -> None:
        """Nothing to give up (see ``unfinished``)."""

    def erase(self, user: Any) -> None:
        ApiToken.objects.filter(user=user).delete()
        for model in (
            get_access_token_model(),
            get_refresh_token_model(),
            get_id_token_model(),
            get_grant_model(),
        ):
            model.objects.filter(user=user).delete()
        from oauth2_provider.models import DeviceGrant

        DeviceGrant.objects.filter(user=user).delete()
        get_application_model().objects.filter(user=user).delete()
