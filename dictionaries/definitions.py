"""English definitions from WordNet 3.0, with WordNet's own base-form rules (morphy).

The data is the compact fixture ``fixtures/definitions/wordnet-3.0.json.gz`` built by
``scripts/build_definitions.py`` (licence: ``fixtures/definitions/LICENSE-WordNet-3.0.txt``).
It is read lazily, once per process, the first time a definition is asked for.

Inflected forms are found the way WordNet's ``morphy`` does it: per part of speech,
first the exception lists (``geese`` -> ``goose``, ``ran`` -> ``run``), otherwise the
form itself and the detachment rules (``running`` -> ``run``/``rune``; only bases
WordNet knows are kept). Each result names the base form used.
"""

from __future__ import annotations

import gzip
import json
import threading
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

FIXTURE_NAME = "wordnet-3.0.json.gz"

#: Parts of speech in the order results are shown.
POS_ORDER = ("n", "v", "a", "r")
POS_NAMES: dict[str, Promise] = {"n": _("noun"), "v": _("verb"), "a": _("adjective"), "r": _("adverb")}

# WordNet 3.0 morph.c detachment rules: (suffix, replacement) per part of speech.
DETACHMENT_RULES: dict[str, tuple[tuple[str, str], ...]] = {
    "n": (
        ("s", ""),
        ("ses", "s"),
        ("xes", "x"),
        ("zes", "z"),
        ("ches", "ch"),
        ("shes", "sh"),
        ("men", "man"),
        ("ies", "y"),
    ),
    "v": (
        ("s", ""),
        ("ies", "y"),
        ("es", "e"),
        ("es", ""),
        ("ed", "e"),
        ("ed", ""),
        ("ing", "e"),
        ("ing", ""),
    ),
    "a": (("er", ""), ("est", ""), ("er", "e"), ("est", "e")),
    "r": (),
}


@dataclass(frozen=True)
class Entry:
    """The senses of one base form in one part of speech."""

    base: str
    pos: str
    glosses: tuple[str, ...]

    @property
    def pos_name(self) -> str:
        return str(POS_NAMES[self.pos])


class WordNet:
    """The loaded fixture: glosses, lemma -> senses, and the exception lists."""

    def __init__(
        self,
        glosses: list[tuple[str, str]],
        lemmas: dict[str, list[int]],
        exceptions: dict[str, dict[str, list[str]]],
    ) -> None:
        self.glosses = glosses
        self.lemmas = lemmas
        self.exceptions = exceptions

    @classmethod
    def load(cls, path: Path) -> WordNet:
        with gzip.open(path, "rt", encoding="utf-8") as f:
            data = json.load(f)
        glosses = [(str(pos), str(gloss)) for pos, gloss in data["glosses"]]
        return cls(glosses, data["lemmas"], data["exceptions"])

    def _senses(self, lemma: str, pos: str) -> tuple[str, ...]:
        return tuple(self.glosses[i][1] for i in self.lemmas.get(lemma, ()) if self.glosses[i][0] == pos)

    def base_forms(self, word: str, pos: str) -> list[str]:
        """WordNet's morphy for one part of speech: the base forms of ``word`` it knows.

        The exception list wins when it has the word (then the word itself is also
        tried, as for ``axes`` -> ``ax``, ``axis``, ``axe``); otherwise the word and every
        base the detachment rules give. Nouns ending in ``ss`` and words of two letters or
        fewer are not detached (morph.c does the same).
        """
        form = word.lower()
        exceptions = self.exceptions.get(pos, {})
        if form in exceptions:
            candidates = [*exceptions[form], form]
        else:
            candidates = [form]
            if not (pos == "n" and (form.endswith("ss") or len(form) <= 2)):
                candidates += [
                    form[: -len(suffix)] + ending
                    for suffix, ending in DETACHMENT_RULES[pos]
                    if form.endswith(suffix) and len(form) > len(suffix)
                ]
        return [c for c in dict.fromkeys(candidates) if self._senses(c, pos)]

    def define(self, word: str) -> list[Entry]:
        """Every (base form, part of speech) WordNet has for ``word``, with its glosses."""
        entries: list[Entry] = []
        for pos in POS_ORDER:
            for base in self.base_forms(word, pos):
                entries.append(Entry(base=base, pos=pos, glosses=self._senses(base, pos)))
        return entries


_lock = threading.Lock()
_loaded: dict[Path, WordNet] = {}


def fixture_path() -> Path:
    return Path(settings.BASE_DIR) / "fixtures" / "definitions" / FIXTURE_NAME


def wordnet() -> WordNet:
    """The process-wide WordNet, loaded on first use (about 0.3 s, then cached)."""
    path = fixture_path()
    with _lock:
        if path not in _loaded:
            _loaded[path] = WordNet.load(path)
        return _loaded[path]


def define(word: str) -> list[Entry]:
    """The English definitions of ``word`` (any case), found through its base forms."""
    if not word.isalpha() or not word.isascii():
        return []
    return wordnet().define(word)
