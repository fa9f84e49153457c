"""Analysis on top of the move generator: hindsight, word strength, computer players.

- :func:`best_moves`: the best plays for a board and rack (hindsight).
- :func:`move_strength`: how a play compares with every play the rack allowed: its
  rank and its score against the best (word strength).
- :func:`computer_move`: a computer opponent's choice at three levels. It returns a
  :class:`ComputerChoice` that :meth:`ComputerChoice.apply` (or the caller, through
  ``engine.moves.play`` / ``exchange`` / ``pass_turn``) turns into the next state.

No global random state: the caller passes the ``random.Random``.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Container, Sequence
from dataclasses import dataclass
from typing import Literal

from engine import errors, movegen
from engine.board import Board, Layout, layout
from engine.errors import IllegalMove
from engine.lexicon import Lexicon
from engine.movegen import GeneratedMove
from engine.moves import Placement, Played, evaluate, exchange, pass_turn, play
from engine.state import GameState
from engine.tiles import BLANK, TileSet

__all__ = [
    "LEVELS",
    "ComputerChoice",
    "Level",
    "MoveStrength",
    "best_moves",
    "computer_move",
    "leave_value",
    "level_band",
    "move_strength",
    "should_challenge",
]

Level = Literal["easy", "medium", "hard"]
LEVELS: tuple[Level, ...] = ("easy", "medium", "hard")

# Letters counted as vowels when judging a rack leave (the game languages' vowels).
_VOWELS = frozenset("AEIOUÄÖÜ")


def best_moves(
    board: Board, rack: str, *, tileset: TileSet, layout: Layout, lexicon: Lexicon, k: int = 1
) -> list[GeneratedMove]:
    """The ``k`` best plays (fewer if there are fewer), best first; ties in the move
    generator's order. Empty when the rack has no legal play."""
    return movegen.best(board, rack, tileset=tileset, layout=layout, lexicon=lexicon, k=k)


@dataclass(frozen=True, slots=True)
class MoveStrength:
    """A play measured against every play the rack allowed.

    ``rank`` is 1 + the number of plays that score more (plays with the same score
    share a rank); ``count`` the number of legal plays; ``best`` one best play.
    """

    score: int
    best_score: int
    rank: int
    count: int
    best: GeneratedMove

    @property
    def ratio(self) -> float:
        """``score / best_score`` (1.0 when the best play scores 0)."""
        return self.score / self.best_score if self.best_score else 1.0


def move_strength(
    board: Board,
    rack: str,
    placements: Sequence[Placement],
    *,
    tileset: TileSet,
    layout: Layout,
    lexicon: Lexicon,
) -> MoveStrength:
    """The strength of playing ``placements`` from ``rack`` on ``board``.

    Raises ``IllegalMove`` when the play is not legal (as ``engine.moves.evaluate``).
    """
    played = evaluate(board, placements, tileset=tileset, layout=layout, lexicon=lexicon, rack=rack)
    # Counted without building a move: the number of plays and those scoring more.
    counted = movegen.count(
        board, rack, tileset=tileset, layout=layout, lexicon=lexicon, better_than=played.score
    )
    top = movegen.best(board, rack, tileset=tileset, layout=layout, lexicon=lexicon, k=1)
    # A legal play is among the generated ones, so there is a best one.
    return MoveStrength(
        score=played.score,
        best_score=top[0].score,
        rank=1 + counted.better,
        count=counted.count,
        best=top[0],
    )


def leave_value(leave: str, tileset: TileSet) -> float:
    """A rough worth of the tiles kept after a play, for breaking ties between plays of
    equal score: blanks are worth keeping, duplicates and an unbalanced mix of vowels and
    consonants are not, and high-value letters are hard to place."""
    if not leave:
        return 0.0
    value = 0.0
    letters = [t for t in leave if t != BLANK]
    value += 6.0 * (len(leave) - len(letters))
    for count in Counter(letters).values():
        value -= 3.0 * (count - 1)
    vowels = sum(1 for t in letters if t in _VOWELS)
    # About two vowels in five tiles is the comfortable mix.
    value -= 2.0 * abs(vowels - 0.4 * len(letters))
    value -= sum(max(0, tileset.value(t) - 4) for t in letters) * 0.5
    return value


@dataclass(frozen=True, slots=True)
class ComputerChoice:
    """What a computer player does: ``kind`` is ``"play"`` (``placements`` set),
    ``"exchange"`` (``tiles``: the rack tiles returned, ``?`` for a blank) or
    ``"pass"``. ``score`` is the play's score (0 otherwise)."""

    kind: Literal["play", "exchange", "pass"]
    placements: tuple[Placement, ...] = ()
    tiles: tuple[str, ...] = ()
    score: int = 0

    def apply(self, state: GameState, seat: int, lexicon: Lexicon, rng: random.Random) -> Played:
        """Carry the choice out with ``engine.moves`` (``rng`` shuffles the bag after an
        exchange)."""
        if self.kind == "play":
            return play(state, seat, self.placements, lexicon)
        if self.kind == "exchange":
            return exchange(state, seat, self.tiles, rng)
        return pass_turn(state, seat)


