"""Finding the words a play forms and scoring them (RULES.md, "Scoring").

- A word scores the sum of its letters' values, old tiles included; blanks are worth 0.
- DL/TL multiply a letter placed this turn; DW/TW multiply the word when a tile placed
  this turn covers them, and several word premiums multiply together (DW+DW = x4).
  Premiums under tiles from earlier turns no longer count.
- Each word formed is scored on its own and the scores are added; the bingo bonus is
  added by the caller (``engine.moves.evaluate``), not to any single word.

Which word is the *main* word: for a play of two or more tiles, the word along their
line. For a single tile, the across word if it has two or more letters, otherwise the
down word. The *cross words* are the other words of two or more letters that a new tile
makes, in board order (left to right, or top to bottom, along the main word).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from engine.board import EMPTY, Board, Layout, Square
from engine.tiles import TileSet

Direction = Literal["across", "down"]
ACROSS: Direction = "across"
DOWN: Direction = "down"

_LETTER_FACTOR = {"DL": 2, "TL": 3}
_WORD_FACTOR = {"DW": 2, "TW": 3}


@dataclass(frozen=True, slots=True)
class WordScore:
    """One word formed by a play and its score.

    ``letters_score`` is the sum of the letter values after letter premiums,
    ``multiplier`` the product of the word premiums covered this turn, and
    ``score == letters_score * multiplier``.
    """

    word: str
    score: int
    start: Square
    direction: Direction
    letters_score: int
    multiplier: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "word": self.word,
            "score": self.score,
            "start": list(self.start),
            "direction": self.direction,
            "letters_score": self.letters_score,
            "multiplier": self.multiplier,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> WordScore:
        direction = data["direction"]
        if direction not in (ACROSS, DOWN):
            raise ValueError(f"bad direction {direction!r}")
        row, col = data["start"]
        return cls(
            word=str(data["word"]),
            score=int(data["score"]),
            start=(int(row), int(col)),
            direction=ACROSS if direction == ACROSS else DOWN,
            letters_score=int(data["letters_score"]),
            multiplier=int(data["multiplier"]),
        )


def _char(board: Board, new: Mapping[Square, str], row: int, col: int) -> str:
    """The character at a square once the new tiles are down (``"."`` off the board)."""
    if (row, col) in new:
        return new[(row, col)]
    if 0 <= row < len(board) and 0 <= col < len(board):
        return board[row][col]
    return EMPTY


def word_span(
    board: Board, new: Mapping[Square, str], square: Square, direction: Direction
) -> tuple[Square, int]:
    """Start square and length of the run of tiles through ``square`` in ``direction``."""
    d_row, d_col = (0, 1) if direction == ACROSS else (1, 0)
    row, col = square
    while _char(board, new, row - d_row, col - d_col) != EMPTY:
        row, col = row - d_row, col - d_col
    start = (row, col)
    length = 0
    while _char(board, new, row, col) != EMPTY:
        length += 1
        row, col = row + d_row, col + d_col
    return start, length


def score_word(
    board: Board,
    new: Mapping[Square, str],
    start: Square,
    direction: Direction,
    length: int,
    tiles: TileSet,
    layout: Layout,
) -> WordScore:
    """Score the word of ``length`` tiles from ``start``; ``new`` holds this turn's tiles
    (board characters: uppercase letter, lowercase for a blank)."""
    d_row, d_col = (0, 1) if direction == ACROSS else (1, 0)
    row, col = start
    letters: list[str] = []
    letters_score = 0
    multiplier = 1
    values = tiles.values
    premiums = layout.premiums
    for _ in range(length):
        char = _char(board, new, row, col)
        # A lowercase character is a blank: not in ``values``, so it scores 0.
        value = values.get(char, 0)
        if (row, col) in new:
            premium = premiums.get((row, col))
            if premium is not None:
                value *= _LETTER_FACTOR.get(premium, 1)
                multiplier *= _WORD_FACTOR.get(premium, 1)
        letters_score += value
        letters.append(char.upper())
        row, col = row + d_row, col + d_col
    return WordScore(
        word="".join(letters),
        score=letters_score * multiplier,
        start=start,
        direction=direction,
        letters_score=letters_score,
        multiplier=multiplier,
    )


def main_direction(board: Board, new: Mapping[Square, str]) -> Direction:
    """The direction of the main word of a play already known to be in one line."""
    squares = list(new)
    if len(squares) > 1:
        return ACROSS if squares[0][0] == squares[1][0] else DOWN
    _, across_length = word_span(board, new, squares[0], ACROSS)
    return ACROSS if across_length >= 2 else DOWN


def words_formed(
    board: Board, new: Mapping[Square, str], tiles: TileSet, layout: Layout
) -> tuple[WordScore, ...]:
    """Every word of two or more letters the new tiles form, scored: the main word
    first, then the cross words in board order. The play must be in one unbroken line.
    """
    direction = main_direction(board, new)
    cross: Direction = DOWN if direction == ACROSS else ACROSS
    words: list[WordScore] = []
    start, length = word_span(board, new, next(iter(new)), direction)
    if length >= 2:
        words.append(score_word(board, new, start, direction, length, tiles, layout))
    along = 1 if direction == ACROSS else 0
    for square in sorted(new, key=lambda sq: sq[along]):
        start, length = word_span(board, new, square, cross)
        if length >= 2:
            words.append(score_word(board, new, start, cross, length, tiles, layout))
    return tuple(words)
