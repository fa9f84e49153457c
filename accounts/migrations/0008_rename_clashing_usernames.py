"""Usernames unique regardless of case in every alphabet, step 2 of 3: fill the key, and
rename the accounts whose names clash.

Before, uniqueness was ``Lower(username)``, which SQLite applies to ASCII only, so
``Ωmega_Ünïcødé_名前`` and ``ΩMEGA_ÜNÏCØDÉ_名前`` could both exist. Of the accounts that share
a key the oldest (joined first) keeps its name; each newer one gets the lowest number from 2 up
appended that makes a free name, and a ``UsernameRename`` row records it (shown in the admin,
and to the owner at their next log-in). Nothing is merged or deleted. Self-contained: the key
function is copied here so that a later change of ``accounts.names`` does not change history.
"""

from __future__ import annotations

import unicodedata

from django.apps.registry import Apps
from django.db import migrations
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.utils import timezone

MAX_LENGTH = 150


def fold(name: str) -> str:
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())


def free_name(name: str, used: set[str]) -> str:
    """``name`` with the lowest number from 2 up appended whose key is in no use."""
    number = 2
    while True:
        suffix = str(number)
        candidate = name[: MAX_LENGTH - len(suffix)] + suffix
        if fold(candidate) not in used:
            return candidate
        number += 1


def rename_clashes(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    User = apps.get_model("accounts", "User")
    UsernameRename = apps.get_model("accounts", "UsernameRename")
    users = list(User.objects.order_by("date_joined", "pk").only("pk", "username", "date_joined"))
    # Every key any account has now: a new name must not take one of them either.
    used = {fold(user.username) for user in users}
    keeper: dict[str, object] = {}
    now = timezone.now()
    for user in users:
        key = fold(user.username)
        if key in keeper:
            old = user.username
            user.username = free_name(old, used)
            key = fold(user.username)
            used.add(key)
            UsernameRename.objects.create(
                user_id=user.pk, old_username=old, new_username=user.username, kept_by=keeper[fold(old)], renamed_at=now
            )
        keeper[key] = user
        user.username_key = key
    User.objects.bulk_update(users, ["username", "username_key"], batch_size=500)


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0007_username_key_and_renames"),
    ]

    operations = [
        migrations.RunPython(rename_clashes, migrations.RunPython.noop),
    ]
