"""Game state, the seeded bag, turns, exchanges, passes and every way a game ends."""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import replace

import pytest

from engine import errors
from engine.board import board_tiles, empty_board
from engine.errors import IllegalMove
from engine.moves import MoveRecord, Placement, exchange, pass_turn, play, resign, timeout
from engine.state import GameState, Rules, new_game
from engine.tiles import tileset
from tests.engine.helpers import AnyWord, board_with, tiles

CAT = board_with((7, 6, "across", "CAT"))


def hand_state(**changes: object) -> GameState:
    """A mid-game state built by hand (tile conservation not needed by these rules)."""
    base = GameState(
        language="en",
        layout="wwf",
        board=CAT,
        racks=("ASEEDRT", "QZJXKVW"),
        bag="EEEEIIIOOO",
        scores=(20, 10),
    )
    return replace(base, **changes)  # type: ignore[arg-type]


def refused(action: object, *args: object) -> str:
    with pytest.raises(IllegalMove) as caught:
        action(*args)  # type: ignore[operator]
    return caught.value.code


def test_same_seed_gives_the_same_game() -> None:
    assert new_game("en", random.Random(7)) == new_game("en", random.Random(7))
    assert new_game("en", random.Random(7)).bag != new_game("en", random.Random(8)).bag


def test_new_game_deals_full_racks_and_keeps_104_tiles() -> None:
    for language in ("en", "en-GB", "es", "it", "pt-BR", "de", "fr"):
        state = new_game(language, random.Random(1))
        assert [len(r) for r in state.racks] == [7, 7]
        assert len(state.bag) == 104 - 14
        assert state.board == empty_board(15)
        assert state.scores == (0, 0)
        assert state.turn == 0
        state.check()


def test_racks_are_dealt_from_the_end_of_the_bag() -> None:
    rng = random.Random(3)
    bag = list(tileset("en").full_bag())
    random.Random(3).shuffle(bag)
    state = new_game("en", rng)
    assert state.racks[0] == "".join(reversed(bag[-7:]))
    assert state.bag == "".join(bag[:-14])


def test_state_json_round_trip_is_exact() -> None:
    state = new_game("pt-BR", random.Random(5), rules=Rules(scoreless_turns_to_end=4))
    played = play(state, 0, _first_play(state), AnyWord())
    text = json.dumps(played.state.to_dict())
    again = GameState.from_dict(json.loads(text))
    assert again == played.state
    assert json.loads(text)["schema"] == 2


def test_state_from_dict_rejects_other_schema_and_lost_tiles() -> None:
    data = new_game("en", random.Random(1)).to_dict()
    with pytest.raises(ValueError, match="schema"):
        GameState.from_dict({**data, "schema": 99})
    with pytest.raises(ValueError, match="conserved"):
        GameState.from_dict({**data, "bag": data["bag"][1:]})


def _first_play(state: GameState) -> list[Placement]:
    rack = state.racks[state.turn]
    return [tiles(7, 7 + i, "across", tile if tile != "?" else "e")[0] for i, tile in enumerate(rack[:2])]


def test_play_moves_tiles_scores_draws_and_passes_the_turn() -> None:
    state = new_game("en", random.Random(11))
    placements = _first_play(state)
    played = play(state, 0, placements, AnyWord())
    after = played.state
    assert after.turn == 1
    assert after.scores[0] == played.record.score > 0
    assert len(after.racks[0]) == 7
    assert after.bag == state.bag[:-2]
    assert played.record.drawn == 2
    assert played.record.rack_before == state.racks[0]
    assert played.record.rack_after == after.racks[0]
    assert after.moves_played == 1
    after.check()


def test_refused_play_changes_nothing() -> None:
    state = new_game("en", random.Random(11))
    snapshot = state.to_dict()
    with pytest.raises(IllegalMove):
        play(state, 0, tiles(0, 0, "across", "ZZ"), AnyWord())
    assert state.to_dict() == snapshot


