"""Per-language word normalisation (RULES.md, "Languages and lexicons").

A word typed by a player, or read from a raw word list, becomes the uppercase
spelling the lexicon stores, or ``None`` when it cannot be a word in that
language:

1. NFC, surrounding whitespace stripped; every character must be a Unicode letter
   (no hyphen, apostrophe, digit, space, dot ...).
2. Lowercase; ``ß`` -> ``ss``, ``œ`` -> ``oe``, ``æ`` -> ``ae``.
3. Diacritics are dropped (NFD, combining marks removed) except on the letters the
   language keeps as letters of their own: ``ñ`` (es), ``ç`` (pt-BR), ``ä ö ü`` (de).
   The kept letters are derived from the tileset alphabet: any alphabet letter that
   carries a diacritic is kept whole.
4. Every letter must be in the language's alphabet (``engine/data/tilesets.json``).
5. Uppercase.

Capitalisation (proper nouns) and the minimum length of 2 letters are lexicon
*building* rules, not normalisation: a player may type ``Häuser`` and a single
letter is still a valid normalised string. See :data:`MIN_LEXICON_WORD_LENGTH`
and :func:`is_lexicon_length`.
"""

from __future__ import annotations

import json
import unicodedata
from functools import cache
from importlib import resources

__all__ = [
    "MIN_LEXICON_WORD_LENGTH",
    "alphabet",
    "is_lexicon_length",
    "normalize_word",
]

#: Lexicons leave out 1-letter words (SOURCES.md rule 5); normalisation does not.
MIN_LEXICON_WORD_LENGTH = 2

# Ligatures and letters that lowercase/NFD cannot reduce to base letters.
_SPECIAL = {"ß": "ss", "œ": "oe", "æ": "ae"}


@cache
def alphabet(language: str) -> tuple[str, ...]:
    """The uppercase alphabet of ``language`` in tileset order.

    Raises ``KeyError`` for an unknown language code.
    """
    with resources.files("engine").joinpath("data/tilesets.json").open(encoding="utf-8") as f:
        data = json.load(f)
    if language.startswith("_") or language not in data:
        raise KeyError(language)
    return tuple(str(letter) for letter in data[language]["alphabet"])


@cache
def _letters(language: str) -> tuple[frozenset[str], frozenset[str]]:
    """(lowercase alphabet, lowercase kept letters with diacritics) of ``language``."""
    lower = frozenset(letter.lower() for letter in alphabet(language))
    kept = frozenset(letter for letter in lower if unicodedata.normalize("NFD", letter) != letter)
    return lower, kept


@cache
def _char_table(language: str) -> dict[str, str | None]:
    """Per-language cache: NFC character -> normalised uppercase text (``None`` = reject)."""
    _letters(language)  # validates the language code before anything is cached
    return {}


def _map_char(language: str, ch: str) -> str | None:
    """Normalise one NFC character for ``language`` (memoised)."""
    table = _char_table(language)
    try:
        return table[ch]
    except KeyError:
        pass
    result: str | None = None
    # Rule 1 is checked on the NFC character itself: a stray combining mark
    # (category M) is not a letter. Lowercasing may then produce marks (İ -> i + dot),
    # which rule 3 strips like any other.
    if ch.isalpha():
        lower, kept = _letters(language)
        out: list[str] = []
        for low in ch.lower():
            if low in kept:
                out.append(low)
                continue
            base = _SPECIAL.get(low)
            if base is None:
                base = "".join(c for c in unicodedata.normalize("NFD", low) if not unicodedata.combining(c))
            out.append(base)
        text = "".join(out)
        if text and all(c in lower for c in text):
            result = text.upper()
    table[ch] = result
    return result


def normalize_word(language: str, text: str) -> str | None:
    """Return ``text`` normalised for ``language`` (uppercase), or ``None``.

    ``None`` means the text cannot be a word of that language: it is empty, contains
    a non-letter, or a letter absent from the language's alphabet (e.g. K or W in
    Spanish, J/K/W/X/Y in Italian). Case does not matter here; 1-letter strings are
    accepted (lexicons drop them separately). Raises ``KeyError`` for an unknown
    language code.

    >>> normalize_word("pt-BR", "coração")
    'CORAÇAO'
    >>> normalize_word("de", "Straße")
    'STRASSE'
    >>> normalize_word("es", "kiwi") is None
    True
    """
    word = unicodedata.normalize("NFC", text.strip())
    if not word:
        _letters(language)
        return None
    parts: list[str] = []
    for ch in word:
        mapped = _map_char(language, ch)
        if mapped is None:
            return None
        parts.append(mapped)
    return "".join(parts)


def is_lexicon_length(word: str) -> bool:
    """True when a normalised word is long enough to be in a lexicon (2+ letters)."""
    return len(word) >= MIN_LEXICON_WORD_LENGTH
