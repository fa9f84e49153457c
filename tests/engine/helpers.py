"""Small builders shared by the engine tests."""

from __future__ import annotations

import random
from collections.abc import Iterator

from engine.board import EMPTY, Board, empty_board, is_empty, layout, place
from engine.errors import IllegalMove
from engine.moves import MoveRecord, Placement, Played, exchange, pass_turn, play, resign, timeout
from engine.state import GameState, Rules, new_game
from engine.tiles import BLANK


class AnyWord:
    """A lexicon that accepts every word: for tests about placement and scoring only."""

    def __contains__(self, word: object) -> bool:
        return True


def tiles(row: int, col: int, direction: str, text: str) -> list[Placement]:
    """Placements spelling ``text`` from (row, col); lowercase letters are blanks and
    ``_`` skips a square (a tile already on the board)."""
    d_row, d_col = (0, 1) if direction == "across" else (1, 0)
    out = []
    for i, char in enumerate(text):
        if char != "_":
            out.append(Placement(row + i * d_row, col + i * d_col, char.upper(), blank=char.islower()))
    return out


def board_with(*words: tuple[int, int, str, str], size: int = 15) -> Board:
    """A board with the given (row, col, direction, text) words already on it."""
    board = empty_board(size)
    for row, col, direction, text in words:
        board = place(board, ((p.row, p.col, p.board_char) for p in tiles(row, col, direction, text)))
    return board


def random_play(state: GameState, rng: random.Random, attempts: int = 20) -> Played | None:
    """A random legal play for the seat to move (any word accepted), or None."""
    geometry = layout(state.layout)
    tileset = state.tileset
    board = state.board
    rack = state.racks[state.turn]
    size = geometry.size
    if is_empty(board):
        anchors = [geometry.center]
    else:
        anchors = [
            (r, c)
            for r in range(size)
            for c in range(size)
            if board[r][c] == EMPTY
            and any(
                0 <= r + dr < size and 0 <= c + dc < size and board[r + dr][c + dc] != EMPTY
                for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1))
            )
        ]
    letters = sorted(tileset.blank_letters)
    for _ in range(attempts):
        count = rng.randint(1, len(rack))
        chosen = rng.sample(rack, count)
        d_row, d_col = rng.choice(((0, 1), (1, 0)))
        row, col = rng.choice(anchors)
        before = rng.randint(0, count - 1)
        squares = [(row, col)]
        r, c = row, col
        while len(squares) <= before:
            r, c = r - d_row, c - d_col
            if not (0 <= r < size and 0 <= c < size):
                break
            if board[r][c] == EMPTY:
                squares.append((r, c))
        r, c = row, col
        while len(squares) < count:
            r, c = r + d_row, c + d_col
            if not (0 <= r < size and 0 <= c < size):
                break
            if board[r][c] == EMPTY:
                squares.append((r, c))
        if len(squares) != count:
            continue
        placements = [
            Placement(r, c, rng.choice(letters), blank=True) if tile == BLANK else Placement(r, c, tile)
            for (r, c), tile in zip(squares, chosen, strict=True)
        ]
        try:
            return play(state, state.turn, placements, AnyWord())
        except IllegalMove:
            continue
    return None


def random_game(
    seed: int, language: str = "en", *, max_turns: int = 80, rules: Rules | None = None
) -> tuple[list[GameState], list[MoveRecord]]:
    """A whole random game: every state (the first is the new game) and every record.

    Plays mostly, sometimes exchanges or passes; if it has not ended after
    ``max_turns`` actions, someone resigns or times out.
    """
    rng = random.Random(seed)
    state = new_game(language, rng, rules=rules)
    states: list[GameState] = [state]
    records: list[MoveRecord] = []
    while not state.over:
        seat = state.turn
        roll = rng.random()
        played: Played | None = None
        if len(records) >= max_turns:
            played = resign(state, rng.randrange(2)) if roll < 0.5 else timeout(state, seat)
        elif roll < 0.85:
            played = random_play(state, rng)
        elif roll < 0.93 and state.bag:
            rack = state.racks[seat]
            count = rng.randint(1, min(len(rack), len(state.bag)))
            played = exchange(state, seat, rng.sample(rack, count), rng)
        if played is None:
            played = pass_turn(state, seat)
        state = played.state
        states.append(state)
        records.append(played.record)
    return states, records


def movegen_implementations() -> list[object]:
    """Both move generator implementations as pytest params; the compiled one is skipped
    when it is not built (CI forces it with ``WORDGAME_MOVEGEN=compiled``, which makes a
    missing build fail at import instead)."""
    import pytest

    from engine import movegen

    return [
        pytest.param(
            name,
            marks=pytest.mark.skipif(
                name not in movegen.IMPLEMENTATIONS, reason="the compiled move generator is not built"
            ),
        )
        for name in ("compiled", "pure")
    ]


def use_implementation(name: str) -> Iterator[str]:
    """Run with move generator ``name``, then restore the one that ran before."""
    from engine import movegen

    before = movegen.implementation()
    movegen.set_implementation(name)
    try:
        yield name
    finally:
        movegen.set_implementation(before)
