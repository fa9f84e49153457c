"""Small builders shared by the engine tests."""

from __future__ import annotations

from engine.board import Board, empty_board, place
from engine.moves import Placement


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
