"""The Moderators group: made by a migration, with exactly the permissions needed."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import Group

from dictionaries.services import ensure_moderators_group

pytestmark = pytest.mark.django_db

EXPECTED = {
    "dictionaries.view_wordchange",
    "dictionaries.add_wordchange",
    "dictionaries.change_wordchange",
    "dictionaries.view_dictionary",
}


def permission_names(group: Group) -> set[str]:
    return {
        f"{p.content_type.app_label}.{p.codename}" for p in group.permissions.select_related("content_type")
    }


def test_migration_creates_moderators_group_with_exact_permissions() -> None:
    group = Group.objects.get(name="Moderators")
    assert {n for n in permission_names(group) if n.startswith("dictionaries.")} == EXPECTED


def test_moderator_may_decide_but_not_delete(moderator: Any) -> None:
    assert moderator.has_perms(EXPECTED)
    assert not moderator.has_perm("dictionaries.delete_wordchange")
    assert not moderator.has_perm("dictionaries.change_dictionary")
    assert not moderator.is_superuser


def test_ensure_moderators_group_restores_exact_permissions() -> None:
    from django.contrib.auth.models import Permission

    group = Group.objects.get(name="Moderators")
    group.permissions.add(Permission.objects.get(codename="delete_wordchange"))
    group.permissions.remove(Permission.objects.get(codename="view_dictionary"))
    ensure_moderators_group()
    assert {n for n in permission_names(group) if n.startswith("dictionaries.")} == EXPECTED
