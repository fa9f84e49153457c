from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ApiConfig(AppConfig):
    name = "api"
    verbose_name = _("API")

    def ready(self) -> None:
        from accounts.hooks import register_player_data
        from api.player_data import ApiPlayerData

        # "Download my data" lists the token names; deleting the account revokes them.
        register_player_data("api", ApiPlayerData())
