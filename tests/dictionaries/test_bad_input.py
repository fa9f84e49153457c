"""Bad input to the look-up page and the moderators' forms: a clear message, never a
500, and nothing recorded."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from dictionaries.models import Dictionary, WordChange

pytestmark = pytest.mark.django_db

URL = "/words/"
HX = {"HX-Request": "true"}
NOT_SPELLABLE = "it has a character that is not a letter of its alphabet"


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ({"word": "a" * 10_000}, "Ensure this value has at most 64 characters (it has 10000)."),
        ({"word": "cat\x00"}, "Null characters are not allowed."),
        ({"word": "cat", "language": "xx"}, "Select a valid choice. xx is not one of the available choices."),
        ({"word": "cat", "language": "EN"}, "Select a valid choice. EN is not one of the available choices."),
        ({"word": "\U0001f600"}, NOT_SPELLABLE),  # an emoji
        ({"word": "\u200b"}, NOT_SPELLABLE),  # a zero-width space alone
        ({"word": "\u0301"}, NOT_SPELLABLE),  # a combining accent alone
        ({"word": "a-b"}, NOT_SPELLABLE),
        ({"word": "ǆ", "language": "es"}, NOT_SPELLABLE),
    ],
)
def test_bad_lookup_answers_with_a_sentence(
    client: Client, dictionaries: None, query: dict[str, str], message: str
) -> None:
    for headers in ({}, HX):
        response = client.get(URL, query, headers=headers)
        assert response.status_code == 200
        assert message in response.text


@pytest.mark.parametrize("raw", ["%ED%A0%80", "%FF%FE", "%C3"])
def test_lookup_of_bytes_that_are_not_utf8_is_not_spellable(
    client: Client, dictionaries: None, raw: str
) -> None:
    response = client.get(f"{URL}?word={raw}", headers=HX)
    assert response.status_code == 200
    assert NOT_SPELLABLE in response.text


def test_lookup_echoes_markup_escaped(client: Client, dictionaries: None) -> None:
    response = client.get(URL, {"word": "<script>alert(1)</script>"}, headers=HX)
    assert "<script>" not in response.text
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in response.text


def test_lookup_of_a_word_longer_than_any_board_is_just_not_valid(client: Client, dictionaries: None) -> None:
    response = client.get(URL, {"word": "a" * 64}, headers=HX)
    assert f"{'A' * 64} is not valid in English (US)." in response.text


def test_lookup_with_the_language_twice_uses_the_last(client: Client, dictionaries: None) -> None:
    response = client.get(URL + "?language=en&language=fr&word=chat", headers=HX)
    assert "CHAT is valid in French" in response.text


@pytest.mark.parametrize(
    ("language", "words", "message"),
    [
        ("en", "a" * 100, "Words can have at most 64 letters."),
        # 40 characters typed, 80 letters once normalised (ß -> SS).
        ("de", "ß" * 40, "Words can have at most 64 letters."),
        ("en", "x\x00y", "Null characters are not allowed."),
        ("en", "\u200b", "cannot be a word in English (US)"),
    ],
)
def test_bulk_proposal_of_an_impossible_word_is_refused_with_a_reason(
    client: Client, moderator: Any, language: str, words: str, message: str
) -> None:
    client.force_login(moderator)
    before = WordChange.objects.count()
    url = reverse("admin:dictionaries_wordchange_bulk_propose")
    response = client.post(url, {"language": language, "action": "add", "words": words, "reason": ""})
    assert response.status_code == 200
    assert message in response.text
    assert WordChange.objects.count() == before


def test_single_proposal_that_normalises_too_long_is_refused(client: Client, moderator: Any) -> None:
    client.force_login(moderator)
    before = WordChange.objects.count()
    german = Dictionary.objects.get(language="de")
    data = {"dictionary": german.pk, "word": "ß" * 40, "action": "add", "reason": ""}
    response = client.post(reverse("admin:dictionaries_wordchange_add"), data)
    assert response.status_code == 200  # the form again, with the error
    assert "Words can have at most 64 letters." in response.text
    assert WordChange.objects.count() == before
