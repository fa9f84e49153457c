"""Private memory of a worker after best-move searches in all seven game languages.

    .venv/bin/python bench/worker_memory.py [--implementation compiled,pure]

Per implementation of the move generator (``WORDGAME_MOVEGEN``), two worker processes
are started, each a bare Django process (``django.setup()`` with the project's settings):

1. the first maps every language's graph (with the English curated additions as a
   moderated overlay, as the site loads it) and runs its searches, then waits;
2. the second reads ``/proc/self/smaps_rollup``, does the same searches (a pruned
   best-move search with two blanks on the empty board and on a mid-game board, and a
   hard computer move, per language), reads it again and reports the growth.

The second worker's growth is what each further worker costs: the graph files are
mapped by both, so their pages are ``Shared_Clean``; ``Private_Dirty`` (and
``Private_Clean``) is the memory that worker holds alone: the engine's modules, tables
and any graph facts the search keeps. Target (issue 16): under 10 MB private growth.
Linux only (``/proc``).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIELDS = ("Rss", "Pss", "Shared_Clean", "Private_Clean", "Private_Dirty", "Anonymous")
TARGET_KB = 10 * 1024

# Run inside each worker: argv[1] is "measure" (second worker) or "hold" (first).
WORKER = r"""
import json, os, random, sys
sys.path.insert(0, os.getcwd())
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "wordgame.settings")
import django
django.setup()

def rollup():
    out = {}
    with open("/proc/self/smaps_rollup") as f:
        for line in f:
            parts = line.split()
            if len(parts) == 3 and parts[2] == "kB":
                out[parts[0].rstrip(":")] = int(parts[1])
    return out

before = rollup()
from engine import analysis, movegen
from engine.board import layout
from engine.lexicon import OverlayLexicon, WordGraph
from engine.state import new_game
from engine.tiles import LANGUAGES, tileset

lexicons = "fixtures/lexicons"
additions = [line.split()[0] for line in open(f"{lexicons}/en.additions.txt", encoding="utf-8") if line.strip() and not line.startswith("#")]
for language in LANGUAGES:
    base = WordGraph.load(f"{lexicons}/{language}.dawg")
    lexicon = OverlayLexicon(base, [w for w in additions if set(w) <= set(base.alphabet)] if language == "en" else [], [])
    tiles = tileset(language)
    geometry = layout(tiles.board)
    rng = random.Random(language)
    state = new_game(language, rng)
    rack = "".join(t for t in state.racks[0] if t != "?")[:5] + "??"
    movegen.best(geometry.empty_board(), rack, tileset=tiles, layout=geometry, lexicon=lexicon, k=1)
    for _ in range(8):  # a mid-game board
        seat = state.turn
        state = analysis.computer_move(state, seat, lexicon, "hard", rng).apply(state, seat, lexicon, rng).state
    movegen.best(state.board, rack, tileset=tiles, layout=geometry, lexicon=lexicon, k=1)
    analysis.computer_move(state, state.turn, lexicon, "hard", rng)
after = rollup()
print(json.dumps({"implementation": movegen.implementation(), "before": before, "after": after}), flush=True)
if sys.argv[1] == "hold":
    sys.stdin.read()  # keep the mappings alive until the second worker has measured
"""


def measure(implementation: str) -> dict[str, object]:
    """Both workers for one implementation; the second worker's report."""
    env = {**os.environ, "WORDGAME_MOVEGEN": implementation}
    first = subprocess.Popen(
        [sys.executable, "-c", WORKER, "hold"],
        cwd=ROOT,
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert first.stdout is not None
        first.stdout.readline()  # its searches are done and its pages mapped
        second = subprocess.run(
            [sys.executable, "-c", WORKER, "measure"],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
    finally:
        if first.stdin is not None:
            first.stdin.close()
        first.wait(timeout=60)
    report: dict[str, object] = json.loads(second.stdout)
    return report


def describe(report: dict[str, object]) -> str:
    before = report["before"]
    after = report["after"]
    assert isinstance(before, dict)
    assert isinstance(after, dict)
    growth = {field: after.get(field, 0) - before.get(field, 0) for field in FIELDS}
    private = growth["Private_Clean"] + growth["Private_Dirty"]
    verdict = "met" if private < TARGET_KB else "MISSED"
    parts = ", ".join(f"{field} {growth[field]:+,} kB" for field in FIELDS)
    return (
        f"{report['implementation']:>8}: bare Django Rss {before.get('Rss', 0):,} kB; growth: {parts}; "
        f"private growth {private / 1024:.1f} MB (target < 10 MB: {verdict})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--implementation", default="compiled,pure", help="comma-separated: compiled, pure")
    args = parser.parse_args()
    for name in args.implementation.split(","):
        print(describe(measure(name)), flush=True)


if __name__ == "__main__":
    main()
