"""The move generator: every legal play for a board and a rack, scored and ranked.

Algorithm: Appel & Jacobson (1988), "The world's fastest Scrabble program", on the
flat DAWG of :class:`engine.lexicon.WordGraph`. For each direction the board is seen as
lines (rows for across plays, columns for down plays). An *anchor* is an empty square
next to a tile (on an empty board: the centre). A play is built from its leftmost
anchor: a *left part* on the empty non-anchor squares before it (or the tiles already
on the board just before it), then extended to the right through the anchor, placing
rack tiles on empty squares and following board tiles, while walking the graph. Each
play is found exactly once: its leftmost anchor is unique, and left parts never cover
an anchor.

Per empty square a *cross-check* mask says which letters make a valid word with the
tiles above and below it (for across plays): bit ``k`` for letter code ``k``, the same
layout as a graph node's child bits, so ``node_mask & crosscheck & rack_mask`` gives
the letters worth trying. The hot loop runs only on flat integers: the graph's
``nodes`` array, lists of ints for the board, the rack as counts per letter code and a
bit mask of the letters still on it. Scores are accumulated on the way down (main word
letters after letter premiums, word multiplier, cross-word total), so a finished play
is scored in O(1).

Moderated lexicons: the search walks every graph of ``lexicon.graphs()``; a main word
in ``lexicon.removed``, or one already found in an earlier graph, is dropped, and
cross-checks use the same union-minus-removed rule.

``best`` (top k) prunes with score upper bounds when the rack holds two blanks or more
(with fewer, a full search that keeps only plays reaching the running k-th best score
is faster). For every (anchor, left-part length) and number of tiles, the squares a
play would cover are fixed, so an upper bound is the best pairing of the rack's tile
values with those squares' coefficients (rearrangement inequality), ignoring the
lexicon. Searches run in decreasing order of bound and stop once no remaining bound can
reach the k-th best score found so far. Inside a search every node is bounded again
with graph facts computed once per graph and process (``_reach``: the letters below
each node, the letters some path below has twice, the longest word length below;
``_depth_masks``: the letters at each exact depth below the nodes near the root):

- only rack letters that occur below the node count in the bound, and no more tiles
  than the longest word from the node still has letters;
- the fewest tiles whose bound reaches the threshold fix a square that every play
  still worth finding covers, so a node whose words are too short to get past the
  board tiles there, or lack one of those board letters, is cut;
- in a left part of known length, the letter due on the anchor (its cross-check) and
  on the board tiles after it must be possible at that exact depth below the node;
- when only plays using every tile can still reach the threshold, a node whose
  subtree lacks one of the remaining letters (or a letter the rack holds twice), or
  whose longest word is too short for them, is cut.

What is left slow (docs/benchmarks.md): boards where the best play scores little, so
the bingo bound keeps many long left parts alive; with a DAWG the left part is spelt
before the anchor can constrain it, and each (anchor, length) walks its own.

Two implementations find exactly the same plays: the compiled core
(``engine/_core.pyx``, Cython, built in place by ``make install``), which runs the same
full search in C (its best mode keeps only plays reaching the running k-th best score
and needs none of the bounds or graph facts below), and the pure-Python search of this
module, the fallback when the core is not built. ``WORDGAME_MOVEGEN=pure|compiled``
forces either at import; :func:`set_implementation` switches at run time (tests, bench).
Plays stay compact (a score and a few integers each) until read: :func:`generate`
returns :class:`Moves`, which builds a :class:`GeneratedMove` per item asked for.

Ordering everywhere: higher score first; equal scores in ascending order of their
tile lists ``[[row, col, char], ...]`` sorted, where ``char`` is the board character
(uppercase letter, lowercase for a blank), compared as Python compares such lists.
"""

from __future__ import annotations

import heapq
import os
from array import array
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from operator import mul
from types import ModuleType
from typing import Any, Protocol, overload

from engine.board import EMPTY, Board, Layout
from engine.lexicon import Lexicon, WordGraph
from engine.moves import Placement
from engine.scoring import ACROSS, DOWN, Direction, WordScore, words_formed
from engine.tiles import BLANK, TileSet

__all__ = [
    "IMPLEMENTATIONS",
    "GeneratedMove",
    "MoveCount",
    "Moves",
    "best",
    "count",
    "generate",
    "implementation",
    "scores",
    "set_implementation",
]


def _load_core() -> ModuleType | None:
    """The compiled core (``engine/_core.pyx``, built in place by ``make install``), or
    None when it is not built or was built from another version of its source."""
    try:
        from engine import _core
    except ImportError:
        return None
    return _core if getattr(_core, "ABI", None) == _CORE_ABI else None


def _chosen_implementation() -> str:
    """``WORDGAME_MOVEGEN`` (``pure`` or ``compiled``) if set, else the compiled core when
    it is built. The one environment variable the engine reads: it picks how moves are
    searched, never what the rules are (both implementations find the same plays)."""
    wanted = os.environ.get("WORDGAME_MOVEGEN", "")
    if wanted not in ("", "pure", "compiled"):
        raise ValueError(f"WORDGAME_MOVEGEN={wanted!r}: expected pure or compiled")
    if wanted == "compiled" and _core is None:
        raise ImportError(
            "WORDGAME_MOVEGEN=compiled but the compiled move generator is not built "
            "(run make install, or cythonize -i engine/_core.pyx)"
        )
    if wanted:
        return wanted
    return "compiled" if _core is not None else "pure"


# The version of the compiled core's interface this module speaks (``_core.ABI``).
_CORE_ABI = 1
_core = _load_core()
# Modes of ``_core.run``.
_MODE_COUNT = 0
_MODE_SCORES = 1
_MODE_COLLECT = 2

_NEVER = -(1 << 30)  # a bound no play reaches
_LETTER_FACTOR = {"DL": 2, "TL": 3}
_WORD_FACTOR = {"DW": 2, "TW": 3}

# A placed tile inside the search: (line square << 6) | (letter code << 1) | is_blank.
# Letter codes are at most 31, so code and blank flag fit in the low 6 bits.
_SQ_SHIFT = 6


@dataclass(frozen=True, slots=True)
class GeneratedMove:
    """One legal play: its tiles (sorted by row, then column), score and direction.

    ``score`` includes the bingo bonus. ``words`` (main word first, then cross words
    in board order) is computed on demand with the engine's own scoring, so generating
    many moves stays cheap.
    """

    placements: tuple[Placement, ...]
    score: int
    bingo: bool
    direction: Direction
    board: Board = field(repr=False, compare=False)
    tileset: TileSet = field(repr=False, compare=False)
    layout: Layout = field(repr=False, compare=False)

    @property
    def words(self) -> tuple[WordScore, ...]:
        """The words formed, scored: the main word first, then the cross words."""
        new = {(p.row, p.col): p.board_char for p in self.placements}
        return words_formed(self.board, new, self.tileset, self.layout)

    @property
    def tiles(self) -> tuple[tuple[int, int, str], ...]:
        """``(row, col, board character)`` per tile, lowercase for a blank, sorted."""
        return tuple((p.row, p.col, p.board_char) for p in self.placements)


@dataclass(frozen=True, slots=True)
class MoveCount:
    """How many legal plays there are and the best score (None when there is none);
    ``better``: how many score more than the ``better_than`` asked for (else 0)."""

    count: int
    best_score: int | None
    better: int = 0


# -- per (tileset, layout, alphabet) tables -------------------------------------------


