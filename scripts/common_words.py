#!/usr/bin/env python3
"""Share of a language's most common words that its lexicon accepts (maintainer check).

    python scripts/common_words.py it es [--top 3000] [--rev GIT-REVISION] [--refused]

The common words are the ``wordfreq`` package's lists (a pinned dependency,
``requirements.txt``): ``top_n_list(code, N)``, most frequent first. Each is
normalised for the game language (``engine.normalize.normalize_word``); "playable" are
those that can be a word at all (every letter in the alphabet, two letters or more).
The lists hold names, foreign words and abbreviations too (ROMA, THE, TV), so 100 % is
not the aim: ``--refused`` prints the refused words for review. ``--rev`` reads the
graphs as committed at that git revision instead of the working tree (for before/after
figures in docs/lexicons.md).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from dictionaries.wordlists import FIXTURES, LANGUAGES  # noqa: E402
from engine.lexicon import WordGraph  # noqa: E402
from engine.normalize import MIN_LEXICON_WORD_LENGTH, normalize_word  # noqa: E402

#: wordfreq's code for each game language (it has one English and one Portuguese).
WORDFREQ_CODES = {"en": "en", "en-GB": "en", "es": "es", "it": "it", "pt-BR": "pt", "de": "de", "fr": "fr"}


@dataclass(frozen=True)
class Share:
    language: str
    total: int
    playable: int
    accepted: list[str]
    refused: list[str]

    def line(self) -> str:
        n = len(self.accepted)
        return (
            f"{self.language}: {n}/{self.total} = {n / self.total:.1%} of the top {self.total}; "
            f"{n}/{self.playable} = {n / self.playable:.1%} of the playable ones"
        )


def common_words(language: str, top: int) -> list[str]:
    """The ``top`` most frequent words of ``language`` according to wordfreq."""
    from wordfreq import top_n_list

    return list(top_n_list(WORDFREQ_CODES[language], top))


def measure(language: str, words: list[str], graph: WordGraph) -> Share:
    playable = [
        w
        for w in (normalize_word(language, word) for word in words)
        if w is not None and len(w) >= MIN_LEXICON_WORD_LENGTH
    ]
    return Share(
        language,
        len(words),
        len(playable),
        [w for w in playable if w in graph],
        [w for w in playable if w not in graph],
    )


def load_graph(language: str, rev: str | None) -> WordGraph:
    if rev is None:
        return WordGraph.load(FIXTURES / f"{language}.dawg")
    path = f"fixtures/lexicons/{language}.dawg"
    data = subprocess.run(["git", "show", f"{rev}:{path}"], cwd=ROOT, capture_output=True, check=True).stdout
    return WordGraph.from_bytes(data)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("languages", nargs="*", choices=LANGUAGES, default=["it", "es"])
    parser.add_argument("--top", type=int, default=3000)
    parser.add_argument("--rev", help="read the graphs committed at this git revision")
    parser.add_argument("--refused", action="store_true", help="list the refused words")
    args = parser.parse_args(argv)
    for language in args.languages:
        share = measure(language, common_words(language, args.top), load_graph(language, args.rev))
        print(share.line())
        if args.refused:
            print("  refused:", " ".join(share.refused))
    return 0


if __name__ == "__main__":
    sys.exit(main())
