"""The compiled move generator (``engine/_core.pyx``) against the pure-Python one.

Both must find the same plays with the same scores in the same order, the same counts
and the same best moves, and the computer players built on them must make the same
choices: on every committed benchmark position (real English lexicon) and on positions
from seeded games in every game language, with and without a moderated overlay (added
and removed words). Skipped when the extension is not built (CI forces it with
``WORDGAME_MOVEGEN=compiled``).
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from engine import analysis, movegen
from engine.board import Board, Layout, layout
from engine.lexicon import Lexicon, OverlayLexicon, WordGraph
from engine.state import GameState, new_game
from engine.tiles import BLANK, LANGUAGES, TileSet, tileset

ROOT = Path(__file__).resolve().parents[2]
POSITIONS = ROOT / "bench" / "positions" / "en.jsonl"

pytestmark = pytest.mark.skipif(
    "compiled" not in movegen.IMPLEMENTATIONS, reason="the compiled move generator is not built"
)


@cache
def graph(language: str) -> WordGraph:
    return WordGraph.load(ROOT / "fixtures" / "lexicons" / f"{language}.dawg")


def run_with(name: str, call: Any) -> Any:
    before = movegen.implementation()
    movegen.set_implementation(name)
    try:
        return call()
    finally:
        movegen.set_implementation(before)


def summary(moves: movegen.Moves | list[movegen.GeneratedMove]) -> list[tuple[Any, ...]]:
    return [(m.placements, m.score, m.bingo, m.direction) for m in moves]


def assert_same(board: Board, rack: str, tiles: TileSet, geometry: Layout, lexicon: Lexicon) -> None:
    """Every public search of movegen gives the same answer with both implementations."""
    kw: dict[str, Any] = {"tileset": tiles, "layout": geometry, "lexicon": lexicon}
    results = {}
    for name in ("compiled", "pure"):
        results[name] = run_with(
            name,
            lambda: (
                summary(movegen.generate(board, rack, **kw)),
                movegen.count(board, rack, better_than=20, **kw),
                sorted(movegen.scores(board, rack, **kw)),
                summary(movegen.best(board, rack, k=1, **kw)),
                summary(movegen.best(board, rack, k=7, **kw)),
                summary(movegen.best(board, rack, k=1, ties=True, **kw)),
            ),
        )
    compiled, pure = results["compiled"], results["pure"]
    assert compiled == pure, rack
    every, counted, scores, *_ = pure
    assert counted.count == len(every) == len(scores)
    assert counted.best_score == (every[0][1] if every else None)
    assert counted.better == sum(1 for m in every if m[1] > 20)


def positions() -> list[dict[str, Any]]:
    lines = POSITIONS.read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


@pytest.mark.parametrize("position", positions(), ids=lambda p: p["id"])
def test_benchmark_positions_give_identical_results(position: dict[str, Any]) -> None:
    en = tileset("en")
    assert_same(tuple(position["board"]), position["rack"], en, layout(en.board), graph("en"))


def game_positions(language: str, seed: int, count: int) -> list[tuple[GameState, str]]:
    """Boards from a seeded game between computer players, each with a rack of 0, 1 or
    2 blanks made from the player's real rack."""
    rng = random.Random(seed)
    state = new_game(language, rng)
    lexicon = graph(language)
    out: list[tuple[GameState, str]] = []
    turn = 0
    while not state.over and len(out) < count:
        seat = state.turn
        if turn % 3 == 0:
            letters = [t for t in state.racks[seat] if t != BLANK]
            blanks = rng.choice((0, 1, 1, 2))
            out.append((state, "".join(letters[: max(0, len(letters) - blanks)]) + BLANK * blanks))
        choice = analysis.computer_move(state, seat, lexicon, rng.choice(analysis.LEVELS), rng)
        state = choice.apply(state, seat, lexicon, rng).state
        turn += 1
    return out


@pytest.mark.parametrize("language", LANGUAGES)
def test_positions_of_every_language_give_identical_results(language: str) -> None:
    tiles = tileset(language)
    geometry = layout(tiles.board)
    for state, rack in game_positions(language, seed=len(language) * 7919, count=4):
        assert_same(state.board, rack, tiles, geometry, graph(language))


