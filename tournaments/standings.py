"""Standings, pure: what each table's outcome gives each player, and the ranking.

A win counts 1 and a draw 1/2 (kept in half points, so no float is ever compared);
players are ranked by wins, then spread, then total score, and players equal on all
three share a rank (1, 2, 2, 4), listed by player number. As TSH records them, a bye
is a win with a spread of ``+bye_spread`` (50 by default) and a forfeit is a loss with
``-forfeit_spread`` for the absent player and a win with ``+forfeit_spread`` for the
other; neither adds to a player's total score, which counts points scored in games.
A round a late entrant missed is, as the organiser chose, a bye or a loss by
``-forfeit_spread`` against nobody (a table with no second player and a forfeit).

A game that ended by resignation or timeout counts with its scores when the winner
leads on them. When the scores say otherwise (the player who resigned or ran out of
time was ahead or level), it is recorded as that player's forfeit, so that a result
file read by rating software, which decides games by score, says who really won.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Final, Literal

PLAYED: Final = "played"
BYE: Final = "bye"
FORFEIT: Final = "forfeit"
PENDING: Final = "pending"
Kind = Literal["played", "bye", "forfeit", "pending"]
Absent = Literal["", "first", "second", "both"]

WIN: Final = "win"
DRAW: Final = "draw"
LOSS: Final = "loss"


@dataclass(frozen=True, slots=True)
class Rules:
    bye_spread: int = 50
    forfeit_spread: int = 50


@dataclass(frozen=True, slots=True)
class Outcome:
    """What one table of one round came to. ``second`` None is a bye; ``absent`` says
    who forfeited (``kind == "forfeit"``); scores are set for a played game."""

    round: int
    table: int
    first: int
    second: int | None
    kind: Kind
    first_score: int | None = None
    second_score: int | None = None
    absent: Absent = ""

    def is_done(self) -> bool:
        return self.kind != PENDING


@dataclass(frozen=True, slots=True)
class PlayerResult:
    """One player's side of an outcome."""

    round: int
    table: int
    player: int
    opponent: int | None
    position: Literal["first", "second", ""]
    result: Literal["win", "draw", "loss", "pending"]
    kind: Kind
    score: int | None
    opponent_score: int | None
    spread: int
    half_points: int


def player_results(outcome: Outcome, rules: Rules) -> list[PlayerResult]:
    """Both sides of ``outcome`` (one for a bye)."""
    o = outcome
    if o.second is None:
        if o.kind == PENDING:
            return []
        if o.kind == FORFEIT:
            # A round a late entrant missed, counted as a loss (TSH: -50 against nobody).
            spread = -rules.forfeit_spread
            return [PlayerResult(o.round, o.table, o.first, None, "", LOSS, FORFEIT, None, None, spread, 0)]
        return [PlayerResult(o.round, o.table, o.first, None, "", WIN, BYE, None, None, rules.bye_spread, 2)]
    sides: list[tuple[int, int, Literal["first", "second"], int | None, int | None, bool]] = [
        (o.first, o.second, "first", o.first_score, o.second_score, o.absent in ("first", "both")),
        (o.second, o.first, "second", o.second_score, o.first_score, o.absent in ("second", "both")),
    ]
    results = []
    for player, opponent, position, mine, theirs, absent in sides:
        if o.kind == PENDING:
            results.append(
                PlayerResult(
                    o.round, o.table, player, opponent, position, "pending", PENDING, None, None, 0, 0
                )
            )
        elif o.kind == FORFEIT:
            spread = -rules.forfeit_spread if absent else rules.forfeit_spread
            result: Literal["win", "loss"] = LOSS if absent else WIN
            results.append(
                PlayerResult(
                    o.round,
                    o.table,
                    player,
                    opponent,
                    position,
                    result,
                    FORFEIT,
                    None,
                    None,
                    spread,
                    0 if absent else 2,
                )
            )
        else:
            assert mine is not None, "a played game has both scores"
            assert theirs is not None, "a played game has both scores"
            played: Literal["win", "draw", "loss"] = WIN if mine > theirs else LOSS if mine < theirs else DRAW
            half = {WIN: 2, DRAW: 1, LOSS: 0}[played]
            results.append(
                PlayerResult(
                    o.round,
                    o.table,
                    player,
                    opponent,
                    position,
                    played,
                    PLAYED,
                    mine,
                    theirs,
                    mine - theirs,
                    half,
                )
            )
    return results


