"""Provisional plays and challenges (``Rules.challenge``), on hand-worked positions.

The position: CAT across the centre of the classic board (C3 A1 T1, nothing under
the squares used below). CATS scores 6 and is a word; CATE scores 6 and is not.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from engine import errors
from engine.actions import Accept, Challenge, Pass, Play, Timeout, TimePenalty, apply
from engine.errors import IllegalMove
from engine.moves import accept, challenge, exchange, pass_turn, play, resign, timeout
from engine.state import ChallengeRule, GameState, new_game, preset
from tests.engine.helpers import board_with, tiles

pytestmark = pytest.mark.pure

WORDS = frozenset({"CAT", "CATS", "AT", "TA"})
CAT = board_with((7, 6, "across", "CAT"))


def position(rule: ChallengeRule, **changes: object) -> GameState:
    base = GameState(
        language="en",
        layout="scrabble",
        board=CAT,
        racks=("ASEEDRT", "QZJXKVW"),
        bag="EEEEIIIOOO",
        scores=(20, 10),
        rules=preset("classic", "en", challenge=rule),
    )
    return replace(base, **changes)  # type: ignore[arg-type]


def code(action: object, *args: object) -> str:
    with pytest.raises(IllegalMove) as caught:
        action(*args)  # type: ignore[operator]
    return caught.value.code


def cats(state: GameState) -> GameState:
    return play(state, 0, tiles(7, 9, "across", "S"), WORDS).state


def cate(state: GameState) -> GameState:
    return play(state, 0, tiles(7, 9, "across", "E"), WORDS).state


def test_void_rule_refuses_a_phony_and_has_no_challenge() -> None:
    state = position("void")
    assert code(play, state, 0, tiles(7, 9, "across", "E"), WORDS) == errors.WORD_NOT_IN_LEXICON
    after = cats(state)
    assert after.pending is None
    assert code(challenge, after, 1, WORDS) == errors.CHALLENGE_NOT_ALLOWED


@pytest.mark.parametrize("rule", ["single", "double", "five"])
def test_a_phony_stands_provisionally_and_is_taken_back_when_challenged(rule: ChallengeRule) -> None:
    state = position(rule)
    provisional = cate(state)
    # Accepted as played: on the board, scored, drawn (the O from the end of the bag).
    assert provisional.board[7][9] == "E"
    assert provisional.scores == (26, 10)
    assert provisional.racks[0] == "ASEDRTO"
    assert provisional.turn == 1
    assert provisional.pending is not None
    assert provisional.pending.words == ("CATE",)
    played = challenge(provisional, 1, WORDS)
    after = played.state
    # Taken back: the board, the rack, the bag and the score are as before the play.
    assert (after.board, after.racks, after.bag, after.scores) == (
        state.board,
        state.racks,
        state.bag,
        state.scores,
    )
    assert after.turn == 1  # the phony cost its player the turn; the challenger moves
    assert after.scoreless_turns == 1
    assert after.pending is None
    record = played.record
    assert (record.kind, record.seat, record.target, record.invalid, record.score) == (
        "challenge",
        1,
        0,
        ("CATE",),
        -6,
    )
    assert [w.word for w in record.words] == ["CATE"]


def test_single_challenge_of_a_valid_play_costs_nothing() -> None:
    played = challenge(cats(position("single")), 1, WORDS)
    after = played.state
    assert (after.scores, after.turn, after.pending, after.board[7][9]) == ((26, 10), 1, None, "S")
    assert (played.record.invalid, played.record.score) == ((), 0)


def test_double_challenge_of_a_valid_play_loses_the_challengers_turn() -> None:
    played = challenge(cats(position("double")), 1, WORDS)
    after = played.state
    assert (after.scores, after.turn, after.pending) == ((26, 10), 0, None)
    assert after.scoreless_turns == 1
    assert code(play, after, 1, tiles(8, 8, "down", "Q"), WORDS) == errors.NOT_YOUR_TURN


def test_five_point_challenge_of_a_valid_play_pays_its_player() -> None:
    played = challenge(cats(position("five")), 1, WORDS)
    after = played.state
    assert (after.scores, after.turn, after.pending) == ((31, 10), 1, None)
    assert played.record.score == 5


def test_moving_accepts_the_pending_play_and_the_window_closes() -> None:
    provisional = cate(position("double"))
    after = pass_turn(provisional, 1).state
    assert after.pending is None
    assert after.scores == (26, 10)  # the phony stood: no one challenged it
    assert code(challenge, after, 0, WORDS) == errors.NOTHING_TO_CHALLENGE
    assert code(challenge, position("double"), 0, WORDS) == errors.NOTHING_TO_CHALLENGE


def test_only_the_player_to_move_may_challenge() -> None:
    provisional = cats(position("single"))
    assert code(challenge, provisional, 0, WORDS) == errors.NOT_YOUR_TURN


def test_the_last_play_can_be_challenged_and_the_end_waits_for_the_window() -> None:
    state = position("double", racks=("S", "QZ"), bag="")
    waiting = cats(state)
    assert not waiting.over
    assert waiting.pending is not None
    assert waiting.pending.final
    # Nothing but a challenge, an accept or a resignation while the window is open.
    assert code(play, waiting, 1, tiles(8, 8, "down", "Q"), WORDS) == errors.CHALLENGE_WINDOW_OPEN
    assert code(pass_turn, waiting, 1) == errors.CHALLENGE_WINDOW_OPEN
    assert code(exchange, waiting, 1, ["Q"], random.Random(1)) == errors.CHALLENGE_WINDOW_OPEN
    accepted = accept(waiting, 1)
    end = accepted.state.end
    assert accepted.record.kind == "accept"
    assert end is not None
    assert (end.reason, end.seat, end.adjustments, end.final_scores) == ("out", 0, (40, 0), (66, 10))
    # A valid last play challenged in vain ends the game the same way (double: the
    # challenger's lost turn changes nothing more).
    challenged = challenge(waiting, 1, WORDS).state
    assert challenged.end is not None
    assert challenged.end.final_scores == (66, 10)


def test_a_phony_last_play_challenged_off_goes_on_with_the_challenger() -> None:
    state = position("single", racks=("E", "QZ"), bag="")
    after = challenge(cate(state), 1, WORDS).state
    assert not after.over
    assert (after.racks, after.scores, after.turn) == (("E", "QZ"), (20, 10), 1)


def test_five_point_bonus_on_the_last_play_counts_before_the_end() -> None:
    state = position("five", racks=("S", "QZ"), bag="")
    end = challenge(cats(state), 1, WORDS).state.end
    assert end is not None
    assert end.final_scores == (20 + 6 + 5 + 40, 10)


def test_time_running_out_in_the_last_window_accepts_the_play() -> None:
    waiting = cats(position("double", racks=("S", "QZ"), bag=""))
    played = timeout(waiting, 1)
    end = played.state.end
    assert played.record.kind == "accept"
    assert end is not None
    assert (end.reason, end.winner) == ("out", 0)


def test_resigning_with_a_play_pending_lets_it_stand() -> None:
    played = resign(cate(position("single")), 1)
    assert played.state.end is not None
    assert played.state.end.final_scores == (26, 10)
    assert played.state.pending is None


def test_a_withdrawn_phony_counts_towards_six_scoreless_turns() -> None:
    state = position("single", scoreless_turns=5, scores=(0, 0))
    end = challenge(cate(state), 1, WORDS).state.end
    assert end is not None
    assert end.reason == "scoreless"


def test_actions_as_values_reach_challenges_and_penalties() -> None:
    rng = random.Random(1)
    state = position("five")
    after = apply(state, 0, Play.of(tiles(7, 9, "across", "S")), lexicon=WORDS, rng=rng).state
    after = apply(after, 1, Challenge(), lexicon=WORDS, rng=rng).state
    assert after.scores == (31, 10)
    after = apply(after, 1, TimePenalty(10), lexicon=WORDS, rng=rng).state
    assert after.scores == (31, 0)
    after = apply(after, 1, Pass(), lexicon=WORDS, rng=rng).state
    assert after.turn == 0
    last = apply(
        position("double", racks=("S", "QZ"), bag=""),
        0,
        Play.of(tiles(7, 9, "across", "S")),
        lexicon=WORDS,
        rng=rng,
    ).state
    assert apply(last, 1, Accept(), lexicon=WORDS, rng=rng).state.over
    assert apply(last, 1, Timeout(), lexicon=WORDS, rng=rng).record.kind == "accept"


def test_a_pending_play_survives_the_json_form() -> None:
    state = new_game("en", random.Random(8), rules=preset("classic", "en", challenge="double"))
    rack = state.racks[0].replace("?", "")
    first = tiles(7, 7, "across", rack[:2])
    provisional = play(state, 0, first, frozenset()).state
    assert provisional.pending is not None
    again = GameState.from_dict(provisional.to_dict())
    assert again == provisional
    withdrawn = challenge(again, 1, frozenset()).state
    assert withdrawn.board == state.board
    assert (withdrawn.racks, withdrawn.bag) == (state.racks, state.bag)


def test_the_computer_challenges_exactly_the_phonies() -> None:
    from engine.analysis import should_challenge

    assert should_challenge(cate(position("double")), 1, WORDS)
    assert not should_challenge(cats(position("double")), 1, WORDS)
    # Not its turn, nothing pending, or the void rule: no challenge.
    assert not should_challenge(cate(position("double")), 0, WORDS)
    assert not should_challenge(position("double"), 0, WORDS)
    assert not should_challenge(cats(position("void")), 1, WORDS)


def test_the_computer_plays_a_whole_classic_game_with_challenges() -> None:
    from engine.analysis import computer_move, should_challenge
    from engine.lexicon import WordListLexicon
    from tests.engine.test_movegen import WORDS as SMALL

    lexicon = WordListLexicon(SMALL, preset("classic", "en").tileset_for("en").alphabet)
    rng = random.Random(3)
    state = new_game("en", rng, rules=preset("classic", "en", challenge="five"))
    turns = 0
    while not state.over and turns < 200:
        seat = state.turn
        if should_challenge(state, seat, lexicon):
            state = challenge(state, seat, lexicon).state
        elif state.pending is not None and state.pending.final:
            state = accept(state, seat).state
        else:
            state = computer_move(state, seat, lexicon, "hard", rng).apply(state, seat, lexicon, rng).state
        state.check()
        turns += 1
    assert state.over
    assert state.layout == "scrabble"
