"""Learner mode: in a game whose language is not the interface's, the move log shows each
word's meaning beside it and a button that puts the word on the study list in one tap."""

from __future__ import annotations

from typing import Any

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils.html import escape

from dictionaries.definitions import meanings
from games.models import StudyItem
from games.templatetags.learning import is_learning
from tests.puzzles.test_daily import make_source_game

pytestmark = pytest.mark.django_db


def client_in(user: Any, language: str) -> Client:
    client = Client()
    client.force_login(user)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    return client


def test_learning_is_another_base_language() -> None:
    assert is_learning("de", "fr")
    assert is_learning("en", "sv")
    assert not is_learning("en-GB", "en")
    assert not is_learning("pt-BR", "pt-br")


def test_move_log_shows_meanings_and_adds_a_word_in_one_tap(ana: Any, ben: Any) -> None:
    game = make_source_game((ana, ben), 41)
    # A word of the game with a meaning (WordNet knows most of the computer's words).
    move, word = next(
        (m, w["word"])
        for m in game.moves.filter(kind="play").order_by("number")
        for w in m.words
        if meanings("en", w["word"])
    )
    url = reverse("games:detail", args=[game.pk])
    learner = client_in(ana, "fr").get(url).content.decode()
    native = client_in(ana, "en").get(url).content.decode()
    add = reverse("games:study-word", args=[game.pk])
    assert add in learner
    assert add not in native
    meaning = meanings("en", word)[0]
    assert f'<span class="meaning">({escape(meaning)})</span>' in learner
    assert 'class="meaning"' not in native
    added = client_in(ana, "fr").post(add, {"word": word, "move": str(move.number)}, HTTP_HX_REQUEST="true")
    assert added.status_code == 200
    assert "learn-added" in added.content.decode()
    client_in(ana, "fr").post(add, {"word": word, "move": str(move.number)})
    item = StudyItem.objects.get(user=ana)
    assert (item.word, item.kind, item.language, item.move_number) == (
        word,
        StudyItem.Kind.WORD,
        "en",
        move.number,
    )
    # A word that move did not form changes nothing.
    refused = client_in(ana, "fr").post(add, {"word": "NOTAWORDHERE", "move": str(move.number)})
    assert refused.status_code == 400
    assert "Ce mot n'a pas été joué dans ce coup." in refused.content.decode()
    assert StudyItem.objects.count() == 1