def test_playing_out_of_turn_is_refused() -> None:
    state = new_game("en", random.Random(11))
    assert refused(play, state, 1, _first_play(state), AnyWord()) == errors.NOT_YOUR_TURN
    assert refused(pass_turn, state, 1) == errors.NOT_YOUR_TURN
    assert refused(exchange, state, 1, ["A"], random.Random(1)) == errors.NOT_YOUR_TURN
    assert refused(timeout, state, 1) == errors.NOT_YOUR_TURN


def test_actions_after_the_end_are_game_over() -> None:
    over = resign(new_game("en", random.Random(1)), 0).state
    assert refused(pass_turn, over, 1) == errors.GAME_OVER
    assert refused(play, over, 1, [], AnyWord()) == errors.GAME_OVER
    assert refused(exchange, over, 1, ["A"], random.Random(1)) == errors.GAME_OVER
    assert refused(resign, over, 1) == errors.GAME_OVER
    assert refused(timeout, over, 1) == errors.GAME_OVER


def test_exchange_draws_first_then_returns_and_shuffles() -> None:
    state = hand_state(bag="ABCDEFGHIJ")
    played = exchange(state, 0, ["A", "S"], random.Random(2))
    after = played.state
    # The two replacements came off the end of the bag before the old tiles went in.
    assert Counter(after.racks[0]) == Counter("EEDRT" + "JI")
    assert Counter(after.bag) == Counter("ABCDEFGH" + "AS")
    assert played.record.exchanged == ("A", "S")
    assert played.record.drawn == 2
    assert played.record.score == 0
    assert after.scoreless_turns == 1
    assert after.turn == 1


def test_exchange_same_rng_same_bag() -> None:
    state = hand_state(bag="ABCDEFGHIJ")
    first = exchange(state, 0, ["A", "S"], random.Random(2)).state
    second = exchange(state, 0, ["A", "S"], random.Random(2)).state
    assert first == second


def test_exchange_needs_as_many_tiles_in_the_bag() -> None:
    state = hand_state(bag="AB")
    assert refused(exchange, state, 0, ["A", "S", "E"], random.Random(1)) == errors.EXCHANGE_BAG_TOO_SMALL
    assert exchange(state, 0, ["A", "S"], random.Random(1)).state.bag != ""


def test_exchange_minimum_bag_is_a_rule_parameter() -> None:
    state = hand_state(bag="ABCDEF", rules=Rules(exchange_min_bag=7))
    assert refused(exchange, state, 0, ["A"], random.Random(1)) == errors.EXCHANGE_BAG_TOO_SMALL


def test_exchange_count_must_be_one_to_seven() -> None:
    state = hand_state()
    assert refused(exchange, state, 0, [], random.Random(1)) == errors.EXCHANGE_COUNT_INVALID
    assert refused(exchange, state, 0, list("ASEEDRTA"), random.Random(1)) == errors.EXCHANGE_COUNT_INVALID


def test_exchange_tiles_must_be_on_the_rack() -> None:
    assert refused(exchange, hand_state(), 0, ["Z"], random.Random(1)) == errors.TILE_NOT_IN_RACK
    assert refused(exchange, hand_state(), 0, ["E", "E", "E"], random.Random(1)) == errors.TILE_NOT_IN_RACK


def test_pass_hands_over_the_turn_and_counts_as_scoreless() -> None:
    played = pass_turn(hand_state(), 0)
    assert played.state.turn == 1
    assert played.state.scoreless_turns == 1
    assert played.record.kind == "pass"
    assert not played.state.over


def test_scoring_play_resets_the_scoreless_count() -> None:
    state = hand_state(scoreless_turns=2)
    played = play(state, 0, tiles(7, 9, "across", "S"), AnyWord())
    assert played.state.scoreless_turns == 0


def test_three_scoreless_turns_end_the_game_with_own_rack_penalties() -> None:
    state = hand_state(scoreless_turns=2, scores=(20, 10))
    played = pass_turn(state, 0)
    end = played.state.end
    assert played.state.over
    assert end is not None
    assert end.reason == "scoreless"
    # ASEEDRT = 1+1+1+1+2+1+1 = 8; QZJXKVW = 10+10+10+8+5+5+4 = 52.
    assert end.adjustments == (-8, -52)
    assert end.final_scores == played.state.scores == (12, -42)
    assert end.winner == 0
    assert end.seat is None
    assert played.record.end == end


