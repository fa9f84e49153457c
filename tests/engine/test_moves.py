"""Placement rules and their error codes (RULES.md, "Placement"), via ``evaluate``."""

from __future__ import annotations

from collections.abc import Container, Sequence

import pytest

from engine import errors
from engine.board import Board, layout
from engine.errors import IllegalMove
from engine.lexicon import OverlayLexicon, WordGraph, WordListLexicon
from engine.moves import Evaluation, Placement, evaluate
from engine.tiles import tileset
from tests.engine.helpers import AnyWord, board_with, tiles

CAT = board_with((7, 6, "across", "CAT"))


def run(
    board: Board,
    placements: Sequence[Placement],
    *,
    rack: str | None = None,
    language: str = "en",
    lexicon: Container[str] | None = None,
) -> Evaluation:
    return evaluate(
        board,
        placements,
        tileset=tileset(language),
        layout=layout("wwf"),
        lexicon=AnyWord() if lexicon is None else lexicon,
        rack=rack,
    )


def code_of(board: Board, placements: Sequence[Placement], **kwargs: object) -> str:
    with pytest.raises(IllegalMove) as caught:
        run(board, placements, **kwargs)  # type: ignore[arg-type]
    assert caught.value.message
    return caught.value.code


def test_no_tiles_is_empty_move() -> None:
    assert code_of(CAT, []) == errors.EMPTY_MOVE


def test_tile_outside_the_grid_is_off_board() -> None:
    assert code_of(CAT, [Placement(7, 15, "S")]) == errors.OFF_BOARD
    assert code_of(CAT, [Placement(-1, 7, "S")]) == errors.OFF_BOARD


def test_two_tiles_on_one_square_is_duplicate_square() -> None:
    assert code_of(CAT, [Placement(8, 8, "A"), Placement(8, 8, "B")]) == errors.DUPLICATE_SQUARE


def test_tile_on_an_occupied_square_is_square_taken() -> None:
    assert code_of(CAT, [Placement(7, 7, "O")]) == errors.SQUARE_TAKEN


def test_blank_without_letter_is_blank_needs_letter() -> None:
    assert code_of(CAT, [Placement(8, 8, "?", blank=True)]) == errors.BLANK_NEEDS_LETTER
    assert code_of(CAT, [Placement(8, 8, "", blank=True)]) == errors.BLANK_NEEDS_LETTER


def test_letter_missing_from_the_language_is_refused() -> None:
    # Spanish has no K or W tile, and a blank cannot stand for them either.
    assert code_of(CAT, [Placement(8, 8, "K")], language="es") == errors.LETTER_NOT_IN_LANGUAGE
    assert code_of(CAT, [Placement(8, 8, "W", blank=True)], language="es") == errors.LETTER_NOT_IN_LANGUAGE
    assert code_of(CAT, [Placement(8, 8, "J", blank=True)], language="it") == errors.LETTER_NOT_IN_LANGUAGE
    assert code_of(CAT, [Placement(8, 8, "Ñ")], language="en") == errors.LETTER_NOT_IN_LANGUAGE


def test_language_letters_are_accepted_as_tiles_and_blanks() -> None:
    assert run(CAT, [Placement(8, 8, "Ñ")], language="es").main_word.word == "TÑ"
    assert run(CAT, [Placement(8, 8, "Ç")], language="pt-BR").main_word.word == "TÇ"
    assert run(CAT, [Placement(8, 8, "Ä", blank=True)], language="de").main_word.word == "TÄ"


def test_tile_missing_from_the_rack_is_tile_not_in_rack() -> None:
    assert code_of(CAT, tiles(8, 8, "down", "OX"), rack="OABCDEF") == errors.TILE_NOT_IN_RACK
    # A blank needs a ? on the rack; a letter needs that letter, not a ?.
    assert code_of(CAT, tiles(8, 8, "down", "o"), rack="OABCDEF") == errors.TILE_NOT_IN_RACK
    assert code_of(CAT, tiles(8, 8, "down", "O"), rack="?ABCDEF") == errors.TILE_NOT_IN_RACK
    # Two of a letter need two on the rack.
    assert code_of(CAT, tiles(8, 8, "down", "OO"), rack="OABCDEF") == errors.TILE_NOT_IN_RACK
    assert run(CAT, tiles(8, 8, "down", "Oo"), rack="O?ABCDE").score == 2


def test_tiles_in_two_rows_and_columns_are_not_in_line() -> None:
    assert code_of(CAT, [Placement(8, 8, "O"), Placement(9, 9, "N")]) == errors.NOT_IN_LINE


def test_gap_between_new_tiles_is_gap_in_line() -> None:
    assert code_of(CAT, [Placement(8, 8, "O"), Placement(10, 8, "N")]) == errors.GAP_IN_LINE


def test_old_tiles_fill_the_gap_between_new_tiles() -> None:
    # S_T around the old A of CAT down column 7: SAT.
    result = run(CAT, [Placement(6, 7, "S"), Placement(8, 7, "T")])
    assert result.main_word.word == "SAT"