@pytest.mark.parametrize("language", ["en", "de", "fr"])
def test_moderated_overlay_gives_identical_results(language: str) -> None:
    """Added words (a second graph) and removed words, some of them in the base graph."""
    tiles = tileset(language)
    geometry = layout(tiles.board)
    base = graph(language)
    rng = random.Random(language)
    words = [w for w, _ in zip((w for w in base if 2 <= len(w) <= 5), range(20000), strict=False)]
    removed = rng.sample(words, 400)
    letters = tiles.alphabet
    added = {"".join(rng.choice(letters) for _ in range(rng.randint(2, 6))) for _ in range(300)}
    overlay = OverlayLexicon(base, sorted(added), removed)
    for state, rack in game_positions(language, seed=99, count=3):
        assert_same(state.board, rack, tiles, geometry, overlay)


@pytest.mark.parametrize("language", LANGUAGES)
def test_computer_levels_choose_the_same_with_both(language: str) -> None:
    lexicon = graph(language)
    for state, _ in game_positions(language, seed=4242, count=3):
        for level in analysis.LEVELS:
            choices = [
                run_with(
                    name,
                    lambda level=level, state=state: analysis.computer_move(
                        state, state.turn, lexicon, level, random.Random(f"{language}-{level}")
                    ),
                )
                for name in ("compiled", "pure")
            ]
            assert choices[0] == choices[1], (language, level)


@pytest.mark.parametrize("language", LANGUAGES)
def test_empty_board_with_a_blank_in_every_language(language: str) -> None:
    """The first move with a blank (two blanks: ``empty-0-b2`` of the benchmark set)."""
    tiles = tileset(language)
    geometry = layout(tiles.board)
    letters = [t for t in tiles.alphabet if t in tiles.values][:6]
    assert_same(geometry.empty_board(), "".join(letters) + BLANK, tiles, geometry, graph(language))


def test_level_bands_match_their_definitions() -> None:
    """``level_band`` (bisection on the scores) picks exactly the plays the levels'
    definitions name, on every benchmark position."""
    en = tileset("en")
    for position in positions():
        moves = movegen.generate(
            tuple(position["board"]),
            position["rack"],
            tileset=en,
            layout=layout(en.board),
            lexicon=graph("en"),
        )
        if not moves:
            continue
        all_scores = [moves.score(i) for i in range(len(moves))]
        best = all_scores[0]
        medium = [i for i, s in enumerate(all_scores) if 3 * s >= 2 * best]
        easy = [i for i, s in enumerate(all_scores) if best <= 3 * s <= 2 * best]
        if not easy:
            gap = min(abs(2 * s - best) for s in all_scores)
            easy = [i for i, s in enumerate(all_scores) if abs(2 * s - best) == gap]
        for level, expected in (("medium", medium), ("easy", easy)):
            start, stop = analysis.level_band(moves, level)  # type: ignore[arg-type]
            assert list(range(start, stop)) == expected, (position["id"], level)


def test_moves_sequence_builds_items_on_demand() -> None:
    en = tileset("en")
    board = layout(en.board).empty_board()
    moves = movegen.generate(board, "CAT", tileset=en, layout=layout(en.board), lexicon=graph("en"))
    as_list = list(moves)
    assert len(moves) == len(as_list) > 0
    assert moves[-1] == as_list[-1]
    assert moves[1:3] == as_list[1:3]
    assert moves.score(-1) == as_list[-1].score
    assert moves == as_list
    assert moves != as_list[:-1]
    with pytest.raises(IndexError):
        moves[len(moves)]


@pytest.fixture
def pure_env() -> dict[str, str]:
    return dict(os.environ)


@pytest.mark.parametrize("name", ["pure", "compiled"])
def test_environment_variable_forces_an_implementation(name: str, pure_env: dict[str, str]) -> None:
    pure_env["WORDGAME_MOVEGEN"] = name
    out = subprocess.run(
        [sys.executable, "-c", "from engine import movegen; print(movegen.implementation())"],
        cwd=ROOT,
        env=pure_env,
        capture_output=True,
        text=True,
        check=True,
    )
    assert out.stdout.strip() == name


def test_unknown_implementation_is_refused(pure_env: dict[str, str]) -> None:
    pure_env["WORDGAME_MOVEGEN"] = "fast"
    out = subprocess.run(
        [sys.executable, "-c", "import engine.movegen"],
        cwd=ROOT,
        env=pure_env,
        capture_output=True,
        text=True,
    )
    assert out.returncode != 0
    assert "WORDGAME_MOVEGEN='fast'" in out.stderr
    with pytest.raises(ValueError, match="unknown move generator"):
        movegen.set_implementation("fast")
