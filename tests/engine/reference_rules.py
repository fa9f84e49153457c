"""An independent, deliberately naive reference for ``python -m engine score`` and ``moves``.

Written from ``RULES.md`` and the text of issues 3 and 5 only, without reading the engine's
scoring or move code, so that the conformance tests compare two implementations rather than
one implementation with itself.  It reads the project's data files (tile sets and the WWF
premium layout) directly as JSON and uses nothing from ``engine``.  Speed does not matter
here; clarity does: every rule is a few plain lines that can be checked against the text.
"""

from __future__ import annotations

import itertools
import json
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parents[2] / "engine" / "data"
SIZE = 15
CENTER = (7, 7)
RACK_SIZE = 7
BINGO = 35

# The order in which play errors are reported (issue 3, point 7).
ERROR_ORDER = (
    "empty_move",
    "off_board",
    "duplicate_square",
    "square_taken",
    "blank_needs_letter",
    "letter_not_in_language",
    "tile_not_in_rack",
    "not_in_line",
    "gap_in_line",
    "first_move_off_center",
    "first_move_too_short",
    "not_connected",
    "word_not_in_lexicon",
)


@dataclass(frozen=True)
class Language:
    """What the reference needs of a language: letters, values and blank letters."""

    code: str
    alphabet: tuple[str, ...]
    values: dict[str, int]
    blank_letters: frozenset[str]


@cache
def language(code: str) -> Language:
    """The language's tile table, read straight from ``engine/data/tilesets.json``."""
    data = json.loads((DATA / "tilesets.json").read_text(encoding="utf-8"))[code]
    values = {letter: int(info["value"]) for letter, info in data["tiles"].items()}
    return Language(
        code=code,
        alphabet=tuple(data["alphabet"]),
        values=values,
        blank_letters=frozenset(data["blank_can_represent"]),
    )


@cache
def premiums() -> dict[tuple[int, int], str]:
    """Square -> "DL" / "TL" / "DW" / "TW" for the WWF board."""
    data = json.loads((DATA / "wwf-board.json").read_text(encoding="utf-8"))
    return {(r, c): kind for kind, squares in data["premiums"].items() for r, c in squares}


class PlayError(Exception):
    """A play refused with one of the codes of ``ERROR_ORDER``."""

    def __init__(self, code: str, words: Sequence[str] = ()) -> None:
        super().__init__(code)
        self.code = code
        self.words = tuple(words)


# A new tile: (row, col, letter) with a lowercase letter for a blank, as in the CLI.
Tile = tuple[int, int, str]


def is_empty_board(board: Sequence[str]) -> bool:
    return all(ch == "." for row in board for ch in row)


def letter_value(lang: Language, ch: str) -> int:
    """A tile's face value: blanks (lowercase on the board) are worth 0."""
    return 0 if ch != ch.upper() else lang.values[ch]


def word_at(grid: dict[tuple[int, int], str], r: int, c: int, dr: int, dc: int) -> list[tuple[int, int]]:
    """The squares of the maximal run of tiles through (r, c) along (dr, dc)."""
    while (r - dr, c - dc) in grid:
        r, c = r - dr, c - dc
    squares = []
    while (r, c) in grid:
        squares.append((r, c))
        r, c = r + dr, c + dc
    return squares


