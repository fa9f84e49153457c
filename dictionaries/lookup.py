"""What the look-up page shows for a word: validity, normalised form and tile value in
each game language (live lexicons), and what it means in the picked language (English
definitions from WordNet, English translations from FreeDict: ``definitions``)."""

from __future__ import annotations

from dataclasses import dataclass

from dictionaries import definitions, lexicons
from dictionaries.models import language_name
from engine.normalize import is_lexicon_length, normalize_word
from engine.tiles import LANGUAGES, tileset


@dataclass(frozen=True)
class LanguageAnswer:
    """The word in one language: ``normalized`` is None when it cannot be spelled there;
    ``valid`` is None when the language's graph is not built."""

    language: str
    name: str
    normalized: str | None
    valid: bool | None
    value: int | None
    picked: bool


@dataclass(frozen=True)
class Lookup:
    word: str
    language: str
    answers: tuple[LanguageAnswer, ...]
    definitions: tuple[definitions.Meaning, ...]
    show_definitions: bool
    #: True for English translations (FreeDict), False for English definitions (WordNet).
    translated: bool = False
    definitions_source: str = ""

    @property
    def picked(self) -> LanguageAnswer:
        return self.answers[0]


def look_up(word: str, language: str) -> Lookup:
    """Answers for every language, the picked ``language`` first."""
    ordered = (language, *(code for code in LANGUAGES if code != language))
    answers = tuple(_answer(word, code, picked=code == language) for code in ordered)
    show = definitions.has_meanings(language)
    return Lookup(
        word=word,
        language=language,
        answers=answers,
        definitions=tuple(definitions.lookup_meanings(language, word)) if show else (),
        show_definitions=show,
        translated=language not in definitions.WORDNET_LANGUAGES,
        definitions_source=definitions.source_of(language) if show else "",
    )


def _answer(word: str, language: str, *, picked: bool) -> LanguageAnswer:
    normalized = normalize_word(language, word)
    valid: bool | None = None
    value: int | None = None
    if normalized is not None:
        values = tileset(language).values
        value = sum(values[letter] for letter in normalized)
        try:
            valid = is_lexicon_length(normalized) and normalized in lexicons.for_language(language)
        except FileNotFoundError:
            valid = None
    return LanguageAnswer(language, language_name(language), normalized, valid, value, picked)
