"""Hindsight, word strength and the computer player (engine/analysis.py)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import replace

import pytest

from engine import analysis, movegen
from engine.board import empty_board, layout, place
from engine.errors import IllegalMove
from engine.lexicon import WordListLexicon
from engine.moves import Placement
from engine.state import GameState, new_game
from engine.tiles import tileset
from tests.engine.helpers import movegen_implementations, use_implementation
from tests.engine.test_movegen import WORDS

EN = tileset("en")
BLANK_KEPT = "?"
WWF = layout("wwf")
LEX = WordListLexicon(WORDS, EN.alphabet)
BOARD = place(empty_board(15), [(7, 6, "T"), (7, 7, "O"), (7, 8, "E"), (6, 8, "D"), (8, 8, "N")])


@pytest.fixture(autouse=True, params=movegen_implementations())
def implementation(request: pytest.FixtureRequest) -> Iterator[str]:
    """Every test here runs with both move generators (compiled and pure)."""
    yield from use_implementation(request.param)


def state_with(board: tuple[str, ...], rack: str, bag: str = "") -> GameState:
    """A two-player game at seat 0's turn with the given board, rack and bag (tile
    conservation does not matter to the analysis)."""
    start = new_game("en", random.Random(1))
    return replace(start, board=board, racks=(rack, "AEIOUST"), bag=bag, scores=(10, 12), moves_played=2)


def test_best_moves_are_the_head_of_every_play() -> None:
    every = movegen.generate(BOARD, "SATER?", tileset=EN, layout=WWF, lexicon=LEX)
    best = analysis.best_moves(BOARD, "SATER?", tileset=EN, layout=WWF, lexicon=LEX, k=4)
    assert [m.placements for m in best] == [m.placements for m in every[:4]]


def test_strength_of_the_best_play_is_rank_one() -> None:
    top = movegen.best(BOARD, "SATER", tileset=EN, layout=WWF, lexicon=LEX)[0]
    strength = analysis.move_strength(BOARD, "SATER", top.placements, tileset=EN, layout=WWF, lexicon=LEX)
    assert (strength.rank, strength.score, strength.best_score, strength.ratio) == (
        1,
        top.score,
        top.score,
        1.0,
    )
    assert strength.count == movegen.count(BOARD, "SATER", tileset=EN, layout=WWF, lexicon=LEX).count


def test_strength_of_a_weaker_play_counts_the_better_ones() -> None:
    every = movegen.generate(BOARD, "SATER", tileset=EN, layout=WWF, lexicon=LEX)
    weak = every[-1]
    strength = analysis.move_strength(BOARD, "SATER", weak.placements, tileset=EN, layout=WWF, lexicon=LEX)
    assert strength.rank == 1 + sum(1 for m in every if m.score > weak.score)
    assert strength.rank > 1
    assert strength.best_score == every[0].score
    assert strength.ratio == weak.score / every[0].score


def test_strength_of_an_illegal_play_raises() -> None:
    with pytest.raises(IllegalMove) as caught:
        analysis.move_strength(BOARD, "SATER", [Placement(0, 0, "S")], tileset=EN, layout=WWF, lexicon=LEX)
    assert caught.value.code == "not_connected"


def test_hard_plays_the_best_score() -> None:
    state = state_with(BOARD, "SATERDO", bag="EEEE")
    choice = analysis.computer_move(state, 0, LEX, "hard", random.Random(1))
    assert choice.kind == "play"
    assert choice.score == movegen.best(BOARD, "SATERDO", tileset=EN, layout=WWF, lexicon=LEX)[0].score
    played = choice.apply(state, 0, LEX, random.Random(1))
    assert played.record.score == choice.score


def test_hard_breaks_score_ties_by_the_rack_leave() -> None:
    # On the empty board, plays of the same score but different leaves: keeping a blank
    # beats keeping a second copy of a letter.
    state = state_with(empty_board(15), "TOT?", bag="EEEE")
    top = movegen.best(state.board, "TOT?", tileset=EN, layout=WWF, lexicon=LEX, k=50)
    choice = analysis.computer_move(state, 0, LEX, "hard", random.Random(1))
    best_score = top[0].score
    tied = [m for m in top if m.score == best_score]
    assert choice.score == best_score
    leaves = {m.placements: analysis.leave_value(analysis._leave("TOT?", m), EN) for m in tied}
    assert len(set(leaves.values())) > 1  # the tie-break had a real choice to make
    assert leaves[choice.placements] == max(leaves.values())
    assert (
        analysis._leave("TOT?", movegen.best(state.board, "TOT?", tileset=EN, layout=WWF, lexicon=LEX)[0])
        == ""
    )
    assert BLANK_KEPT in analysis._leave("TOT?", next(m for m in tied if m.placements == choice.placements))


def test_leave_value_prefers_blanks_and_balance() -> None:
    assert analysis.leave_value("?", EN) > analysis.leave_value("E", EN)
    assert analysis.leave_value("ER", EN) > analysis.leave_value("EE", EN)
    assert analysis.leave_value("RT", EN) > analysis.leave_value("QZ", EN)


def test_medium_plays_among_the_better_ones() -> None:
    state = state_with(BOARD, "SATERDO", bag="EEEE")
    best = movegen.best(BOARD, "SATERDO", tileset=EN, layout=WWF, lexicon=LEX)[0].score
    rng = random.Random(4)
    chosen = {analysis.computer_move(state, 0, LEX, "medium", rng).score for _ in range(25)}
    assert all(3 * s >= 2 * best for s in chosen)
    assert len(chosen) > 1  # not always the same play


def test_easy_plays_a_third_to_two_thirds_of_the_best() -> None:
    state = state_with(BOARD, "SATERDO", bag="EEEE")
    best = movegen.best(BOARD, "SATERDO", tileset=EN, layout=WWF, lexicon=LEX)[0].score
    rng = random.Random(5)
    chosen = {analysis.computer_move(state, 0, LEX, "easy", rng).score for _ in range(25)}
    assert all(best <= 3 * s <= 2 * best for s in chosen)
    assert len(chosen) > 1


def test_no_play_exchanges_when_the_bag_allows() -> None:
    # Consonants only against a word list with no vowel-free word.
    state = state_with(BOARD, "DRST?", bag="AEIOU")
    assert movegen.generate(BOARD, "DRST", tileset=EN, layout=WWF, lexicon=LEX) == []
    stuck = replace(state, racks=("DRST", "AEIOUST"))
    choice = analysis.computer_move(stuck, 0, LEX, "hard", random.Random(2))
    assert choice.kind == "exchange"
    assert sorted(choice.tiles) == sorted("DRST")
    played = choice.apply(stuck, 0, LEX, random.Random(2))
    assert played.record.kind == "exchange"


def test_no_play_exchange_keeps_blanks_and_fits_the_bag() -> None:
    board = place(empty_board(15), [(7, 7, "Q")])  # nothing in the word list has a Q
    state = state_with(board, "QQ??", bag="AB")
    choice = analysis.computer_move(state, 0, LEX, "medium", random.Random(2))
    assert choice == analysis.ComputerChoice(kind="exchange", tiles=("Q", "Q"))


def test_no_play_and_empty_bag_passes() -> None:
    state = state_with(BOARD, "DRST", bag="")
    for level in analysis.LEVELS:
        choice = analysis.computer_move(state, 0, LEX, level, random.Random(3))
        assert choice == analysis.ComputerChoice(kind="pass")
    assert choice.apply(state, 0, LEX, random.Random(3)).record.kind == "pass"


def test_computer_players_finish_a_game_with_engine_approved_moves() -> None:
    rng = random.Random(8)
    state = new_game("en", rng)
    levels: tuple[analysis.Level, analysis.Level] = ("hard", "easy")
    turns = 0
    while not state.over and turns < 200:
        seat = state.turn
        choice = analysis.computer_move(state, seat, LEX, levels[seat], rng)
        state = choice.apply(state, seat, LEX, rng).state
        state.check()
        turns += 1
    assert state.over
    assert sum(state.scores) > 0


def test_same_seed_same_choices() -> None:
    state = state_with(BOARD, "SATERDO", bag="EEEE")
    first = [analysis.computer_move(state, 0, LEX, "easy", random.Random(6)) for _ in range(3)]
    again = [analysis.computer_move(state, 0, LEX, "easy", random.Random(6)) for _ in range(3)]
    assert first == again


def test_wrong_turn_unknown_level_and_finished_game_are_refused() -> None:
    state = state_with(BOARD, "SATERDO")
    with pytest.raises(IllegalMove) as caught:
        analysis.computer_move(state, 1, LEX, "hard", random.Random(1))
    assert caught.value.code == "not_your_turn"
    with pytest.raises(ValueError, match="unknown level"):
        analysis.computer_move(state, 0, LEX, "expert", random.Random(1))  # type: ignore[arg-type]
    with pytest.raises(IllegalMove) as caught:
        analysis.computer_move(replace(state, over=True), 0, LEX, "hard", random.Random(1))
    assert caught.value.code == "game_over"