class _Tables:
    """Everything that depends only on the tile set, the layout and the graph alphabet."""

    def __init__(self, tiles: TileSet, geometry: Layout, alphabet: tuple[str, ...]) -> None:
        n = geometry.size
        self.size = n
        self.stride = n + 1  # one sentinel square (never playable) after each line
        self.alphabet = alphabet
        self.letters = ("", *alphabet)
        self.codes = {letter: i + 1 for i, letter in enumerate(alphabet)}
        self.values = [0] + [tiles.values.get(letter, 0) for letter in alphabet]
        # Letters the game has tiles for; a graph letter without a tile cannot be played.
        self.tile_mask = sum(1 << self.codes[ch] for ch in alphabet if ch in tiles.values)
        self.blank_mask = sum(1 << self.codes[ch] for ch in alphabet if ch in tiles.blank_letters)
        self.rack_size = tiles.rack_size
        self.bingo = tiles.bingo_bonus
        self.center = geometry.center
        # Premiums in line coordinates for each direction (index i * stride + j).
        s = self.stride
        self.lm: dict[Direction, list[int]] = {}
        self.wm: dict[Direction, list[int]] = {}
        for direction in (ACROSS, DOWN):
            lm = [1] * (n * s)
            wm = [1] * (n * s)
            for (row, col), premium in geometry.premiums.items():
                i, j = (row, col) if direction == ACROSS else (col, row)
                lm[i * s + j] = _LETTER_FACTOR.get(premium, 1)
                wm[i * s + j] = _WORD_FACTOR.get(premium, 1)
            self.lm[direction] = lm
            self.wm[direction] = wm
        # Board characters to letter codes and points (a lowercase letter is a blank).
        self.char_code = {EMPTY: 0}
        self.char_points = {EMPTY: 0}
        for letter, code in self.codes.items():
            self.char_code[letter] = self.char_code[letter.lower()] = code
            self.char_points[letter] = self.values[code]
            self.char_points[letter.lower()] = 0
        # Line square -> board index (row * size + col), -1 for the sentinels.
        self.line_index: dict[Direction, list[int]] = {}
        for direction in (ACROSS, DOWN):
            idx = [-1] * (n * s)
            for i in range(n):
                for j in range(n):
                    row, col = (i, j) if direction == ACROSS else (j, i)
                    idx[i * s + j] = row * n + col
            self.line_index[direction] = idx
        # Sort keys: a tile's position in the tie-break order is (row, col, char) with
        # char the board character; rank the 2 * 32 (code, blank) pairs by that string.
        chars: dict[int, str] = {}
        for letter, code in self.codes.items():
            chars[code << 1] = letter
            chars[(code << 1) | 1] = letter.lower()
        ranked = sorted(chars, key=lambda key: chars[key])
        self.rank = [0] * 64
        self.unrank: list[tuple[str, bool]] = [("", False)] * 64
        for r, key in enumerate(ranked):
            self.rank[key] = r
            self.unrank[r] = (self.letters[key >> 1], bool(key & 1))
        self._sort_key: dict[Direction, list[int]] = {}
        # Placements by sort key, built once each (they are immutable values).
        self.placements: dict[int, Placement] = {}
        self.core: Any = None

    @property
    def sort_key(self) -> dict[Direction, list[int]]:
        """enc (line tile) -> board-order sort key ``(row * size + col) * 64 + rank``, per
        direction. Built on first use: only the pure generator needs it (about 1 MB of
        Python ints per language; the compiled core computes keys itself)."""
        if not self._sort_key:
            n, s = self.size, self.stride
            for direction in (ACROSS, DOWN):
                keys = [0] * (n * s << _SQ_SHIFT)
                for i in range(n):
                    for j in range(n):
                        row, col = (i, j) if direction == ACROSS else (j, i)
                        base = (i * s + j) << _SQ_SHIFT
                        for low in range(64):
                            keys[base | low] = (row * n + col) * 64 + self.rank[low]
                self._sort_key[direction] = keys
        return self._sort_key

    def decode(self, keys: Iterable[int]) -> tuple[Placement, ...]:
        """The placements of a play from its sort keys (``(row * size + col) * 64 +
        rank``)."""
        cache = self.placements
        out = []
        for key in keys:
            p = cache.get(key)
            if p is None:
                sq, r = divmod(key, 64)
                letter, blank = self.unrank[r]
                p = cache[key] = Placement(sq // self.size, sq % self.size, letter, blank)
            out.append(p)
        return tuple(out)

    def core_tables(self) -> Any:
        """These tables as the compiled core's ``Tables`` (built on first use)."""
        if self.core is None:
            assert _core is not None
            self.core = _core.Tables(self)
        return self.core


_TABLES: dict[tuple[int, int, tuple[str, ...]], tuple[TileSet, Layout, _Tables]] = {}


def _tables(tiles: TileSet, geometry: Layout, alphabet: tuple[str, ...]) -> _Tables:
    key = (id(tiles), id(geometry), alphabet)
    hit = _TABLES.get(key)
    # Identity check: an id can be reused once its object is gone.
    if hit is not None and hit[0] is tiles and hit[1] is geometry:
        return hit[2]
    if len(_TABLES) > 32:
        _TABLES.clear()
    made = _Tables(tiles, geometry, alphabet)
    _TABLES[key] = (tiles, geometry, made)
    return made


# -- one position ----------------------------------------------------------------------


class _Lines:
    """One direction of one board, as flat lists in line coordinates.

    Square ``(i, j)`` of line ``i`` is index ``i * stride + j``; index ``i * stride +
    size`` is a sentinel: empty, nothing playable (``xmask`` 0).
    """

    __slots__ = ("anchors", "codes", "direction", "lm", "values", "wm", "xc", "xmask", "xw")

    def __init__(
        self,
        direction: Direction,
        codes: list[int],
        values: list[int],
        xmask: list[int],
        xc: list[int],
        xw: list[int],
        anchors: list[tuple[int, int]],
        t: _Tables,
    ) -> None:
        self.direction = direction
        self.codes = codes  # letter code of the board tile, 0 when empty
        self.values = values  # points of the board tile (0 for a blank on the board)
        self.xmask = xmask  # letters allowed by the perpendicular word
        self.xc = xc  # (points of the perpendicular neighbours) * word factor, if any
        self.xw = xw  # word factor if a perpendicular word is formed, else 0
        self.anchors = anchors  # (line, position)
        self.lm = t.lm[direction]
        self.wm = t.wm[direction]


class _Position:
    """A board, a rack and a lexicon, prepared for searching."""

    def __init__(self, board: Board, rack: str, tiles: TileSet, geometry: Layout, lexicon: Lexicon) -> None:
        graphs = tuple(lexicon.graphs())
        if not graphs:
            raise ValueError("the lexicon has no word graph")
        alphabet = graphs[0].alphabet
        if any(g.alphabet != alphabet for g in graphs):
            raise ValueError("all graphs of a lexicon must share one alphabet")
        t = _tables(tiles, geometry, tuple(alphabet))
        self.t = t
        self.board = board
        self.tileset = tiles
        self.layout = geometry
        self.graphs = graphs
        self.removed = lexicon.removed
        n = t.size
        if len(board) != n or any(len(row) != n for row in board):
            raise ValueError(f"the board must be {n} strings of {n} characters")

        # Rack: counts per letter code, number of blanks.
        self.counts = [0] * 32
        self.blanks = 0
        for tile in rack:
            if tile == BLANK:
                self.blanks += 1
                continue
            code = t.codes.get(tile)
            if code is None or not (t.tile_mask >> code) & 1:
                raise ValueError(f"{tile!r} is not a tile of {tiles.language}")
            self.counts[code] += 1
        self.avail = sum(1 << k for k in range(32) if self.counts[k])
        self.ntiles = len(rack)
        # Blanks may stand only for the language's blank letters.
        self.bmask = t.blank_mask if self.blanks else 0
        vals = sorted([t.values[k] for k in range(32) for _ in range(self.counts[k])], reverse=True)
        self.rack_values = vals + [0] * self.blanks
        self.values_by_avail: dict[int, list[int]] = {}

        char_code, char_points = t.char_code, t.char_points
        try:
            grid = [char_code[ch] for row in board for ch in row]
        except KeyError as exc:
            raise ValueError(f"board: {exc.args[0]!r} is not a letter of the lexicon") from None
        points = [char_points[ch] for row in board for ch in row]
        self.first_move = not any(grid)
        self.lines = {d: self._lines(d, grid, points) for d in (ACROSS, DOWN)}

    def _lines(self, direction: Direction, grid: list[int], points: list[int]) -> _Lines:
        t = self.t
        n, s = t.size, t.stride
        # index -1 is the sentinel square after each line (grid padded with a 0).
        index = t.line_index[direction]
        grid = [*grid, 0]
        points = [*points, 0]
        codes = [grid[k] for k in index]
        values = [points[k] for k in index]
        full = t.tile_mask | t.blank_mask
        xmask = [0 if c else full for c in codes]
        for sentinel in range(n, n * s, s):
            xmask[sentinel] = 0  # nothing is ever played past the end of a line
        xc = [0] * (n * s)
        xw = [0] * (n * s)
        wm = t.wm[direction]
        anchors: list[tuple[int, int]] = []
        last = (n - 1) * s
        for sq in range(n * s):
            if codes[sq] or sq % s == n:
                continue
            up = sq >= s and codes[sq - s]
            down = sq < last and codes[sq + s]
            if up or down:
                anchors.append(divmod(sq, s))
                # The perpendicular run through this square: tiles above and below.
                k = sq - s
                while k >= 0 and codes[k]:
                    k -= s
                top = k + s
                k = sq + s
                while k < n * s and codes[k]:
                    k += s
                prefix = [codes[q] for q in range(top, sq, s)]
                suffix = [codes[q] for q in range(sq + s, k, s)]
                xmask[sq] = self._cross_mask(prefix, suffix) & full
                xw[sq] = wm[sq]
                xc[sq] = (
                    sum(values[q] for q in range(top, sq, s)) + sum(values[q] for q in range(sq + s, k, s))
                ) * wm[sq]
            elif codes[sq - 1] or codes[sq + 1]:
                # sq - 1 at the start of a line is the previous line's sentinel (or, for
                # the very first square, the last sentinel): empty either way.
                anchors.append(divmod(sq, s))
        if self.first_move:
            r, c = t.center
            anchors = [(r, c) if direction == ACROSS else (c, r)]
        return _Lines(direction, codes, values, xmask, xc, xw, anchors, t)

    def _cross_mask(self, prefix: list[int], suffix: list[int]) -> int:
        """Letters ``k`` such that prefix + k + suffix is a valid word."""
        mask = 0
        for g in self.graphs:
            nodes = g.nodes
            n = g.root
            ok = True
            for code in prefix:
                w = nodes[n]
                bit = 1 << code
                if not w & bit:
                    ok = False
                    break
                n = nodes[n + 1 + (w & (bit - 2)).bit_count()]
            if not ok:
                continue
            w0 = nodes[n]
            cand = w0 & ~1 & ~mask
            while cand:
                low = cand & -cand
                cand ^= low
                m = nodes[n + 1 + (w0 & (low - 2)).bit_count()]
                for code in suffix:
                    w = nodes[m]
                    bit = 1 << code
                    if not w & bit:
                        m = -1
                        break
                    m = nodes[m + 1 + (w & (bit - 2)).bit_count()]
                if m >= 0 and nodes[m] & 1:
                    mask |= low
        if self.removed and mask:
            letters = self.t.letters
            head = "".join(letters[c] for c in prefix)
            tail = "".join(letters[c] for c in suffix)
            cand = mask
            while cand:
                low = cand & -cand
                cand ^= low
                if head + letters[low.bit_length() - 1] + tail in self.removed:
                    mask ^= low
        return mask

    # -- tasks and bounds ------------------------------------------------------------

    def tasks(self, lines: _Lines) -> list[tuple[int, int, int]]:
        """``(line, anchor, left)`` for every anchor: ``left >= 0`` is the largest
        left part from the rack (empty non-anchor squares before the anchor, at most
        the rack size - 1); ``left == -1`` means tiles on the board precede it."""
        s = self.t.stride
        codes = lines.codes
        anchor_set = {i * s + j for i, j in lines.anchors}
        out: list[tuple[int, int, int]] = []
        for i, a in lines.anchors:
            sq = i * s + a
            if a > 0 and codes[sq - 1]:
                out.append((i, a, -1))
                continue
            limit = 0
            j = a - 1
            while j >= 0 and not codes[i * s + j] and (i * s + j) not in anchor_set:
                limit += 1
                j -= 1
            out.append((i, a, min(limit, self.ntiles - 1)))
        return out

    def geometry(self, lines: _Lines, i: int, a: int, left: int) -> _Geometry:
        """The squares a play from anchor ``a`` of line ``i`` covers, with a left part
        of ``left`` rack tiles (``-1``: the board tiles before the anchor)."""
        t = self.t
        s, n = t.stride, t.size
        codes, values, xmask = lines.codes, lines.values, lines.xmask
        playable = self.avail | self.bmask
        base = i * s
        msum0 = 0
        if left == -1:
            j = a - 1
            while j >= 0 and codes[base + j]:
                msum0 += values[base + j]
                j -= 1
            j = a
        else:
            j = a - left
        placed: list[int] = []
        trails: list[int] = []
        while len(placed) < self.ntiles:
            # j is empty here: the previous trailing run ended on it.
            if j >= n or not xmask[base + j] & playable:
                break
            placed.append(base + j)
            j += 1
            run = 0
            while j < n and codes[base + j]:
                run += values[base + j]
                j += 1
            trails.append(run)
        wm = lines.wm
        mults = [1]
        for q in placed:
            mults.append(mults[-1] * wm[q])
        return _Geometry(placed, trails, mults, msum0, max(left, 0) + 1)

    def k_row(self, lines: _Lines, g: _Geometry, nt: int) -> list[int]:
        """``row[t]`` for ``t`` in ``max(nt + 1, g.need) .. len(g.placed)``: with ``nt``
        tiles down, a play of ``t`` tiles scores at most ``msum * g.mults[t] + xtot +
        row[t]`` (``msum``, ``xtot``: main-word letters and cross-word total so far).
        Other entries are -1 (no play of fewer than ``g.need`` tiles reaches the
        anchor). The rest of the rack is bounded by the best tiles of the whole rack,
        paired with the best coefficients (rearrangement inequality)."""
        lm, xc, xw = lines.lm, lines.xc, lines.xw
        vals = self.rack_values
        rack_size, bingo = self.t.rack_size, self.t.bingo
        row = [-1] * (len(g.placed) + 1)
        board = 0
        cross = 0
        for t in range(nt + 1, len(g.placed) + 1):
            q = g.placed[t - 1]
            board += g.trails[t - 1]
            cross += xc[q]
            if t < g.need:
                continue
            mult = g.mults[t]
            coefs = sorted([lm[p] * (mult + xw[p]) for p in g.placed[nt:t]], reverse=True)
            bound = board * mult + cross + sum(map(mul, coefs, vals))
            if t == rack_size:
                bound += bingo
            row[t] = bound
        return row


@dataclass(slots=True)
class _Geometry:
    """Where a play from one anchor and left-part length can go: ``placed[t - 1]`` is the
    square of its t-th tile, ``trails[t - 1]`` the points of the board tiles right after
    it, ``mults[t]`` the word multiplier of a t-tile play, ``msum0`` the points of the
    board tiles before the first tile, ``need`` the fewest tiles that reach the anchor."""

    placed: list[int]
    trails: list[int]
    mults: list[int]
    msum0: int
    need: int


# -- the search ------------------------------------------------------------------------


class _Bounder:
    """Score bounds for the plays of one best-mode task (one anchor, one left-part
    length), by the tiles still on the rack.

    ``get(nt, avail, blanks)`` returns ``(m, k)``: with ``nt`` tiles down and the rack
    reduced to the letters of ``avail`` (each at most its original count) and
    ``blanks`` blanks, no play of this task scores more than ``msum * m + xtot + k``.
    Results are memoised: a task sees few distinct (nt, avail, blanks).
    """

    __slots__ = (
        "by_avail",
        "counts",
        "fixed_letters",
        "memo",
        "need_at",
        "need_base",
        "need_end",
        "ntiles",
        "rows",
        "source",
        "values",
    )

    def __init__(self, pos: _Position, lines: _Lines, g: _Geometry, tmax: int, tmin: int) -> None:
        # Every play of this task that can still reach the threshold has at least
        # ``tmin`` tiles, so its word covers the square of the tmin-th tile and the board
        # tiles right after it: up to ``need_end`` (exclusive, a line square). A graph
        # node from which no word is long enough to get there, or whose words lack a
        # board letter on the way (``need_at[sq - need_base]``: the letters of the board
        # tiles from ``sq`` to ``need_end``), cannot lead to such a play. This is what
        # cuts left parts before an anchor that is followed by board tiles.
        codes = lines.codes
        self.need_base = g.placed[g.need - 1]  # the anchor square
        q = g.placed[max(tmin, g.need) - 1] + 1
        while codes[q]:  # the sentinel after each line is empty
            q += 1
        self.need_end = q
        need_at = [0] * (q - self.need_base)
        mask = 0
        for sq in range(q - 1, self.need_base - 1, -1):
            if codes[sq]:
                mask |= 1 << codes[sq]
            need_at[sq - self.need_base] = mask
        self.need_at = need_at
        # The squares of that span whose letter is constrained (a board tile, or an
        # empty square with a cross-check or no blank to play there): ``(offset from
        # the anchor, allowed letters)``, for the exact-depth letter test of left parts.
        full = pos.t.tile_mask | pos.t.blank_mask
        playable = pos.avail | pos.bmask
        fixed: list[tuple[int, int]] = []
        for sq in range(self.need_base, q):
            allowed = 1 << codes[sq] if codes[sq] else lines.xmask[sq] & playable
            if allowed & full != full:
                fixed.append((sq - self.need_base, allowed))
        self.fixed_letters = fixed
        self.values = pos.t.values
        self.counts = pos.counts
        self.ntiles = pos.ntiles
        self.memo: dict[int, tuple[int, int, int, int]] = {}
        # The values of the letters left, best first, per ``avail`` (shared by the tasks).
        self.by_avail = pos.values_by_avail
        # rows[nt], built on first use (a task meets few nt): per play size t > nt:
        # (t, word multiplier, fixed part, coefficients of the squares still to fill,
        # best first).
        self.rows: list[list[tuple[int, int, int, list[int]]] | None] = [None] * tmax
        self.source = (lines, g, tmax, pos.t.rack_size, pos.t.bingo)

    def _row(self, nt: int) -> list[tuple[int, int, int, list[int]]]:
        lines, g, tmax, rack_size, bingo = self.source
        lm, xc, xw = lines.lm, lines.xc, lines.xw
        row = []
        board = cross = 0
        for t in range(nt + 1, tmax + 1):
            q = g.placed[t - 1]
            board += g.trails[t - 1]
            cross += xc[q]
            if t < g.need:
                continue  # no play of this task has fewer tiles than reach the anchor
            mult = g.mults[t]
            coefs = sorted([lm[p] * (mult + xw[p]) for p in g.placed[nt:t]], reverse=True)
            row.append((t, mult, board * mult + cross + (bingo if t == rack_size else 0), coefs))
        self.rows[nt] = row
        return row

    def get(self, nt: int, avail: int, blanks: int, height: int) -> tuple[int, int, int, int]:
        """``(m, k, m2, k2)``: ``m, k`` bound every play, ``m2, k2`` every play that
        leaves a tile on the rack (so when only ``m, k`` reach the threshold, the
        search may insist on using every tile). At most ``height`` more tiles, which
        the caller caps at ``ntiles - nt`` (so that the memo key stays small)."""
        key = (avail << 15) | (height << 10) | (blanks << 5) | nt  # as ``_search`` looks it up
        hit = self.memo.get(key)
        if hit is not None:
            return hit
        vals = self.by_avail.get(avail)
        if vals is None:
            vals = self.by_avail[avail] = sorted(
                (self.values[k] for k in range(1, 32) if avail >> k & 1 for _ in range(self.counts[k])),
                reverse=True,
            )
        left = min(len(vals) + blanks, height)
        ntiles = self.ntiles
        best_m = best_m2 = 0
        best_k = best_k2 = _NEVER
        for t, mult, fixed, coefs in self.rows[nt] or self._row(nt):
            if t - nt > left:
                break
            bound = fixed + sum(map(mul, coefs, vals))  # stops at the shorter list
            if mult > best_m:
                best_m = mult
            if bound > best_k:
                best_k = bound
            if t < ntiles:
                if mult > best_m2:
                    best_m2 = mult
                if bound > best_k2:
                    best_k2 = bound
        hit = self.memo[key] = (best_m, best_k, best_m2, best_k2)
        return hit


_REACH: dict[int, tuple[WordGraph, list[int]]] = {}


def _reach(graph: WordGraph) -> list[int]:
    """Per node of ``graph`` (indexed like ``nodes``): the letters on some path below
    it (bits 1..31), shifted left by 32 the letters some path below has at least twice,
    and shifted left by 64 the length of its longest path to a word end. Computed once
    per graph and process (one pass over the graph)."""
    hit = _REACH.get(id(graph))
    if hit is not None and hit[0] is graph:
        return hit[1]
    nodes = graph.nodes
    out = [-1] * len(nodes)
    stack = [graph.root]
    while stack:
        n = stack[-1]
        if out[n] >= 0:
            stack.pop()
            continue
        w = nodes[n]
        children = nodes[n + 1 : n + 1 + (w >> 1).bit_count()].tolist()
        todo = [c for c in children if out[c] < 0]
        if todo:
            stack.extend(todo)
            continue
        stack.pop()
        mask = w & ~1
        twice = 0
        height = -1 if children else 0
        bits = mask
        for c in children:
            low = bits & -bits
            bits ^= low
            info = out[c]
            below = info & 0xFFFFFFFF
            mask |= below
            twice |= (info >> 32) & 0xFFFFFFFF | below & low
            height = max(height, info >> 64)
        out[n] = mask | twice << 32 | (height + 1 if children else 0) << 64
    if len(_REACH) > 8:
        _REACH.clear()
    _REACH[id(graph)] = (graph, out)
    return out


def _twice(avail: int, counts: list[int]) -> int:
    """The letters of ``avail`` that the rack still holds at least twice."""
    out = 0
    while avail:
        low = avail & -avail
        avail ^= low
        if counts[low.bit_length() - 1] > 1:
            out |= low
    return out


class _Masks(Protocol):
    """A letter mask per graph node: the node array, an ``array`` or a ``dict``."""

    def __getitem__(self, node: int, /) -> int: ...


_DEPTH = 7  # how deep below a node ``_depth_masks`` looks
_DEPTH_MASKS: dict[int, tuple[WordGraph, list[_Masks]]] = {}


def _depth_masks(graph: WordGraph) -> list[_Masks]:
    """``layers[m][n]``: the letters that some path from node ``n`` has as its
    ``m + 1``-th letter (bit k for letter code k), for the nodes that a path of at most
    ``_DEPTH - m`` letters from the root reaches (elsewhere 0: callers ask only about
    those). ``layers[0]`` is the node array itself (its child bits; bit 0 is the
    terminal flag, which no letter mask has). Lets a left part of known length be cut
    as soon as the letter it must have on the anchor, or on a board tile after it,
    cannot come at that distance. Computed once per graph and process, over the nodes
    near the root only (so it stays cheap: about 80k node visits for English); a
    layer over few nodes is a dict (asking about another node is a KeyError, which
    the callers' depth limit rules out), the others are arrays indexed like
    ``nodes``."""
    hit = _DEPTH_MASKS.get(id(graph))
    if hit is not None and hit[0] is graph:
        return hit[1]
    nodes = graph.nodes
    # within[k]: the nodes a path of at most k letters from the root reaches.
    within = [[graph.root]]
    seen = {graph.root}
    frontier = [graph.root]
    children: dict[int, list[int]] = {}
    for _ in range(_DEPTH - 1):
        nxt = []
        for n in frontier:
            kids = children[n] = nodes[n + 1 : n + 1 + (nodes[n] >> 1).bit_count()].tolist()
            for c in kids:
                if c not in seen:
                    seen.add(c)
                    nxt.append(c)
        within.append(within[-1] + nxt)
        frontier = nxt
    layers: list[_Masks] = [nodes]
    prev: _Masks = nodes
    for m in range(1, _DEPTH + 1):
        domain = within[_DEPTH - m]
        # About 100 bytes per dict entry against 4 bytes per node word in an array.
        layer: array[int] | dict[int, int] = (
            {} if len(domain) * 25 < len(nodes) else array("I", bytes(4 * len(nodes)))
        )
        for n in domain:
            known = children.get(n)
            if known is None:
                known = children[n] = nodes[n + 1 : n + 1 + (nodes[n] >> 1).bit_count()].tolist()
            v = 0
            for c in known:
                v |= prev[c]
            layer[n] = v & ~1
        layers.append(layer)
        prev = layer
    if len(_DEPTH_MASKS) > 8:
        _DEPTH_MASKS.clear()
    _DEPTH_MASKS[id(graph)] = (graph, layers)
    return layers


# (line, anchor, lo, hi, tmax, bounder): see ``_search``.
_Task = tuple[int, int, int, int, int, "_Bounder | None"]


def _search(
    pos: _Position,
    lines: _Lines,
    graph_index: int,
    tasks: Iterable[_Task],
    scores: list[int] | None,
    moves: list[tuple[int, tuple[int, ...]]] | None,
    threshold: list[int],
    top: tuple[list[int], int] | None = None,
) -> None:
    """Run the Appel-Jacobson search of one graph over ``tasks``.

    A task is ``(line, anchor, lo, hi, tmax, bounder)``: left parts of ``lo..hi`` rack
    tiles (``lo == -1``: the board tiles before the anchor), plays of at most ``tmax``
    tiles; with a bounder (best mode, one left-part length), a branch whose bound is
    below the threshold is cut.
    With ``top = (heap, k)``, the heap keeps the k best scores found and the threshold
    follows its smallest.
    Found plays go to ``scores`` (just the score) when it is given, else to ``moves`` as
    ``(score, encoded tiles)`` for plays scoring at least ``threshold[0]`` (a list, so
    the caller can raise it between tasks).
    """
    t = pos.t
    graph = pos.graphs[graph_index]
    nodes = graph.nodes
    root = graph.root
    s = t.stride
    codes, values = lines.codes, lines.values
    xmask, xc, xw, lm, wm = lines.xmask, lines.xc, lines.xw, lines.lm, lines.wm
    vals = t.values
    counts = list(pos.counts)
    bmask = pos.bmask
    rack_size = t.rack_size
    bingo = t.bingo
    # A one-tile play is found in the across pass when it makes an across word; the
    # down pass skips those so that it counts once.
    skip_single = lines.direction == DOWN
    ntiles = pos.ntiles
    tasks = tuple(tasks)
    bounded = any(task[5] is not None for task in tasks)
    # Graph facts for the bounds, computed once per graph and process.
    reach = _reach(graph) if bounded else []
    layers = _depth_masks(graph) if bounded else []
    # Best mode, per fixed left-part length and depth d: (layer, allowed letters) pairs
    # that the node after d letters must pass (see ``_depth_masks``).
    dchecks: list[list[tuple[_Masks, int]]] = []
    tiles: list[int] = []
    lp: list[int] = []
    emit_score = scores.append if scores is not None else None
    emit_move = moves.append if moves is not None else None
    heap, want = top if top is not None else (None, 0)

    check: Callable[[int], bool] | None = None
    if pos.removed or graph_index > 0:
        removed = pos.removed
        earlier = pos.graphs[:graph_index]
        letters = t.letters

        def accept(j: int) -> bool:
            """The main word (start..j-1) is valid and not already found in an
            earlier graph of the lexicon."""
            placed = {e >> _SQ_SHIFT: (e >> 1) & 31 for e in tiles}
            word = "".join(letters[codes[q] or placed[q]] for q in range(base + start, base + j))
            return word not in removed and not any(word in g for g in earlier)

        check = accept

    # Per task: the line's first index, the anchor, the main word's start, tile cap.
    base = 0
    anchor = 0
    start = 0
    tmax = 0
    bounder: _Bounder | None = None
    # Best mode, per task: see ``_Bounder.need_at``.
    need_end = 0
    need_base = 0
    need_at: list[int] = []
    need_first = 0
    no_memo: dict[int, tuple[int, int, int, int]] = {}
    bmemo_get = no_memo.get

    def extend(n: int, j: int, msum: int, mult: int, xtot: int, nt: int, avail: int, blanks: int) -> None:
        # n: graph node after the letters start..j-1; j: next position in the line.
        w = nodes[n]
        sq = base + j
        c = codes[sq]
        while c:  # follow the tiles already on the board
            bit = 1 << c
            if not w & bit:
                return
            n = nodes[n + 1 + (w & (bit - 2)).bit_count()]
            w = nodes[n]
            msum += values[sq]
            sq += 1
            j += 1
            c = codes[sq]
        if (
            w & 1
            and j > anchor
            and j - start > 1
            and (nt > 1 or not skip_single or not xw[tiles[0] >> _SQ_SHIFT])
            and (check is None or check(j))
        ):
            score = msum * mult + xtot
            if nt == rack_size:
                score += bingo
            if emit_score is not None:
                emit_score(score)
            elif emit_move is not None and score >= threshold[0]:
                emit_move((score, tuple(tiles)))
                if heap is not None:
                    if len(heap) < want:
                        heapq.heappush(heap, score)
                        if len(heap) == want:
                            threshold[0] = heap[0]
                    elif score > heap[0]:
                        heapq.heapreplace(heap, score)
                        threshold[0] = heap[0]
        if nt >= tmax:
            return
        if bounder is not None:
            info = reach[n]
            height = info >> 64
            if sq < need_end and (height < need_end - sq or need_at[sq - need_base] & ~info):
                return
            # Only letters that occur below this node can still be played, and no more
            # tiles than the longest word from here has letters left.
            reachable = avail & info
            cap = height if height < ntiles - nt else ntiles - nt
            hit = bmemo_get((reachable << 15) | (cap << 10) | (blanks << 5) | nt)
            bm, bk, bm2, bk2 = hit if hit is not None else bounder.get(nt, reachable, blanks, cap)
            if msum * bm + xtot + bk < threshold[0]:
                return
            # Only plays using every tile can still make it: the rest of the word must
            # hold each remaining letter and be long enough for them all.
            if msum * bm2 + xtot + bk2 < threshold[0] and (
                avail & ~info or height < ntiles - nt or _twice(avail, counts) & ~(info >> 32)
            ):
                return
        cand = w & xmask[sq] & (avail | (bmask if blanks else 0))
        if not cand:
            return
        lmq = lm[sq]
        wmq = wm[sq]
        xcq = xc[sq]
        xwq = xw[sq]
        mult2 = mult * wmq
        j += 1
        nt += 1
        enc = sq << _SQ_SHIFT
        # A board tile right after this square must continue the word: test it here
        # rather than in the call (saves a call per dead end).
        after = codes[sq + 1]
        after_bit = 1 << after if after else 0
        while cand:
            low = cand & -cand
            cand ^= low
            child = nodes[n + 1 + (w & (low - 2)).bit_count()]
            if after_bit and not nodes[child] & after_bit:
                continue
            k = low.bit_length() - 1
            if avail & low:
                v = vals[k] * lmq
                left = counts[k] - 1
                counts[k] = left
                tiles.append(enc | (k << 1))
                extend(
                    child,
                    j,
                    msum + v,
                    mult2,
                    xtot + xcq + v * xwq,
                    nt,
                    avail if left else avail ^ low,
                    blanks,
                )
                tiles.pop()
                counts[k] = left + 1
            if blanks and bmask & low:
                tiles.append(enc | (k << 1) | 1)
                extend(child, j, msum, mult2, xtot + xcq, nt, avail, blanks - 1)
                tiles.pop()

    lo = hi = 0

    def left_part(n: int, size: int, avail: int, blanks: int) -> None:
        # lp holds ``size`` rack tiles (code << 1 | blank) that end just before the anchor.
        nonlocal start
        # Only when some tile can go on the anchor after this left part.
        if size >= lo and nodes[n] & xmask[base + anchor] & (avail | (bmask if blanks else 0)):
            start = anchor - size
            msum = 0
            mult = 1
            tiles.clear()
            for idx, e in enumerate(lp):
                sq = base + start + idx
                if not e & 1:
                    msum += vals[e >> 1] * lm[sq]
                mult *= wm[sq]
                tiles.append((sq << _SQ_SHIFT) | e)
            extend(n, anchor, msum, mult, 0, size, avail, blanks)
        if size >= hi:
            return
        w = nodes[n]
        cand = w & (avail | (bmask if blanks else 0))
        while cand:
            low = cand & -cand
            cand ^= low
            child = nodes[n + 1 + (w & (low - 2)).bit_count()]
            k = low.bit_length() - 1
            if avail & low:
                remaining = counts[k] - 1
                counts[k] = remaining
                lp.append(k << 1)
                left_part(child, size + 1, avail if remaining else avail ^ low, blanks)
                lp.pop()
                counts[k] = remaining + 1
            if blanks and bmask & low:
                lp.append((k << 1) | 1)
                left_part(child, size + 1, avail, blanks - 1)
                lp.pop()

    def left_fixed(n: int, d: int, msum: int, mult: int, avail: int, blanks: int) -> None:
        # Best mode: the left part has exactly ``lo`` tiles from ``start``, so each tile's
        # square is known and the partial score can be bounded as it grows.
        if d == lo:
            tiles.clear()
            for idx, e in enumerate(lp):
                tiles.append(((base + start + idx) << _SQ_SHIFT) | e)
            extend(n, anchor, msum, mult, 0, d, avail, blanks)
            return
        assert bounder is not None
        sq = base + start + d
        info = reach[n]
        height = info >> 64
        if height < need_end - sq or need_first & ~info:
            return  # no word from here reaches past the board tiles it must cover
        reachable = avail & info
        cap = height if height < ntiles - d else ntiles - d
        hit = bmemo_get((reachable << 15) | (cap << 10) | (blanks << 5) | d)
        bm, bk, bm2, bk2 = hit if hit is not None else bounder.get(d, reachable, blanks, cap)
        if msum * bm + bk < threshold[0]:
            return
        if msum * bm2 + bk2 < threshold[0] and (
            avail & ~info or height < ntiles - d or _twice(avail, counts) & ~(info >> 32)
        ):
            return
        lmq = lm[sq]
        mult2 = mult * wm[sq]
        w = nodes[n]
        cand = w & (avail | (bmask if blanks else 0))
        # The child must still allow the letter due on the anchor (and on constrained
        # squares after it) at its exact depth: tested here, before the call.
        due = dchecks[d + 1]
        while cand:
            low = cand & -cand
            cand ^= low
            child = nodes[n + 1 + (w & (low - 2)).bit_count()]
            hopeless = False
            for layer_, allowed_ in due:
                if not layer_[child] & allowed_:
                    hopeless = True
                    break
            if hopeless:
                continue
            k = low.bit_length() - 1
            if avail & low:
                remaining = counts[k] - 1
                counts[k] = remaining
                lp.append(k << 1)
                left_fixed(
                    child, d + 1, msum + vals[k] * lmq, mult2, avail if remaining else avail ^ low, blanks
                )
                lp.pop()
                counts[k] = remaining + 1
            if blanks and bmask & low:
                lp.append((k << 1) | 1)
                left_fixed(child, d + 1, msum, mult2, avail, blanks - 1)
                lp.pop()

    for i, a, lo_, hi_, tmax_, bounder_ in tasks:
        base = i * s
        anchor = a
        tmax = tmax_
        bounder = bounder_
        if bounder is not None:
            bmemo_get = bounder.memo.get
            need_end, need_base, need_at = bounder.need_end, bounder.need_base, bounder.need_at
            need_first = need_at[0]
        if lo_ == -1:
            # The left part is the run of board tiles ending just before the anchor.
            j = a - 1
            while j >= 0 and codes[base + j]:
                j -= 1
            start = j + 1
            n = root
            msum = 0
            for q in range(base + start, base + a):
                w = nodes[n]
                bit = 1 << codes[q]
                if not w & bit:
                    n = -1
                    break
                n = nodes[n + 1 + (w & (bit - 2)).bit_count()]
                msum += values[q]
            if n >= 0:
                tiles.clear()
                extend(n, a, msum, 1, 0, 0, pos.avail, pos.blanks)
        elif bounder is not None and lo_ == hi_:
            lo = lo_
            start = a - lo
            fixed = [(rel, allowed) for rel, allowed in bounder.fixed_letters if lo + rel <= _DEPTH]
            # dchecks[d]: for the node after d letters; dchecks[lo][...][0] is ``nodes``
            # itself when the anchor is constrained (its child bits: the anchor letter).
            dchecks = [[(layers[lo - d + rel], allowed) for rel, allowed in fixed] for d in range(lo + 1)]
            lp.clear()
            if all(layer_[root] & allowed_ for layer_, allowed_ in dchecks[0]):
                left_fixed(root, 0, 0, 1, pos.avail, pos.blanks)
        else:
            lo, hi = lo_, hi_
            lp.clear()
            left_part(root, 0, pos.avail, pos.blanks)


# -- public API ------------------------------------------------------------------------


class _RawPlays:
    """Pure-Python finds, sorted in the generator's order: what the compiled core's
    ``Plays`` holds, with the same three accessors."""

    __slots__ = ("_dirs", "_keys", "_scores")

    def __init__(self, found: Iterable[tuple[int, Direction, tuple[int, ...]]], t: _Tables) -> None:
        keyed = []
        for score, direction, encs in found:
            sort_key = t.sort_key[direction]
            keyed.append((-score, tuple(sorted(sort_key[e] for e in encs)), direction))
        keyed.sort()
        self._scores = [-neg for neg, _, _ in keyed]
        self._keys = [ranked for _, ranked, _ in keyed]
        self._dirs = [0 if direction == ACROSS else 1 for _, _, direction in keyed]

    def __len__(self) -> int:
        return len(self._scores)

    def score(self, i: int) -> int:
        return self._scores[i]

    def keys(self, i: int) -> tuple[int, ...]:
        return self._keys[i]

    def direction(self, i: int) -> int:
        return self._dirs[i]


class _Compact(Protocol):
    """Found plays in the generator's order: ``_RawPlays`` or the core's ``Plays``."""

    def __len__(self) -> int: ...
    def score(self, i: int, /) -> int: ...
    def keys(self, i: int, /) -> tuple[int, ...]: ...
    def direction(self, i: int, /) -> int: ...


class Moves(Sequence[GeneratedMove]):
    """Legal plays in the generator's order (best score first, ties by sorted tile list).

    The plays are held compactly (a score and a few integers each); a
    :class:`GeneratedMove` is built only when an item is asked for, so listing every
    play of a two-blank rack costs little until they are read. :meth:`score` reads a
    play's score without building it. Compares equal to any sequence of the same moves.
    """

    __slots__ = ("_board", "_layout", "_plays", "_t", "_tileset")

    def __init__(self, plays: _Compact, board: Board, t: _Tables, tiles: TileSet, geometry: Layout) -> None:
        self._plays = plays
        self._board = board
        self._t = t
        self._tileset = tiles
        self._layout = geometry

    def __len__(self) -> int:
        return len(self._plays)

    def score(self, index: int) -> int:
        """The score of play ``index`` (no move object built)."""
        return self._plays.score(index if index >= 0 else len(self._plays) + index)

    def _build(self, index: int) -> GeneratedMove:
        plays = self._plays
        keys = plays.keys(index)
        return GeneratedMove(
            placements=self._t.decode(keys),
            score=plays.score(index),
            bingo=len(keys) == self._t.rack_size,
            direction=DOWN if plays.direction(index) else ACROSS,
            board=self._board,
            tileset=self._tileset,
            layout=self._layout,
        )

    @overload
    def __getitem__(self, index: int) -> GeneratedMove: ...
    @overload
    def __getitem__(self, index: slice) -> list[GeneratedMove]: ...
    def __getitem__(self, index: int | slice) -> GeneratedMove | list[GeneratedMove]:
        if isinstance(index, slice):
            return [self._build(i) for i in range(*index.indices(len(self._plays)))]
        n = len(self._plays)
        if index < 0:
            index += n
        if not 0 <= index < n:
            raise IndexError("move index out of range")
        return self._build(index)

    def __iter__(self) -> Iterator[GeneratedMove]:
        for i in range(len(self._plays)):
            yield self._build(i)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Sequence) or isinstance(other, str):
            return NotImplemented
        return len(self) == len(other) and all(a == b for a, b in zip(self, other, strict=True))

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"<Moves: {len(self)} plays>"


