"""Benchmark: validate and score one play with a real lexicon loaded.

    .venv/bin/python bench/engine_score.py [--repeat 5] [--turns 12] [--seed 2026]

The lexicon is ``fixtures/lexicons/en.dawg`` when it exists; otherwise the bench builds
a ``WordGraph`` in memory from ``../shared/lexicon/enable1.txt`` (ENABLE, the public-
domain list behind ``en``) and says so. The position is a mid-game board reached by
letting the move generator play the best move for ``--turns`` turns from a seeded new
game. The measured plays are legal plays from that position for the player to move
(spread over the generator's list: high and low scores, short and long); each one is
validated and scored with ``engine.moves.evaluate`` (rack check included) ``--repeat``
times. It prints the median and 90th percentile per call, and the same for
``engine.moves.play`` (which also builds the next state). Target: median under 0.2 ms.
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.board import layout  # noqa: E402
from engine.lexicon import WordGraph  # noqa: E402
from engine.movegen import best, generate  # noqa: E402
from engine.moves import evaluate, pass_turn, play  # noqa: E402
from engine.normalize import normalize_word  # noqa: E402
from engine.state import GameState, new_game  # noqa: E402
from engine.tiles import tileset  # noqa: E402

BUILT = ROOT / "fixtures" / "lexicons" / "en.dawg"
WORD_LIST = ROOT.parent / "shared" / "lexicon" / "enable1.txt"


def load_lexicon() -> tuple[WordGraph, str]:
    if BUILT.is_file():
        return WordGraph.load(BUILT), f"built lexicon {BUILT.relative_to(ROOT)}"
    words = (normalize_word("en", line) for line in WORD_LIST.read_text(encoding="utf-8").splitlines())
    graph = WordGraph.build((w for w in words if w and len(w) >= 2), tileset("en").alphabet)
    return graph, f"{BUILT.relative_to(ROOT)} missing: WordGraph built in memory from {WORD_LIST}"


def mid_game(lexicon: WordGraph, seed: int, turns: int) -> GameState:
    state = new_game("en", random.Random(seed))
    geometry = layout(state.layout)
    for _ in range(turns):
        rack = state.racks[state.turn]
        moves = best(state.board, rack, tileset=state.tileset, layout=geometry, lexicon=lexicon)
        if moves:
            state = play(state, state.turn, moves[0].placements, lexicon).state
        else:
            state = pass_turn(state, state.turn).state
        if state.over:
            break
    return state


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--turns", type=int, default=12)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--plays", type=int, default=300, help="how many plays to time")
    args = parser.parse_args()

    started = time.perf_counter()
    lexicon, source = load_lexicon()
    loaded = time.perf_counter() - started
    state = mid_game(lexicon, args.seed, args.turns)
    geometry = layout(state.layout)
    tiles = state.tileset
    rack = state.racks[state.turn]
    candidates = generate(state.board, rack, tileset=tiles, layout=geometry, lexicon=lexicon)
    step = max(1, len(candidates) // args.plays)
    plays = [move.placements for move in candidates[::step]][: args.plays]

    evaluate_times: list[float] = []
    play_times: list[float] = []
    clock = time.perf_counter_ns
    for _ in range(args.repeat):
        for placements in plays:
            t0 = clock()
            evaluate(state.board, placements, tileset=tiles, layout=geometry, lexicon=lexicon, rack=rack)
            t1 = clock()
            play(state, state.turn, placements, lexicon)
            t2 = clock()
            evaluate_times.append((t1 - t0) / 1000)
            play_times.append((t2 - t1) / 1000)

    print(f"lexicon: {source} ({len(lexicon)} words, ready in {loaded:.2f} s)")
    print(f"position: seed {args.seed}, {state.moves_played} moves played, rack {rack}")
    print(f"plays timed: {len(plays)} of {len(candidates)} legal plays, {args.repeat} times each")
    print(
        f"evaluate (validate + score): median {statistics.median(evaluate_times):.1f} us, "
        f"p90 {percentile(evaluate_times, 0.9):.1f} us"
    )
    print(
        f"play (evaluate + next state): median {statistics.median(play_times):.1f} us, "
        f"p90 {percentile(play_times, 0.9):.1f} us"
    )
    print(f"machine: {platform.machine()}, {platform.python_implementation()} {platform.python_version()}")


if __name__ == "__main__":
    main()
