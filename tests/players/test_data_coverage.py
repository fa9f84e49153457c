""" "Download my data" and account deletion account for every reference to a user: a
new model with a foreign key to the user fails here until its app declares what the
export and the deletion do with it (``accounts.hooks.Coverage``)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from accounts.models import Notice
from accounts.services import data_coverage, delete_account, export_data, grant_coins
from api.models import ApiToken
from games.models import StudyItem
from tests.players.helpers import make_finished_game
from tournaments.models import PlayerMembership

pytestmark = pytest.mark.django_db


def references_to_users() -> set[str]:
    """``app.Model.field`` of every foreign key, one-to-one and many-to-many to the user."""
    user = get_user_model()
    found = set()
    for model in apps.get_models():
        for field in model._meta.get_fields():
            if field.is_relation and not field.auto_created and field.related_model is user:
                found.add(f"{model._meta.label}.{field.name}")
    return found


def part(data: dict[str, Any], path: str) -> Any:
    for key in path.split("."):
        data = data[key]
    return data


def test_every_reference_to_a_user_is_declared(ana: Any) -> None:
    declared = data_coverage()
    assert references_to_users() - set(declared) == set(), "declare these in the app's player data"
    assert set(declared) - references_to_users() == set(), "declared, but no such reference"
    exported = export_data(ana)
    for ref, cover in declared.items():
        assert cover.deletion, ref
        if not cover.export.startswith("not in the export"):
            part(exported, cover.export)  # the part exists (KeyError otherwise)


def test_export_holds_ledger_study_tokens_memberships_notices_settings(ana: Any, ben: Any) -> None:
    grant_coins(user=ana, amount=30, reason="signup")
    game = make_finished_game(ana, ben)
    StudyItem.objects.create(
        user=ana,
        language="en",
        word="QUIXOTIC",
        kind="bingo",
        rack="QUIXOTC",
        score=90,
        game=game,
        move_number=3,
    )
    _token, raw = ApiToken.issue(ana, "my phone")
    PlayerMembership.objects.create(user=ana, body="naspa", number="NA-123")
    Notice.objects.create(user=ana, kind=Notice.Kind.WARNING, params={"reason": "spam"})
    ana.chat_enabled = False
    ana.save()

    client = Client()
    client.force_login(ana)
    text = client.get(reverse("download-data")).content.decode()
    data = json.loads(text)
    # The signup grant, then the daily bonus of this first request of the day.
    ledger = data["coins"]["ledger"]
    assert ledger[0]["reason"] == "signup"
    assert data["coins"]["balance"] == sum(e["amount"] for e in ledger) == ledger[-1]["balance_after"]
    assert [i["word"] for i in data["games"]["study_items"]] == ["QUIXOTIC"]
    assert [t["name"] for t in data["api"]["tokens"]] == ["my phone"]
    assert raw not in text
    assert ApiToken.objects.get(user=ana).key_hash not in text
    assert data["tournaments"]["memberships"][0]["number"] == "NA-123"
    assert data["notices"][0]["kind"] == "warning"
    assert data["settings"]["chat_enabled"] is False


def test_deletion_erases_what_it_declares(ana: Any, ben: Any) -> None:
    game = make_finished_game(ana, ben)
    StudyItem.objects.create(
        user=ana,
        language="en",
        word="QUIXOTIC",
        kind="bingo",
        rack="QUIXOTC",
        score=90,
        game=game,
        move_number=3,
    )
    ApiToken.issue(ana, "my phone")
    PlayerMembership.objects.create(user=ana, body="naspa", number="NA-123")
    delete_account(user=ana)
    for ref, cover in data_coverage().items():
        if cover.deletion.startswith("deleted"):
            app_model, field = ref.rsplit(".", 1)
            model = apps.get_model(app_model)
            assert not model._default_manager.filter(**{field: ana}).exists(), ref
