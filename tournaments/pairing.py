"""Pairings, pure: round robin, double round robin and Swiss over plain data.

Players are plain ids (the tournament's player numbers), rounds are lists of
:class:`Pair`; nothing here knows Django, a database or a clock, so the properties
(everyone exactly once per round, no repeat while one can be avoided, fair byes,
first and second balanced) are checked with hypothesis over many random tournaments
(``tests/tournaments/test_pairing.py``).

Going first or second. A round robin is oriented once for its whole schedule (see
:func:`round_robin`). In Swiss every pair is oriented by :func:`orient`: the player who
went first less often (firsts minus seconds) goes first; on a tie, the one who went
second in their latest game; then the better-ranked one at odd tables and the other one
at even tables (so the first round is half and half). Two players whose balance is
the same and already two or more one way would leave one of them three out of balance,
so Swiss pairing avoids such a pair whenever another pairing without a repeat exists.

What clubs add to a Swiss, each chosen per tournament (:class:`Options`): King of the
Hill in the last round (first against second, third against fourth, repeats allowed)
and Gibsonisation (a player who has clinched first place meets the highest-ranked
player who can no longer finish in the prizes). :func:`repeats` names the tables where
a Swiss could not avoid a rematch, so the organiser is told.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

ROUND_ROBIN = "roundrobin"
DOUBLE_ROUND_ROBIN = "double-roundrobin"
SWISS = "swiss"
SYSTEMS = (ROUND_ROBIN, DOUBLE_ROUND_ROBIN, SWISS)

#: A balance (firsts minus seconds) from which two equal players should not meet.
COLOUR_LIMIT = 2


@dataclass(frozen=True, slots=True)
class Pair:
    """One table: ``first`` moves first against ``second``; ``second`` None is a bye."""

    first: int
    second: int | None = None

    @property
    def is_bye(self) -> bool:
        return self.second is None

    def players(self) -> tuple[int, ...]:
        return (self.first,) if self.second is None else (self.first, self.second)


Round = Sequence[Pair]


@dataclass
class History:
    """What earlier rounds say about one player."""

    opponents: Counter[int]
    firsts: int = 0
    seconds: int = 0
    byes: int = 0
    # 1 if the latest game was played first, -1 second, 0 no game yet.
    last: int = 0

    @property
    def balance(self) -> int:
        return self.firsts - self.seconds


def histories(players: Iterable[int], past: Iterable[Round]) -> dict[int, History]:
    """Every player's opponents, firsts, seconds and byes in ``past`` (in round order)."""
    result = {p: History(Counter()) for p in players}
    for round_ in past:
        for pair in round_:
            first = result.setdefault(pair.first, History(Counter()))
            if pair.second is None:
                first.byes += 1
                continue
            second = result.setdefault(pair.second, History(Counter()))
            first.opponents[pair.second] += 1
            second.opponents[pair.first] += 1
            first.firsts += 1
            first.last = 1
            second.seconds += 1
            second.last = -1
    return result


def orient(
    a: int, b: int, hist: Mapping[int, History], rank: Mapping[int, int], *, better_first: bool = True
) -> Pair:
    """``a`` against ``b`` with the one due to go first in front (module docstring); when
    nothing tells them apart, the better-ranked one goes first if ``better_first``
    (callers alternate it from table to table)."""
    ha, hb = hist.get(a), hist.get(b)
    sign = 1 if better_first else -1
    key_a = (ha.balance if ha else 0, ha.last if ha else 0, sign * rank.get(a, 0))
    key_b = (hb.balance if hb else 0, hb.last if hb else 0, sign * rank.get(b, 0))
    return Pair(a, b) if key_a <= key_b else Pair(b, a)


# ----- round robin ---------------------------------------------------------------------


def round_robin_length(count: int, *, double: bool = False) -> int:
    """How many rounds a (double) round robin of ``count`` players has."""
    if count < 2:
        return 0
    single = count - 1 if count % 2 == 0 else count
    return 2 * single if double else single


