"""Word normalisation per language (RULES.md table, engine/normalize.py)."""

from __future__ import annotations

import pytest

from engine.normalize import MIN_LEXICON_WORD_LENGTH, alphabet, is_lexicon_length, normalize_word

pytestmark = pytest.mark.pure


@pytest.mark.parametrize(
    ("language", "text", "expected"),
    [
        ("es", "niños", "NIÑOS"),
        ("es", "Ñandú", "ÑANDU"),
        ("es", "pingüino", "PINGUINO"),
        ("es", "acción", "ACCION"),
        ("pt-BR", "coração", "CORAÇAO"),
        ("pt-BR", "ação", "AÇAO"),
        ("pt-BR", "você", "VOCE"),
        ("de", "Straße", "STRASSE"),
        ("de", "Häuser", "HÄUSER"),
        ("de", "größer", "GRÖSSER"),
        ("de", "Café", "CAFE"),
        ("de", "ÜBER", "ÜBER"),
        ("fr", "cœur", "COEUR"),
        ("fr", "Æsthète", "AESTHETE"),
        ("fr", "garçon", "GARCON"),
        ("fr", "forêt", "FORET"),
        ("it", "città", "CITTA"),
        ("it", "perché", "PERCHE"),
        ("en", "naïve", "NAIVE"),
        ("en", "Hello", "HELLO"),
        ("en-GB", "colour", "COLOUR"),
        ("en", "  cat\n", "CAT"),
    ],
)
def test_word_normalises_to_lexicon_spelling(language: str, text: str, expected: str) -> None:
    assert normalize_word(language, text) == expected


def test_decomposed_input_is_composed_first() -> None:
    # "niños" typed with a combining tilde (NFD) must equal the composed form.
    assert normalize_word("es", "nin\u0303os") == "NIÑOS"
    assert normalize_word("pt-BR", "corac\u0327a\u0303o") == "CORAÇAO"


@pytest.mark.parametrize("word", ["kiwi", "wok", "karate", "whisky"])
def test_spanish_words_with_k_or_w_are_rejected(word: str) -> None:
    assert normalize_word("es", word) is None


@pytest.mark.parametrize("word", ["jazz", "taxi", "yogurt", "whisky", "kiwi", "juventus"])
def test_italian_words_with_j_k_w_x_y_are_rejected(word: str) -> None:
    assert normalize_word("it", word) is None


@pytest.mark.parametrize("word", ["kiwi", "whisky", "yoga"])
def test_portuguese_words_with_k_w_y_are_rejected(word: str) -> None:
    assert normalize_word("pt-BR", word) is None


def test_kept_letters_belong_to_their_language_only() -> None:
    # Ñ is a letter in Spanish only; elsewhere the tilde is dropped.
    assert normalize_word("pt-BR", "niño") == "NINO"
    assert normalize_word("de", "niño") == "NINO"
    # Ç is kept in Portuguese and flattened in French and Spanish.
    assert normalize_word("es", "ç") == "C"
    # Ä Ö Ü are German letters, not AE OE UE, and are flattened elsewhere.
    assert normalize_word("fr", "Häuser") == "HAUSER"
    assert normalize_word("de", "Haeuser") == "HAEUSER"


@pytest.mark.parametrize(
    "text",
    ["don't", "rock-n-roll", "a1", "two words", "l’homme", "e.g", "", "   ", "smørbrød", "x\u0301\u0301"],
)
def test_non_letters_and_unknown_letters_are_rejected(text: str) -> None:
    assert normalize_word("en", text) is None


def test_single_letter_normalises_but_is_too_short_for_a_lexicon() -> None:
    assert normalize_word("en", "a") == "A"
    assert MIN_LEXICON_WORD_LENGTH == 2
    assert not is_lexicon_length("A")
    assert is_lexicon_length("AB")


@pytest.mark.parametrize("language", ["en", "en-GB", "es", "it", "pt-BR", "de", "fr"])
def test_every_alphabet_letter_normalises_to_itself(language: str) -> None:
    for letter in alphabet(language):
        assert normalize_word(language, letter) == letter
        assert normalize_word(language, letter.lower()) == letter


def test_unknown_language_raises_key_error() -> None:
    with pytest.raises(KeyError):
        normalize_word("xx", "word")
    with pytest.raises(KeyError):
        alphabet("_meta")
