"""Properties over random games (hypothesis): conservation, score bookkeeping, round trips.

Each example is a whole random game (``tests.engine.helpers.random_game``) in one of
the seven languages, ended by going out, scoreless turns, or, when cut short, a
resignation or timeout. Example counts are modest to keep the engine suite fast.
"""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.gcg import GameRecord, export_gcg, import_gcg
from engine.moves import MoveRecord
from engine.state import GameState
from engine.tiles import LANGUAGES
from tests.engine.helpers import random_game

games = st.tuples(
    st.integers(min_value=0, max_value=2**32 - 1),
    st.sampled_from(LANGUAGES),
    st.integers(min_value=1, max_value=90),
)
SETTINGS = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(games)
def test_tiles_are_conserved_in_every_state(game: tuple[int, str, int]) -> None:
    seed, language, max_turns = game
    states, _ = random_game(seed, language, max_turns=max_turns)
    for state in states:
        state.check()
        assert len(state.board) == 15
        assert all(len(rack) <= 7 for rack in state.racks)


@SETTINGS
@given(games)
def test_scores_are_the_sum_of_the_records_plus_end_adjustments(game: tuple[int, str, int]) -> None:
    seed, language, max_turns = game
    states, records = random_game(seed, language, max_turns=max_turns)
    totals = [0, 0]
    for state, record in zip(states[1:], records, strict=True):
        totals[record.seat] += record.score
        if record.end is not None:
            totals = [t + a for t, a in zip(totals, record.end.adjustments, strict=True)]
            assert record.end.final_scores == tuple(totals)
        assert state.scores == tuple(totals)
        assert record.score == sum(w.score for w in record.words) + (35 if record.bingo else 0)
    final = states[-1]
    assert final.over
    assert final.end is not None
    assert final.moves_played == len(records)
    if final.end.reason == "out":
        assert sum(final.end.adjustments) == 0
    if final.end.winner is not None and final.end.reason in ("out", "scoreless"):
        assert final.scores[final.end.winner] == max(final.scores)


@SETTINGS
@given(games)
def test_states_and_records_round_trip_through_json(game: tuple[int, str, int]) -> None:
    seed, language, max_turns = game
    states, records = random_game(seed, language, max_turns=max_turns)
    for state in states:
        assert GameState.from_dict(json.loads(json.dumps(state.to_dict()))) == state
    for record in records:
        assert MoveRecord.from_dict(json.loads(json.dumps(record.to_dict()))) == record


@SETTINGS
@given(games)
def test_games_round_trip_through_gcg(game: tuple[int, str, int]) -> None:
    seed, language, max_turns = game
    states, records = random_game(seed, language, max_turns=max_turns)
    record = GameRecord(language=language, players=("Ana", "Ben Ito"), moves=tuple(records))
    back = import_gcg(export_gcg(record))
    assert back == record
    assert back.board() == states[-1].board
    assert back.scores() == states[-1].scores
