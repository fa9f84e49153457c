"""How long hindsight and word strength take (issue 10: under 100 ms median, 300 ms worst).

What, on every position of ``bench/positions/*.jsonl`` with the built English lexicon:
- hindsight: ``games.extras.hindsight`` (the best play of the rack on that board, with
  its words), what a buyer's page and ``/extras/hindsight`` compute;
- word strength: the first evaluation of a turn (``movegen.scores`` of every legal play,
  sorted: what ``extras.all_scores`` caches per game version) and a later one (a lookup
  in the sorted scores, ``extras.strength``).
Each with both move generators (compiled core and pure Python), per blank count, median
and worst over the positions (each timed ``--repeat`` times, the fastest kept).

Run: ``.venv/bin/python bench/extras.py [--repeat 3]``
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "wordgame.settings")

import django  # noqa: E402

django.setup()  # games.extras reads prices from settings; no database is touched

from engine import layout, movegen, tileset  # noqa: E402
from engine.lexicon import WordGraph  # noqa: E402
from games import extras  # noqa: E402


def fastest(fn: Callable[[], object], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        started = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - started)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    lexicon = WordGraph.load(str(ROOT / "fixtures" / "lexicons" / "en.dawg"))
    tiles, geometry = tileset("en"), layout("wwf")
    positions = [
        json.loads(line)
        for path in sorted((ROOT / "bench" / "positions").glob("*.jsonl"))
        for line in path.read_text(encoding="utf-8").splitlines()
        if line.strip()
    ]
    print(
        f"# {time.strftime('%Y-%m-%d %H:%M')} {platform.machine()} {platform.python_version()}, "
        f"{len(positions)} positions, load {os.getloadavg()[0]:.1f}"
    )
    print(
        "implementation blanks n  hindsight ms: median max  strength first ms: median max  later us: median max"
    )
    for name in movegen.IMPLEMENTATIONS:
        movegen.set_implementation(name)
        rows: dict[object, list[tuple[float, float, float]]] = {}
        for p in positions:
            board = tuple(p["board"])
            rack = p["rack"]
            look = fastest(
                lambda b=board, r=rack: extras.hindsight(  # type: ignore[misc]
                    number=1, board=b, rack=r, played={}, language="en", lexicon=lexicon
                ),
                args.repeat,
            )
            first = fastest(
                lambda b=board, r=rack: sorted(  # type: ignore[misc]
                    movegen.scores(b, r, tileset=tiles, layout=geometry, lexicon=lexicon)
                ),
                args.repeat,
            )
            scores = sorted(movegen.scores(board, rack, tileset=tiles, layout=geometry, lexicon=lexicon))
            later = fastest(
                lambda s=scores: extras.strength(s[len(s) // 2] if s else 0, s),  # type: ignore[misc]
                args.repeat,
            )
            rows.setdefault(p["blanks"], []).append((look, first, later))
            rows.setdefault("all", []).append((look, first, later))
        for blanks, values in rows.items():
            look_ms = [1000 * v[0] for v in values]
            first_ms = [1000 * v[1] for v in values]
            later_us = [1e6 * v[2] for v in values]
            print(
                f"{name:9} {blanks!s:>6} {len(values):3}  "
                f"{statistics.median(look_ms):8.2f} {max(look_ms):8.2f}   "
                f"{statistics.median(first_ms):8.2f} {max(first_ms):8.2f}   "
                f"{statistics.median(later_us):7.1f} {max(later_us):7.1f}"
            )


if __name__ == "__main__":
    main()
