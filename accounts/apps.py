from __future__ import annotations

from typing import Any

from django.apps import AppConfig
from django.db.models.signals import post_migrate
from django.utils.translation import gettext_lazy as _

MODERATORS = "Moderators"
REPORT_PERMISSIONS = ("view_report", "change_report")


def restore_report_permissions(**kwargs: Any) -> None:
    """After every migrate and flush (framework plumbing, like Django's own permissions):
    moderators may work through the reports queue (migration 0004 grants it first)."""
    from django.contrib.auth.models import Group, Permission

    group, _created = Group.objects.get_or_create(name=MODERATORS)
    group.permissions.add(
        *Permission.objects.filter(
            content_type__app_label="accounts", content_type__model="report", codename__in=REPORT_PERMISSIONS
        )
    )


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = _("Accounts")

    def ready(self) -> None:
        post_migrate.connect(restore_report_permissions, sender=self, dispatch_uid="accounts.reports")
