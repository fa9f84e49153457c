"""End to end with the committed lexicons (fixtures/lexicons): the English additions are
part of the built ``en`` graph, so they are valid in play with no moderated change, and
the moderation overlay still works on top of them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.conf import settings

from dictionaries import lexicons
from dictionaries.graphs import base_graph
from dictionaries.models import Dictionary, WordChange
from dictionaries.services import ensure_dictionaries, propose_change
from dictionaries.wordlists import read_additions
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


def test_english_additions_are_in_the_built_graph_and_valid_in_play(committed: Path) -> None:
    lines = ensure_dictionaries()
    additions = [word for word, _ in read_additions(committed / "en.additions.txt")]
    assert len(additions) > 0
    assert not WordChange.objects.exists()
    assert not any("addition" in line for line in lines)
    lexicon = lexicons.for_language("en")
    assert lexicon.version == 0
    assert [w for w in additions if w not in base_graph("en")] == []
    for word in ("ZEN", "QI", "ZA", "EW", "TEXTING"):
        assert word in lexicon, word
    assert "GEESE" in lexicon
    assert Dictionary.objects.get(language="en").word_count == base_graph("en").word_count > 150_000


def test_a_moderator_can_still_remove_a_curated_addition(committed: Path, ana: Any, mia: Any) -> None:
    ensure_dictionaries()
    propose_change(language="en", word="ew", action="remove", proposed_by=ana).approve(by=mia)
    lexicon = lexicons.for_language("en")
    assert "EW" not in lexicon
    assert "ZEN" in lexicon
