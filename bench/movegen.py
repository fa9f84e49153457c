"""Benchmark: the move generator over the committed position set.

    .venv/bin/python bench/movegen.py [--repeat 5] [--positions bench/positions/en.jsonl]
    .venv/bin/python bench/movegen.py --build      # regenerate the position set

Per position it times full enumeration as ``python -m engine moves --count-only`` does it
(``engine.movegen.count``) and the pruned best-move search (``engine.movegen.best``,
k=1), each the fastest of ``--repeat`` runs after one warm-up run (the fastest run is the
one least disturbed by other processes on a shared machine), and prints the move
count, the best score and both times. Then the medians per number of blanks on the
rack over the positions with tiles on the board, against the targets of issue 5
(0 blanks < 3 ms, 1 blank < 40 ms, 2 blanks < 400 ms; best mode >= 3x faster than
full enumeration on 2-blank racks), and the total time.

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
import platform
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine import analysis, movegen  # noqa: E402
from engine.board import EMPTY, Board, board_tiles, layout  # noqa: E402
from engine.lexicon import WordGraph  # noqa: E402
from engine.state import GameState, new_game  # noqa: E402
from engine.tiles import BLANK, tileset  # noqa: E402

LEXICON = ROOT / "fixtures" / "lexicons" / "en.dawg"
POSITIONS = ROOT / "bench" / "positions" / "en.jsonl"
TARGET_MS = {0: 3.0, 1: 40.0, 2: 400.0}
BEST_SPEEDUP_TARGET = 3.0


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


def run(path: Path, lexicon: WordGraph, repeat: int) -> None:
    tiles = tileset("en")
    geometry = layout("wwf")
    positions = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    full_ms: dict[int, list[float]] = {0: [], 1: [], 2: []}
    ratios: list[float] = []
    # The first pruned search in a process also computes per-graph facts (letters and
    # word lengths below each node, letters at each depth near the root) once; the timed
    # runs below come after warm-up runs, so this one-time cost is reported apart.
    two = next(p for p in positions if p["blanks"] == 2 and p["category"] != "empty")
    start = time.perf_counter()
    movegen.best(tuple(two["board"]), two["rack"], tileset=tiles, layout=geometry, lexicon=lexicon, k=1)
    first_ms = (time.perf_counter() - start) * 1000
    again_ms, _ = _time(
        lambda: movegen.best(
            tuple(two["board"]), two["rack"], tileset=tiles, layout=geometry, lexicon=lexicon, k=1
        ),
        repeat,
    )
    print(
        f"first best() call in the process ({two['id']}): {first_ms:.1f} ms, the same call "
        f"again: {again_ms:.1f} ms (one-time graph facts: about {first_ms - again_ms:.0f} ms)"
    )
    total = time.perf_counter()
    print(f"{'position':<16} {'rack':<8} {'moves':>6} {'best':>5} {'count ms':>9} {'best ms':>8} {'x':>5}")
    for pos in positions:
        board = tuple(pos["board"])
        rack = pos["rack"]
        count_ms, counted = _time(
            lambda b=board, r=rack: movegen.count(b, r, tileset=tiles, layout=geometry, lexicon=lexicon),
            repeat,
        )
        best_ms, top = _time(
            lambda b=board, r=rack: movegen.best(b, r, tileset=tiles, layout=geometry, lexicon=lexicon, k=1),
            repeat,
        )
        assert isinstance(counted, movegen.MoveCount)
        assert isinstance(top, list)
        # The pruned search must agree with full enumeration on the best score.
        assert (top[0].score if top else None) == counted.best_score, pos["id"]
        ratio = count_ms / best_ms if best_ms else float("inf")
        print(
            f"{pos['id']:<16} {rack:<8} {counted.count:>6} {counted.best_score!s:>5} "
            f"{count_ms:>9.2f} {best_ms:>8.2f} {ratio:>5.1f}"
        )
        if pos["category"] != "empty":
            full_ms[pos["blanks"]].append(count_ms)
            if pos["blanks"] == 2:
                ratios.append(ratio)
    elapsed = time.perf_counter() - total
    print()
    print("Full enumeration (count), median over positions with tiles on the board:")
    for blanks, values in full_ms.items():
        median = statistics.median(values)
        verdict = "met" if median < TARGET_MS[blanks] else "MISSED"
        print(
            f"  {blanks} blank(s): {median:8.2f} ms  (n={len(values)}, max {max(values):.2f} ms; "
            f"target < {TARGET_MS[blanks]:g} ms: {verdict})"
        )
    speedup = statistics.median(ratios)
    verdict = "met" if speedup >= BEST_SPEEDUP_TARGET else "MISSED"
    print(
        f"Best mode (k=1) vs full enumeration, 2-blank racks: median {speedup:.2f}x "
        f"(min {min(ratios):.2f}x, max {max(ratios):.2f}x; target >= {BEST_SPEEDUP_TARGET:g}x: {verdict})"
    )
    print(f"Total: {len(positions)} positions, {elapsed:.1f} s (with warm-up runs and {repeat} repeats)")
    print(f"Machine: {platform.machine()}, CPython {platform.python_version()}")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--positions", type=Path, default=POSITIONS)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--build", action="store_true", help="regenerate the position set, then exit")
    parser.add_argument("--seed", type=int, default=2026, help="seed of the games played by --build")
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
    run(args.positions, lexicon, args.repeat)


if __name__ == "__main__":
    main()
