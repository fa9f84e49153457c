"""Benchmark the meanings of the game languages (dictionaries.definitions).

    .venv/bin/python bench/meanings.py [LANGUAGE ...]

Per language, in a fresh process each: the time and resident memory (VmRSS from
/proc/self/status) that loading its dictionaries and base forms adds (the first look-up),
then the CPU time per ``meanings(language, word)`` over the words of the drawn sample of
``scripts/meanings_sample.py`` (best of 3 passes), and whether the lemmatiser was loaded
(it must not be). Prints a Markdown table for docs/benchmarks.md.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LANGUAGES = ("en", "es", "it", "pt-BR", "de", "fr")

# Runs in a fresh interpreter so that each language's load is measured alone.
_ONE = """
import json, os, sys, time
sys.path.insert(0, {root!r})
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "wordgame.settings")
import django
django.setup()
from dictionaries.definitions import meanings
from scripts.meanings_sample import draw

def rss_mb():
    for line in open("/proc/self/status"):
        if line.startswith("VmRSS"):
            return int(line.split()[1]) / 1024
    return 0.0

words = draw({language!r})
before, t0 = rss_mb(), time.perf_counter()
meanings({language!r}, words[0])
load_s, load_mb = time.perf_counter() - t0, rss_mb() - before
best = float("inf")
for _ in range(3):
    t = time.process_time()
    for w in words:
        meanings({language!r}, w)
    best = min(best, time.process_time() - t)
print(json.dumps({{"load_s": load_s, "load_mb": load_mb, "us": best / len(words) * 1e6,
                  "simplemma": "simplemma" in sys.modules}}))
"""


def measure(language: str) -> dict[str, float]:
    code = _ONE.format(root=str(ROOT), language=language)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    result: dict[str, float] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def main(argv: list[str] | None = None) -> int:
    languages = (argv if argv is not None else sys.argv[1:]) or list(LANGUAGES)
    print("| language | first look-up (load) s | memory added MB | look-up µs | lemmatiser loaded |")
    print("|---|---:|---:|---:|---|")
    for language in languages:
        r = measure(language)
        print(
            f"| {language} | {r['load_s']:.2f} | {r['load_mb']:.0f} | {r['us']:.0f} | "
            f"{'yes' if r['simplemma'] else 'no'} |"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
