"""Pairing properties over many random tournaments (pure: no database).

Round robins of every size; Swiss tournaments with random sizes, lengths and results,
each round checked against an independent brute-force search: nobody twice in a
round, no repeat while a pairing without one exists, byes to the players with the
fewest, and first/second kept in balance.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Sequence

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tournaments.pairing import (
    COLOUR_LIMIT,
    DOUBLE_ROUND_ROBIN,
    ROUND_ROBIN,
    SWISS,
    Options,
    Pair,
    clinched_first,
    colour_clash,
    gibson_opponent,
    histories,
    king_of_the_hill,
    next_round,
    out_of_the_prizes,
    repeats,
    round_robin,
    round_robin_length,
    swiss,
)


def everyone_once(round_: Sequence[Pair], players: Sequence[int]) -> bool:
    seated = [p for pair in round_ for p in pair.players()]
    return sorted(seated) == sorted(players)


def perfect_matchings(players: Sequence[int]) -> Iterator[list[tuple[int, int]]]:
    """Every way to pair ``players`` off (brute force, for small counts)."""
    if not players:
        yield []
        return
    first, rest = players[0], players[1:]
    for i, other in enumerate(rest):
        for tail in perfect_matchings([*rest[:i], *rest[i + 1 :]]):
            yield [(first, other), *tail]


@pytest.mark.parametrize("double", [False, True])
@pytest.mark.parametrize("count", range(2, 25))
def test_round_robin_meets_everyone_once_and_balances_first_and_second(count: int, double: bool) -> None:
    players = list(range(1, count + 1))
    schedule = round_robin(players, double=double)
    assert len(schedule) == round_robin_length(count, double=double)
    meetings: Counter[tuple[int, int]] = Counter()
    for number, round_ in enumerate(schedule, start=1):
        assert everyone_once(round_, players)
        assert sum(p.is_bye for p in round_) == count % 2
        meetings.update((p.first, p.second) for p in round_ if p.second is not None)
        worst = max(abs(h.balance) for h in histories(players, schedule[:number]).values())
        assert worst <= 1, (count, double, number)
    for a in players:
        for b in players:
            if a < b:
                if double:
                    assert meetings[(a, b)] == meetings[(b, a)] == 1
                else:
                    assert meetings[(a, b)] + meetings[(b, a)] == 1
    byes = Counter(p.first for r in schedule for p in r if p.is_bye)
    assert set(byes.values()) <= {2 if double else 1}
    assert len(byes) == (count if count % 2 else 0)


def test_round_robin_gives_a_withdrawn_players_opponent_the_bye() -> None:
    seeds = [1, 2, 3, 4]
    scheduled = round_robin(seeds)[0]
    opponent_of_4 = next(p for pair in scheduled if 4 in pair.players() for p in pair.players() if p != 4)
    round_ = next_round(ROUND_ROBIN, seeds=seeds, ranked=seeds, points={}, past=[], active=lambda p: p != 4)
    assert Pair(opponent_of_4) in round_
    assert everyone_once(round_, [1, 2, 3])


def test_round_robin_refuses_a_round_beyond_its_schedule() -> None:
    past = round_robin([1, 2, 3, 4])
    with pytest.raises(ValueError, match="3 rounds"):
        next_round(ROUND_ROBIN, seeds=[1, 2, 3, 4], ranked=[], points={}, past=past)
    assert len(next_round(DOUBLE_ROUND_ROBIN, seeds=[1, 2, 3, 4], ranked=[], points={}, past=past)) == 2


def test_swiss_second_round_pairs_winners_with_winners() -> None:
    players = list(range(1, 9))
    first = swiss(players, {}, [])
    assert [p.players() for p in first] == [(1, 5), (6, 2), (3, 7), (8, 4)]
    points = dict.fromkeys(players, 0)
    for pair in first:
        points[pair.first] = 2  # the player going first won every game
    ranked = sorted(players, key=lambda p: (-points[p], p))
    second = swiss(ranked, points, [first])
    for pair in second:
        assert pair.second is not None
        assert points[pair.first] == points[pair.second]
    # The top half of each score group meets its bottom half.
    assert {frozenset(p.players()) for p in second} >= {frozenset((1, 6))}


def test_swiss_bye_goes_to_the_lowest_ranked_player_without_one() -> None:
    players = [1, 2, 3, 4, 5]
    round_1 = swiss(players, {}, [])
    assert Pair(5) in round_1
    round_2 = swiss([5, 1, 2, 3, 4], {5: 2, 1: 2, 2: 0, 3: 0, 4: 0}, [round_1])
    assert Pair(4) in round_2


def brute_force_exists(
    players: Sequence[int], bye: int | None, past: Sequence[Sequence[Pair]], *, colours: bool
) -> bool:
    """Is there a pairing of ``players`` without ``bye``, with no repeat (and, with
    ``colours``, no clash)?"""
    hist = histories(players, past)
    rest = [p for p in players if p != bye]
    for matching in perfect_matchings(rest):
        if any(hist[a].opponents[b] for a, b in matching):
            continue
        if colours and any(colour_clash(hist[a], hist[b]) for a, b in matching):
            continue
        return True
    return False


@st.composite
def tournaments(draw: st.DrawFn) -> tuple[int, int, int]:
    return (draw(st.integers(2, 10)), draw(st.integers(1, 11)), draw(st.integers(0, 2**32)))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tournaments())
def test_swiss_properties_over_random_tournaments(case: tuple[int, int, int]) -> None:
    count, rounds, seed = case
    rng = random.Random(seed)
    players = list(range(1, count + 1))
    points = dict.fromkeys(players, 0)
    past: list[list[Pair]] = []
    for _ in range(rounds):
        ranked = sorted(players, key=lambda p: (-points[p], p))
        hist = histories(players, past)
        round_ = swiss(ranked, points, past)
        # Each player exactly once.
        assert everyone_once(round_, players)
        byes = [p.first for p in round_ if p.is_bye]
        assert len(byes) == count % 2
        bye = byes[0] if byes else None
        eligible: list[int | None] = []
        if bye is not None:
            # Fair byes: nobody gets another bye while someone has fewer.
            fewest = min(hist[p].byes for p in players)
            assert hist[bye].byes == fewest
            eligible = [p for p in reversed(ranked) if hist[p].byes == fewest]
            # The lowest-ranked such player, unless that would force a repeat.
            for lower in eligible[: eligible.index(bye)]:
                assert not brute_force_exists(players, lower, past, colours=False)
        tables = [p for p in round_ if not p.is_bye]
        repeats = sum(1 for p in tables if hist[p.first].opponents[p.second or 0])
        if repeats and count <= 10:
            # No repeat while one can be avoided (with any fair bye).
            for candidate in eligible or [None]:
                assert not brute_force_exists(players, candidate, past, colours=False)
        if not repeats and any(colour_clash(hist[p.first], hist[p.second]) for p in tables if p.second):
            assert not brute_force_exists(players, bye, past, colours=True)
        # The one going first was not the more "first" of the two.
        for p in tables:
            assert p.second is not None
            assert hist[p.first].balance <= hist[p.second].balance
        past.append(round_)
        for p in round_:
            if p.second is None:
                points[p.first] += 2
                continue
            outcome = rng.random()
            if outcome < 0.1:
                points[p.first] += 1
                points[p.second] += 1
            else:
                points[p.first if outcome < 0.55 else p.second] += 2
    if rounds <= count // 2:
        # Each player has met so few that the players not met yet always contain a
        # pairing (Dirac's theorem): nobody met anyone twice.
        assert all(c == 1 for h in histories(players, past).values() for c in h.opponents.values())


@settings(max_examples=60, deadline=None)
@given(st.integers(4, 40), st.integers(0, 2**32))
def test_swiss_keeps_first_and_second_within_the_limit_while_rounds_are_few(count: int, seed: int) -> None:
    """With at most half as many rounds as players, a pairing without repeats and
    without clashes always exists here, so nobody is ever more than two out of balance."""
    rng = random.Random(seed)
    players = list(range(1, count + 1))
    points = dict.fromkeys(players, 0)
    past: list[list[Pair]] = []
    for _ in range(count // 2):
        ranked = sorted(players, key=lambda p: (-points[p], rng.random()))
        round_ = swiss(ranked, points, past)
        past.append(round_)
        for p in round_:
            points[rng.choice(p.players())] += 2
        assert max(abs(h.balance) for h in histories(players, past).values()) <= COLOUR_LIMIT


def test_swiss_pairs_large_fields_quickly() -> None:
    import time

    players = list(range(1, 201))
    points = dict.fromkeys(players, 0)
    past: list[list[Pair]] = []
    rng = random.Random(3)
    started = time.perf_counter()
    for _ in range(9):
        round_ = swiss(sorted(players, key=lambda p: -points[p]), points, past)
        past.append(round_)
        for p in round_:
            points[rng.choice(p.players())] += 2
    assert time.perf_counter() - started < 5
    assert next_round(SWISS, seeds=players, ranked=players, points=points, past=past)


# ----- King of the Hill, Gibsonisation, repeats -----------------------------------------


def test_king_of_the_hill_pairs_first_with_second_even_as_a_repeat() -> None:
    ranked = [3, 1, 4, 2, 5]
    past = [[Pair(3, 1), Pair(4, 2), Pair(5)]]
    round_ = king_of_the_hill(ranked, past)
    assert [frozenset(p.players()) for p in round_] == [frozenset({3, 1}), frozenset({4, 2}), frozenset({5})]
    assert round_[-1].is_bye
    assert len(repeats(round_, past)) == 2


def test_king_of_the_hill_is_used_only_in_the_last_round() -> None:
    ranked = [1, 2, 3, 4]
    points = {1: 2, 2: 2, 3: 0, 4: 0}
    past = [[Pair(1, 3), Pair(2, 4)], [Pair(1, 4), Pair(2, 3)]]
    options = Options(rounds=3, king_of_the_hill=True)
    last = next_round(SWISS, seeds=ranked, ranked=ranked, points=points, past=past, options=options)
    assert {frozenset(p.players()) for p in last} == {frozenset({1, 2}), frozenset({3, 4})}
    early = next_round(SWISS, seeds=ranked, ranked=ranked, points=points, past=past[:1], options=options)
    # Round two of three: a plain Swiss, which keeps 1 and 3 apart (they met).
    assert frozenset({1, 3}) not in {frozenset(p.players()) for p in early}


def test_gibsonisation_pairs_the_clinched_leader_with_the_best_player_out_of_the_prizes() -> None:
    # Half points; two rounds left (4 half points): 1 leads 2 by 6 and has clinched.
    ranked = [1, 2, 3, 4, 5, 6]
    points = {1: 12, 2: 6, 3: 6, 4: 4, 5: 0, 6: 0}
    # With two prizes, 4 can still reach 8 (> 6): in contention; 5 and 6 cannot.
    assert clinched_first(ranked, points, rounds_left=2) == 1
    assert not out_of_the_prizes(4, ranked, points, rounds_left=2, prizes=2)
    assert out_of_the_prizes(5, ranked, points, rounds_left=2, prizes=2)
    assert gibson_opponent(ranked, points, [], rounds_left=2, prizes=2) == (1, 5)
    # Preferring an opponent the leader has not met.
    assert gibson_opponent(ranked, points, [[Pair(1, 5)]], rounds_left=2, prizes=2) == (1, 6)
    options = Options(rounds=8, gibsonize=True, prizes=2)
    past = [[Pair(a, b) for a, b in ((1, 6), (2, 5), (3, 4))]] * 6
    round_ = next_round(SWISS, seeds=ranked, ranked=ranked, points=points, past=past, options=options)
    assert frozenset(round_[0].players()) == frozenset({1, 5})
    assert everyone_once(round_, ranked)


def test_gibsonisation_waits_while_the_lead_can_still_be_caught() -> None:
    ranked = [1, 2, 3, 4]
    points = {1: 8, 2: 4, 3: 0, 4: 0}
    # Two rounds left: a lead of 4 half points equals what is left to play for.
    assert clinched_first(ranked, points, rounds_left=2) is None
    assert gibson_opponent(ranked, points, [], rounds_left=2, prizes=1) is None
    # Nobody out of the prizes (three prizes among four players): no Gibsonisation.
    assert gibson_opponent(ranked, {1: 20, 2: 0, 3: 0, 4: 0}, [], rounds_left=1, prizes=3) is None


def test_swiss_names_the_repeats_it_could_not_avoid() -> None:
    players = [1, 2, 3, 4]
    past = [[Pair(1, 2), Pair(3, 4)], [Pair(1, 3), Pair(2, 4)], [Pair(1, 4), Pair(2, 3)]]
    round_ = swiss(players, {}, past)
    assert len(repeats(round_, past)) == 2
    assert repeats(swiss(players, {}, past[:1]), past[:1]) == []