def test_scoreless_turns_do_not_end_a_game_at_zero_zero() -> None:
    state = hand_state(scoreless_turns=5, scores=(0, 0))
    played = pass_turn(state, 0)
    assert not played.state.over
    assert played.state.scoreless_turns == 6


def test_scoreless_rack_penalty_can_be_switched_off() -> None:
    state = hand_state(scoreless_turns=2, rules=Rules(scoreless_rack_penalty=False))
    end = pass_turn(state, 0).state.end
    assert end is not None
    assert end.adjustments == (0, 0)
    assert end.final_scores == (20, 10)


def test_scoreless_turn_count_is_a_rule_parameter() -> None:
    state = hand_state(scoreless_turns=2, rules=Rules(scoreless_turns_to_end=6))
    assert not pass_turn(state, 0).state.over


def test_exchange_can_be_the_third_scoreless_turn() -> None:
    state = hand_state(scoreless_turns=2)
    assert exchange(state, 0, ["A"], random.Random(1)).state.end is not None


def test_going_out_transfers_the_opponents_rack() -> None:
    # Seat 0 plays its last two tiles with the bag empty: opponent's QZ (20) moves over.
    state = hand_state(racks=("ST", "QZ"), bag="", scores=(30, 40))
    played = play(state, 0, tiles(6, 9, "down", "ST"), AnyWord())
    end = played.state.end
    assert end is not None
    assert end.reason == "out"
    assert end.seat == 0
    word_score = played.record.score
    assert end.adjustments == (20, -20)
    assert end.final_scores == (30 + word_score + 20, 20)
    assert played.state.scores == end.final_scores
    assert played.state.racks == ("", "QZ")


def test_emptying_the_rack_with_tiles_left_in_the_bag_draws_and_goes_on() -> None:
    state = hand_state(racks=("ST", "QZ"), bag="AB")
    played = play(state, 0, tiles(6, 9, "down", "ST"), AnyWord())
    assert not played.state.over
    assert played.state.racks[0] == "BA"


def test_equal_final_scores_are_a_draw() -> None:
    state = hand_state(scoreless_turns=2, scores=(20, 64), racks=("ASEEDRT", "QZJXKVW"))
    end = pass_turn(state, 0).state.end
    assert end is not None
    assert end.final_scores == (12, 12)
    assert end.winner is None


def test_resign_on_the_opponents_turn_loses_whatever_the_score() -> None:
    state = hand_state(turn=0, scores=(10, 300))
    played = resign(state, 1)
    end = played.state.end
    assert end is not None
    assert end.reason == "resign"
    assert end.seat == 1
    assert end.winner == 0
    assert end.adjustments == (0, 0)
    assert played.state.scores == (10, 300)
    assert played.record.kind == "resign"
    assert played.record.score == 0


def test_timeout_is_a_loss_for_the_player_to_move() -> None:
    played = timeout(hand_state(turn=1, scores=(5, 100)), 1)
    end = played.state.end
    assert end is not None
    assert end.reason == "timeout"
    assert end.winner == 0


def test_move_record_json_round_trip() -> None:
    state = hand_state(racks=("?T", "QZ"), bag="", scores=(30, 40))
    record = play(state, 0, tiles(6, 9, "down", "sT"), AnyWord()).record
    assert record.end is not None
    assert record.placements[0].blank
    assert MoveRecord.from_dict(json.loads(json.dumps(record.to_dict()))) == record


def test_blanks_on_the_board_count_as_blank_tiles() -> None:
    board = board_with((7, 6, "across", "cAt"))
    assert Counter(board_tiles(board)) == Counter({"?": 2, "A": 1})


def test_seat_that_does_not_exist_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="seat"):
        pass_turn(hand_state(), 5)
