"""Scoring cases worked out by hand on the WWF board (RULES.md, "Scoring").

English values used: A1 B4 C4 E1 G3 H3 M4 N2 O1 P4 R1 S1 T1 U2 Z10; blanks 0.
WWF premiums used (0-based row, col): TW (0,3) (0,11) (3,0); DW (1,5) (1,9) (3,7);
TL (0,6) (0,8) (3,3) (5,5); DL (6,4) (8,4). The centre (7,7) has no premium.
"""

from __future__ import annotations

from engine.board import Board, layout
from engine.moves import Evaluation, Placement, evaluate
from engine.tiles import tileset
from tests.engine.helpers import AnyWord, board_with, tiles


def score(board: Board, placements: list[Placement], *, rack: str | None = None) -> Evaluation:
    return evaluate(
        board, placements, tileset=tileset("en"), layout=layout("wwf"), lexicon=AnyWord(), rack=rack
    )


def summary(evaluation: Evaluation) -> list[tuple[str, int]]:
    return [(w.word, w.score) for w in evaluation.words]


def test_first_move_on_plain_squares_sums_letter_values() -> None:
    result = score(board_with(), tiles(7, 6, "across", "CAT"))
    assert summary(result) == [("CAT", 6)]
    assert result.score == 6


def test_double_letter_doubles_only_the_new_tile() -> None:
    # B on DL (6,4) above the old A of AT: B 4*2 + A 1.
    result = score(board_with((7, 4, "across", "AT")), tiles(6, 4, "down", "B"))
    assert summary(result) == [("BA", 9)]


def test_triple_letter_triples_only_the_new_tile() -> None:
    # Z on TL (5,5) above AT: Z 10*3 + A 1 + T 1.
    result = score(board_with((6, 5, "down", "AT")), tiles(5, 5, "down", "Z"))
    assert summary(result) == [("ZAT", 32)]


def test_double_word_doubles_the_whole_word() -> None:
    # C on DW (3,7) above AT: (4+1+1)*2.
    result = score(board_with((4, 7, "down", "AT")), tiles(3, 7, "down", "C"))
    assert summary(result) == [("CAT", 12)]
    assert result.words[0].multiplier == 2
    assert result.words[0].letters_score == 6


def test_triple_word_triples_the_whole_word() -> None:
    # C on TW (0,3) above AT: (4+1+1)*3.
    result = score(board_with((1, 3, "down", "AT")), tiles(0, 3, "down", "C"))
    assert summary(result) == [("CAT", 18)]


def test_two_double_words_multiply_to_four_with_cross_word() -> None:
    # HOUSE on row 1 covers DW (1,5) and DW (1,9): (3+1+2+1+1)*4 = 32.
    # U at (1,7) also forms UP with the old P at (2,7): 2 + 4 = 6.
    result = score(board_with((2, 7, "across", "P")), tiles(1, 5, "across", "HOUSE"))
    assert summary(result) == [("HOUSE", 32), ("UP", 6)]
    assert result.score == 38


def test_two_triple_words_multiply_to_nine_and_old_premiums_do_not_count() -> None:
    # STATEMENT on row 0 from (0,3) to (0,11): TW * TW = 9. The old TEM sits on
    # (0,6) TL and (0,8) TL, which no longer count. Letters 1+1+1+1+1+4+1+2+1 = 13.
    board = board_with((0, 6, "across", "TEM"))
    result = score(board, tiles(0, 3, "across", "STA___ENT"))
    assert summary(result) == [("STATEMENT", 117)]
    assert result.words[0].multiplier == 9


def test_double_and_triple_word_multiply_to_six() -> None:
    # STRANGER on row 3 from (3,0) TW to (3,7) DW; the old AN covers TL (3,3).
    # Letters 1+1+1+1+2+3+1+1 = 11, times 6.
    board = board_with((3, 3, "across", "AN"))
    result = score(board, tiles(3, 0, "across", "STR__GER"))
    assert summary(result) == [("STRANGER", 66)]


