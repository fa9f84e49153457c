"""How to play: the rules in every interface language, with the board's premium squares
and the chosen game language's tiles taken from the engine's data."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

import engine

pytestmark = pytest.mark.django_db

#: The page's first heading in each interface language.
TITLES = {
    "en": "How to play",
    "fr": "Comment jouer",
    "es": "Cómo se juega",
    "pt-br": "Como jogar",
    "de": "So wird gespielt",
    "sv": "Så spelar du",
    "it": "Come si gioca",
}


def page(client: Client, language: str = "", interface: str = "en") -> str:
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = interface
    response = client.get(reverse("how-to-play"), {"language": language} if language else {})
    assert response.status_code == 200
    return response.content.decode()


@pytest.mark.parametrize("interface", [code for code, _name in settings.LANGUAGES])
def test_the_page_exists_in_every_interface_language(client: Client, interface: str) -> None:
    html = page(client, interface=interface)
    assert f'<html lang="{interface}">' in html
    assert f"<h1>{TITLES[interface]}</h1>" in html
    if interface != "en":
        # Whole rules, not only the title: no English sentence of the page is left.
        for english in ("On your turn you do exactly one of these", "Placing words", "The end of the game"):
            assert english not in html


def test_the_rules_figures_come_from_the_rule_data(client: Client) -> None:
    html = page(client)
    text = re.sub(r"\s+", " ", html)
    assert "earns 35 extra points" in text  # bingo bonus
    assert "put 1 to 7 tiles" in text  # rack size
    assert "three scoreless turns in a row" in text
    assert "unless the score is still 0–0" in text
    assert "×4" in text
    assert "×9" in text
    assert "×6" in text
    assert f"within {settings.INACTIVITY_DAYS_RANDOM} days against a random opponent" in text
    assert f"or {settings.INACTIVITY_DAYS_FRIEND} days against a friend" in text


def test_the_board_is_drawn_with_its_premium_squares(client: Client) -> None:
    html = page(client)
    board = html[html.index('id="board"') :]
    counts = {kind: len(re.findall(rf'class="sq {kind}[ "]', board)) for kind in ("tw", "dw", "tl", "dl")}
    assert counts == {"tw": 8, "dw": 12, "tl": 16, "dl": 24}
    assert board.count('class="sq') == 15 * 15
    assert "H8, centre star, empty" in board
    assert "triple word: 8 squares" in html


def test_premium_labels_follow_the_interface_language(client: Client) -> None:
    html = page(client, interface="de")
    assert '<span class="prem" aria-hidden="true" data-label="3W"></span>' in html


@pytest.mark.parametrize("language", engine.LANGUAGES)
def test_tile_values_are_those_of_the_chosen_game_language(client: Client, language: str) -> None:
    html = page(client, language)
    tiles = engine.tileset(language)
    for letter in tiles.alphabet:
        assert (
            f'<span class="letter">{letter}</span><span class="value">{tiles.values[letter]}</span>' in html
        ), letter
    assert f"The bag holds {tiles.total_tiles} tiles: {tiles.blanks} blanks" in re.sub(r"\s+", " ", html)


def test_language_notes(client: Client) -> None:
    spanish = re.sub(r"\s+", " ", page(client, "es"))
    assert "Ñ is a letter of its own" in spanish
    assert "a blank cannot stand for them: K, W." in spanish
    german = page(client, "de")
    assert "ß is played as SS" in german
    assert "a blank cannot stand for them" not in german
    italian = re.sub(r"\s+", " ", page(client, "it"))
    assert "J, K, W, X, Y." in italian


def test_the_players_preferred_game_language_is_the_default(client: Client, ana: Any) -> None:
    ana.game_language = "de"
    ana.save()
    client.force_login(ana)
    assert '<option value="de" selected>' in page(client)


def test_an_unknown_game_language_is_refused_clearly(client: Client) -> None:
    response = client.get(reverse("how-to-play"), {"language": "xx"})
    assert response.status_code == 400
    assert "Select a valid choice." in response.content.decode()
