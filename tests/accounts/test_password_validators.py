"""Django's password validators (settings.AUTH_PASSWORD_VALIDATORS) refuse weak passwords
on sign-up and on password change, and a refused password changes nothing."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from tests.factories import PASSWORD

pytestmark = pytest.mark.django_db

WEAK = [
    ("short1!", "This password is too short. It must contain at least 8 characters."),
    ("password", "This password is too common."),
    ("73914562", "This password is entirely numeric."),
    ("dorotea-wordgame", "The password is too similar to the username."),
]


@pytest.mark.parametrize(("password", "message"), WEAK)
def test_sign_up_refuses_weak_passwords(client: Client, password: str, message: str) -> None:
    response = client.post(
        reverse("signup"),
        {
            "username": "dorotea-wordgame",
            "email": "d@example.org",
            "password1": password,
            "password2": password,
        },
    )
    assert response.status_code == 200
    assert message in response.content.decode()
    assert not User.objects.filter(username="dorotea-wordgame").exists()


def test_sign_up_accepts_a_strong_password(client: Client) -> None:
    strong = "violet-otter-harbour-42"
    response = client.post(
        reverse("signup"),
        {"username": "dorotea", "email": "d@example.org", "password1": strong, "password2": strong},
    )
    assert response.status_code == 302
    assert User.objects.get(username="dorotea").check_password(strong)


@pytest.mark.parametrize(("password", "message"), WEAK)
def test_password_change_refuses_weak_passwords(client: Client, password: str, message: str) -> None:
    from tests.factories import make_user

    user = make_user("dorotea-wordgame")
    client.force_login(user)
    response = client.post(
        reverse("password_change"),
        {"old_password": PASSWORD, "new_password1": password, "new_password2": password},
    )
    assert response.status_code == 200
    assert message in response.content.decode()
    assert User.objects.get(pk=user.pk).check_password(PASSWORD)


def test_password_change_accepts_a_strong_password(client: Client, ana: Any) -> None:
    client.force_login(ana)
    strong = "violet-otter-harbour-42"
    response = client.post(
        reverse("password_change"),
        {"old_password": PASSWORD, "new_password1": strong, "new_password2": strong},
    )
    assert response.status_code == 302
    assert User.objects.get(pk=ana.pk).check_password(strong)