def check_play(lang: Language, board: Sequence[str], rack: str, move: Sequence[Tile]) -> None:
    """Raise ``PlayError`` for the first rule (in ``ERROR_ORDER``) that the move breaks,
    except ``word_not_in_lexicon`` which needs the words (see ``score_play``)."""
    if not move:
        raise PlayError("empty_move")
    if any(not (0 <= r < SIZE and 0 <= c < SIZE) for r, c, _ in move):
        raise PlayError("off_board")
    squares = [(r, c) for r, c, _ in move]
    if len(set(squares)) != len(squares):
        raise PlayError("duplicate_square")
    if any(board[r][c] != "." for r, c in squares):
        raise PlayError("square_taken")
    if any(letter == "?" for _, _, letter in move):
        raise PlayError("blank_needs_letter")
    for _, _, letter in move:
        blank = letter != letter.upper()
        allowed = lang.blank_letters if blank else frozenset(lang.alphabet)
        if letter.upper() not in allowed:
            raise PlayError("letter_not_in_language")
    needed = Counter("?" if letter != letter.upper() else letter for _, _, letter in move)
    have = Counter(rack)
    if any(have[t] < n for t, n in needed.items()):
        raise PlayError("tile_not_in_rack")
    rows = {r for r, _ in squares}
    cols = {c for _, c in squares}
    if len(rows) > 1 and len(cols) > 1:
        raise PlayError("not_in_line")
    placed = set(squares)
    if len(rows) == 1:
        (r,) = rows
        line = [(r, c) for c in range(min(cols), max(cols) + 1)]
    else:
        (c,) = cols
        line = [(r, c) for r in range(min(rows), max(rows) + 1)]
    if any(sq not in placed and board[sq[0]][sq[1]] == "." for sq in line):
        raise PlayError("gap_in_line")
    if is_empty_board(board):
        if CENTER not in placed:
            raise PlayError("first_move_off_center")
        if len(move) < 2:
            raise PlayError("first_move_too_short")
    else:
        neighbours = {(r + dr, c + dc) for r, c in squares for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1))}
        if not any(0 <= r < SIZE and 0 <= c < SIZE and board[r][c] != "." for r, c in neighbours):
            raise PlayError("not_connected")


@dataclass(frozen=True)
class Scored:
    """A legal play's verdict as the CLI prints it."""

    score: int
    words: tuple[tuple[str, int], ...]
    bingo: bool


def score_play(
    lang: Language, board: Sequence[str], rack: str, move: Sequence[Tile], lexicon: Iterable[str] | None
) -> Scored:
    """Validate and score; ``lexicon=None`` skips the word check (used by the brute force)."""
    check_play(lang, board, rack, move)
    grid = {(r, c): ch for r, row in enumerate(board) for c, ch in enumerate(row) if ch != "."}
    new = {(r, c): letter for r, c, letter in move}
    grid.update(new)
    rows = {r for r, _, _ in move}
    if len(move) >= 2:
        across = len(rows) == 1
    else:
        ((r, c, _),) = move
        # One tile: the main word is the across word if it has 2+ letters, else the down word.
        across = len(word_at(grid, r, c, 0, 1)) >= 2
    main_step, cross_step = ((0, 1), (1, 0)) if across else ((1, 0), (0, 1))
    r0, c0 = min(new)
    runs = [word_at(grid, r0, c0, *main_step)]
    for r, c in sorted(new):  # board order along the main line
        cross = word_at(grid, r, c, *cross_step)
        if len(cross) >= 2:
            runs.append(cross)
    pr = premiums()
    words: list[tuple[str, int]] = []
    for run in runs:
        total, mult = 0, 1
        for sq in run:
            ch = grid[sq]
            value = letter_value(lang, ch.upper()) if ch == ch.upper() else 0
            if sq in new:
                kind = pr.get(sq)
                if kind == "DL":
                    value *= 2
                elif kind == "TL":
                    value *= 3
                elif kind == "DW":
                    mult *= 2
                elif kind == "TW":
                    mult *= 3
            total += value
        words.append(("".join(grid[sq] for sq in run).upper(), total * mult))
    if lexicon is not None:
        known = set(lexicon)
        bad = [w for w, _ in words if w not in known]
        if bad:
            raise PlayError("word_not_in_lexicon", bad)
    bingo = len(move) == RACK_SIZE
    return Scored(sum(s for _, s in words) + (BINGO if bingo else 0), tuple(words), bingo)


def well_formed(lang: Language, board: Sequence[str], rack: str) -> bool:
    """Board and rack hold only the language's tiles ("unknown letters" are ``bad_input``):
    the board ``.``, a letter or a lowercase blank for a letter a blank may stand for; the
    rack at most 7 letters and ``?``."""
    board_chars = {".", *lang.alphabet, *(ch.lower() for ch in lang.blank_letters)}
    return (
        len(board) == SIZE
        and all(len(row) == SIZE and set(row) <= board_chars for row in board)
        and len(rack) <= RACK_SIZE
        and set(rack) <= {"?", *lang.alphabet}
    )