# -- which implementation runs ------------------------------------------------------------

#: Implementations of the search: "compiled" (``engine/_core.pyx``, when built) and "pure".
IMPLEMENTATIONS: tuple[str, ...] = ("compiled", "pure") if _core is not None else ("pure",)
_implementation = [_chosen_implementation()]


def implementation() -> str:
    """The implementation the search runs with now: ``"compiled"`` or ``"pure"``."""
    return _implementation[0]


def set_implementation(name: str) -> None:
    """Run the search with ``name`` (``"compiled"`` or ``"pure"``) from now on; both give
    the same results. Raises ``ValueError`` when the compiled core is not built."""
    if name not in ("compiled", "pure"):
        raise ValueError(f"unknown move generator implementation {name!r}; expected compiled or pure")
    if name not in IMPLEMENTATIONS:
        raise ValueError("the compiled move generator is not built (make install builds it)")
    _implementation[0] = name


def _graphs(lexicon: Lexicon) -> tuple[WordGraph, ...]:
    graphs = tuple(lexicon.graphs())
    if not graphs:
        raise ValueError("the lexicon has no word graph")
    alphabet = graphs[0].alphabet
    if any(g.alphabet != alphabet for g in graphs):
        raise ValueError("all graphs of a lexicon must share one alphabet")
    return graphs


