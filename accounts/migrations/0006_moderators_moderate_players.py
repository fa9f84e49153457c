"""Moderators moderate players: they see the users (with each one's moderation log) and
may hide chat lines, mute, suspend and warn (``moderate_players``).

Adds to the "Moderators" group (creating it if this runs first); the permissions other
apps give the group are left alone. Self-contained, like 0004.
"""

from __future__ import annotations

from django.apps.registry import Apps
from django.contrib.auth.management import create_permissions
from django.db import migrations
from django.db.backends.base.schema import BaseDatabaseSchemaEditor

GROUP = "Moderators"
PERMISSIONS = ("view_user", "view_moderationaction", "moderate_players")


def grant(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    app_config = apps.get_app_config("accounts")
    app_config.models_module = True  # type: ignore[assignment]
    create_permissions(app_config, apps=apps, verbosity=0)
    app_config.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group, _ = Group.objects.get_or_create(name=GROUP)
    group.permissions.add(
        *Permission.objects.filter(content_type__app_label="accounts", codename__in=PERMISSIONS)
    )


def revoke(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group = Group.objects.filter(name=GROUP).first()
    if group is not None:
        group.permissions.remove(
            *Permission.objects.filter(content_type__app_label="accounts", codename__in=PERMISSIONS)
        )


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0005_moderation_log_notices_bots_chat_choice"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [migrations.RunPython(grant, revoke)]
