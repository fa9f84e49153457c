"""How long the computer opponent takes to reply (issue 6: within 2 seconds).

Two measurements, both on the real built lexicons in ``fixtures/lexicons/``:

1. Thinking: ``games.thinking.think`` (what the server's process pool runs: the state in,
   the decision out) timed for every computer turn of seeded games between computer
   players, per language and level. Reported: median, 95th percentile and maximum.
2. The process pool round trip as the server does it (``spawn`` context): the first
   reply of a fresh pool (process start, imports, memory-mapping the graph, the move
   generator's one-time graph facts) and the replies after it.

Run: ``.venv/bin/python bench/computer_reply.py [--games N] [--languages en,de]``
"""

from __future__ import annotations

import argparse
import multiprocessing
import platform
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.analysis import LEVELS, Level, computer_move  # noqa: E402
from engine.lexicon import OverlayLexicon, WordGraph  # noqa: E402
from engine.state import GameState, new_game  # noqa: E402
from engine.tiles import LANGUAGES  # noqa: E402
from games.thinking import Job, LexiconSpec, think  # noqa: E402

LEXICONS = ROOT / "fixtures" / "lexicons"


def spec_for(language: str) -> LexiconSpec:
    return LexiconSpec.of(OverlayLexicon(WordGraph.load(str(LEXICONS / f"{language}.dawg")), (), ()))


def job_for(state: GameState, seat: int, level: str, spec: LexiconSpec, number: int) -> Job:
    return Job(0, number, state.to_dict(), seat, level, f"bench-{number}", spec)


def thinking_times(language: str, games: int) -> dict[str, list[float]]:
    """Seconds per computer turn, by level, over ``games`` seeded games per level pairing."""
    spec = spec_for(language)
    lexicon = spec.load()
    times: dict[str, list[float]] = {level: [] for level in LEVELS}
    for game in range(games):
        pairings: tuple[tuple[Level, Level], ...] = (("hard", "medium"), ("easy", "hard"), ("medium", "easy"))
        for pairing in pairings:
            rng = random.Random(f"{language}-{game}-{pairing}")
            state = new_game(language, rng)
            number = 0
            while not state.over and number < 200:
                seat = state.turn
                level = pairing[seat]
                started = time.perf_counter()
                think(job_for(state, seat, level, spec, number))
                times[level].append(time.perf_counter() - started)
                # Play on with the same choice (computed again outside the timing).
                choice = computer_move(state, seat, lexicon, level, random.Random(f"bench-{number}"))
                state = choice.apply(state, seat, lexicon, rng).state
                number += 1
    return times


def pool_round_trips(language: str, replies: int) -> tuple[float, list[float]]:
    """The first reply of a fresh spawn pool, then ``replies`` more, in seconds."""
    spec = spec_for(language)
    rng = random.Random(f"pool-{language}")
    state = new_game(language, rng)
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=1, mp_context=context) as pool:
        started = time.perf_counter()
        pool.submit(think, job_for(state, state.turn, "hard", spec, 0)).result()
        first = time.perf_counter() - started
        later = []
        for number in range(1, replies + 1):
            started = time.perf_counter()
            pool.submit(think, job_for(state, state.turn, "hard", spec, number)).result()
            later.append(time.perf_counter() - started)
    return first, later


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1, help="games per level pairing and language")
    parser.add_argument("--languages", default=",".join(LANGUAGES))
    args = parser.parse_args()
    languages = [code for code in args.languages.split(",") if code]
    print(
        f"machine: {platform.machine()}, {multiprocessing.cpu_count()} cores, Python {platform.python_version()}"
    )
    print("thinking per computer turn (seconds): language level turns median p95 max")
    worst = 0.0
    for language in languages:
        for level, values in thinking_times(language, args.games).items():
            worst = max(worst, max(values))
            print(
                f"  {language:6} {level:6} {len(values):5} {statistics.median(values):7.3f} "
                f"{p95(values):7.3f} {max(values):7.3f}"
            )
    print(f"slowest thinking: {worst:.3f} s")
    print(
        "process pool round trip, hard level, opening position (seconds): language first later-median later-max"
    )
    for language in languages:
        first, later = pool_round_trips(language, 5)
        print(f"  {language:6} {first:7.3f} {statistics.median(later):7.3f} {max(later):7.3f}")


if __name__ == "__main__":
    main()
