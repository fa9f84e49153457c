"""The word look-up page: plain GET and htmx partial, all seven languages."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from engine import tileset

pytestmark = pytest.mark.django_db

URL = "/words/"


def row(html: str, language: str) -> str:
    match = re.search(rf'<tr[^>]*data-language="{re.escape(language)}".*?</tr>', html, re.S)
    assert match, language
    return match.group(0)


def test_lookup_url_name_is_words() -> None:
    assert reverse("dictionaries:lookup") == URL


def test_empty_lookup_page_has_live_form(client: Client) -> None:
    response = client.get(URL)
    assert response.status_code == 200
    assert 'id="lookup-result"' in response.text
    assert 'hx-trigger="input changed delay:200ms' in response.text
    assert 'hx-get="/words/"' in response.text
    assert '<form method="get" action="/words/"' in response.text


def test_plain_get_shows_every_language(client: Client, dictionaries: None) -> None:
    response = client.get(URL, {"word": "cat", "language": "en"})
    assert response.status_code == 200
    assert "<html" in response.text
    html = response.text
    en_value = sum(tileset("en").values[c] for c in "CAT")
    assert "CAT is valid in English (US)" in html
    assert f"<td>{en_value}</td>" in row(html, "en")
    assert "not valid" in row(html, "fr")
    assert "valid" in row(html, "en-GB")
    assert "not valid" not in row(html, "en-GB")
    for language in ("es", "it", "pt-BR", "de"):
        assert "CAT" in row(html, language)


def test_htmx_request_returns_only_the_partial(client: Client, dictionaries: None) -> None:
    response = client.get(URL, {"word": "niños", "language": "es"}, headers={"HX-Request": "true"})
    assert response.status_code == 200
    assert response.text.startswith('<section id="lookup-result"')
    assert "<html" not in response.text
    assert "NIÑOS is valid in Spanish" in response.text
    assert "NINOS" in row(response.text, "it")
    assert "NINOS" in row(response.text, "fr")


def test_word_with_absent_letter_is_not_spellable(client: Client, dictionaries: None) -> None:
    response = client.get(URL, {"word": "kiwi", "language": "it"}, headers={"HX-Request": "true"})
    assert "cannot be a word in Italian" in response.text
    assert "not spellable" in row(response.text, "it")
    assert "not spellable" in row(response.text, "es")
    assert "KIWI" in row(response.text, "en")


def test_lookup_shows_moderated_addition_as_valid(client: Client, dictionaries: None) -> None:
    response = client.get(URL, {"word": "zen"}, headers={"HX-Request": "true"})
    assert "ZEN is valid in English (US)" in response.text


def test_english_lookup_shows_definition_of_base_form(client: Client, dictionaries: None) -> None:
    response = client.get(URL, {"word": "geese", "language": "en"})
    assert "goose (noun, base form)" in response.text
    assert "web-footed" in response.text
    assert "WordNet 3.0" in response.text


def test_non_english_lookup_shows_no_definitions(client: Client, dictionaries: None) -> None:
    response = client.get(URL, {"word": "casa", "language": "es"}, headers={"HX-Request": "true"})
    assert "Definitions" not in response.text


def test_lookup_language_names_follow_interface_language(client: Client, dictionaries: None) -> None:
    response = client.get(URL, {"word": "dog"}, headers={"HX-Request": "true", "Accept-Language": "fr"})
    assert response.status_code == 200
    # The language names are gettext strings the French catalogue translates.
    assert "Espagnol" in response.text