def test_first_move_must_cover_the_centre() -> None:
    assert code_of(board_with(), tiles(6, 6, "across", "CAT")) == errors.FIRST_MOVE_OFF_CENTER


def test_first_move_needs_two_tiles() -> None:
    assert code_of(board_with(), [Placement(7, 7, "A")]) == errors.FIRST_MOVE_TOO_SHORT


def test_later_move_must_touch_the_board() -> None:
    assert code_of(CAT, tiles(2, 2, "across", "DOG")) == errors.NOT_CONNECTED


def test_diagonal_contact_is_not_connected() -> None:
    assert code_of(CAT, [Placement(8, 9, "A"), Placement(8, 10, "T")]) == errors.NOT_CONNECTED


def test_unknown_words_are_named_in_order() -> None:
    lexicon = WordListLexicon(["CAT", "ON"], tileset("en").alphabet)
    with pytest.raises(IllegalMove) as caught:
        run(board_with((7, 4, "across", "CATS")), tiles(8, 4, "across", "ON"), lexicon=lexicon)
    assert caught.value.code == errors.WORD_NOT_IN_LEXICON
    assert caught.value.words == ("CO", "AN")
    assert "CO" in caught.value.message


def test_known_words_are_accepted() -> None:
    lexicon = WordListLexicon(["CATS", "ON", "CO", "AN"], tileset("en").alphabet)
    result = run(board_with((7, 4, "across", "CATS")), tiles(8, 4, "across", "ON"), lexicon=lexicon)
    assert [w.word for w in result.words] == ["ON", "CO", "AN"]


def test_moderated_lexicon_changes_apply_to_plays() -> None:
    base = WordGraph.build(["CAT", "ON", "CO", "AN"], tileset("en").alphabet)
    lexicon = OverlayLexicon(base, added=["CATS"], removed=["CO"])
    with pytest.raises(IllegalMove) as caught:
        run(board_with((7, 4, "across", "CATS")), tiles(8, 4, "across", "ON"), lexicon=lexicon)
    assert caught.value.words == ("CO",)
    result = run(board_with((7, 4, "across", "CAT")), tiles(7, 7, "across", "S"), lexicon=lexicon)
    assert result.main_word.word == "CATS"


def test_blank_words_are_checked_by_the_letter_it_stands_for() -> None:
    result = run(CAT, tiles(7, 9, "across", "s"), lexicon=WordListLexicon(["CATS"], tileset("en").alphabet))
    assert result.main_word.word == "CATS"


# Each case breaks two rules; the one earlier in PLAY_ERROR_ORDER must be reported.
PRECEDENCE_CASES: list[tuple[str, Board, list[Placement], str | None]] = [
    (errors.OFF_BOARD, CAT, [Placement(7, 20, "A"), Placement(7, 20, "A")], None),
    (errors.DUPLICATE_SQUARE, CAT, [Placement(7, 7, "A"), Placement(7, 7, "A")], None),
    (errors.SQUARE_TAKEN, CAT, [Placement(7, 7, "?", blank=True)], None),
    (errors.BLANK_NEEDS_LETTER, CAT, [Placement(8, 8, "?", blank=True), Placement(8, 9, "Ñ")], None),
    (errors.LETTER_NOT_IN_LANGUAGE, CAT, [Placement(8, 8, "Ñ")], "ABCDEFG"),
    (errors.TILE_NOT_IN_RACK, CAT, [Placement(8, 8, "Z"), Placement(9, 9, "Z")], "ABCDEFG"),
    (errors.NOT_IN_LINE, CAT, [Placement(8, 8, "A"), Placement(9, 9, "A"), Placement(8, 12, "A")], None),
    (errors.GAP_IN_LINE, board_with(), [Placement(6, 6, "A"), Placement(6, 8, "A")], None),
    (errors.FIRST_MOVE_OFF_CENTER, board_with(), [Placement(6, 6, "A")], None),
    (errors.FIRST_MOVE_TOO_SHORT, board_with(), [Placement(7, 7, "Q")], None),
    (errors.NOT_CONNECTED, CAT, tiles(2, 2, "across", "QQ"), None),
]


@pytest.mark.parametrize(("expected", "board", "placements", "rack"), PRECEDENCE_CASES)
def test_first_broken_rule_in_order_is_reported(
    expected: str, board: Board, placements: list[Placement], rack: str | None
) -> None:
    # Every case also breaks a later rule (worked out by hand), and the empty lexicon
    # makes any word formed a ``word_not_in_lexicon`` too.
    assert code_of(board, placements, rack=rack, lexicon=frozenset()) == expected


def test_precedence_order_matches_the_issue() -> None:
    assert errors.PLAY_ERROR_ORDER == (
        "empty_move",
        "off_board",
        "duplicate_square",
        "square_taken",
        "blank_needs_letter",
        "letter_not_in_language",
        "tile_not_in_rack",
        "not_in_line",
        "gap_in_line",
        "first_move_off_center",
        "first_move_too_short",
        "not_connected",
        "word_not_in_lexicon",
    )


def test_unknown_error_code_is_a_programming_error() -> None:
    with pytest.raises(ValueError, match="unknown"):
        IllegalMove("no_such_code", "x")
