from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import IntegrityError
from django.test import Client
from django.urls import reverse

from tests.factories import PASSWORD, make_user


@pytest.mark.django_db
def test_signup_logs_in_and_creates_user(client: Client) -> None:
    data = {
        "username": "dora",
        "email": "dora@example.org",
        "password1": "a-long-pass-9",
        "password2": "a-long-pass-9",
    }
    response = client.post(reverse("signup"), data)
    assert response.status_code == 302
    assert get_user_model().objects.filter(username="dora").exists()
    assert client.get(reverse("games:lobby")).status_code == 200


@pytest.mark.django_db
def test_signup_refuses_username_differing_only_in_case(client: Client, ana: Any) -> None:
    data = {
        "username": "ANA",
        "email": "x@example.org",
        "password1": "a-long-pass-9",
        "password2": "a-long-pass-9",
    }
    response = client.post(reverse("signup"), data)
    assert response.status_code == 200
    assert "That username is taken." in response.text
    assert get_user_model().objects.count() == 1


@pytest.mark.django_db
def test_username_uniqueness_is_enforced_by_the_database(ana: Any) -> None:
    with pytest.raises(IntegrityError):
        make_user("Ana", email="other@example.org")


@pytest.mark.django_db
def test_login_is_case_insensitive_and_logout_works(client: Client, ana: Any) -> None:
    response = client.post(reverse("login"), {"username": "ANA", "password": PASSWORD})
    assert response.status_code == 302
    assert response["Location"] == reverse("games:lobby")
    assert client.post(reverse("logout")).status_code == 302
    assert client.get(reverse("games:lobby")).status_code == 302  # back to the login page


@pytest.mark.django_db
def test_password_change(client: Client, ana: Any) -> None:
    client.force_login(ana)
    assert client.get(reverse("password_change")).status_code == 200
    data = {"old_password": PASSWORD, "new_password1": "another-long-9", "new_password2": "another-long-9"}
    response = client.post(reverse("password_change"), data)
    assert response.status_code == 302
    ana.refresh_from_db()
    assert ana.check_password("another-long-9")
