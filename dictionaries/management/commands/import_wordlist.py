"""``manage.py import_wordlist LANG SOURCE``: rebuild a language's base lexicon.

Runs ``dictionaries.wordlists.import_wordlist`` (the lexicon rules and policy,
docs/lexicons.md) on a raw list, with the stop-lists and curated additions found in
``LEXICON_DIR``; writes ``<LANG>.txt.gz`` and ``<LANG>.dawg`` into ``LEXICON_DIR`` (or
``--out``), then records the new base word count on the language's ``Dictionary``.
Running servers keep the graph they mapped until they restart; moderated changes are
unaffected.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser

from dictionaries.graphs import graph_file_name
from dictionaries.services import dictionary_for
from dictionaries.wordlists import import_wordlist
from engine.tiles import LANGUAGES


class Command(BaseCommand):
    help = "Build a language's normalised word list and word graph from a raw source list."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("language", choices=LANGUAGES)
        parser.add_argument("source", type=Path, help="raw list, one entry per line (.gz read transparently)")
        parser.add_argument("--out", type=Path, default=None, help="output folder (default: LEXICON_DIR)")

    def handle(self, *args: Any, **options: Any) -> None:
        language: str = options["language"]
        out: Path = options["out"] or Path(settings.LEXICON_DIR)
        result = import_wordlist(language, options["source"], out, policy_dir=Path(settings.LEXICON_DIR))
        self.stdout.write(result.summary())
        if out.resolve() == Path(settings.LEXICON_DIR).resolve():
            dictionary = dictionary_for(language)
            dictionary.graph_file = graph_file_name(language)
            dictionary.word_count = len(result.words)
            dictionary.save(update_fields=["graph_file", "word_count", "updated_at"])
            self.stdout.write(f"Dictionary {language}: base graph now has {dictionary.word_count} words")
