"""Create the "Organisers" group with the permissions that let a user create and run
tournaments on the site: add a tournament, change (run) their own, and view the
tournament rows. No delete: a tournament's log is its record. Kept self-contained (no
import of app code) so the migration means the same thing forever.
"""

from __future__ import annotations

from django.apps.registry import Apps
from django.contrib.auth.management import create_permissions
from django.db import migrations
from django.db.backends.base.schema import BaseDatabaseSchemaEditor

GROUP = "Organisers"
PERMISSIONS = (
    ("tournament", "view_tournament"),
    ("tournament", "add_tournament"),
    ("tournament", "change_tournament"),
    ("registration", "view_registration"),
    ("round", "view_round"),
    ("pairing", "view_pairing"),
    ("tournamentevent", "view_tournamentevent"),
)


def create_group(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    # Permissions are normally created after all migrations (post_migrate); create this
    # app's now so the group can reference them on a fresh database.
    app_config = apps.get_app_config("tournaments")
    app_config.models_module = True  # type: ignore[assignment]
    create_permissions(app_config, apps=apps, verbosity=0)
    app_config.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group, _ = Group.objects.get_or_create(name=GROUP)
    group.permissions.add(
        *(
            Permission.objects.get(content_type__app_label="tournaments", content_type__model=model, codename=codename)
            for model, codename in PERMISSIONS
        )
    )


def remove_group(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    apps.get_model("auth", "Group").objects.filter(name=GROUP).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0001_initial"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [migrations.RunPython(create_group, remove_group)]
