"""What a word means: English definitions from WordNet 3.0 (with WordNet's own base-form
rules, morphy) and, for the other game languages, English translations from the FreeDict
bilingual dictionaries (for Spanish and Italian also from Apertium's), with the base forms
of inflected words worked out when the fixtures are built. ``meanings(language, word)`` is
the one call for the game page; ``lookup_meanings`` gives the same with headwords and parts
of speech, for the look-up page. A meaning found through a base form names the form looked
up and its base: ``conozco → conocer: know``.

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
    "det": _("determiner"),
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
#: Larger dictionaries for the languages whose FreeDict dictionary is small, asked after
#: FreeDict (built by ``scripts/build_apertium.py``; licence:
#: ``fixtures/definitions/LICENSE-Apertium.txt``). All but Spanish go through Spanish.
APERTIUM_FIXTURES = {
    "es": "apertium-spa-eng.json.gz",
    "it": "apertium-ita-eng.json.gz",
    "pt-BR": "apertium-por-eng.json.gz",
    "fr": "apertium-fra-eng.json.gz",
}
#: Inflected form -> base form (lemma), worked out with simplemma when the fixtures are
#: built (``scripts/build_lemmas.py``; licence: ``fixtures/definitions/LICENSE-simplemma.txt``),
#: so the server never loads the lemmatiser.
LEMMA_FIXTURE = "lemmas-{language}.json.gz"


@dataclass(frozen=True)
class Meaning:
    """One headword's senses: glosses (English) or English translations (the others).

    ``form`` is the word looked up when this is its base word (``ran`` -> ``run``,
    ``Häuser`` -> ``Haus``, ``conozco`` -> ``conocer``), empty when the word is the
    headword itself.
    """

    headword: str
    pos: str
    senses: tuple[str, ...]
    form: str = ""

    @property
    def pos_name(self) -> str:
        return str(POS_NAMES[self.pos]) if self.pos in POS_NAMES else ""


class Bilingual:
    """A loaded translation fixture: normalised word -> entries, inflected form -> base words."""

    def __init__(
        self,
        words: dict[str, list[tuple[str, str, list[str]]]],
        forms: dict[str, list[str]],
        name: str,
        licence: str,
        project: str = "FreeDict",
    ) -> None:
        self.words = words
        self.forms = forms
        self.name = name
        self.licence = licence
        self.project = project

    @classmethod
    def load(cls, path: Path) -> Bilingual:
        with gzip.open(path, "rt", encoding="utf-8") as f:
            data = json.load(f)
        # The FreeDict fixtures predate the "project" key.
        project = str(data.get("project", "FreeDict"))
        return cls(data["words"], data["forms"], str(data["name"]), str(data["licence"]), project)

    def entries(self, key: str, *, form: str = "") -> list[Meaning]:
        """The entries of the normalised word ``key``, ``form`` set on each."""
        found = []
        for spelled, pos, senses in self.words.get(key, ()):
            # The fixture leaves out a headword its key spells: "" lowercase, "^" capitalised.
            headword = (
                key.lower() if spelled == "" else key.lower().capitalize() if spelled == "^" else spelled
            )
            found.append(Meaning(headword, pos, tuple(senses), form))
        return found


class Lemmas:
    """A loaded lemma fixture: normalised inflected form -> its base forms as spelled.

    The fixture groups forms by base form (``{"conocer": "CONOCE CONOCES CONOZCO ..."}``),
    which packs small; in memory each form keeps one string, ``|`` between base forms when
    there are several (``ESTA`` -> ``este|estar``), to stay small too.
    """

    def __init__(self, bases: dict[str, str]) -> None:
        self.bases = bases

    @classmethod
    def load(cls, path: Path) -> Lemmas:
        with gzip.open(path, "rt", encoding="utf-8") as f:
            data = json.load(f)
        bases: dict[str, str] = {}
        for lemma, forms in data["lemmas"].items():
            for form in forms.split():
                bases[form] = f"{bases[form]}|{lemma}" if form in bases else lemma
        return cls(bases)

    def of(self, key: str) -> list[str]:
        found = self.bases.get(key)
        return found.split("|") if found else []


def _nominal(form: str, base: str) -> bool:
    """Whether ``form`` looks like a noun's or adjective's inflection of ``base`` (a plural
    in -s/-es, a gender or number vowel: gatti/gatto, otra/otro) rather than a verb's
    (pudieron/poder, conozco/conocer). The lemmatiser gives no part of speech, and a base
    such as "poder" is both a verb (can) and a noun (power): this picks which comes first."""
    if form.startswith(base) and form[len(base) :] in {"S", "ES", "N", "E", "EN"}:
        return True
    return len(form) == len(base) and form[:-1] == base[:-1] and base[-1] in "AEO" and form[-1] in "AEIOS"


def _pos_rank(pos: str, *, nominal: bool) -> int:
    first = ("n", "a") if nominal else ("v",)
    return 0 if pos in first else 1


class Translations:
    """Every dictionary of one language, asked in order, with its base forms."""

    def __init__(self, language: str, dictionaries: list[Bilingual], lemmas: Lemmas) -> None:
        self.language = language
        self.dictionaries = dictionaries
        self.lemmas = lemmas

    def entries(self, key: str, *, form: str = "") -> list[Meaning]:
        """The entries of ``key`` in every dictionary; a later dictionary adds only the
        (headword, part of speech) pairs the ones before it lack."""
        found: list[Meaning] = []
        for dictionary in self.dictionaries:
            known = {(m.headword.lower(), m.pos) for m in found}
            found += [
                m for m in dictionary.entries(key, form=form) if (m.headword.lower(), m.pos) not in known
            ]
        return found

    def look_up(self, key: str, typed: str = "") -> list[Meaning]:
        """The entries of the normalised word ``key``, then those of its base words: the
        ones the dictionary names (German plurals, participles) and the lemmatiser's.
        ``typed`` is the word as the player spelled it, shown as the form looked up."""
        own = self.entries(key)
        form = own[0].headword if own else (typed or key).lower()
        bases: list[Meaning] = []
        for dictionary in self.dictionaries:
            for base in dictionary.forms.get(key, ()):
                base_key = normalize_word(self.language, base)
                if base_key is not None:
                    bases += [
                        m
                        for m in self.entries(base_key, form=form)
                        if m.headword == base and m.pos in "nva" and m not in bases
                    ]
        for lemma in self.lemmas.of(key):
            lemma_key = normalize_word(self.language, lemma)
            if lemma_key is None or lemma_key == key:
                continue
            # Only the headwords spelled as the lemma (the lemma "este" finds "este", not
            # "esté"), in its case when one is (German "gehen" is not the noun "Gehen"),
            # never an inflected form's own entry (a plural) again.
            found = [
                m
                for m in self.entries(lemma_key, form=form)
                if m.headword.lower() == lemma.lower() and m.pos not in {"pl", ""}
            ]
            if any(m.headword == lemma for m in found):
                found = [m for m in found if m.headword == lemma]
            found = [m for m in found if m not in bases]
            found.sort(key=lambda m: _pos_rank(m.pos, nominal=_nominal(key, lemma_key)))
            bases += found
        return own + bases

    def source(self) -> str:
        return "; ".join(f"{d.name} ({d.project}, {d.licence})" for d in self.dictionaries)


_loaded_bilingual: dict[Path, Bilingual] = {}
_loaded_translations: dict[str, Translations] = {}


def _bilingual(path: Path) -> Bilingual:
    if path not in _loaded_bilingual:
        _loaded_bilingual[path] = Bilingual.load(path)
    return _loaded_bilingual[path]


def bilingual(language: str) -> Bilingual:
    """The process-wide FreeDict dictionary of ``language``, loaded on first use."""
    with _lock:
        return _bilingual(fixture_path().parent / FREEDICT_FIXTURES[language])


def translations(language: str) -> Translations:
    """Every dictionary of ``language`` and its base forms, loaded once per process on
    first use."""
    folder = fixture_path().parent
    with _lock:
        if language not in _loaded_translations:
            names = [FREEDICT_FIXTURES[language]]
            if language in APERTIUM_FIXTURES:
                names.append(APERTIUM_FIXTURES[language])
            lemmas = Lemmas.load(folder / LEMMA_FIXTURE.format(language=language))
            _loaded_translations[language] = Translations(
                language, [_bilingual(folder / name) for name in names], lemmas
            )
        return _loaded_translations[language]


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
    return translations(language).look_up(key, word)


def meanings(language: str, word: str) -> list[str]:
    """The senses of ``word`` in ``language`` as plain English lines, in the order of
    ``lookup_meanings``; a sense of a base form says which form led to which base
    (``"conozco → conocer: know"``)."""
    return [
        f"{m.form} → {m.headword}: {sense}" if m.form else sense
        for m in lookup_meanings(language, word)
        for sense in m.senses
    ]


def source_of(language: str) -> str:
    """Where the meanings of ``language`` come from, for the page that shows them."""
    if language in WORDNET_LANGUAGES:
        return "WordNet 3.0, Princeton University"
    if language in FREEDICT_FIXTURES:
        return translations(language).source()
    return ""
