"""Dictionaries test fixtures: small built word graphs for all seven languages.

Tests point ``LEXICON_DIR`` at a temporary folder holding tiny graphs and an English
additions file, so they are fast and do not depend on the committed full lexicons. The
English graph is built with its additions, as ``dictionaries/wordlists.py`` builds the
real one.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.utils import translation

from dictionaries import lexicons
from dictionaries.wordlists import additions_for
from engine.lexicon import WordGraph
from engine.tiles import LANGUAGES, tileset

WORDS: dict[str, tuple[str, ...]] = {
    "en": ("CAT", "CATS", "DOG", "DOGS", "GOOSE", "GEESE", "RUN", "RUNNING", "HELLO", "COLOR", "AX"),
    "en-GB": ("CAT", "CATS", "DOG", "COLOUR", "HELLO"),
    "es": ("CASA", "CASAS", "NIÑO", "NIÑOS", "GATO"),
    "it": ("CASA", "CITTA", "GATTO"),
    "pt-BR": ("CASA", "CORAÇAO", "GATO"),
    "de": ("HAUS", "HÄUSER", "STRASSE", "KATZE"),
    "fr": ("CHAT", "COEUR", "MAISON"),
}
ADDITIONS = (
    "zen\tmodern word players expect\ntexting\tcommon modern verb form\ncat\talready in the base list\n"
)


@pytest.fixture(scope="session")
def built_lexicons(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("lexicons")
    (folder / "en.additions.txt").write_text(ADDITIONS, encoding="utf-8")
    for language in LANGUAGES:
        words = sorted({*WORDS[language], *additions_for(language, folder)})
        WordGraph.build(words, tileset(language).alphabet).save(folder / f"{language}.dawg")
    return folder


@pytest.fixture(autouse=True)
def lexicon_dir(settings: Any, built_lexicons: Path) -> Iterator[Path]:
    """Every dictionaries test uses the small graphs, with no lexicon cached from before."""
    settings.LEXICON_DIR = built_lexicons
    lexicons.forget()
    # A request with Accept-Language leaves its language active in the thread: start
    # and end every test in the default interface language.
    translation.activate(settings.LANGUAGE_CODE)
    yield built_lexicons
    lexicons.forget()
    translation.activate(settings.LANGUAGE_CODE)


@pytest.fixture
def dictionaries(db: None) -> None:
    """The seven dictionaries and the Moderators group."""
    from dictionaries.services import ensure_dictionaries

    ensure_dictionaries()


@pytest.fixture
def moderator(dictionaries: None, mia: Any) -> Any:
    """``mia`` in the Moderators group (the group exists once ``dictionaries`` ran)."""
    from django.contrib.auth.models import Group

    mia.groups.add(Group.objects.get(name="Moderators"))
    return mia
