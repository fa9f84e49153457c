"""Board layouts (premium squares) and the board value itself.

A board is a ``tuple[str, ...]`` of ``size`` strings of ``size`` characters, row 0 at the
top: ``"."`` is an empty square, an uppercase letter a tile, and the lowercase letter a
blank standing for that letter. Rows and columns are 0-based.

Layouts are data files in ``engine/data/``: ``<name>-board.json`` with ``size``,
``center`` and ``premiums`` (lists of ``[row, col]`` per ``"DL"``, ``"TL"``, ``"DW"``,
``"TW"``). ``wwf`` is the game's board; ``scrabble`` the classic one, used in tests.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from importlib import resources
from types import MappingProxyType
from typing import Any

from engine.tiles import BLANK, TileSet

Board = tuple[str, ...]
Square = tuple[int, int]

EMPTY = "."
PREMIUMS = ("DL", "TL", "DW", "TW")


@dataclass(frozen=True)
class Layout:
    """A board's geometry: its size, start square and premium squares."""

    name: str
    size: int
    center: Square
    premiums: Mapping[Square, str]

    def premium(self, row: int, col: int) -> str | None:
        """``"DL"``, ``"TL"``, ``"DW"``, ``"TW"`` or None for a plain square."""
        return self.premiums.get((row, col))

    def on_board(self, row: int, col: int) -> bool:
        return 0 <= row < self.size and 0 <= col < self.size

    def empty_board(self) -> Board:
        return empty_board(self.size)


@functools.cache
def layout(name: str = "wwf") -> Layout:
    """The named layout (``"wwf"`` or ``"scrabble"``), loaded once from its data file.

    Raises ``KeyError`` for an unknown name.
    """
    resource = resources.files("engine").joinpath("data", f"{name}-board.json")
    if not name.replace("-", "").isalnum() or not resource.is_file():
        raise KeyError(f"unknown board layout {name!r}")
    raw: dict[str, Any] = json.loads(resource.read_text(encoding="utf-8"))
    premiums: dict[Square, str] = {}
    for kind in PREMIUMS:
        for row, col in raw["premiums"].get(kind, ()):
            premiums[(int(row), int(col))] = kind
    center_row, center_col = raw["center"]
    return Layout(
        name=name,
        size=int(raw["size"]),
        center=(int(center_row), int(center_col)),
        premiums=MappingProxyType(premiums),
    )


def empty_board(size: int = 15) -> Board:
    """A board with no tiles."""
    return (EMPTY * size,) * size


def is_empty(board: Board) -> bool:
    """True when no tile has been played (the next play is a first move)."""
    return all(not row.strip(EMPTY) for row in board)


def place(board: Board, squares: Iterable[tuple[int, int, str]]) -> Board:
    """A new board with ``(row, col, char)`` written in; ``char`` is a board character
    (uppercase tile or lowercase blank). Squares are assumed on the board and empty."""
    rows = [list(row) for row in board]
    for row, col, char in squares:
        rows[row][col] = char
    return tuple("".join(row) for row in rows)


def board_tiles(board: Board) -> Iterator[str]:
    """The tiles on the board as they came out of the bag: letters, and ``?`` for blanks."""
    for row in board:
        for char in row:
            if char == EMPTY:
                continue
            yield char if char.isupper() else BLANK


def check_board(board: object, tiles: TileSet, size: int = 15) -> Board:
    """Return ``board`` as a :data:`Board` if it is well formed for ``tiles``.

    Raises ``ValueError`` naming the first problem: wrong type or size, or a character
    that is neither ``.``, a letter of the set, nor a blank standing for one the set
    allows. It does not check that the tiles form words or are connected.
    """
    if not isinstance(board, (list, tuple)) or len(board) != size:
        raise ValueError(f"the board must be a list of {size} strings")
    for index, row in enumerate(board):
        if not isinstance(row, str) or len(row) != size:
            raise ValueError(f"board row {index} must be a string of {size} characters")
        for col, char in enumerate(row):
            if char == EMPTY or char in tiles.values:
                continue
            if char.upper() in tiles.blank_letters and char != char.upper():
                continue
            raise ValueError(f"board row {index} column {col}: {char!r} is not a tile of {tiles.language}")
    return tuple(board)


def square_name(row: int, col: int) -> str:
    """A square as people read it: column letter then row number, ``(7, 7)`` -> ``"H8"``."""
    return f"{chr(ord('A') + col)}{row + 1}" if 0 <= col < 26 else f"({row}, {col})"
