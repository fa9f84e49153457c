"""Usernames are unique regardless of case in every alphabet (case folding and NFKC), on
every database, in sign-up, invitations, look-ups, the API and log-in; names and chat refuse
invisible and text-direction characters; migration 0006 renames accounts that already clash."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import IntegrityError, connection
from django.db.migrations.executor import MigrationExecutor
from django.test import Client
from django.urls import reverse

from accounts.forms import PreferencesForm, SignupForm, UsernameForm
from accounts.models import UsernameRename
from accounts.names import username_key
from games.forms import ChatForm
from games.models import Game
from tests.factories import PASSWORD, make_user

LOWER = "Ωmega_Ünïcødé_名前"
UPPER = "ΩMEGA_ÜNÏCØDÉ_名前"


def signup_data(username: str) -> dict[str, str]:
    return {
        "username": username,
        "email": "x@example.org",
        "password1": "a-long-pass-9",
        "password2": "a-long-pass-9",
    }


def test_key_folds_case_and_compatibility_forms() -> None:
    assert username_key(LOWER) == username_key(UPPER) == "ωmega_ünïcødé_名前"
    assert username_key("Straße") == username_key("STRASSE")
    assert username_key("ａｎａ") == username_key("ANA")  # full-width letters
    assert username_key("bén") != username_key("ben")


@pytest.mark.django_db
def test_signup_refuses_a_name_differing_only_in_case_in_any_alphabet(client: Client) -> None:
    make_user(LOWER)
    response = client.post(reverse("signup"), signup_data(UPPER))
    assert response.status_code == 200
    assert "That username is taken." in response.text
    assert get_user_model().objects.count() == 1


@pytest.mark.django_db
def test_database_refuses_a_second_spelling_of_a_name() -> None:
    make_user(LOWER)
    with pytest.raises(IntegrityError):
        make_user(UPPER, email="other@example.org")


@pytest.mark.django_db
def test_invitation_friend_request_profile_and_log_in_find_either_spelling(client: Client, ana: Any) -> None:
    omega = make_user(LOWER)
    client.force_login(ana)
    response = client.post(reverse("games:new"), {"mode": "friend", "language": "en", "opponent": UPPER})
    assert response.status_code == 302
    assert Game.objects.get().invitee == omega
    form = UsernameForm({"username": UPPER})
    assert form.is_valid()
    assert form.cleaned_data["username"] == omega
    assert client.get(reverse("players:profile", args=[UPPER])).status_code == 200
    found = client.get(reverse("players:search"), {"q": "ΩMEGA"})
    assert LOWER in found.text
    client.logout()
    response = client.post(reverse("login"), {"username": UPPER, "password": PASSWORD})
    assert response.status_code == 302
    assert int(client.session["_auth_user_id"]) == omega.pk


@pytest.mark.django_db
def test_api_token_and_invitation_find_either_spelling(ana: Any) -> None:
    omega = make_user(LOWER)
    client = Client()
    response = client.post(
        "/api/v1/token",
        data=json.dumps({"username": UPPER, "password": PASSWORD}),
        content_type="application/json",
    )
    assert response.status_code == 201, response.text
    response = client.post(
        "/api/v1/token",
        data=json.dumps({"username": "ANA", "password": PASSWORD}),
        content_type="application/json",
    )
    token = response.json()["token"]
    body = {"language": "en", "opponent": UPPER}
    response = client.post(
        "/api/v1/games",
        data=json.dumps(body),
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {token}",
    )
    assert response.status_code in (200, 201), response.text
    assert Game.objects.get().invitee == omega


@pytest.mark.parametrize("name", ["ana\u202eexe", "\u200bana", "an\u2066a", "ana\u3164", "a\u200dna"])
@pytest.mark.django_db
def test_names_with_invisible_or_direction_characters_are_refused(name: str, ana: Any) -> None:
    form = SignupForm(signup_data(name))
    assert not form.is_valid()
    assert "username" in form.errors
    prefs = PreferencesForm({"display_name": f"Ana {name}"}, instance=ana)
    assert not prefs.is_valid()
    assert "invisible or text-direction" in str(prefs.errors["display_name"])


def test_chat_refuses_direction_overrides_and_invisible_characters_but_keeps_emoji() -> None:
    for text in ["look \u202eexe.gpj", "hi\u200bthere", "x\u2067y"]:
        form = ChatForm({"text": text})
        assert not form.is_valid(), text
        assert "invisible or text-direction" in str(form.errors["text"])
    family = "👨\u200d👩\u200d👧 ok"
    assert ChatForm({"text": family}).is_valid()


@pytest.mark.django_db(transaction=True)
def test_migration_renames_newer_clashing_accounts_and_tells_them_at_log_in() -> None:
    executor = MigrationExecutor(connection)
    before = [("accounts", "0007_username_key_and_renames")]
    executor.migrate(before)
    apps = executor.loader.project_state(before).apps
    OldUser = apps.get_model("accounts", "User")
    from django.contrib.auth.hashers import make_password
    from django.utils import timezone

    joined = timezone.now()
    made = []
    # Names the old Lower(username) constraint let through on every database.
    for seconds, name in enumerate(["strasse", "Straße", "ana", "ａｎａ", "ana2", "Office", "oﬀice"]):
        made.append(
            OldUser.objects.create(
                username=name,
                password=make_password(PASSWORD),
                date_joined=joined + timedelta(seconds=seconds),
            ).pk
        )
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())
    User = get_user_model()
    names = {user.pk: user.username for user in User.objects.filter(pk__in=made)}
    # The oldest keeps its name; the newer get the lowest free number ("ana2" was taken).
    assert [names[pk] for pk in made] == ["strasse", "Straße2", "ana", "ａｎａ3", "ana2", "Office", "oﬀice2"]
    renames = {(r.old_username, r.new_username, r.kept_by_id) for r in UsernameRename.objects.all()}
    assert renames == {
        ("Straße", "Straße2", made[0]),
        ("ａｎａ", "ａｎａ3", made[2]),
        ("oﬀice", "oﬀice2", made[5]),
    }
    assert User.objects.filter(username_key="ana").get().pk == made[2]

    # The renamed owner signs in with the old name and its own password, and is told once.
    client = Client()
    # The same password as the older account's: the older account signs in.
    client.post(reverse("login"), {"username": "ａｎａ", "password": PASSWORD})
    assert int(client.session["_auth_user_id"]) == made[2]
    client.logout()
    renamed = User.objects.get(pk=made[3])
    renamed.set_password("another-pass-77")
    renamed.save()
    response = client.post(
        reverse("login"), {"username": "ａｎａ", "password": "another-pass-77"}, follow=True
    )
    assert int(client.session["_auth_user_id"]) == made[3]
    assert "yours is now ａｎａ3" in response.text
    assert UsernameRename.objects.get(user_id=made[3]).told_at is not None
    client.logout()
    response = client.post(
        reverse("login"), {"username": "ａｎａ3", "password": "another-pass-77"}, follow=True
    )
    assert int(client.session["_auth_user_id"]) == made[3]
    assert "yours is now" not in response.text
