"""Benchmark the committed lexicon graphs (fixtures/lexicons/<LANG>.dawg).

    .venv/bin/python bench/lexicon.py [--languages en,de] [--skip-build]

Measures per language: build time (word list -> WordGraph in memory, from the
committed sorted list), file sizes, cold load time in a fresh process, membership
time for words and for non-words; and the private memory a worker gains after
loading all seven graphs and touching every page, measured from
/proc/self/smaps_rollup while a second worker has the same files mapped (as
server workers would). Prints a Markdown table for docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import gzip
import json
import platform
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.lexicon import WordGraph  # noqa: E402
from engine.normalize import alphabet  # noqa: E402

FIXTURES = ROOT / "fixtures" / "lexicons"
LANGUAGES = ("en", "en-GB", "es", "it", "pt-BR", "de", "fr")

# Runs in a fresh interpreter: time from before the import to a first answered lookup.
_COLD = """
import sys, time
t0 = time.perf_counter()
sys.path.insert(0, {root!r})
from engine.lexicon import WordGraph
t1 = time.perf_counter()
g = WordGraph.load({path!r})
ok = {word!r} in g
t2 = time.perf_counter()
print(t1 - t0, t2 - t1, ok)
"""

# A worker: maps all graphs, touches every page, reports smaps_rollup before/after.
_WORKER = """
import sys, json, time
sys.path.insert(0, {root!r})
from engine.lexicon import WordGraph

def rollup():
    out = {{}}
    for line in open("/proc/self/smaps_rollup"):
        parts = line.split()
        if len(parts) == 3 and parts[2] == "kB":
            out[parts[0].rstrip(":")] = int(parts[1])
    return out

before = rollup()
graphs = [WordGraph.load(p) for p in {paths!r}]
total = 0
for g in graphs:
    total += sum(g.nodes)  # reads every uint32, so every page is resident
after = rollup()
print(json.dumps({{"before": before, "after": after}}), flush=True)
sys.stdin.readline()  # stay alive while the other worker measures
"""


def read_list(language: str) -> list[str]:
    with gzip.open(FIXTURES / f"{language}.txt.gz", "rt", encoding="utf-8") as f:
        return f.read().split("\n")[:-1]


def bench_build(language: str, words: list[str]) -> float:
    started = time.perf_counter()
    WordGraph.build(words, alphabet(language))
    return time.perf_counter() - started


def bench_cold_load(language: str, runs: int = 7) -> tuple[float, float]:
    """Median (import seconds, load+first lookup seconds) over fresh processes."""
    path = str(FIXTURES / f"{language}.dawg")
    imports, loads = [], []
    for _ in range(runs):
        code = _COLD.format(root=str(ROOT), path=path, word="AB")
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
        imp, load, _ok = out.stdout.split()
        imports.append(float(imp))
        loads.append(float(load))
    return statistics.median(imports), statistics.median(loads)


def bench_membership(language: str, words: list[str], n: int = 100_000) -> tuple[float, float]:
    """Mean CPU seconds per lookup (best of 3) for sampled words and mutated non-words."""
    graph = WordGraph.load(FIXTURES / f"{language}.dawg")
    rng = random.Random(1)
    sample = rng.sample(words, min(n, len(words)))
    letters = alphabet(language)
    non_words = [w[: len(w) // 2] + rng.choice(letters) + w[len(w) // 2 :] for w in sample]
    results = []
    for probe in (sample, non_words):
        best = float("inf")
        for _ in range(3):
            # CPU time of this process: other jobs on a shared 2-core machine would
            # otherwise inflate wall-clock figures several times over.
            started = time.process_time()
            for w in probe:
                w in graph  # noqa: B015 - the lookup is what is timed
            best = min(best, time.process_time() - started)
        results.append(best / len(probe))
    return results[0], results[1]


def bench_worker_memory(languages: tuple[str, ...]) -> dict[str, int]:
    """kB gained by the second of two workers that map and touch all graphs."""
    paths = [str(FIXTURES / f"{lang}.dawg") for lang in languages]
    code = _WORKER.format(root=str(ROOT), paths=paths)
    first = subprocess.Popen(
        [sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    assert first.stdout is not None
    assert first.stdin is not None
    first_report = json.loads(first.stdout.readline())
    second = subprocess.Popen(
        [sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    assert second.stdout is not None
    assert second.stdin is not None
    report = json.loads(second.stdout.readline())
    for proc in (first, second):
        assert proc.stdin is not None
        proc.stdin.write("\n")
        proc.stdin.flush()
        proc.wait()
    keys = ("Rss", "Pss", "Shared_Clean", "Private_Clean", "Private_Dirty", "Anonymous")
    gained = {k: report["after"][k] - report["before"][k] for k in keys}
    gained["first_worker_Private_Clean"] = (
        first_report["after"]["Private_Clean"] - first_report["before"]["Private_Clean"]
    )
    return gained


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--languages", default=",".join(LANGUAGES))
    parser.add_argument("--skip-build", action="store_true")
    args = parser.parse_args()
    languages = tuple(args.languages.split(","))
    print(f"date {time.strftime('%Y-%m-%d')}, {platform.platform()}, Python {platform.python_version()}")
    with open("/proc/cpuinfo") as f:
        model = next((line.split(":", 1)[1].strip() for line in f if line.startswith("model name")), "?")
    print(f"cpu {model}")
    print()
    print(
        "| language | words | .dawg bytes | .txt.gz bytes | build s | cold: import ms | cold: load+lookup ms "
        "| word us | non-word us | mean word length |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for language in languages:
        words = read_list(language)
        build = float("nan") if args.skip_build else bench_build(language, words)
        imp, load = bench_cold_load(language)
        hit, miss = bench_membership(language, words)
        mean_len = sum(map(len, words)) / len(words)
        print(
            f"| {language} | {len(words):,} | {(FIXTURES / f'{language}.dawg').stat().st_size:,} "
            f"| {(FIXTURES / f'{language}.txt.gz').stat().st_size:,} | {build:.1f} | {imp * 1e3:.1f} "
            f"| {load * 1e3:.2f} | {hit * 1e6:.2f} | {miss * 1e6:.2f} | {mean_len:.1f} |",
            flush=True,
        )
    memory = bench_worker_memory(languages)
    print()
    print("second worker, kB gained after mapping and touching all graphs:", json.dumps(memory))


if __name__ == "__main__":
    main()
