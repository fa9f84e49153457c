"""How the daily puzzle's rule (``puzzles.selection``) behaves: for each of ``--days``
consecutive days and every game language, the puzzle chosen from the computer's own
games (what a site with too few finished games gets), how long the choice took, how many
positions were examined, and the best play's score and margin. With the rule's figures
(MIN_BEST, MIN_MARGIN) it says how often the first positions already qualify.

Run: ``.venv/bin/python bench/puzzle_choice.py [--days 30]``
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time
from datetime import date, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "wordgame.settings")

import django  # noqa: E402

django.setup()  # puzzles.selection imports nothing of Django; the app registry is harmless

import engine  # noqa: E402
from engine.lexicon import WordGraph  # noqa: E402
from puzzles import selection  # noqa: E402

FILES = {"en": "en", "en-GB": "en-GB", "es": "es", "it": "it", "pt-BR": "pt-BR", "de": "de", "fr": "fr"}


def positions_examined(seed: int, language: str, lexicon: WordGraph) -> int:
    """How many of the computer's positions the choice looked at (the first qualifying
    one's index, or all of them)."""
    count = 0
    for position in selection.self_play_positions(seed, language, lexicon):
        count += 1
        best, second, _top = selection.measure(position, language, lexicon)
        if selection.qualifies(best, second):
            break
    return count


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--days", type=int, default=30)
    args = parser.parse_args()
    print(
        f"{platform.processor() or platform.machine()}, Python {platform.python_version()}, {os.cpu_count()} CPUs (shared)"
    )
    print(f"rule: best >= {selection.MIN_BEST}, margin >= {selection.MIN_MARGIN}")
    print(
        "| language | median ms | worst ms | positions examined (median / worst) | best (median) | margin (median) | qualifying |"
    )
    print("|---|---|---|---|---|---|---|")
    for language in engine.LANGUAGES:
        lexicon = WordGraph.load(str(ROOT / "fixtures" / "lexicons" / f"{FILES[language]}.dawg"))
        times, examined, bests, margins, ok = [], [], [], [], 0
        for i in range(args.days):
            seed = selection.seed_for(date(2026, 1, 1) + timedelta(days=i), language)
            start = time.perf_counter()
            chosen = selection.choose_self_play(seed, language, lexicon)
            times.append((time.perf_counter() - start) * 1000)
            count = positions_examined(seed, language, lexicon)
            examined.append(count)
            bests.append(chosen.best)
            margins.append(chosen.best - chosen.second)
            ok += selection.qualifies(chosen.best, chosen.second)
        print(
            f"| {language} | {statistics.median(times):.0f} | {max(times):.0f} | "
            f"{statistics.median(examined):.0f} / {max(examined)} | {statistics.median(bests):.0f} | "
            f"{statistics.median(margins):.0f} | {ok}/{args.days} |"
        )


if __name__ == "__main__":
    main()
