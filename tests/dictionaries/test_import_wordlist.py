"""``manage.py import_wordlist``: builds the list and graph, records the word count."""

from __future__ import annotations

import gzip
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command

from dictionaries import lexicons
from dictionaries.models import Dictionary
from dictionaries.services import propose_change
from engine.lexicon import WordGraph

pytestmark = pytest.mark.django_db


def test_import_wordlist_builds_graph_and_updates_dictionary(
    tmp_path: Path, settings: Any, dictionaries: None, ana: Any, mia: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    propose_change(language="en", word="blorp", action="add", proposed_by=ana).approve(by=mia)
    settings.LEXICON_DIR = tmp_path
    source = tmp_path / "raw.txt"
    source.write_text("Paris\ncat\ncats\ne-mail\nx\nzoë\ncat\n", encoding="utf-8")
    call_command("import_wordlist", "en", str(source))
    graph = WordGraph.load(tmp_path / "en.dawg")
    assert list(graph) == ["CAT", "CATS", "ZOE"]
    with gzip.open(tmp_path / "en.txt.gz", "rt", encoding="utf-8") as f:
        assert f.read().split() == ["CAT", "CATS", "ZOE"]
    assert Dictionary.objects.get(language="en").word_count == 3
    assert "raw 7" in capsys.readouterr().out
    # A new process (here: a cleared cache) uses the new graph with the moderated changes.
    lexicons.forget()
    assert "ZOE" in lexicons.for_language("en")
    assert "BLORP" in lexicons.for_language("en")  # a moderated addition


def test_import_wordlist_elsewhere_leaves_dictionary_alone(tmp_path: Path, dictionaries: None) -> None:
    before = Dictionary.objects.get(language="fr").word_count
    source = tmp_path / "raw.txt"
    source.write_text("chat\nchats\n", encoding="utf-8")
    call_command("import_wordlist", "fr", str(source), "--out", str(tmp_path / "out"))
    assert list(WordGraph.load(tmp_path / "out" / "fr.dawg")) == ["CHAT", "CHATS"]
    assert Dictionary.objects.get(language="fr").word_count == before
