"""The share of a sample of common words that have a meaning, per game language.

The sample is drawn, not chosen: from ``wordfreq``'s list of the language (a pinned
development dependency), the first ``TOP`` words, most common first, that are words of
the game's word list (``fixtures/lexicons/<lang>.dawg``, as the board spells them), and
of those ``SIZE`` drawn with ``random.Random(SEED)``. The seed was fixed before any figure
was measured. A word has a meaning when ``dictionaries.definitions.meanings`` gives it one,
which reads the committed fixtures only (never the lemmatiser).

Usage::

    python scripts/meanings_sample.py [--show] [LANGUAGE ...]

``--show`` lists the sample with the first meaning of each word.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.lexicon import WordGraph  # noqa: E402
from engine.normalize import is_lexicon_length, normalize_word  # noqa: E402

SIZE = 40
TOP = 5000
SEED = 27
#: The share each language must reach (issue 27); English is measured, not held to one.
THRESHOLDS = {"pt-BR": 0.8, "de": 0.8, "fr": 0.8, "es": 0.7, "it": 0.7}
LANGUAGES = ("en", "en-GB", "es", "it", "pt-BR", "de", "fr")
#: wordfreq's language codes, where they differ from the game's.
WORDFREQ_CODES = {"en-GB": "en", "pt-BR": "pt"}
LEXICONS = ROOT / "fixtures" / "lexicons"


@dataclass(frozen=True)
class Sample:
    language: str
    words: tuple[str, ...]
    meanings: dict[str, list[str]]

    @property
    def found(self) -> int:
        return sum(1 for word in self.words if self.meanings[word])

    @property
    def share(self) -> float:
        return self.found / len(self.words)

    def line(self) -> str:
        missing = " ".join(word for word in self.words if not self.meanings[word])
        return (
            f"{self.language}: {self.found} of {len(self.words)} have a meaning ({100 * self.share:.1f} %)"
            f"; without: {missing or '-'}"
        )


def common_valid_words(language: str, top: int = TOP) -> list[str]:
    """wordfreq's ``top`` most common words of ``language`` that the game's word list
    holds (as wordfreq spells them), most common first."""
    from wordfreq import iter_wordlist  # development dependency only

    graph = WordGraph.load(LEXICONS / f"{language}.dawg")
    words: list[str] = []
    for word in iter_wordlist(WORDFREQ_CODES.get(language, language)):
        key = normalize_word(language, word)
        if key is not None and is_lexicon_length(key) and key in graph:
            words.append(word)
            if len(words) == top:
                break
    return words


def draw(language: str, *, size: int = SIZE, top: int = TOP, seed: int = SEED) -> list[str]:
    """The sample of ``language``: ``size`` of its ``top`` common valid words, drawn with
    ``seed`` (the same words on every run and machine for the same wordfreq)."""
    return random.Random(seed).sample(common_valid_words(language, top), size)


def measure(language: str) -> Sample:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "wordgame.settings")
    import django

    django.setup()
    from dictionaries.definitions import meanings

    words = draw(language)
    return Sample(language, tuple(words), {word: meanings(language, word) for word in words})


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("languages", nargs="*", help=f"game languages (default: {' '.join(LANGUAGES)})")
    parser.add_argument("--show", action="store_true", help="list the sample and the first meanings")
    args = parser.parse_args(argv)
    unknown = set(args.languages) - set(LANGUAGES)
    if unknown:
        parser.error(f"unknown language(s): {' '.join(sorted(unknown))}")
    for language in args.languages or LANGUAGES:
        sample = measure(language)
        print(sample.line())
        if args.show:
            for word in sample.words:
                print(f"  {word}: {(sample.meanings[word] or ['-'])[0]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
