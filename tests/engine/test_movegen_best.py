"""The pruned best-move search (``movegen.best``) against full enumeration.

``best(..., k)`` must return exactly ``generate(...)[:k]``: the same moves, scores and
tie order. Checked on the committed benchmark positions with the real English lexicon
(where the score bounds and graph facts really prune), with the racks of those
positions and with seeded random racks of two blanks, and on a small world with a
moderated lexicon (two graphs and removed words).
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from engine import movegen
from engine.board import Board, board_tiles, layout
from engine.lexicon import OverlayLexicon, WordGraph
from engine.tiles import BLANK, tileset
from tests.engine.helpers import movegen_implementations, use_implementation
from tests.engine.test_movegen import ALPHABET, SEVEN, SMALL, WORDS, random_board, random_rack

ROOT = Path(__file__).resolve().parents[2]
POSITIONS = ROOT / "bench" / "positions" / "en.jsonl"
EN = tileset("en")
WWF = layout("wwf")


@pytest.fixture(autouse=True, params=movegen_implementations())
def implementation(request: pytest.FixtureRequest) -> Iterator[str]:
    """Every test here runs with both move generators (compiled and pure)."""
    yield from use_implementation(request.param)


@cache
def english() -> WordGraph:
    return WordGraph.load(ROOT / "fixtures" / "lexicons" / "en.dawg")


def positions() -> list[dict[str, Any]]:
    lines = POSITIONS.read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def assert_best_is_head(board: Board, rack: str, lexicon: WordGraph) -> None:
    full = movegen.generate(board, rack, tileset=EN, layout=WWF, lexicon=lexicon)
    for k in (1, 5):
        top = movegen.best(board, rack, tileset=EN, layout=WWF, lexicon=lexicon, k=k)
        assert [(m.placements, m.score) for m in top] == [(m.placements, m.score) for m in full[:k]], (
            rack,
            k,
        )


def random_two_blank_rack(board: Board, rng: random.Random) -> str:
    """Five letters from the tiles not on the board, and two blanks."""
    unseen = Counter(EN.full_bag()) - Counter(board_tiles(board))
    pool = sorted(tile for tile, n in unseen.items() if tile != BLANK for _ in range(n))
    return "".join(rng.sample(pool, 5)) + BLANK * 2


def test_best_matches_full_list_on_benchmark_positions_with_their_racks() -> None:
    rng = random.Random(20261122)
    chosen = [p for p in positions() if p["blanks"] != 2]
    # Plus two positions with 2-blank racks (the pruned search proper), not the slowest.
    two = [p for p in positions() if p["blanks"] == 2 and p["category"] in ("endgame", "late")]
    for p in rng.sample(chosen, 5) + rng.sample(two, 2):
        board = tuple(str(row) for row in p["board"])
        assert_best_is_head(board, str(p["rack"]), english())


def test_best_matches_full_list_with_random_two_blank_racks() -> None:
    rng = random.Random(7)
    boards = [p for p in positions() if p["blanks"] == 0 and p["category"] in ("early", "mid", "endgame")]
    for p in rng.sample(boards, 3):
        board = tuple(str(row) for row in p["board"])
        assert_best_is_head(board, random_two_blank_rack(board, rng), english())


def test_best_with_two_blanks_respects_a_moderated_lexicon() -> None:
    base = WordGraph.build(WORDS, ALPHABET)
    overlay = OverlayLexicon(base, added=["ATES", "TOAD", "DOTER"], removed=["ATE", "TA", "STORE"])
    rng = random.Random(13)
    for case in range(6):
        board = random_board(rng, plays=1 + case % 3)
        rack = random_rack(rng, 5, blanks=2)
        full = movegen.generate(board, rack, tileset=SMALL, layout=SEVEN, lexicon=overlay)
        for k in (1, 5):
            top = movegen.best(board, rack, tileset=SMALL, layout=SEVEN, lexicon=overlay, k=k)
            assert top == full[:k]
            assert [m.score for m in top] == [m.score for m in full[:k]]