def verdict(lang: Language, request: dict[str, Any], lexicon: Iterable[str]) -> dict[str, Any]:
    """The expected CLI output line (without ``message``) for a well-formed request."""
    move = [(int(r), int(c), str(letter)) for r, c, letter in request["move"]]
    if not well_formed(lang, request["board"], request["rack"]):
        return {"id": request.get("id"), "legal": False, "error": "bad_input"}
    try:
        scored = score_play(lang, request["board"], request["rack"], move, lexicon)
    except PlayError as exc:
        return {"id": request.get("id"), "legal": False, "error": exc.code}
    return {
        "id": request.get("id"),
        "legal": True,
        "score": scored.score,
        "words": [{"word": w, "score": s} for w, s in scored.words],
        "bingo": scored.bingo,
    }


def brute_force_moves(
    lang: Language, board: Sequence[str], rack: str, lexicon: Iterable[str]
) -> list[dict[str, Any]]:
    """Every legal move, by trying every straight span of empty squares against every word.

    For each row (and column) and each span whose two ends are empty squares, the empty
    squares in it are to be filled.  The letters along the whole run they make are fixed by
    the board except on those squares, so every lexicon word of the run's length whose fixed
    letters match is tried with every way the rack can supply the missing letters (a letter
    tile, or a blank standing for that letter if the language allows it); each candidate is
    then judged by ``score_play``.  A run of one square (a lone tile along this line) tries
    every rack letter, since its word, if any, is the crossing one.  Moves are deduplicated
    as sets of tiles, so a one-tile play found along the row and the column counts once.
    Sorted best score first, ties by ascending sorted tile list, as ``moves`` prints them.
    """
    words = {w.upper() for w in lexicon}
    have = Counter(rack)
    singles = {t for t in rack if t != "?"} | (set(lang.blank_letters) if "?" in rack else set())
    found: dict[tuple[Tile, ...], Scored] = {}
    lines = [[(r, c) for c in range(SIZE)] for r in range(SIZE)]
    lines += [[(r, c) for r in range(SIZE)] for c in range(SIZE)]
    occupied = {(r, c) for r in range(SIZE) for c in range(SIZE) if board[r][c] != "."}
    near = {
        (r, c): (r, c) == CENTER
        if not occupied
        else bool(occupied & {(r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)})
        for r in range(SIZE)
        for c in range(SIZE)
    }
    for line in lines:
        filled = [board[r][c] != "." for r, c in line]
        empties_at = [i for i, full in enumerate(filled) if not full]
        for a_i, a in enumerate(empties_at):
            for b in empties_at[a_i : a_i + len(rack)]:
                lo, hi = a, b
                while lo > 0 and filled[lo - 1]:
                    lo -= 1
                while hi < SIZE - 1 and filled[hi + 1]:
                    hi += 1
                run = line[lo : hi + 1]
                spots = [i - lo for i in empties_at if a <= i <= b]
                # Only a shortcut: spans that cannot touch the board (or the centre, on an
                # empty board) would all be refused by ``score_play`` anyway.
                if not any(near[run[i]] for i in spots):
                    continue
                if len(run) == 1:
                    candidates: Iterable[str] = singles
                else:
                    fixed = {i: board[r][c].upper() for i, (r, c) in enumerate(run) if filled[lo + i]}
                    candidates = [
                        w for w in words if len(w) == len(run) and all(w[i] == ch for i, ch in fixed.items())
                    ]
                for word in candidates:
                    options = []
                    for i in spots:
                        letter = word[i]
                        choice = [letter] if have[letter] else []
                        if have["?"] and letter in lang.blank_letters:
                            choice.append(letter.lower())
                        options.append(choice)
                    for letters in itertools.product(*options):
                        need = Counter("?" if ch != ch.upper() else ch for ch in letters)
                        if any(have[t] < n for t, n in need.items()):
                            continue
                        move = tuple(sorted((*run[i], ch) for i, ch in zip(spots, letters, strict=True)))
                        if move in found:
                            continue
                        try:
                            found[move] = score_play(lang, board, rack, move, words)
                        except PlayError:
                            continue
    ordered = sorted(found.items(), key=lambda kv: (-kv[1].score, [list(t) for t in kv[0]]))
    return [
        {
            "tiles": [list(t) for t in move],
            "score": s.score,
            "words": [{"word": w, "score": v} for w, v in s.words],
        }
        for move, s in ordered
    ]
