"""Rules as data: the classic preset, its tile sets and board, bingo, going out, the
scoreless ending, solo games and time penalties (hand-worked positions)."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

import pytest

from engine import errors
from engine.board import board_tiles
from engine.errors import IllegalMove
from engine.moves import exchange, overtime_penalty, pass_turn, penalize, play, resign
from engine.state import CLASSIC_TILES, GameState, Rules, new_game, preset
from engine.tiles import LANGUAGES, tileset
from tests.engine.helpers import AnyWord, board_with, tiles

pytestmark = pytest.mark.pure

CLASSIC = preset("classic", "en", challenge="void")
CAT = board_with((7, 6, "across", "CAT"))


def classic_state(**changes: object) -> GameState:
    """Classic rules, CAT across the centre of the classic board (C3 A1 T1)."""
    base = GameState(
        language="en",
        layout="scrabble",
        board=CAT,
        racks=("ASEEDRT", "QZJXKVW"),
        bag="EEEEIIIOOO",
        scores=(20, 10),
        rules=CLASSIC,
    )
    return replace(base, **changes)  # type: ignore[arg-type]


def test_default_rules_are_todays_game() -> None:
    rules = Rules()
    assert preset("wwf", "fr") == rules
    assert (rules.going_out, rules.challenge, rules.scoreless_turns_to_end, rules.scoreless_at_zero) == (
        "transfer",
        "void",
        3,
        False,
    )
    state = new_game("fr", random.Random(1))
    assert state.layout == "wwf"
    assert state.tileset is tileset("fr")


def test_classic_preset_names_the_classic_board_tiles_and_rules() -> None:
    rules = preset("classic", "en")
    assert rules.board == "scrabble"
    assert rules.tiles == "en-scrabble"
    assert (rules.bingo_bonus, rules.going_out, rules.scoreless_turns_to_end) == (50, "double", 6)
    assert rules.scoreless_at_zero
    assert rules.exchange_min_bag == 7
    assert rules.challenge == "double"
    assert preset("classic", "en", challenge="five").challenge == "five"
    state = new_game("en", random.Random(3), rules=rules)
    assert state.language == "en"  # the lexicon and the word normalisation stay English
    assert state.layout == "scrabble"
    assert state.tileset.total_tiles == 100
    assert Counter(state.bag) + Counter("".join(state.racks)) == Counter(tileset("en-scrabble").full_bag())


@pytest.mark.parametrize(
    ("language", "total", "blanks"), [("it", 120, 2), ("pt-BR", 120, 3), ("de", 102, 2), ("fr", 102, 2)]
)
def test_every_language_with_a_classic_set_gets_it(language: str, total: int, blanks: int) -> None:
    state = new_game(language, random.Random(4), rules=preset("classic", language))
    tiles = state.tileset
    assert (tiles.total_tiles, tiles.blanks, tiles.bingo_bonus, state.layout) == (
        total,
        blanks,
        50,
        "scrabble",
    )
    # The same letters as the language's own set, so its lexicon and normalisation fit.
    assert tiles.alphabet == tileset(language).alphabet
    assert tiles.blank_letters == tileset(language).blank_letters


def test_spanish_has_no_classic_preset_and_unknown_presets_are_refused() -> None:
    assert set(CLASSIC_TILES) == set(LANGUAGES) - {"es"}
    with pytest.raises(ValueError, match="no classic tile set"):
        preset("classic", "es")
    with pytest.raises(ValueError, match="unknown rules preset"):
        preset("tournament", "en")
    with pytest.raises(ValueError, match="challenge rule"):
        Rules(challenge="triple")  # type: ignore[arg-type]


def test_classic_bingo_is_fifty() -> None:
    # ASEEDRT across row 8 from D8 on the empty classic board: A on D8's double letter
    # 2, then 1+1+1+2+1+1: 9, the centre doubles the word, +50.
    state = new_game("en", random.Random(5), rules=CLASSIC)
    state = replace(state, racks=("ASEEDRT", state.racks[1]))
    played = play(state, 0, tiles(7, 3, "across", "ASEEDRT"), AnyWord())
    assert played.record.bingo
    assert played.record.score == 9 * 2 + 50


def test_the_rules_bingo_bonus_overrides_the_tile_sets() -> None:
    assert Rules(bingo_bonus=50).tileset_for("en").bingo_bonus == 50
    assert Rules().tileset_for("en").bingo_bonus == 35


def test_classic_going_out_gains_twice_the_other_rack_which_loses_nothing() -> None:
    # S after CAT: CATS = 3+1+1+1 = 6; the other rack QZ is worth 20.
    state = classic_state(racks=("S", "QZ"), bag="")
    played = play(state, 0, tiles(7, 9, "across", "S"), AnyWord())
    end = played.state.end
    assert end is not None
    assert (end.reason, end.seat, end.adjustments) == ("out", 0, (40, 0))
    assert end.final_scores == (20 + 6 + 40, 10)
    assert end.winner == 0


def test_classic_six_scoreless_turns_end_the_game_even_at_zero() -> None:
    state = classic_state(scores=(0, 0), scoreless_turns=5)
    end = pass_turn(state, 0).state.end
    assert end is not None
    assert end.reason == "scoreless"
    # Each player loses their own rack: ASEEDRT = 8, QZJXKVW = 10+10+8+8+5+4+4 = 49.
    assert end.adjustments == (-8, -49)
    assert not pass_turn(classic_state(scores=(0, 0), scoreless_turns=4), 0).state.over


def test_classic_exchange_needs_seven_tiles_in_the_bag() -> None:
    state = classic_state(bag="EEEEII")
    with pytest.raises(IllegalMove) as caught:
        exchange(state, 0, ["A"], random.Random(1))
    assert caught.value.code == errors.EXCHANGE_BAG_TOO_SMALL
    assert exchange(classic_state(bag="EEEEIII"), 0, ["A"], random.Random(1)).state.turn == 1


def test_a_solo_game_has_one_seat_that_always_moves() -> None:
    state = new_game("en", random.Random(6), players=1)
    assert state.players == 1
    rack = state.racks[0]
    first = tiles(7, 7, "across", rack[:2].replace("?", "e"))
    after = play(state, 0, first, AnyWord()).state
    assert after.turn == 0
    assert len(after.racks[0]) == 7
    assert pass_turn(after, 0).state.turn == 0
    assert GameState.from_dict(after.to_dict()) == after
    with pytest.raises(ValueError, match="solo"):
        new_game("en", random.Random(6), players=1, rules=preset("classic", "en", challenge="single"))
    with pytest.raises(ValueError, match="at least one"):
        new_game("en", random.Random(6), players=0)


def test_a_solo_game_ends_by_going_out_and_its_player_wins_unless_they_resign() -> None:
    state = GameState(language="en", layout="wwf", board=CAT, racks=("ST",), bag="", scores=(30,))
    played = play(state, 0, tiles(6, 9, "down", "ST"), AnyWord())
    end = played.state.end
    assert end is not None
    assert (end.reason, end.adjustments, end.winner) == ("out", (0,), 0)
    resigned = resign(state, 0).state.end
    assert resigned is not None
    assert resigned.winner is None


def test_overtime_costs_ten_points_per_started_minute() -> None:
    assert [overtime_penalty(ms) for ms in (-5, 0, 1, 59_999, 60_000, 60_001, 599_999, 600_000)] == [
        0,
        0,
        10,
        10,
        10,
        20,
        100,
        100,
    ]


def test_a_time_penalty_counts_in_the_final_scores_and_can_turn_the_result() -> None:
    state = classic_state(racks=("S", "QZ"), bag="", scores=(20, 60))
    over = play(state, 0, tiles(7, 9, "across", "S"), AnyWord()).state
    assert over.end is not None
    assert over.end.final_scores == (66, 60)
    assert over.end.winner == 0
    penalised = penalize(over, 0, 10)
    assert penalised.record.kind == "penalty"
    assert penalised.record.score == -10
    end = penalised.state.end
    assert end is not None
    assert end.final_scores == (56, 60)
    assert end.winner == 1
    assert end.adjustments == over.end.adjustments
    assert penalised.state.penalties == (10, 0)
    assert penalised.state.penalty_of(0) == 10
    assert penalised.state.to_dict()["penalties"] == [10, 0]


def test_a_time_penalty_must_be_positive_and_changes_nothing_when_refused() -> None:
    state = classic_state()
    with pytest.raises(IllegalMove) as caught:
        penalize(state, 1, 0)
    assert caught.value.code == errors.BAD_PENALTY
    during = penalize(state, 1, 20).state
    assert (during.scores, during.penalties, during.over) == ((20, -10), (0, 20), False)


def test_classic_board_tiles_are_conserved_through_a_whole_game() -> None:
    from tests.engine.helpers import random_game

    states, _ = random_game(11, rules=preset("classic", "en", challenge="void"))
    for state in states:
        state.check()
    final = states[-1]
    on_board = Counter(board_tiles(final.board))
    assert sum(on_board.values()) + len(final.bag) + sum(len(r) for r in final.racks) == 100


@pytest.mark.parametrize("language", ["it", "pt-BR", "de", "fr"])
def test_each_classic_set_is_the_base_table_its_language_was_derived_from(language: str) -> None:
    import json
    from importlib import resources

    raw = json.loads(resources.files("engine").joinpath("data", "tilesets.json").read_text(encoding="utf-8"))
    base = raw[language]["_base_scrabble"]
    classic = tileset(CLASSIC_TILES[language])
    assert {letter: (t["count"], t["value"]) for letter, t in base.items()} == {
        letter: (classic.counts[letter], classic.values[letter]) for letter in classic.alphabet
    }
