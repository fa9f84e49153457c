"""Benchmark: the move generator over the committed position set.

    .venv/bin/python bench/movegen.py [--repeat 5] [--positions bench/positions/en.jsonl]
        [--implementation compiled,pure] [--no-memory]
    .venv/bin/python bench/movegen.py --build      # regenerate the position set

Both implementations side by side in one run (the compiled core, ``engine/_core.pyx``,
when it is built, and the pure-Python generator). Per position and implementation it
times full enumeration as ``python -m engine moves --count-only`` does it
(``engine.movegen.count``), full enumeration as a list of plays
(``engine.movegen.generate``: every play found, sorted, held compactly; a move object is
built only when read) and the best-move search (``engine.movegen.best``, k=1), each the
fastest of ``--repeat`` runs after one warm-up run (the fastest run is the one least
disturbed by other processes on a shared machine). Then the medians per number of
blanks on the rack over the positions with tiles on the board, against the targets of
issue 5 for the pure generator (0 blanks < 3 ms, 1 blank < 40 ms, 2 blanks < 400 ms;
best mode >= 3x faster than full enumeration on 2-blank racks); the sums over the
whole set against issue 16's (compiled >= 20x faster for count and generate; compiled
best mode on 2-blank racks < 5 ms median); and the private memory of a worker after
best-move searches in all seven languages (``bench/worker_memory.py``).

The position set (``--build``) comes from real games with the engine and the real English
lexicon ``fixtures/lexicons/en.dawg``: seeded games between computer players
(``engine.analysis.computer_move``, hard against medium), with boards taken at the
start (empty), early (after 2-4 plays), mid (8-12), late (16-20), in the endgame
(bag empty, short racks) and the boards with the most anchors ("hooks"). Each board
gets racks with 0, 1 and 2 blanks, made from the rack the player really had (blanks
replaced by letters from the unseen tiles, or letters by blanks).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine import analysis, movegen  # noqa: E402
from engine.board import EMPTY, Board, board_tiles, layout  # noqa: E402
from engine.lexicon import WordGraph  # noqa: E402
from engine.state import GameState, new_game  # noqa: E402
from engine.tiles import BLANK, tileset  # noqa: E402

sys.path.insert(0, str(ROOT / "bench"))
import worker_memory  # noqa: E402

LEXICON = ROOT / "fixtures" / "lexicons" / "en.dawg"
POSITIONS = ROOT / "bench" / "positions" / "en.jsonl"
TARGET_MS = {0: 3.0, 1: 40.0, 2: 400.0}
BEST_SPEEDUP_TARGET = 3.0
# Issue 16: the compiled core against the pure generator, whole position set.
COMPILED_SPEEDUP_TARGET = 20.0
BEST_TWO_BLANKS_TARGET_MS = 5.0


# -- building the position set ---------------------------------------------------------


def _anchors(board: Board) -> int:
    n = len(board)
    return sum(
        1
        for r in range(n)
        for c in range(n)
        if board[r][c] == EMPTY
        and any(
            0 <= r + dr < n and 0 <= c + dc < n and board[r + dr][c + dc] != EMPTY
            for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0))
        )
    )


def _with_blanks(rack: str, blanks: int, unseen: Counter[str], rng: random.Random) -> str:
    """``rack`` with exactly ``blanks`` blanks: extra blanks become unseen letters, and
    letters become blanks (the last ones) when more are wanted."""
    want = len(rack) - min(blanks, len(rack))
    letters = [t for t in rack if t != BLANK]
    pool = [t for t, n in unseen.items() if t != BLANK for _ in range(n)]
    while len(letters) < want:
        letters.append(pool.pop(rng.randrange(len(pool))))
    return "".join(letters[:want]) + BLANK * (len(rack) - want)


def _unseen(state: GameState, seat: int) -> Counter[str]:
    seen = Counter(board_tiles(state.board)) + Counter(state.racks[seat])
    return Counter(state.tileset.full_bag()) - seen


def build(lexicon: WordGraph, seed: int) -> list[dict[str, object]]:
    """Play seeded games and pick positions (see the module docstring)."""
    rng = random.Random(seed)
    boards: list[tuple[str, GameState, int]] = []
    candidates: list[tuple[int, GameState, int]] = []
    for game in range(3):
        state = new_game("en", random.Random(seed + game))
        if game == 0:
            boards.append(("empty", state, 0))
        plays = 0
        picks = {3 + game % 2: "early", 9 + game: "mid", 17 + game: "late"}
        endgames: list[tuple[int, GameState, int]] = []
        while not state.over:
            seat = state.turn
            if plays in picks:
                boards.append((picks.pop(plays), state, seat))
            rack = state.racks[seat]
            if not state.bag and len(rack) >= 2:
                endgames.append((len(rack), state, seat))
            elif 8 <= plays <= 20:
                candidates.append((_anchors(state.board), state, seat))
            level: analysis.Level = "hard" if seat == 0 else "medium"
            choice = analysis.computer_move(state, seat, lexicon, level, rng)
            state = choice.apply(state, seat, lexicon, rng).state
            plays += choice.kind == "play"
        if endgames:
            # The shortest rack of two or more tiles once the bag is empty.
            _, end_state, end_seat = min(endgames, key=lambda item: item[0])
            boards.append(("endgame", end_state, end_seat))
    taken = {state.board for _, state, _ in boards}
    candidates.sort(key=lambda item: -item[0])
    for _, state, seat in candidates:
        if state.board not in taken and len([b for b in boards if b[0] == "hooks"]) < 2:
            boards.append(("hooks", state, seat))
            taken.add(state.board)
    positions: list[dict[str, object]] = []
    for index, (category, state, seat) in enumerate(boards):
        rack = state.racks[seat]
        for blanks in (0, 1, 2):
            positions.append(
                {
                    "id": f"{category}-{index}-b{blanks}",
                    "category": category,
                    "blanks": blanks,
                    "board": list(state.board),
                    "rack": _with_blanks(rack, blanks, _unseen(state, seat), rng),
                    "anchors": _anchors(state.board),
                }
            )
    return positions


# -- timing ----------------------------------------------------------------------------


def _time(call: object, repeat: int) -> tuple[float, object]:
    assert callable(call)
    result = call()  # warm-up (caches, page faults)
    runs = []
    for _ in range(repeat):
        start = time.perf_counter()
        result = call()
        runs.append(time.perf_counter() - start)
    return min(runs) * 1000, result


MODES = ("count", "generate", "best")


def _measure(pos: dict[str, Any], lexicon: WordGraph, repeat: int) -> dict[str, tuple[float, object]]:
    """Times (ms) and results of count, generate and best (k=1) for one position with
    the implementation in force."""
    tiles = tileset("en")
    geometry = layout("wwf")
    board = tuple(pos["board"])
    rack = str(pos["rack"])
    kw: dict[str, Any] = {"tileset": tiles, "layout": geometry, "lexicon": lexicon}
    return {
        "count": _time(lambda: movegen.count(board, rack, **kw), repeat),
        "generate": _time(lambda: movegen.generate(board, rack, **kw), repeat),
        "best": _time(lambda: movegen.best(board, rack, k=1, **kw), repeat),
    }


def _first_best(positions: list[dict[str, Any]], lexicon: WordGraph, repeat: int) -> str:
    """The first pruned search in a process also computes the pure generator's per-graph
    facts; timed apart (the position timings below come after warm-up runs)."""
    tiles = tileset("en")
    geometry = layout("wwf")
    two = next(p for p in positions if p["blanks"] == 2 and p["category"] != "empty")
    board, rack = tuple(two["board"]), str(two["rack"])
    start = time.perf_counter()
    movegen.best(board, rack, tileset=tiles, layout=geometry, lexicon=lexicon, k=1)
    first_ms = (time.perf_counter() - start) * 1000
    again_ms, _ = _time(
        lambda: movegen.best(board, rack, tileset=tiles, layout=geometry, lexicon=lexicon, k=1), repeat
    )
    return (
        f"{movegen.implementation()}: first best() call in the process ({two['id']}): {first_ms:.1f} ms, "
        f"the same call again: {again_ms:.2f} ms"
    )


def run(path: Path, lexicon: WordGraph, repeat: int, implementations: list[str], memory: bool) -> None:
    positions = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    for name in implementations:
        movegen.set_implementation(name)
        print(_first_best(positions, lexicon, repeat))
    results: dict[str, list[dict[str, tuple[float, object]]]] = {name: [] for name in implementations}
    total = time.perf_counter()
    head = " ".join(f"{name[:4]} {mode[:5]:>5}" for name in implementations for mode in MODES)
    print(f"{'position':<16} {'rack':<8} {'moves':>6} {'best':>5}  {head}  (ms, fastest of {repeat})")
    for pos in positions:
        row: list[str] = []
        for name in implementations:
            movegen.set_implementation(name)
            measured = _measure(pos, lexicon, repeat)
            results[name].append(measured)
            row.extend(f"{measured[mode][0]:>10.2f}" for mode in MODES)
        counted = results[implementations[0]][-1]["count"][1]
        assert isinstance(counted, movegen.MoveCount)
        # Both implementations, and the pruned search, agree (tests check every play).
        for name in implementations:
            got = results[name][-1]
            assert got["count"][1] == counted, (pos["id"], name)
            top = got["best"][1]
            assert isinstance(top, list)
            assert (top[0].score if top else None) == counted.best_score, (pos["id"], name)
            generated = got["generate"][1]
            assert isinstance(generated, movegen.Moves)
            assert len(generated) == counted.count
        print(
            f"{pos['id']:<16} {pos['rack']:<8} {counted.count:>6} {counted.best_score!s:>5}  {' '.join(row)}"
        )
    elapsed = time.perf_counter() - total
    print()
    _summary(positions, results, implementations)
    print(f"Total: {len(positions)} positions, {elapsed:.1f} s (with warm-up runs and {repeat} repeats)")
    print(
        f"Machine: {platform.machine()}, {os.cpu_count()} cores, CPython {platform.python_version()}, "
        f"load average {' '.join(f'{x:.1f}' for x in os.getloadavg())}"
    )
    if memory:
        print()
        print("Private memory of a second worker after best-move searches in all seven languages:")
        for name in implementations:
            print(worker_memory.describe(worker_memory.measure(name)))


def _summary(
    positions: list[dict[str, Any]],
    results: dict[str, list[dict[str, tuple[float, object]]]],
    implementations: list[str],
) -> None:
    board = [i for i, p in enumerate(positions) if p["category"] != "empty"]
    print("Medians per blank count over the positions with tiles on the board (ms), max in brackets:")
    for name in implementations:
        for mode in MODES:
            cells = []
            for blanks in (0, 1, 2):
                values = [results[name][i][mode][0] for i in board if positions[i]["blanks"] == blanks]
                cells.append(f"{blanks} blank(s) {statistics.median(values):7.2f} [{max(values):7.2f}]")
            print(f"  {name:>8} {mode:<8} " + "   ".join(cells))
    if "pure" in results:
        pure = results["pure"]
        for blanks in (0, 1, 2):
            median = statistics.median(pure[i]["count"][0] for i in board if positions[i]["blanks"] == blanks)
            verdict = "met" if median < TARGET_MS[blanks] else "MISSED"
            print(f"  pure count, {blanks} blank(s): target < {TARGET_MS[blanks]:g} ms (issue 5): {verdict}")
        ratios = [pure[i]["count"][0] / pure[i]["best"][0] for i in board if positions[i]["blanks"] == 2]
        speedup = statistics.median(ratios)
        verdict = "met" if speedup >= BEST_SPEEDUP_TARGET else "MISSED"
        print(
            f"  pure best mode vs full enumeration, 2-blank racks: median {speedup:.2f}x "
            f"(min {min(ratios):.2f}x, max {max(ratios):.2f}x; target >= {BEST_SPEEDUP_TARGET:g}x: {verdict})"
        )
    print("Whole position set, sum of the per-position times (ms):")
    sums = {
        name: {mode: sum(r[mode][0] for r in results[name]) for mode in MODES} for name in implementations
    }
    for mode in MODES:
        joined = "  ".join(f"{name} {sums[name][mode]:9.1f}" for name in implementations)
        line = f"  {mode:<8} {joined}"
        if "pure" in sums and "compiled" in sums:
            factor = sums["pure"][mode] / sums["compiled"][mode]
            line += f"  compiled is {factor:.1f}x faster"
            if mode in ("count", "generate"):
                line += f" (target >= {COMPILED_SPEEDUP_TARGET:g}x: {'met' if factor >= COMPILED_SPEEDUP_TARGET else 'MISSED'})"
        print(line)
    if "compiled" in results:
        compiled = results["compiled"]
        two = [compiled[i]["best"][0] for i, p in enumerate(positions) if p["blanks"] == 2]
        median = statistics.median(two)
        verdict = "met" if median < BEST_TWO_BLANKS_TARGET_MS else "MISSED"
        print(
            f"  compiled best mode, 2-blank racks (all {len(two)}, empty board included): median {median:.2f} ms, "
            f"max {max(two):.2f} ms (target median < {BEST_TWO_BLANKS_TARGET_MS:g} ms: {verdict})"
        )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--positions", type=Path, default=POSITIONS)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--build", action="store_true", help="regenerate the position set, then exit")
    parser.add_argument("--seed", type=int, default=2026, help="seed of the games played by --build")
    parser.add_argument(
        "--implementation",
        default=",".join(movegen.IMPLEMENTATIONS),
        help="comma-separated move generators to compare (default: every one available)",
    )
    parser.add_argument("--no-memory", action="store_true", help="skip the worker memory measurement")
    args = parser.parse_args()
    start = time.perf_counter()
    lexicon = WordGraph.load(LEXICON)
    print(
        f"lexicon {LEXICON.relative_to(ROOT)}: {lexicon.word_count} words, loaded in "
        f"{(time.perf_counter() - start) * 1000:.1f} ms"
    )
    if args.build:
        positions = build(lexicon, args.seed)
        args.positions.parent.mkdir(parents=True, exist_ok=True)
        text = "".join(json.dumps(p, ensure_ascii=False) + "\n" for p in positions)
        args.positions.write_text(text, encoding="utf-8")
        print(f"wrote {len(positions)} positions to {args.positions}")
        return
    run(args.positions, lexicon, args.repeat, args.implementation.split(","), not args.no_memory)


if __name__ == "__main__":
    main()