def test_word_premium_under_old_tile_does_not_count() -> None:
    # The old C is on DW (3,7); the new AT below it is on plain squares.
    result = score(board_with((3, 7, "down", "C")), tiles(4, 7, "down", "AT"))
    assert summary(result) == [("CAT", 6)]


def test_blank_on_double_word_still_doubles_the_word() -> None:
    # Blank c on DW (3,7): (0+1+1)*2.
    result = score(board_with((4, 7, "down", "AT")), tiles(3, 7, "down", "c"))
    assert summary(result) == [("CAT", 4)]


def test_blank_on_letter_premium_scores_zero() -> None:
    result = score(board_with((7, 4, "across", "AT")), tiles(6, 4, "down", "b"))
    assert summary(result) == [("BA", 1)]


def test_old_blank_on_board_scores_zero() -> None:
    # The old blank c of cAT counts 0 in the new word CATS: 0 + 1 + 1 + 1.
    result = score(board_with((7, 5, "across", "cAT")), tiles(7, 8, "across", "S"))
    assert summary(result) == [("CATS", 3)]


def test_letter_premium_counts_in_main_and_cross_word() -> None:
    # ON on row 8 under CATS: O sits on DL (8,4) and counts double in ON and in CO.
    # ON = 1*2 + 2 = 4; CO = 4 + 1*2 = 6; AN = 1 + 2 = 3.
    board = board_with((7, 4, "across", "CATS"))
    result = score(board, tiles(8, 4, "across", "ON"))
    assert summary(result) == [("ON", 4), ("CO", 6), ("AN", 3)]
    assert result.score == 13


def test_several_cross_words_listed_in_board_order() -> None:
    # A parallel play under CAT: main word ATE, cross words CA, AT, TE, left to right.
    board = board_with((7, 6, "across", "CAT"))
    result = score(board, tiles(8, 6, "across", "ATE"))
    assert [w.word for w in result.words] == ["ATE", "CA", "AT", "TE"]
    assert [w.direction for w in result.words] == ["across", "down", "down", "down"]
    assert result.score == 3 + 5 + 2 + 2


def test_bingo_adds_35_to_the_words() -> None:
    # RETAINS on row 7, cols 4..10: no premiums there. 1+1+1+1+1+2+1 = 8, + 35.
    result = score(board_with(), tiles(7, 4, "across", "RETAINS"), rack="AEINRST")
    assert result.bingo
    assert summary(result) == [("RETAINS", 8)]
    assert result.score == 43


def test_six_tiles_is_no_bingo() -> None:
    result = score(board_with(), tiles(7, 4, "across", "RETAIN"), rack="AEINRST")
    assert not result.bingo
    assert result.score == 7


def test_single_tile_main_word_is_across_when_it_makes_one() -> None:
    # CAT on row 7 and AT down from (8,9): S at (8,8) makes SA across and TS down.
    board = board_with((7, 6, "across", "CAT"), (8, 9, "down", "AT"))
    result = score(board, tiles(8, 8, "across", "S"))
    assert [(w.word, w.direction) for w in result.words] == [("SA", "across"), ("TS", "down")]


def test_single_tile_main_word_is_down_without_an_across_word() -> None:
    board = board_with((7, 6, "across", "CAT"))
    result = score(board, tiles(8, 8, "down", "O"))
    assert [(w.word, w.direction) for w in result.words] == [("TO", "down")]
    assert result.direction == "down"


def test_scrabble_layout_centre_double_word_and_bingo_fifty() -> None:
    # The classic configuration: centre DW; C3 A1 T1 in en-scrabble.
    result = evaluate(
        board_with(),
        tiles(7, 6, "across", "CAT"),
        tileset=tileset("en-scrabble"),
        layout=layout("scrabble"),
        lexicon=AnyWord(),
    )
    assert summary(result) == [("CAT", 10)]
    assert tileset("en-scrabble").bingo_bonus == 50