_REMOVED: dict[int, tuple[frozenset[str], tuple[str, ...], WordGraph | None]] = {}


def _removed_graph(removed: frozenset[str], alphabet: tuple[str, ...]) -> WordGraph | None:
    """The removed words as a small graph (for the compiled core's checks), cached per
    set; words not spelled with the alphabet cannot be in a graph and are left out."""
    if not removed:
        return None
    hit = _REMOVED.get(id(removed))
    if hit is not None and hit[0] is removed and hit[1] == alphabet:
        return hit[2]
    letters = set(alphabet)
    words = [w for w in removed if w and set(w) <= letters]
    graph = WordGraph.build(words, alphabet) if words else None
    if len(_REMOVED) > 32:
        _REMOVED.clear()
    _REMOVED[id(removed)] = (removed, alphabet, graph)
    return graph


def _compiled(
    board: Board,
    rack: str,
    tiles: TileSet,
    geometry: Layout,
    lexicon: Lexicon,
    mode: int,
    k: int = 0,
    ties: bool = False,
    better_than: int = 0,
) -> Any:
    """Run the compiled core on one position (see ``engine/_core.pyx``, ``run``)."""
    assert _core is not None
    graphs = _graphs(lexicon)
    alphabet = graphs[0].alphabet
    t = _tables(tiles, geometry, alphabet)
    removed = _removed_graph(lexicon.removed, alphabet)
    return _core.run(
        t.core_tables(),
        board,
        rack,
        tiles.language,
        [(g.nodes, g.root) for g in graphs],
        None if removed is None else (removed.nodes, removed.root),
        mode,
        k,
        ties,
        better_than,
    )


