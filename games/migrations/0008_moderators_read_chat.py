"""Moderators read the chat lines in the admin (to hide them). Games and moves stay out
of their admin: the report page shows a reported game's chat and moves, with no rack
while it is under way (``games/moderation.py``).

Adds to the "Moderators" group (creating it if this runs first); the permissions other
apps give the group are left alone. Self-contained.
"""

from __future__ import annotations

from django.apps.registry import Apps
from django.contrib.auth.management import create_permissions
from django.db import migrations
from django.db.backends.base.schema import BaseDatabaseSchemaEditor

GROUP = "Moderators"
PERMISSIONS = ("view_chatmessage",)


def grant(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    app_config = apps.get_app_config("games")
    app_config.models_module = True  # type: ignore[assignment]
    create_permissions(app_config, apps=apps, verbosity=0)
    app_config.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group, _ = Group.objects.get_or_create(name=GROUP)
    group.permissions.add(*Permission.objects.filter(content_type__app_label="games", codename__in=PERMISSIONS))


def revoke(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group = Group.objects.filter(name=GROUP).first()
    if group is not None:
        group.permissions.remove(
            *Permission.objects.filter(content_type__app_label="games", codename__in=PERMISSIONS)
        )


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0007_chat_lines_hidden_by_moderators"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [migrations.RunPython(grant, revoke)]
