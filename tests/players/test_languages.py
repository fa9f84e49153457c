"""The interface language and the preferred game language are stored on the player and
follow them to any device."""

from __future__ import annotations

from typing import Any

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from accounts.models import User
from tests.factories import PASSWORD

pytestmark = pytest.mark.django_db


def test_the_switcher_stores_the_choice_on_the_player(client: Client, ana: Any) -> None:
    client.force_login(ana)
    client.post(reverse("set_language"), {"language": "de", "next": "/"})
    assert User.objects.get(pk=ana.pk).interface_language == "de"
    # An anonymous visitor's choice is only a cookie; a bad code stores nothing.
    client.post(reverse("set_language"), {"language": "xx", "next": "/"})
    assert User.objects.get(pk=ana.pk).interface_language == "de"


def test_the_stored_language_follows_the_player_to_another_device(ana: Any) -> None:
    ana.interface_language = "sv"
    ana.save()
    other_device = Client(headers={"accept-language": "fr"})
    assert "Se connecter" in other_device.get("/").content.decode()  # French before log-in
    assert other_device.login(username="ana", password=PASSWORD)
    response = other_device.get(reverse("games:lobby"))
    html = response.content.decode()
    assert '<html lang="sv">' in html
    assert "Dina partier" in html
    # The cookie is brought in line, so live pushes (which read it) are in Swedish too.
    assert response.cookies[settings.LANGUAGE_COOKIE_NAME].value == "sv"


def test_without_a_stored_choice_the_browser_decides(client: Client, ana: Any) -> None:
    client.force_login(ana)
    html = client.get("/", headers={"accept-language": "it"}).content.decode()
    assert '<html lang="it">' in html


def test_settings_page_saves_name_and_languages(client: Client, ana: Any) -> None:
    client.force_login(ana)
    response = client.post(
        reverse("preferences"),
        {"display_name": "  Ana   María ", "game_language": "pt-BR", "interface_language": "es"},
        follow=True,
    )
    assert response.status_code == 200
    ana.refresh_from_db()
    assert (ana.display_name, ana.game_language, ana.interface_language) == ("Ana María", "pt-BR", "es")
    assert '<html lang="es">' in response.content.decode()


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"display_name": "!!!", "game_language": "", "interface_language": ""}, "display_name"),
        ({"display_name": "", "game_language": "xx", "interface_language": ""}, "game_language"),
        ({"display_name": "", "game_language": "", "interface_language": "klingon"}, "interface_language"),
        ({"display_name": "x" * 41, "game_language": "", "interface_language": ""}, "display_name"),
    ],
)
def test_bad_settings_are_refused_and_change_nothing(
    client: Client, ana: Any, data: dict[str, str], field: str
) -> None:
    client.force_login(ana)
    response = client.post(reverse("preferences"), data)
    assert response.status_code == 200
    assert field in response.context["form"].errors
    fresh = User.objects.get(pk=ana.pk)
    assert (fresh.display_name, fresh.game_language, fresh.interface_language) == ("", "", "")


def test_new_games_start_in_the_preferred_game_language(client: Client, ana: Any) -> None:
    ana.game_language = "fr"
    ana.save()
    client.force_login(ana)
    html = client.get(reverse("games:new")).content.decode()
    assert '<option value="fr" selected>' in html