# -- public API ------------------------------------------------------------------------


def _full_tasks(pos: _Position, lines: _Lines) -> list[_Task]:
    return [(i, a, -1 if left == -1 else 0, left, pos.ntiles, None) for i, a, left in pos.tasks(lines)]


def generate(board: Board, rack: str, *, tileset: TileSet, layout: Layout, lexicon: Lexicon) -> Moves:
    """Every legal play of tiles from ``rack`` on ``board``, best score first.

    ``rack`` is letters and ``?`` for blanks; ``board`` as in ``engine.board`` (an empty
    board means a first move: it must cover the centre with at least two tiles).
    Raises ``ValueError`` for a rack tile or board letter the language does not have.
    The plays are built as :class:`GeneratedMove` only when read (see :class:`Moves`).
    """
    if _implementation[0] == "compiled":
        plays = _compiled(board, rack, tileset, layout, lexicon, _MODE_COLLECT)
        t = _tables(tileset, layout, _graphs(lexicon)[0].alphabet)
        return Moves(plays, board, t, tileset, layout)
    pos = _Position(board, rack, tileset, layout, lexicon)
    found: list[tuple[int, Direction, tuple[int, ...]]] = []
    for direction, lines in pos.lines.items():
        tasks = _full_tasks(pos, lines)
        for gi in range(len(pos.graphs)):
            raw: list[tuple[int, tuple[int, ...]]] = []
            _search(pos, lines, gi, tasks, None, raw, [-1])
            found.extend((score, direction, encs) for score, encs in raw)
    return Moves(_RawPlays(found, pos.t), board, pos.t, tileset, layout)


