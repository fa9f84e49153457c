"""Standings and tie-breaks, pure: wins, then spread, then total score; byes and
forfeits as TSH records them; resignations the scores contradict."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.standings import (
    BYE,
    FORFEIT,
    PENDING,
    PLAYED,
    GameFacts,
    Outcome,
    Rules,
    Standing,
    game_outcome,
    player_results,
    standings,
    table_outcome,
)

RULES = Rules(bye_spread=50, forfeit_spread=50)


def line(table: list[Standing], player: int) -> Standing:
    return next(s for s in table if s.player == player)


def test_win_draw_loss_spread_and_total_score() -> None:
    outcomes = [
        Outcome(1, 1, 1, 2, PLAYED, 400, 350),
        Outcome(2, 1, 2, 1, PLAYED, 380, 380),
    ]
    table = standings([1, 2], outcomes, RULES)
    one, two = line(table, 1), line(table, 2)
    assert (one.half_points, one.wins, one.draws, one.losses) == (3, 1, 1, 0)
    assert one.points == 1.5
    assert (one.spread, one.total_score, one.played) == (50, 780, 2)
    assert (two.half_points, two.spread, two.total_score) == (1, -50, 730)
    assert [s.player for s in table] == [1, 2]


def test_bye_is_a_win_by_the_bye_spread_and_adds_no_score() -> None:
    table = standings([1], [Outcome(1, 1, 1, None, BYE)], Rules(bye_spread=75))
    assert (table[0].half_points, table[0].spread, table[0].total_score, table[0].byes) == (2, 75, 0, 1)


def test_forfeit_is_a_loss_by_fifty_for_the_absent_player_and_a_win_for_the_other() -> None:
    table = standings([1, 2], [Outcome(1, 1, 1, 2, FORFEIT, absent="second")], RULES)
    assert (line(table, 1).half_points, line(table, 1).spread) == (2, 50)
    assert (line(table, 2).half_points, line(table, 2).spread, line(table, 2).losses) == (0, -50, 1)
    both = standings([1, 2], [Outcome(1, 1, 1, 2, FORFEIT, absent="both")], RULES)
    assert [(s.half_points, s.spread) for s in both] == [(0, -50), (0, -50)]


def test_pending_games_count_nothing() -> None:
    table = standings([1, 2], [Outcome(1, 1, 1, 2, PENDING)], RULES)
    assert all((s.half_points, s.spread, s.played) == (0, 0, 0) for s in table)
    assert [r.result for r in player_results(Outcome(1, 1, 1, 2, PENDING), RULES)] == ["pending", "pending"]


def test_ranking_is_wins_then_spread_then_total_score_and_ties_share_a_rank() -> None:
    outcomes = [
        # 1 and 2 both win once with +100; 1 scored more in total.
        Outcome(1, 1, 1, 5, PLAYED, 500, 400),
        Outcome(1, 2, 2, 6, PLAYED, 300, 200),
        # 3 wins with a bigger spread but it is one win as well: spread ranks it first.
        Outcome(1, 3, 3, 7, PLAYED, 450, 250),
        # 4 and 8 draw; equal on everything with each other.
        Outcome(1, 4, 4, 8, PLAYED, 300, 300),
    ]
    table = standings(list(range(1, 9)), outcomes, RULES)
    assert [s.player for s in table][:4] == [3, 1, 2, 4]
    assert [s.rank for s in table][:5] == [1, 2, 3, 4, 4]
    assert line(table, 8).rank == 4


def test_resignation_counts_its_scores_when_the_winner_leads() -> None:
    outcome = game_outcome(
        round=1,
        table=1,
        first=1,
        second=2,
        finished=True,
        first_score=200,
        second_score=120,
        winner="first",
        ended_by="resign",
    )
    assert (outcome.kind, outcome.first_score, outcome.second_score) == (PLAYED, 200, 120)


def test_resignation_the_scores_contradict_is_the_resigners_forfeit() -> None:
    # The player going second led 150-90 and resigned: a played 90-150 "win" for the
    # first player would be a loss in any rating software, so it is a forfeit.
    outcome = game_outcome(
        round=1,
        table=1,
        first=1,
        second=2,
        finished=True,
        first_score=90,
        second_score=150,
        winner="first",
        ended_by="resign",
    )
    assert (outcome.kind, outcome.absent) == (FORFEIT, "second")
    table = standings([1, 2], [outcome], RULES)
    assert (line(table, 1).half_points, line(table, 1).spread) == (2, 50)


def test_override_wins_over_the_game_and_unfinished_games_are_pending() -> None:
    game = GameFacts(True, 300, 200, "first", "out")
    assert table_outcome(round=1, table=1, first=1, second=2, game=game).kind == PLAYED
    overridden = table_outcome(
        round=1, table=1, first=1, second=2, override="scores", first_score=10, second_score=20, game=game
    )
    assert (overridden.first_score, overridden.second_score) == (10, 20)
    forfeit = table_outcome(
        round=1, table=1, first=1, second=2, override="forfeit", absent="first", game=game
    )
    assert (forfeit.kind, forfeit.absent) == (FORFEIT, "first")
    unfinished = GameFacts(False, None, None, "")
    assert table_outcome(round=1, table=1, first=1, second=2, game=unfinished).kind == PENDING
    assert table_outcome(round=1, table=1, first=1, second=2).kind == PENDING
    assert table_outcome(round=1, table=2, first=3, second=None).kind == BYE


outcome_strategy = st.one_of(
    st.tuples(st.just(PLAYED), st.integers(0, 700), st.integers(0, 700)),
    st.tuples(st.just(FORFEIT), st.sampled_from(["first", "second", "both"])),
    st.tuples(st.just(BYE)),
)


@settings(max_examples=200, deadline=None)
@given(st.lists(outcome_strategy, max_size=30), st.integers(0, 2**16))
def test_standings_conserve_points_and_spread(kinds: list[tuple[Any, ...]], seed: int) -> None:
    import random

    rng = random.Random(seed)
    outcomes: list[Outcome] = []
    for number, kind in enumerate(kinds, start=1):
        a, b = rng.sample(range(1, 9), 2)
        if kind[0] == PLAYED:
            outcomes.append(Outcome(1, number, a, b, PLAYED, kind[1], kind[2]))
        elif kind[0] == FORFEIT:
            outcomes.append(Outcome(1, number, a, b, FORFEIT, absent=kind[1]))
        else:
            outcomes.append(Outcome(1, number, a, None, BYE))
    table = standings(list(range(1, 9)), outcomes, RULES)
    played = [o for o in outcomes if o.kind == PLAYED]
    byes = [o for o in outcomes if o.kind == BYE]
    forfeits = [o for o in outcomes if o.kind == FORFEIT]
    double = sum(1 for o in forfeits if o.absent == "both")
    # Every played game hands out exactly one win (two halves); a bye one win; a
    # forfeit one win unless both were absent.
    assert sum(s.half_points for s in table) == 2 * (len(played) + len(byes) + len(forfeits) - double)
    # Spread: played games cancel out; byes add, forfeits cancel unless both were absent.
    assert sum(s.spread for s in table) == 50 * len(byes) - 100 * double
    assert sum(s.total_score for s in table) == sum(
        (o.first_score or 0) + (o.second_score or 0) for o in played
    )
    keys = [s.sort_key() for s in table]
    assert keys == sorted(keys)
    assert [s.rank for s in table] == sorted(s.rank for s in table)
