"""End to end with the committed lexicons (fixtures/lexicons): the English additions
load as approved changes and are valid in play next to the ENABLE2K base graph."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.conf import settings

from dictionaries import lexicons
from dictionaries.graphs import base_graph
from dictionaries.models import Dictionary, WordChange
from dictionaries.services import ensure_dictionaries, read_additions
from engine.tiles import LANGUAGES

pytestmark = pytest.mark.django_db

COMMITTED = Path(settings.BASE_DIR) / "fixtures" / "lexicons"


@pytest.fixture
def committed(settings: Any) -> Path:
    if not all((COMMITTED / f"{language}.dawg").exists() for language in LANGUAGES):
        pytest.fail("the built lexicons are missing from fixtures/lexicons")
    settings.LEXICON_DIR = COMMITTED
    lexicons.forget()
    return COMMITTED


def test_english_additions_load_and_are_valid_in_play(committed: Path) -> None:
    ensure_dictionaries()
    additions = read_additions(committed / "en.additions.txt")
    loaded = WordChange.objects.filter(dictionary__language="en", proposed_by=None, status="approved")
    assert loaded.count() == len(additions) > 0
    assert all(change.reason for change in loaded)
    lexicon = lexicons.for_language("en")
    for word in ("ZEN", "QI", "ZA", "EW", "TEXTING"):
        assert word in lexicon, word
    assert "GEESE" in lexicon
    assert Dictionary.objects.get(language="en").word_count == base_graph("en").word_count > 150_000