def scores(board: Board, rack: str, *, tileset: TileSet, layout: Layout, lexicon: Lexicon) -> list[int]:
    """The score of every legal play, in no particular order (no move objects built)."""
    if _implementation[0] == "compiled":
        found_scores: list[int] = _compiled(board, rack, tileset, layout, lexicon, _MODE_SCORES)
        return found_scores
    pos = _Position(board, rack, tileset, layout, lexicon)
    found: list[int] = []
    for lines in pos.lines.values():
        tasks = _full_tasks(pos, lines)
        for gi in range(len(pos.graphs)):
            _search(pos, lines, gi, tasks, found, None, [-1])
    return found


def count(
    board: Board,
    rack: str,
    *,
    tileset: TileSet,
    layout: Layout,
    lexicon: Lexicon,
    better_than: int | None = None,
) -> MoveCount:
    """The number of legal plays and the best score, enumerating every play but
    building no move objects (what ``python -m engine moves --count-only`` prints).
    With ``better_than``, ``MoveCount.better`` is the number of plays scoring more."""
    threshold = _NEVER if better_than is None else better_than
    if _implementation[0] == "compiled":
        total, top, better = _compiled(
            board, rack, tileset, layout, lexicon, _MODE_COUNT, better_than=threshold
        )
        return MoveCount(total, top, better if better_than is not None else 0)
    found = scores(board, rack, tileset=tileset, layout=layout, lexicon=lexicon)
    return MoveCount(
        len(found),
        max(found) if found else None,
        sum(1 for s in found if s > threshold) if better_than is not None else 0,
    )