@dataclass
class Standing:
    """One line of the standings."""

    player: int
    rank: int = 0
    half_points: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    spread: int = 0
    total_score: int = 0
    played: int = 0
    byes: int = 0
    forfeits: int = 0
    results: list[PlayerResult] = field(default_factory=list)

    @property
    def points(self) -> float:
        """Wins with draws as halves (2.5)."""
        return self.half_points / 2

    def sort_key(self) -> tuple[int, int, int]:
        return (-self.half_points, -self.spread, -self.total_score)


def standings(players: Sequence[int], outcomes: Iterable[Outcome], rules: Rules) -> list[Standing]:
    """The ranked standings of ``players`` (player numbers; any not listed but present
    in ``outcomes`` are added) after ``outcomes``; pending tables count nothing."""
    lines = {p: Standing(p) for p in players}
    for outcome in sorted(outcomes, key=lambda o: (o.round, o.table)):
        for r in player_results(outcome, rules):
            line = lines.setdefault(r.player, Standing(r.player))
            line.results.append(r)
            if r.result == "pending":
                continue
            line.half_points += r.half_points
            line.spread += r.spread
            line.wins += r.result == WIN
            line.draws += r.result == DRAW
            line.losses += r.result == LOSS
            if r.kind == PLAYED:
                line.played += 1
                line.total_score += r.score or 0
            elif r.kind == BYE:
                line.byes += 1
            else:
                line.forfeits += 1
    ordered = sorted(lines.values(), key=lambda s: (s.sort_key(), s.player))
    for index, line in enumerate(ordered):
        tied = index > 0 and ordered[index - 1].sort_key() == line.sort_key()
        line.rank = ordered[index - 1].rank if tied else index + 1
    return ordered


def game_outcome(
    *,
    round: int,
    table: int,
    first: int,
    second: int,
    finished: bool,
    first_score: int | None,
    second_score: int | None,
    winner: Literal["first", "second", ""],
    ended_by: str = "",
) -> Outcome:
    """The outcome of a table's game: pending until it is finished; scores decide,
    except a resignation or timeout that the scores contradict, which is the loser's
    forfeit (module docstring). ``winner`` is "" for a draw."""
    if not finished or first_score is None or second_score is None:
        return Outcome(round, table, first, second, PENDING)
    if ended_by in ("resign", "timeout") and winner:
        leads = first_score > second_score if winner == "first" else second_score > first_score
        if not leads:
            loser: Absent = "second" if winner == "first" else "first"
            return Outcome(round, table, first, second, FORFEIT, absent=loser)
    return Outcome(round, table, first, second, PLAYED, first_score, second_score)


@dataclass(frozen=True, slots=True)
class GameFacts:
    """What a table's game says, in plain values (``first`` is seat 0, who moved first)."""

    finished: bool
    first_score: int | None
    second_score: int | None
    winner: Literal["first", "second", ""]
    ended_by: str = ""


def table_outcome(
    *,
    round: int,
    table: int,
    first: int,
    second: int | None,
    override: str = "",
    first_score: int | None = None,
    second_score: int | None = None,
    absent: Absent = "",
    game: GameFacts | None = None,
) -> Outcome:
    """The outcome of one table: a bye; the organiser's override (scores or a forfeit),
    which wins over the game; else what the game says (pending without one)."""
    if second is None:
        if override == FORFEIT:  # a missed round given as a loss
            return Outcome(round, table, first, None, FORFEIT, absent="first")
        return Outcome(round, table, first, None, BYE)
    if override == FORFEIT:
        return Outcome(round, table, first, second, FORFEIT, absent=absent or "both")
    if override == "scores" and first_score is not None and second_score is not None:
        return Outcome(round, table, first, second, PLAYED, first_score, second_score)
    if game is None:
        return Outcome(round, table, first, second, PENDING)
    return game_outcome(
        round=round,
        table=table,
        first=first,
        second=second,
        finished=game.finished,
        first_score=game.first_score,
        second_score=game.second_score,
        winner=game.winner,
        ended_by=game.ended_by,
    )
