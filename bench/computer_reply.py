"""How long the computer opponent thinks (issue 9: every level within 1 second; issue 16:
within 100 ms with the compiled move generator).

    .venv/bin/python bench/computer_reply.py [--implementation compiled,pure]
        [--languages en,de] [--racks 5] [--repeat 3] [--preset wwf|classic]

Timed: ``engine.analysis.computer_move`` (what the server's computer turn runs: the state
in, the decision out) at each level, on the real memory-mapped lexicons in
``fixtures/lexicons/`` (English with its curated additions as a moderated overlay, as the
site loads it), for

1. every position of ``bench/positions/en.jsonl`` (English, with its rack), and
2. the empty board in every game language with ``--racks`` seeded racks of 0, 1 and 2
   blanks each (the first move: the most plays and the most tied best plays).

Each (position, level) is timed ``--repeat`` times and its median kept; reported per
implementation, language and level: the median and the worst position (with its id).
With ``--preset classic`` (issue 32) every state is dealt under ``preset("classic",
language)``: the classic board and tile set, so the computer's choice is timed as a game
under the classic preset runs it (languages without a classic set are left out).
The first call per language and implementation in the process is reported apart (it
builds the per-language tables), and so is the slowest single call (the pure
generator's first pruned search per language also computes its graph facts).
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
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine import movegen  # noqa: E402
from engine.analysis import LEVELS, computer_move  # noqa: E402
from engine.lexicon import Lexicon, OverlayLexicon, WordGraph  # noqa: E402
from engine.state import CLASSIC_TILES, GameState, Rules, new_game, preset  # noqa: E402
from engine.tiles import BLANK, LANGUAGES  # noqa: E402

LEXICONS = ROOT / "fixtures" / "lexicons"
POSITIONS = ROOT / "bench" / "positions" / "en.jsonl"
TARGET_S = {"pure": 1.0, "compiled": 0.1}


def lexicon_for(language: str) -> Lexicon:
    base = WordGraph.load(LEXICONS / f"{language}.dawg")
    added: list[str] = []
    if language == "en":
        lines = (LEXICONS / "en.additions.txt").read_text(encoding="utf-8").splitlines()
        added = [line.split()[0] for line in lines if line.strip() and not line.startswith("#")]
    return OverlayLexicon(base, added, ())


def cases(languages: list[str], racks: int, rules_name: str = "wwf") -> list[tuple[str, str, GameState]]:
    """(language, id, state with seat 0 to move) for every position to time, dealt
    under the preset ``rules_name``."""

    def rules(language: str) -> Rules:
        return preset(rules_name, language)

    out: list[tuple[str, str, GameState]] = []
    if "en" in languages:
        start = new_game("en", random.Random("positions"), rules=rules("en"))
        for line in POSITIONS.read_text(encoding="utf-8").splitlines():
            if line.strip():
                p = json.loads(line)
                state = replace(start, board=tuple(p["board"]), racks=(p["rack"], start.racks[1]))
                out.append(("en", p["id"], state))
    for language in languages:
        for number in range(racks):
            state = new_game(language, random.Random(f"{language}-{number}"), rules=rules(language))
            pool = [t for t in state.tileset.full_bag() if t != BLANK]
            random.Random(number).shuffle(pool)
            for blanks in (0, 1, 2):
                rack = "".join(pool[: state.tileset.rack_size - blanks]) + BLANK * blanks
                out.append(
                    (language, f"empty-r{number}-b{blanks}", replace(state, racks=(rack, state.racks[1])))
                )
    return out


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--implementation", default=",".join(movegen.IMPLEMENTATIONS))
    parser.add_argument("--languages", default=",".join(LANGUAGES))
    parser.add_argument(
        "--racks", type=int, default=5, help="seeded racks per blank count on the empty board"
    )
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--preset", default="wwf", choices=("wwf", "classic"))
    args = parser.parse_args()
    languages = [code for code in args.languages.split(",") if code]
    if args.preset == "classic":
        languages = [code for code in languages if code in CLASSIC_TILES]
    lexicons = {language: lexicon_for(language) for language in languages}
    todo = cases(languages, args.racks, args.preset)
    print(f"rules preset: {args.preset}")
    print(
        f"machine: {platform.machine()}, {os.cpu_count()} cores, CPython {platform.python_version()}, "
        f"load average {' '.join(f'{x:.1f}' for x in os.getloadavg())}"
    )
    for name in args.implementation.split(","):
        movegen.set_implementation(name)
        times: dict[tuple[str, str], list[tuple[float, str]]] = {}
        first: dict[str, float] = {}
        slowest = (0.0, "")
        for language, ident, state in todo:
            for level in LEVELS:
                runs = []
                for number in range(args.repeat):
                    started = time.perf_counter()
                    computer_move(state, 0, lexicons[language], level, random.Random(f"{ident}-{number}"))
                    runs.append(time.perf_counter() - started)
                    first.setdefault(language, runs[0])
                times.setdefault((language, level), []).append((statistics.median(runs), ident))
                slowest = max(slowest, (max(runs), f"{language} {level} {ident}"))
        print(f"\n{name}: seconds per computer move, median over positions and the worst position")
        print(f"  {'language':8} {'level':6} {'n':>4} {'median':>8} {'worst':>8}  worst position")
        worst_all = 0.0
        for (language, level_name), values in times.items():
            median = statistics.median(t for t, _ in values)
            worst, ident = max(values)
            worst_all = max(worst_all, worst)
            print(f"  {language:8} {level_name:6} {len(values):>4} {median:8.4f} {worst:8.4f}  {ident}")
        cold = ", ".join(f"{language} {seconds:.3f}" for language, seconds in first.items())
        target = TARGET_S[name]
        verdict = "met" if worst_all < target else "MISSED"
        print(f"  worst position: {worst_all:.4f} s (target < {target:g} s: {verdict})")
        print(f"  first call per language in the process (s): {cold}")
        print(f"  slowest single call, first calls included: {slowest[0]:.4f} s ({slowest[1]})")


if __name__ == "__main__":
    main()
