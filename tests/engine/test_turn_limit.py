"""A turn limit (``Rules.turn_limit``): the game ends once every seat has played its
turns, racks as they are; the rules of games without one read and write as before."""

from __future__ import annotations

import random

import pytest

from engine.moves import exchange, pass_turn, play
from engine.state import GameState, Rules, new_game
from tests.engine.helpers import AnyWord, tiles

pytestmark = pytest.mark.pure


def test_a_solo_game_of_five_turns_ends_after_the_fifth() -> None:
    # Scoreless turns would end it sooner under the default rules.
    state = new_game("en", random.Random(6), players=1, rules=Rules(turn_limit=5, scoreless_turns_to_end=9))
    rack = state.racks[0]
    state = play(state, 0, tiles(7, 7, "across", rack[:2].replace("?", "e")), AnyWord()).state
    state = pass_turn(state, 0).state
    state = exchange(state, 0, list(state.racks[0][:2]), random.Random(1)).state
    state = pass_turn(state, 0).state
    assert not state.over
    score = state.scores[0]
    state = pass_turn(state, 0).state
    assert state.over
    assert state.end is not None
    assert (state.end.reason, state.end.adjustments, state.end.final_scores, state.end.winner) == (
        "turns",
        (0,),
        (score,),
        0,
    )
    assert GameState.from_dict(state.to_dict()) == state


def test_two_players_each_play_their_turns() -> None:
    state = new_game("en", random.Random(2), rules=Rules(turn_limit=1))
    state = pass_turn(state, 0).state
    assert not state.over
    assert pass_turn(state, 1).state.end is not None


def test_no_limit_is_not_stored() -> None:
    assert "turn_limit" not in Rules().to_dict()
    assert Rules.from_dict(Rules(turn_limit=5).to_dict()).turn_limit == 5
    with pytest.raises(ValueError, match="turn_limit"):
        Rules(turn_limit=-1)