def round_robin(players: Sequence[int], *, double: bool = False) -> list[list[Pair]]:
    """The whole schedule for ``players`` (in seed order) by the circle method: every pair
    meets once (twice in a double round robin, first once each); with an odd count each
    player has one bye per cycle.

    One slot stays put while the others turn one step a round (with an odd count that
    slot is the bye, so every real player turns). The fixed slot's table goes first in
    even rounds and second in odd ones; on every other table the player in the upper
    half goes first at odd tables: after every round no player is more than one out of
    balance between first and second (checked for every size in the tests). A double
    round robin plays the first cycle again backwards with every order reversed, so
    the balance after round ``m + k`` equals the balance after round ``m - k``.
    """
    slots: list[int | None] = list(players)
    if len(slots) < 2:
        return []
    if len(slots) % 2:
        slots.insert(0, None)
    size = len(slots)
    schedule: list[list[Pair]] = []
    for number in range(size - 1):
        tables: list[Pair] = []
        byes: list[Pair] = []
        for i in range(size // 2):
            top, bottom = slots[i], slots[size - 1 - i]
            if top is None or bottom is None:
                byes.append(Pair(top if bottom is None else bottom))  # type: ignore[arg-type]
                continue
            top_first = number % 2 == 0 if i == 0 else i % 2 == 1
            tables.append(Pair(top, bottom) if top_first else Pair(bottom, top))
        schedule.append(tables + byes)
        slots = [slots[0], slots[-1], *slots[1:-1]]
    if double:
        schedule += [
            [Pair(p.second, p.first) if p.second is not None else p for p in round_]
            for round_ in reversed(schedule)
        ]
    return schedule


# ----- Swiss ---------------------------------------------------------------------------


def swiss(ranked: Sequence[int], points: Mapping[int, int], past: Iterable[Round]) -> list[Pair]:
    """The next Swiss round for ``ranked`` (the players to pair, best first) with their
    ``points`` (any unit: players with equal points form a score group).

    - With an odd count, the bye goes to the lowest-ranked player among those with the
      fewest byes so far (everyone has one before anyone has two), unless every pairing
      of the others would repeat an earlier game: then to the next such player up.
    - No two players meet again while a pairing without repeats exists; if none does,
      as few repeats as possible.
    - Within those rules, players meet inside their score group, the top half of the
      group against the bottom half, and pairs that would put a player three out of
      balance between first and second are avoided.
    """
    order = list(dict.fromkeys(ranked))
    rank = {p: i for i, p in enumerate(order)}
    hist = histories(order, past)
    candidates: list[int | None] = [None]
    if len(order) % 2:
        fewest = min(hist[p].byes for p in order)
        candidates = [p for p in reversed(order) if hist[p].byes == fewest]
    for bye in candidates:
        rest = [p for p in order if p != bye]
        for colours in (True, False):
            found = _match(rest, points, hist, max_repeats=0, colours=colours)
            if found is not None:
                return _finish(found, bye, hist, rank)
    bye = candidates[0]
    rest = [p for p in order if p != bye]
    for allowed in range(1, len(rest) // 2 + 1):
        found = _match(rest, points, hist, max_repeats=allowed, colours=False)
        if found is not None:
            return _finish(found, bye, hist, rank)
    raise AssertionError("a complete pairing always exists when repeats are allowed")


def _finish(
    found: list[tuple[int, int]], bye: int | None, hist: Mapping[int, History], rank: Mapping[int, int]
) -> list[Pair]:
    tables = [orient(a, b, hist, rank, better_first=i % 2 == 0) for i, (a, b) in enumerate(found)]
    return [*tables, Pair(bye)] if bye is not None else tables


def colour_clash(a: History | None, b: History | None) -> bool:
    """Would meeting leave one of them more than ``COLOUR_LIMIT`` out of balance?"""
    balance_a = a.balance if a else 0
    balance_b = b.balance if b else 0
    return balance_a == balance_b and abs(balance_a) >= COLOUR_LIMIT


def _match(
    players: Sequence[int],
    points: Mapping[int, int],
    hist: Mapping[int, History],
    *,
    max_repeats: int,
    colours: bool,
) -> list[tuple[int, int]] | None:
    """A perfect matching of ``players`` (in rank order) with at most ``max_repeats``
    repeated games (and no colour clash when ``colours``), trying each player's
    preferred opponents first; None when there is none. Depth-first with a memory of
    the sets of players (and repeat budgets) known to have no matching, so a failing
    search never explores the same remainder twice."""
    index = {p: i for i, p in enumerate(players)}
    dead: set[tuple[int, int]] = set()

    def met(a: int, b: int) -> bool:
        return hist[a].opponents[b] > 0 if a in hist else False

    def go(remaining: tuple[int, ...], budget: int) -> list[tuple[int, int]] | None:
        if not remaining:
            return []
        key = (sum(1 << index[p] for p in remaining), budget)
        if key in dead:
            return None
        top, others = remaining[0], remaining[1:]
        for other in preferences(top, others, points, hist):
            repeat = met(top, other)
            if repeat and budget == 0:
                continue
            if colours and colour_clash(hist.get(top), hist.get(other)):
                continue
            rest = tuple(p for p in others if p != other)
            found = go(rest, budget - repeat)
            if found is not None:
                return [(top, other), *found]
        dead.add(key)
        return None

    return go(tuple(players), max_repeats)


def preferences(
    top: int, others: Sequence[int], points: Mapping[int, int], hist: Mapping[int, History]
) -> list[int]:
    """``top``'s opponents in the order to try: its own score group first, starting from
    the middle of the group (the top half meets the bottom half) and going down, then
    up; then the other groups, nearest in points first, each in rank order. Within each
    step, an opponent whose first/second balance differs comes before an equal one."""
    group = [p for p in others if points.get(p, 0) == points.get(top, 0)]
    # ``top`` heads its group of len(group) + 1; the fold pairs it with the player at
    # position (len(group) + 1) // 2 of the whole group.
    middle = max((len(group) + 1) // 2 - 1, 0)
    in_group = group[middle:] + list(reversed(group[:middle]))
    outside = sorted(
        (p for p in others if points.get(p, 0) != points.get(top, 0)),
        key=lambda p: abs(points.get(p, 0) - points.get(top, 0)),
    )
    top_balance = hist[top].balance if top in hist else 0

    def same_balance(p: int) -> bool:
        return top_balance != 0 and (hist[p].balance if p in hist else 0) == top_balance

    ordered: list[int] = []
    for tier in (in_group, outside):
        ordered += sorted(tier, key=same_balance)  # stable: keeps the fold order otherwise
    return ordered


# ----- the rules clubs add to Swiss -----------------------------------------------------


def king_of_the_hill(ranked: Sequence[int], past: Iterable[Round]) -> list[Pair]:
    """King of the Hill (a last round): in standings order, first plays second, third
    plays fourth and so on, repeats allowed; with an odd count the lowest-ranked player
    has the bye."""
    order = list(dict.fromkeys(ranked))
    rank = {p: i for i, p in enumerate(order)}
    hist = histories(order, past)
    bye = order.pop() if len(order) % 2 else None
    found = [(order[i], order[i + 1]) for i in range(0, len(order), 2)]
    return _finish(found, bye, hist, rank)


def clinched_first(ranked: Sequence[int], points: Mapping[int, int], *, rounds_left: int) -> int | None:
    """The leader when no one can catch them any more: ahead of second place by more
    than the points still to play for (``points`` in half points, as the standings keep
    them, so a round is worth 2). Level on points could still be decided by spread, so
    the lead must be strictly greater."""
    if len(ranked) < 2:
        return None
    leader, runner_up = ranked[0], ranked[1]
    if points.get(leader, 0) - points.get(runner_up, 0) > 2 * rounds_left:
        return leader
    return None


def out_of_the_prizes(
    player: int, ranked: Sequence[int], points: Mapping[int, int], *, rounds_left: int, prizes: int
) -> bool:
    """Can ``player`` no longer finish in the first ``prizes`` places? True when at
    least ``prizes`` others already have more points than ``player`` could reach by
    winning every remaining round (they could lose all theirs, so their points now are
    all they are sure of)."""
    best = points.get(player, 0) + 2 * rounds_left
    return sum(1 for p in ranked if p != player and points.get(p, 0) > best) >= prizes


def gibson_opponent(
    ranked: Sequence[int],
    points: Mapping[int, int],
    past: Iterable[Round],
    *,
    rounds_left: int,
    prizes: int,
) -> tuple[int, int] | None:
    """Gibsonisation: when a player has clinched first place (:func:`clinched_first`),
    (that player, their opponent): the highest-ranked player who cannot finish in the
    prizes, preferring one they have not met; None when nobody has clinched or every
    other player can still reach the prizes (then the round is paired as usual)."""
    leader = clinched_first(ranked, points, rounds_left=rounds_left)
    if leader is None:
        return None
    out = [
        p
        for p in ranked
        if p != leader and out_of_the_prizes(p, ranked, points, rounds_left=rounds_left, prizes=prizes)
    ]
    if not out:
        return None
    met = histories(ranked, past)[leader].opponents
    fresh = [p for p in out if met[p] == 0]
    return leader, (fresh or out)[0]


def repeats(round_: Round, past: Iterable[Round]) -> list[Pair]:
    """The tables of ``round_`` whose players have met before (how a Swiss says it
    could not avoid a repeat)."""
    met: set[frozenset[int]] = {frozenset(p.players()) for r in past for p in r if p.second is not None}
    return [p for p in round_ if p.second is not None and frozenset(p.players()) in met]


@dataclass(frozen=True, slots=True)
class Options:
    """The rules a tournament adds to its system (Swiss only): King of the Hill in the
    last round, and Gibsonisation with the number of prize places it protects."""

    rounds: int = 0
    king_of_the_hill: bool = False
    gibsonize: bool = False
    prizes: int = 1


# ----- a round robin after a late entry ---------------------------------------------------


def regenerate_round_robin(players: Sequence[int], past: Sequence[Round], rounds: int) -> list[list[Pair]]:
    """The ``rounds`` rounds still to play of a round robin that ``players`` (in seed
    order, a late entrant among them) now make, after the ``past`` rounds: each round
    pairs players who have not met yet wherever a pairing allows (a Swiss with every
    player on equal points: no repeat while one can be avoided, byes to those with the
    fewest, first and second kept in balance), so the late entrant meets as many
    players as the rounds left allow."""
    schedule: list[list[Pair]] = []
    for _ in range(rounds):
        schedule.append(swiss(players, {}, [*past, *schedule]))
    return schedule


# ----- one entry point -----------------------------------------------------------------


def next_round(
    system: str,
    *,
    seeds: Sequence[int],
    ranked: Sequence[int],
    points: Mapping[int, int],
    past: Sequence[Round],
    active: Callable[[int], bool] = lambda _p: True,
    options: Options | None = None,
    schedule: Mapping[int, Round] | None = None,
) -> list[Pair]:
    """Round ``len(past) + 1`` of a tournament in ``system``.

    ``seeds`` are every numbered player in seed order (a round robin's schedule is made
    from them once and for all); ``ranked`` the current standings order, ``points``
    the standings points, both for Swiss. Players for whom ``active`` is False are left
    out: in a round robin their scheduled opponent gets a bye instead. ``options`` add
    Gibsonisation (its table comes first) and King of the Hill in the last round to a
    Swiss. ``schedule`` holds a round robin's rounds regenerated after a late entry
    (:func:`regenerate_round_robin`), by number; they replace the circle method's.
    """
    number = len(past) + 1
    if system == SWISS:
        options = options or Options()
        playing = [p for p in ranked if active(p)]
        rounds_left = max(options.rounds - number + 1, 1)
        fixed: list[Pair] = []
        if options.gibsonize:
            gibson = gibson_opponent(playing, points, past, rounds_left=rounds_left, prizes=options.prizes)
            if gibson is not None:
                hist = histories(playing, past)
                fixed = [orient(*gibson, hist, {p: i for i, p in enumerate(playing)})]
                playing = [p for p in playing if p not in gibson]
        if options.king_of_the_hill and number == options.rounds:
            rest = king_of_the_hill(playing, past)
        else:
            rest = swiss(playing, points, past) if playing else []
        return fixed + rest
    if system not in (ROUND_ROBIN, DOUBLE_ROUND_ROBIN):
        raise ValueError(f"unknown pairing system {system!r}")
    if schedule and number in schedule:
        planned = schedule[number]
    else:
        circle = round_robin(seeds, double=system == DOUBLE_ROUND_ROBIN)
        if number > len(circle):
            raise ValueError(f"a round robin of {len(seeds)} players has {len(circle)} rounds")
        planned = circle[number - 1]
    tables: list[Pair] = []
    byes: list[Pair] = []
    for pair in planned:
        present = [p for p in pair.players() if active(p)]
        if len(present) == 2:
            tables.append(pair)
        elif len(present) == 1:
            byes.append(Pair(present[0]))
    return tables + byes
