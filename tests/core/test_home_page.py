from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse


@pytest.mark.django_db
def test_anonymous_home_page_shows_site_languages_and_auth_links(client):
    response = client.get(reverse("home"))
    assert response.status_code == 200
    html = response.text
    assert "<title>Wordgame</title>" in html
    assert reverse("signup") in html
    assert reverse("login") in html
    for name in (
        "English (US)",
        "English (UK)",
        "Español",
        "Italiano",
        "Português (Brasil)",
        "Deutsch",
        "Français",
    ):
        assert name in html
    # Players see language names, not the tile tables' descriptions.
    assert "WWF-style" not in html
    # htmx is vendored (never a CDN) and CSRF is set once on <body>.
    assert "/static/django_htmx/htmx-2.min.js" in html
    assert "/static/vendor/htmx-ext-ws/ws.js" in html
    assert 'hx-headers=\'{"x-csrftoken"' in html
    assert "cdn" not in html.lower()


@pytest.mark.django_db
def test_signup_with_existing_name_in_other_case_is_refused(client, ana):
    response = client.post(
        reverse("signup"),
        {
            "username": "ANA",
            "email": "x@example.org",
            "password1": "s3cret-Pass-9",
            "password2": "s3cret-Pass-9",
        },
    )
    assert response.status_code == 200
    assert "That username is taken." in response.text


@pytest.mark.django_db
def test_signup_then_login_in_any_case_works(client):
    response = client.post(
        reverse("signup"),
        {
            "username": "Dora",
            "email": "d@example.org",
            "password1": "s3cret-Pass-9",
            "password2": "s3cret-Pass-9",
        },
    )
    assert response.status_code == 302
    client.logout()
    # Through the log-in page, as a person would (django-axes needs the request).
    response = client.post(reverse("login"), {"username": "dora", "password": "s3cret-Pass-9"})
    assert response.status_code == 302
    assert client.get(reverse("games:lobby")).status_code == 200


@pytest.mark.django_db
def test_head_of_the_home_page_is_answered_like_get(client: Any) -> None:
    # Monitors and link checkers ask with HEAD.
    assert client.head("/").status_code == 200
    assert client.get("/").status_code == 200