def computer_move(
    state: GameState, seat: int, lexicon: Lexicon, level: Level, rng: random.Random
) -> ComputerChoice:
    """The computer player's choice for ``seat`` at ``level``.

    - ``hard``: the best score; among plays of that score, the best rack leave
      (:func:`leave_value`), then the move generator's order.
    - ``medium``: a random play among the better ones, scoring at least two thirds of
      the best.
    - ``easy``: a random play worth roughly a third to two thirds of the best (when no
      play falls in that band, the one closest to half the best).
    - With no legal play: exchange the non-blank tiles (as many as the bag allows) if
      the bag allows an exchange, else pass.

    Raises ``IllegalMove`` (``game_over``, ``not_your_turn``) like the engine's actions,
    and ``ValueError`` for an unknown level.
    """
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}; expected one of {', '.join(LEVELS)}")
    if state.over:
        raise IllegalMove(errors.GAME_OVER, "The game is over.")
    if seat != state.turn:
        raise IllegalMove(errors.NOT_YOUR_TURN, "It is not your turn.")
    tiles = state.tileset
    geometry = layout(state.layout)
    rack = state.racks[seat]
    board = state.board
    if level == "hard":
        # Every play with the best score (in the generator's order), nothing more.
        tied = movegen.best(board, rack, tileset=tiles, layout=geometry, lexicon=lexicon, k=1, ties=True)
        if tied:
            chosen = max(tied, key=lambda m: leave_value(_leave(rack, m), tiles))  # first of equals
            return _play(chosen)
    else:
        moves = movegen.generate(board, rack, tileset=tiles, layout=geometry, lexicon=lexicon)
        if moves:
            start, stop = level_band(moves, level)
            # Only the chosen play is built as a move object.
            return _play(moves[start + rng.randrange(stop - start)])
    return _no_play(state, rack)


def should_challenge(state: GameState, seat: int, lexicon: Container[str]) -> bool:
    """Whether the computer, on its turn, challenges the play pending before it.

    It challenges as a strong player who knows the word list does: exactly when a word
    of that play is not in ``lexicon`` (a valid play is never challenged, whatever the
    rule; under ``"five"`` or ``"double"`` that would only cost it). False when no play
    is pending (``"void"`` rule, or already accepted) or it is not ``seat``'s turn.
    """
    pending = state.pending
    if state.over or pending is None or seat != state.turn or pending.seat == seat:
        return False
    return any(word not in lexicon for word in pending.words)


def level_band(moves: movegen.Moves, level: Level) -> tuple[int, int]:
    """The plays ``level`` chooses among, as an index range ``[start, stop)`` of
    ``moves`` (every play, best first): for ``medium`` those scoring at least two thirds
    of the best; for ``easy`` those worth a third to two thirds of the best, or when
    there is none the ones closest to half the best. Scores only fall along ``moves``,
    so each band is one run of it, found by bisection on the scores (no move built)."""
    best = moves.score(0)
    if level == "medium":
        return 0, _first(moves, lambda s: 3 * s < 2 * best)
    start, stop = _first(moves, lambda s: 3 * s <= 2 * best), _first(moves, lambda s: 3 * s < best)
    if start < stop:
        return start, stop
    # The closest scores to half the best sit on either side of where 2 * score passes it.
    p = _first(moves, lambda s: 2 * s <= best)
    gap = min(abs(2 * moves.score(i) - best) for i in (p - 1, p) if 0 <= i < len(moves))
    return _first(moves, lambda s: 2 * s <= best + gap), _first(moves, lambda s: 2 * s < best - gap)


def _first(moves: movegen.Moves, past: Callable[[int], bool]) -> int:
    """The first index whose score satisfies ``past`` (false for higher scores, true
    for every lower one), or ``len(moves)``."""
    lo, hi = 0, len(moves)
    while lo < hi:
        mid = (lo + hi) // 2
        if past(moves.score(mid)):
            hi = mid
        else:
            lo = mid + 1
    return lo


def _play(move: GeneratedMove) -> ComputerChoice:
    return ComputerChoice(kind="play", placements=move.placements, score=move.score)


def _leave(rack: str, move: GeneratedMove) -> str:
    rest = list(rack)
    for p in move.placements:
        rest.remove(p.rack_tile)
    return "".join(rest)


def _no_play(state: GameState, rack: str) -> ComputerChoice:
    """Exchange when the bag allows it, else pass."""
    minimum = max(1, state.rules.exchange_min_bag, state.tileset.exchange_min_bag)
    if len(state.bag) >= minimum:
        # Keep the blanks: they are the best tiles to hold on to.
        returned = [t for t in rack if t != BLANK][: len(state.bag)]
        if returned:
            return ComputerChoice(kind="exchange", tiles=tuple(returned))
    return ComputerChoice(kind="pass")
