"""Choosing a daily puzzle: pure, on top of the engine (no Django, no clock).

A puzzle is a position (a board and the rack of the player to move) in which the best
play stands out. The rule, stated in ``docs/puzzles.md``: the best play scores at least
``MIN_BEST`` points and at least ``MIN_MARGIN`` more than the second-best play, and the
board already holds tiles (an opening on an empty board is a different exercise).

Candidates are examined in an order drawn from the seed (``random.Random(seed)``), so
the same seed and the same candidates always give the same puzzle. When no real game
gives one, :func:`self_play_positions` makes positions from games the computer plays
against itself, dealt from the seed: the same seed, the same games.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import date

import engine
from engine import analysis, movegen
from engine.board import Board
from engine.lexicon import Lexicon
from engine.state import GameState, Rules

#: The best play scores at least this many points...
MIN_BEST = 30
#: ...and this many more than the second best.
MIN_MARGIN = 8
#: How many real positions are looked at before falling back to the computer's games.
MAX_REAL_TRIES = 40
#: How many computer games are played at most (then the position with the widest margin
#: seen among those reaching MIN_BEST is taken, so a puzzle is always found).
MAX_SELF_PLAY_GAMES = 6
#: How many plays the answer lists.
TOP = 5


def seed_for(day: date, language: str) -> int:
    """The seed of the puzzle of ``day`` in ``language``: the same everywhere, always."""
    digest = hashlib.sha256(f"wordgame-puzzle:{day.isoformat()}:{language}".encode()).digest()
    return int.from_bytes(digest[:7], "big")


@dataclass(frozen=True, slots=True)
class Position:
    """A board and the rack to play from; ``origin`` says where it came from (a game's
    id and move number, or the computer's game and turn)."""

    board: Board
    rack: str
    layout: str
    rules: Rules
    origin: tuple[int, int]


@dataclass(frozen=True, slots=True)
class TopPlay:
    """One of the best plays: its tiles ``(row, col, board char)`` and its words."""

    tiles: tuple[tuple[int, int, str], ...]
    score: int
    words: tuple[tuple[str, int], ...]


@dataclass(frozen=True, slots=True)
class Chosen:
    position: Position
    best: int
    second: int
    count: int
    top: tuple[TopPlay, ...]
    self_play: bool


def measure(
    position: Position, language: str, lexicon: Lexicon
) -> tuple[int, int, list[movegen.GeneratedMove]]:
    """(best score, second-best score, the top plays) of a position; (0, 0, []) with no play."""
    tiles = position.rules.tileset_for(language)
    top = movegen.best(
        position.board,
        position.rack,
        tileset=tiles,
        layout=engine.layout(position.layout),
        lexicon=lexicon,
        k=TOP,
    )
    if not top:
        return 0, 0, []
    return top[0].score, top[1].score if len(top) > 1 else 0, top


def _has_tiles(board: Board) -> bool:
    return any(ch != engine.EMPTY for line in board for ch in line)


def _chosen(
    position: Position,
    measured: tuple[int, int, list[movegen.GeneratedMove]],
    language: str,
    lexicon: Lexicon,
    *,
    self_play: bool,
) -> Chosen:
    best, second, top = measured
    tiles = position.rules.tileset_for(language)
    counted = movegen.count(
        position.board, position.rack, tileset=tiles, layout=engine.layout(position.layout), lexicon=lexicon
    )
    return Chosen(
        position=position,
        best=best,
        second=second,
        count=counted.count,
        top=tuple(TopPlay(m.tiles, m.score, tuple((w.word, w.score) for w in m.words)) for m in top),
        self_play=self_play,
    )


def qualifies(best: int, second: int) -> bool:
    """The rule: a best play worth ``MIN_BEST`` and ``MIN_MARGIN`` over the second."""
    return best >= MIN_BEST and best - second >= MIN_MARGIN


def choose(
    seed: int,
    language: str,
    lexicon: Lexicon,
    candidates: Sequence[Callable[[], Position]],
) -> Chosen:
    """The puzzle for ``seed``: the first qualifying position among ``candidates`` (each
    a function building one position, so only those examined are built) in the seed's
    order, else one from the computer's own games (:func:`self_play_positions`)."""
    order = list(range(len(candidates)))
    random.Random(seed).shuffle(order)
    for index in order[:MAX_REAL_TRIES]:
        position = candidates[index]()
        if not _has_tiles(position.board):
            continue
        measured = measure(position, language, lexicon)
        if qualifies(measured[0], measured[1]):
            return _chosen(position, measured, language, lexicon, self_play=False)
    return choose_self_play(seed, language, lexicon)


def choose_self_play(seed: int, language: str, lexicon: Lexicon) -> Chosen:
    """The first qualifying position of the computer's games for ``seed``; failing that
    (rare), the one with the widest margin among those whose best reaches ``MIN_BEST``,
    else the one with the best score."""
    fallback: tuple[tuple[int, int], Position, tuple[int, int, list[movegen.GeneratedMove]]] | None = None
    for position in self_play_positions(seed, language, lexicon):
        measured = measure(position, language, lexicon)
        best, second, _top = measured
        if qualifies(best, second):
            return _chosen(position, measured, language, lexicon, self_play=True)
        key = (1 if best >= MIN_BEST else 0, best - second if best >= MIN_BEST else best)
        if best and (fallback is None or key > fallback[0]):
            fallback = (key, position, measured)
    if fallback is None:  # pragma: no cover - a whole game with no play at all
        raise ValueError("no position with a legal play")
    return _chosen(fallback[1], fallback[2], language, lexicon, self_play=True)


def self_play_positions(seed: int, language: str, lexicon: Lexicon) -> Iterator[Position]:
    """Positions of games the computer plays against itself (best play each turn),
    dealt from ``seed``: each position is the board and the rack of the seat to move,
    from the second turn on."""
    for number in range(MAX_SELF_PLAY_GAMES):
        rng = random.Random(f"{seed}:self-play:{number}")
        state: GameState = engine.new_game(language, rng)
        turn = 0
        while not state.over and turn < 40:
            if turn >= 1:
                yield Position(
                    state.board, state.racks[state.turn], state.layout, state.rules, (number, turn)
                )
            choice = analysis.computer_move(state, state.turn, lexicon, "hard", rng)
            state = choice.apply(state, state.turn, lexicon, rng).state
            turn += 1


def board_before(empty: Board, plays: Iterable[Sequence[tuple[int, int, str]]]) -> Board:
    """``empty`` with the tiles of ``plays`` (``(row, col, board char)``) put down."""
    rows = [list(line) for line in empty]
    for tiles in plays:
        for r, c, ch in tiles:
            rows[r][c] = ch
    return tuple("".join(line) for line in rows)