def best(
    board: Board,
    rack: str,
    *,
    tileset: TileSet,
    layout: Layout,
    lexicon: Lexicon,
    k: int = 1,
    ties: bool = False,
) -> list[GeneratedMove]:
    """The ``k`` best plays, in the same order as :func:`generate` (``generate(...)[:k]``),
    pruning with score upper bounds instead of enumerating every play. With ``ties``,
    also every further play scoring the same as the k-th (``k=1, ties=True``: every
    play with the best score)."""
    if k <= 0:
        return []
    if _implementation[0] == "compiled":
        plays = _compiled(board, rack, tileset, layout, lexicon, _MODE_COLLECT, k, ties)
        t = _tables(tileset, layout, _graphs(lexicon)[0].alphabet)
        return list(Moves(plays, board, t, tileset, layout))
    pos = _Position(board, rack, tileset, layout, lexicon)
    threshold = [-1]
    top_scores: list[int] = []
    kept: list[tuple[int, Direction, tuple[int, ...]]] = []
    if pos.blanks < 2 or pos.first_move:
        # With fewer than two blanks the whole search is cheap and the bounds cost more
        # than they save (measured with bench/movegen.py), and so they do on the empty
        # board, where the best play scores little and the bingo bound prunes next to
        # nothing (empty-0-b2: 83 ms enumerating, 132 ms bounded): enumerate, keeping
        # only the plays that reach the running k-th best score.
        for direction, lines in pos.lines.items():
            tasks = _full_tasks(pos, lines)
            for gi in range(len(pos.graphs)):
                raw: list[tuple[int, tuple[int, ...]]] = []
                _search(pos, lines, gi, tasks, None, raw, threshold, (top_scores, k))
                kept.extend((score, direction, encs) for score, encs in raw)
        return _finish(pos, kept, k, ties)
    # Every (direction, anchor, left-part length), keyed by the best bound of its plays.
    work: list[tuple[int, int, Direction, int, int, int, _Geometry, list[int]]] = []
    for direction, lines in pos.lines.items():
        for i, a, left in pos.tasks(lines):
            for size in [-1] if left == -1 else range(left + 1):
                g = pos.geometry(lines, i, a, size)
                if len(g.placed) < g.need:
                    continue
                row0 = pos.k_row(lines, g, 0)
                per_count = [-1] * g.need + [
                    g.msum0 * g.mults[t] + row0[t] for t in range(g.need, len(g.placed) + 1)
                ]
                work.append((-max(per_count), len(work), direction, i, a, size, g, per_count))
    heapq.heapify(work)
    while work:
        neg_top, _, direction, i, a, size, g, per_count = heapq.heappop(work)
        if -neg_top < threshold[0]:
            break  # no play left can reach the k-th best score
        lines = pos.lines[direction]
        # Plays with more tiles than the last count whose bound reaches the threshold
        # cannot make the top k: cap the search depth there.
        tmax = max(c for c, b in enumerate(per_count) if b >= threshold[0])
        tmin = min(c for c, b in enumerate(per_count) if b >= threshold[0])
        task = (i, a, size, size, tmax, _Bounder(pos, lines, g, tmax, tmin))
        for gi in range(len(pos.graphs)):
            raw = []
            _search(pos, lines, gi, (task,), None, raw, threshold, (top_scores, k))
            kept.extend((score, direction, encs) for score, encs in raw)
        if len(kept) > 4 * k + 64:
            kept = _top(pos, kept, k, ties)
    return _finish(pos, kept, k, ties)


def _finish(
    pos: _Position, found: list[tuple[int, Direction, tuple[int, ...]]], k: int, ties: bool
) -> list[GeneratedMove]:
    return list(Moves(_RawPlays(_top(pos, found, k, ties), pos.t), pos.board, pos.t, pos.tileset, pos.layout))


def _top(
    pos: _Position, found: list[tuple[int, Direction, tuple[int, ...]]], k: int, ties: bool = False
) -> list[tuple[int, Direction, tuple[int, ...]]]:
    """The k best raw finds in the final order (with ``ties``, and every further one
    scoring the same as the k-th)."""
    sort_keys = pos.t.sort_key

    def order(item: tuple[int, Direction, tuple[int, ...]]) -> tuple[int, tuple[int, ...]]:
        score, direction, encs = item
        keys = sort_keys[direction]
        return -score, tuple(sorted(keys[e] for e in encs))

    ranked = sorted(found, key=order)
    keep = min(k, len(ranked))
    if ties and keep:
        while keep < len(ranked) and ranked[keep][0] == ranked[k - 1][0]:
            keep += 1
    return ranked[:keep]
