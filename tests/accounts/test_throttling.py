"""Log-in throttling (django-axes) and the sign-up rate limit, both per client address."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User


def fresh_ip() -> str:
    """An address no earlier test or run has used (the sign-up counter may live in Redis)."""
    n = uuid.uuid4().int
    return f"10.{n % 250}.{(n >> 8) % 250}.{(n >> 16) % 250 + 1}"


def log_in(ip: str, username: str, password: str) -> Any:
    return Client(REMOTE_ADDR=ip).post(reverse("login"), {"username": username, "password": password})


@pytest.mark.django_db
def test_wrong_passwords_lock_the_account_for_that_address(ana: Any, settings: Any) -> None:
    settings.AXES_FAILURE_LIMIT = 5
    ana.set_password("right-Pass-7")
    ana.save()
    attacker, player = fresh_ip(), fresh_ip()
    for _ in range(4):
        response = log_in(attacker, "ana", "wrong")
        assert response.status_code == 200  # the form again, with its error
    locked = log_in(attacker, "ana", "wrong")
    assert locked.status_code == 429
    assert "Too many failed log-ins" in locked.text
    # Locked: even the right password is refused from that address now.
    assert log_in(attacker, "ana", "right-Pass-7").status_code == 429
    assert log_in(attacker, "ANA", "right-Pass-7").status_code == 429
    # Ana herself, elsewhere, is not locked out.
    assert log_in(player, "ana", "right-Pass-7").status_code == 302


@pytest.mark.django_db
def test_forty_wrong_passwords_are_not_all_answered(ana: Any) -> None:
    """The finding: 40 wrong passwords in a row were all checked."""
    ip = fresh_ip()
    statuses = [log_in(ip, "ana", f"guess-{n}").status_code for n in range(40)]
    assert statuses.count(200) < 10
    assert statuses[-1] == 429


@pytest.mark.django_db
def test_lockout_page_is_in_the_visitors_language(ana: Any, settings: Any) -> None:
    settings.AXES_FAILURE_LIMIT = 1
    client = Client(REMOTE_ADDR=fresh_ip(), HTTP_ACCEPT_LANGUAGE="de")
    response = client.post(reverse("login"), {"username": "ana", "password": "wrong"})
    assert response.status_code == 429
    assert 'lang="de"' in response.text
    assert "Too many failed log-ins" not in response.text


def sign_up(ip: str, name: str) -> Any:
    data = {
        "username": name,
        "email": f"{name}@example.org",
        "password1": "s3cret-Pass-9",
        "password2": "s3cret-Pass-9",
    }
    return Client(REMOTE_ADDR=ip).post(reverse("signup"), data)


@pytest.mark.django_db
def test_sign_ups_are_rate_limited_per_address(settings: Any) -> None:
    settings.SIGNUP_RATE_PER_HOUR = 3
    ip, other = fresh_ip(), fresh_ip()
    for n in range(3):
        assert sign_up(ip, f"bot{n}").status_code == 302
    refused = sign_up(ip, "bot3")
    assert refused.status_code == 429
    assert "Too many sign-ups" in refused.text
    assert not User.objects.filter(username="bot3").exists()
    assert User.objects.filter(username__startswith="bot").count() == 3
    # Someone else, from another address, signs up as usual.
    assert sign_up(other, "dora").status_code == 302


@pytest.mark.django_db
def test_one_address_spraying_many_user_names_is_locked_out(cleo: Any, settings: Any) -> None:
    settings.AXES_FAILURE_LIMIT = 5
    settings.LOGIN_ADDRESS_FAILURE_LIMIT = 4
    cleo.set_password("right-Pass-7")
    cleo.save()
    sprayer, elsewhere = fresh_ip(), fresh_ip()
    statuses = [log_in(sprayer, f"name{n}", "Summer2026!").status_code for n in range(6)]
    assert statuses == [200, 200, 200, 429, 429, 429]
    assert log_in(sprayer, "cleo", "right-Pass-7").status_code == 429
    assert log_in(elsewhere, "cleo", "right-Pass-7").status_code == 302
