"""Bad sign-up input: a sentence for each problem, and no account made."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

PASSWORD = "Xy7!long-pass"


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({}, "This field is required."),
        ({"username": "ANA"}, "That username is taken."),
        ({"username": "ａｎａ"}, "That username is taken."),  # fullwidth: NFKC makes it "ana"
        ({"username": "a" * 200}, "Ensure this value has at most 150 characters (it has 200)."),
        ({"username": "bob\x00"}, "Null characters are not allowed."),
        ({"username": "<b>bob</b>"}, "Enter a valid username."),
    ],
)
def test_bad_signup_is_refused_with_a_sentence(ana: Any, data: dict[str, str], message: str) -> None:
    if data:
        data = {**data, "password1": PASSWORD, "password2": PASSWORD}
    response = Client().post("/accounts/signup/", data)
    assert response.status_code == 200
    assert message in response.text
    assert list(get_user_model().objects.values_list("username", flat=True)) == ["ana"]
