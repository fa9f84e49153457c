"""What a word means: English definitions from WordNet 3.0 (with WordNet's own base-form
rules, morphy) and, for the other game languages, English translations from the FreeDict
bilingual dictionaries. ``meanings(language, word)`` is the one call for the game page;
``lookup_meanings`` gives the same with headwords and parts of speech, for the look-up page.

WordNet:

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

from engine.normalize import normalize_word

FIXTURE_NAME = "wordnet-3.0.json.gz"

#: Parts of speech in the order results are shown.
POS_ORDER = ("n", "v", "a", "r")
POS_NAMES: dict[str, Promise] = {
    "n": _("noun"),
    "v": _("verb"),
    "a": _("adjective"),
    "r": _("adverb"),
    # The FreeDict dictionaries name these too.
    "prep": _("preposition"),
    "pron": _("pronoun"),
    "conj": _("conjunction"),
    "num": _("numeral"),
    "int": _("interjection"),
    "art": _("article"),
    "pl": _("plural"),
}

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


# --- Every game language: one API over WordNet and FreeDict ---------------------------

#: Game languages defined in English by WordNet.
WORDNET_LANGUAGES = ("en", "en-GB")
#: Game languages translated into English by a FreeDict dictionary (built by
#: ``scripts/build_freedict.py``; licence: ``fixtures/definitions/LICENSE-FreeDict.txt``).
FREEDICT_FIXTURES = {
    "es": "freedict-spa-eng.json.gz",
    "it": "freedict-ita-eng.json.gz",
    "pt-BR": "freedict-por-eng.json.gz",
    "de": "freedict-deu-eng.json.gz",
    "fr": "freedict-fra-eng.json.gz",
}


@dataclass(frozen=True)
class Meaning:
    """One headword's senses: glosses (English) or English translations (the others).

    ``form`` is the word looked up when this is its base word (``ran`` -> ``run``,
    ``Häuser`` -> ``Haus``), empty when the word is the headword itself.
    """

    headword: str
    pos: str
    senses: tuple[str, ...]
    form: str = ""

    @property
    def pos_name(self) -> str:
        return str(POS_NAMES[self.pos]) if self.pos in POS_NAMES else ""


class Bilingual:
    """A loaded FreeDict fixture: normalised word -> entries, inflected form -> base words."""

    def __init__(
        self,
        words: dict[str, list[tuple[str, str, list[str]]]],
        forms: dict[str, list[str]],
        name: str,
        licence: str,
    ) -> None:
        self.words = words
        self.forms = forms
        self.name = name
        self.licence = licence

    @classmethod
    def load(cls, path: Path) -> Bilingual:
        with gzip.open(path, "rt", encoding="utf-8") as f:
            data = json.load(f)
        return cls(data["words"], data["forms"], str(data["name"]), str(data["licence"]))

    def _entries(self, key: str, *, form: str = "") -> list[Meaning]:
        found = []
        for spelled, pos, senses in self.words.get(key, ()):
            # The fixture leaves out a headword its key spells: "" lowercase, "^" capitalised.
            headword = (
                key.lower() if spelled == "" else key.lower().capitalize() if spelled == "^" else spelled
            )
            found.append(Meaning(headword, pos, tuple(senses), form))
        return found

    def look_up(self, key: str, language: str) -> list[Meaning]:
        """The entries of the normalised word ``key``, then those of its base words."""
        own = self._entries(key)
        form = own[0].headword if own else key.lower()
        bases: list[Meaning] = []
        for base in self.forms.get(key, ()):
            base_key = normalize_word(language, base)
            if base_key is not None:
                bases += [
                    m for m in self._entries(base_key, form=form) if m.headword == base and m.pos in "nva"
                ]
        return own + bases


_loaded_bilingual: dict[Path, Bilingual] = {}


def bilingual(language: str) -> Bilingual:
    """The process-wide FreeDict dictionary of ``language``, loaded on first use."""
    path = fixture_path().parent / FREEDICT_FIXTURES[language]
    with _lock:
        if path not in _loaded_bilingual:
            _loaded_bilingual[path] = Bilingual.load(path)
        return _loaded_bilingual[path]


def has_meanings(language: str) -> bool:
    return language in WORDNET_LANGUAGES or language in FREEDICT_FIXTURES


def lookup_meanings(language: str, word: str) -> list[Meaning]:
    """What ``word`` (as typed or as on the board, any case) means in ``language``:
    its own entries first, then those of its base forms. Empty when nothing is known
    or the word cannot be spelled in that language. Raises ``KeyError`` for an
    unknown language."""
    key = normalize_word(language, word)
    if key is None or not has_meanings(language):
        return []
    if language in WORDNET_LANGUAGES:
        lower = key.lower()
        return [
            Meaning(e.base, e.pos, e.glosses, form="" if e.base == lower else lower) for e in define(lower)
        ]
    return bilingual(language).look_up(key, language)


def meanings(language: str, word: str) -> list[str]:
    """The senses of ``word`` in ``language`` as plain English lines, in the order of
    ``lookup_meanings``; a sense of a base form is prefixed with it (``"run: move fast"``)."""
    return [
        f"{m.headword}: {sense}" if m.form else sense
        for m in lookup_meanings(language, word)
        for sense in m.senses
    ]


def source_of(language: str) -> str:
    """Where the meanings of ``language`` come from, for the page that shows them."""
    if language in WORDNET_LANGUAGES:
        return "WordNet 3.0, Princeton University"
    if language in FREEDICT_FIXTURES:
        dictionary = bilingual(language)
        return f"{dictionary.name} (FreeDict, {dictionary.licence})"
    return ""
