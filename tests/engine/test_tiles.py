"""Tile sets and board layouts loaded from engine/data/."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.board import check_board, empty_board, is_empty, layout, square_name
from engine.tiles import BLANK, LANGUAGES, tileset, tileset_codes

ABSENT = {
    "en": set(),
    "en-GB": set(),
    "es": {"K", "W"},
    "it": {"J", "K", "W", "X", "Y"},
    "pt-BR": {"K", "W", "Y"},
    "de": set(),
    "fr": set(),
}


def test_seven_game_languages_are_in_the_data_file() -> None:
    assert LANGUAGES == ("en", "en-GB", "es", "it", "pt-BR", "de", "fr")
    assert set(LANGUAGES) <= set(tileset_codes())


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_language_has_104_tiles_two_blanks_rack_7_bingo_35(language: str) -> None:
    tiles = tileset(language)
    assert tiles.total_tiles == 104
    assert tiles.blanks == 2
    assert tiles.rack_size == 7
    assert tiles.bingo_bonus == 35
    assert tiles.board == "wwf"
    assert Counter(tiles.full_bag()) == Counter({**tiles.counts, BLANK: 2})
    assert all(count >= 1 for count in tiles.counts.values())
    assert all(value >= 1 for value in tiles.values.values())


@pytest.mark.parametrize("language", LANGUAGES)
def test_blanks_stand_for_exactly_the_language_letters(language: str) -> None:
    tiles = tileset(language)
    assert tiles.blank_letters == frozenset(tiles.alphabet)
    assert not ABSENT[language] & set(tiles.alphabet)
    # Every letter's case round-trips, which the board's lowercase-blank convention needs.
    assert all(letter.lower().upper() == letter != letter.lower() for letter in tiles.alphabet)


def test_language_specific_letters() -> None:
    assert "Ñ" in tileset("es").alphabet
    assert "Ç" in tileset("pt-BR").alphabet
    assert {"Ä", "Ö", "Ü"} <= set(tileset("de").alphabet)
    assert "ß" not in tileset("de").alphabet
    assert len(tileset("fr").alphabet) == 26


def test_english_values_are_the_wwf_values() -> None:
    tiles = tileset("en")
    assert (tiles.value("A"), tiles.value("J"), tiles.value("Q"), tiles.value("Z"), tiles.value("X")) == (
        1,
        10,
        10,
        10,
        8,
    )
    assert tiles.value(BLANK) == 0
    assert tiles.value("a") == 0
    assert tileset("en-GB").counts == tiles.counts


def test_unknown_tile_set_is_a_key_error() -> None:
    with pytest.raises(KeyError):
        tileset("xx")


def test_wwf_layout_premium_counts_and_plain_centre() -> None:
    wwf = layout("wwf")
    assert wwf.size == 15
    assert wwf.center == (7, 7)
    assert Counter(wwf.premiums.values()) == Counter({"TW": 8, "DW": 12, "TL": 16, "DL": 24})
    assert wwf.premium(7, 7) is None
    assert wwf.premium(0, 3) == "TW"
    # Symmetric under the square's reflections.
    for (row, col), kind in wwf.premiums.items():
        assert wwf.premium(col, row) == kind
        assert wwf.premium(14 - row, col) == kind


def test_scrabble_layout_has_a_double_word_centre() -> None:
    assert layout("scrabble").premium(7, 7) == "DW"
    assert tileset("en-scrabble").board == "scrabble"
    assert tileset("en-scrabble").total_tiles == 100


def test_unknown_layout_is_a_key_error() -> None:
    with pytest.raises(KeyError):
        layout("../tilesets")


def test_check_board_accepts_tiles_and_blanks_and_rejects_the_rest() -> None:
    board = list(empty_board())
    board[7] = "......ñAT......"
    assert check_board(board, tileset("es"))[7] == "......ñAT......"
    with pytest.raises(ValueError, match="15 strings"):
        check_board(board[:14], tileset("es"))
    board[7] = "......KAT......"
    with pytest.raises(ValueError, match="not a tile"):
        check_board(board, tileset("es"))
    board[7] = "......AT......"
    with pytest.raises(ValueError, match="15 characters"):
        check_board(board, tileset("es"))


def test_empty_board_and_square_names() -> None:
    assert is_empty(empty_board())
    assert square_name(7, 7) == "H8"
    assert square_name(0, 14) == "O1"
