from __future__ import annotations

from typing import Any

from django.apps import AppConfig
from django.db.models.signals import post_migrate
from django.utils.translation import gettext_lazy as _


def restore_moderators_group(**kwargs: Any) -> None:
    """After every migrate and flush (framework plumbing, like Django's own permissions):
    the "Moderators" group exists with its dictionaries permissions, even on a database
    a test flushed."""
    from dictionaries.services import ensure_moderators_group

    ensure_moderators_group()


class DictionariesConfig(AppConfig):
    name = "dictionaries"
    verbose_name = _("Dictionaries")

    def ready(self) -> None:
        post_migrate.connect(restore_moderators_group, sender=self, dispatch_uid="dictionaries.moderators")
        from accounts.hooks import register_player_data
        from dictionaries.player_data import DictionariesPlayerData

        register_player_data("dictionaries", DictionariesPlayerData())
