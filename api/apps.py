from __future__ import annotations

from typing import Any

from django.apps import AppConfig
from django.db.models.signals import post_delete
from django.utils.translation import gettext_lazy as _


def end_streams(sender: Any, instance: Any, **kwargs: Any) -> None:
    """A personal token or an app's access token deleted (revoked on the tokens page, by
    staff, by the app at ``/oauth/revoke_token/``, with the account): its open event
    streams end at once, in every process (framework plumbing, like a cache
    invalidation: ``post_delete`` catches every way a token goes). The stream itself
    decides, by asking ``api.auth.still_valid``."""
    from accounts import realtime

    if instance.user_id is not None:
        realtime.auth_changed(instance.user_id)


class ApiConfig(AppConfig):
    name = "api"
    verbose_name = _("API")

    def ready(self) -> None:
        from oauth2_provider.models import get_access_token_model

        from accounts.hooks import register_player_data
        from api.models import ApiToken
        from api.player_data import ApiPlayerData

        # "Download my data" lists the token names; deleting the account revokes them.
        register_player_data("api", ApiPlayerData())
        post_delete.connect(end_streams, sender=ApiToken, dispatch_uid="api.end_streams.token")
        post_delete.connect(
            end_streams, sender=get_access_token_model(), dispatch_uid="api.end_streams.oauth"
        )
