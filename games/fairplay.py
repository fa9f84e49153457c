"""Fair-play signals in rated games: how often a player's moves were the engine's top
play, and how much of the best score they took, over their last rated games in a language.

Plain computation, no Django (``scripts/fairplay_simulation.py`` tunes the thresholds with
it): :func:`signals_of` keeps one player's moves of one post-game analysis
(``games.analysis``: each move's rank among every legal play and not playing, and its share
of the best score), :func:`figures` sums a window of games, and :func:`flagged` compares
the figures with the :data:`THRESHOLDS`. ``games.moderation.review_fair_play`` stores the
signals per game and files a report for the moderators when a player is flagged; nothing
here acts on anyone. How the thresholds were tuned, and what they miss: ``docs/fair-play.md``.
"""

from __future__ import annotations

import statistics
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

#: How many of a player's latest rated games in one language are looked at.
WINDOW = 20


@dataclass(frozen=True, slots=True)
class GameSignals:
    """One player's moves in one analysed game, in order: each move's rank (1: a top
    play; equal scores share a rank), its share of the best score (0-100) and the
    seconds it took (empty when unknown, as in simulated games)."""

    ranks: tuple[int, ...]
    shares: tuple[int, ...]
    seconds: tuple[int, ...] = ()

    @property
    def moves(self) -> int:
        return len(self.ranks)


def signals_of(entries: Sequence[Mapping[str, Any]], seat: int, seconds: Mapping[int, int]) -> GameSignals:
    """The signals of ``seat``'s moves in a game's analysis ``entries``.

    Only moves with a choice count: a rack with no legal play has one option (swap or
    pass), which is rank 1 for anyone and says nothing of outside help. ``seconds`` maps
    a move's number to the time it took; moves missing from it are left out of the times.
    """
    mine = [e for e in entries if e["seat"] == seat and int(e.get("of", 2)) > 1]
    return GameSignals(
        ranks=tuple(int(e["rank"]) for e in mine),
        shares=tuple(int(e["share"]) for e in mine),
        seconds=tuple(seconds[e["number"]] for e in mine if e["number"] in seconds),
    )


@dataclass(frozen=True, slots=True)
class Figures:
    """A player's figures over a window of rated games: the games and moves counted,
    the percentage of moves that were a top play, the average share of the best score
    (percent), and the time per move (median and quartiles, seconds; None when unknown)."""

    games: int
    moves: int
    top_share: float
    best_share: float
    median_seconds: float | None
    quartile_seconds: tuple[float, float] | None

    def as_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["quartile_seconds"] = list(self.quartile_seconds) if self.quartile_seconds else None
        return data


def figures(games: Sequence[GameSignals]) -> Figures:
    """The figures of ``games`` together (every move weighs the same)."""
    ranks = [r for g in games for r in g.ranks]
    shares = [s for g in games for s in g.shares]
    seconds = sorted(s for g in games for s in g.seconds)
    moves = len(ranks)
    quartiles = None
    if len(seconds) >= 2:
        low, _mid, high = statistics.quantiles(seconds, n=4)
        quartiles = (round(low, 1), round(high, 1))
    return Figures(
        games=len(games),
        moves=moves,
        top_share=round(100 * sum(1 for r in ranks if r == 1) / moves, 1) if moves else 0.0,
        best_share=round(sum(shares) / moves, 1) if moves else 0.0,
        median_seconds=round(statistics.median(seconds), 1) if seconds else None,
        quartile_seconds=quartiles,
    )


@dataclass(frozen=True, slots=True)
class Thresholds:
    """A player is flagged when, over at least ``min_games`` games and ``min_moves``
    moves, both their share of top plays and their average share of the best score reach
    these percentages. Tuned on simulated games (``docs/fair-play.md``)."""

    min_games: int = 5
    min_moves: int = 40
    top_share: float = 70.0
    best_share: float = 92.0


THRESHOLDS = Thresholds()


def flagged(found: Figures, thresholds: Thresholds = THRESHOLDS) -> bool:
    """Whether ``found`` is above the thresholds: enough games and moves, and both
    shares at or above their limits."""
    return (
        found.games >= thresholds.min_games
        and found.moves >= thresholds.min_moves
        and found.top_share >= thresholds.top_share
        and found.best_share >= thresholds.best_share
    )
