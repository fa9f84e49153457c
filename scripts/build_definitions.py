"""Build the compact English definitions fixture from WordNet 3.0.

Reads the WordNet 3.0 database files (``index.*``, ``data.*``, ``*.exc``, gzipped) from
``../shared/lexicon-sources/definitions-en/`` (beside the repository) and writes
``fixtures/definitions/wordnet-3.0.json.gz``: a gzip JSON object

* ``glosses``: list of ``[pos, gloss]`` (one per kept synset; pos is n, v, a or r, with
  adjective satellites folded into ``a``),
* ``lemmas``: ``{lemma: [gloss index, ...]}`` in WordNet's sense order (most frequent
  first; nouns, then verbs, adjectives, adverbs),
* ``exceptions``: ``{pos: {inflected form: [base form, ...]}}`` (WordNet's morphy
  exception lists),

keeping only the single-word lemmas a player could type (letters a-z only) and, per
lemma, only the senses where WordNet spells the word in lowercase: "china" keeps the
porcelain and drops the country. ``dictionaries/definitions.py`` reads the fixture.

Usage::

    python scripts/build_definitions.py [--source DIR] [--out FILE]
    python scripts/build_definitions.py --coverage fixtures/lexicons/en.txt.gz

``--coverage`` prints the share of a normalised word list (one uppercase word per line,
gzip) that gets at least one definition through ``dictionaries.definitions``.
"""

from __future__ import annotations

import argparse
import gzip
import json
import re
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# shared/ sits beside the repository (as in CI and on the developers' machines).
DEFAULT_SOURCE = ROOT.parent / "shared" / "lexicon-sources" / "definitions-en"
DEFAULT_OUT = ROOT / "fixtures" / "definitions" / "wordnet-3.0.json.gz"
LICENCE = "LICENSE-WordNet-3.0.txt"

# WordNet file suffix -> the part-of-speech letter used in the fixture.
POS_FILES = (("noun", "n"), ("verb", "v"), ("adj", "a"), ("adv", "r"))
PLAYABLE = re.compile(r"[a-z]+")
# Adjective syntactic markers that follow a word in data.adj: (a), (p), (ip).
ADJ_MARKER = re.compile(r"\((?:a|p|ip)\)$")


def read_lines(path: Path) -> list[str]:
    with gzip.open(path, "rt", encoding="utf-8") as f:
        # License header lines in data/index files start with two spaces.
        return [line.rstrip("\n") for line in f if not line.startswith("  ")]


def parse_data(path: Path) -> dict[int, tuple[list[str], str]]:
    """Synset offset -> (words as spelled in the synset, gloss)."""
    synsets: dict[int, tuple[list[str], str]] = {}
    for line in read_lines(path):
        head, _, gloss = line.partition(" | ")
        fields = head.split()
        offset, count = int(fields[0]), int(fields[3], 16)
        words = [ADJ_MARKER.sub("", fields[4 + 2 * i]) for i in range(count)]
        synsets[offset] = (words, gloss.strip())
    return synsets


def parse_index(path: Path) -> dict[str, list[int]]:
    """Lemma -> synset offsets in sense order."""
    senses: dict[str, list[int]] = {}
    for line in read_lines(path):
        fields = line.split()
        lemma, synset_count, pointer_count = fields[0], int(fields[2]), int(fields[3])
        # lemma pos synset_cnt p_cnt [ptr_symbol...] sense_cnt tagsense_cnt offsets...
        offsets = fields[4 + pointer_count + 2 :]
        assert len(offsets) == synset_count, line
        senses[lemma] = [int(o) for o in offsets]
    return senses


def parse_exceptions(path: Path) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for line in read_lines(path):
        inflected, *bases = line.split()
        if PLAYABLE.fullmatch(inflected):
            out[inflected] = [b for b in bases if PLAYABLE.fullmatch(b)]
    return {k: v for k, v in out.items() if v}


def build(source: Path) -> dict[str, object]:
    glosses: list[list[str]] = []
    gloss_index: dict[tuple[str, int], int] = {}
    lemmas: dict[str, list[int]] = {}
    exceptions: dict[str, dict[str, list[str]]] = {}
    for name, pos in POS_FILES:
        synsets = parse_data(source / f"data.{name}.gz")
        for lemma, offsets in parse_index(source / f"index.{name}.gz").items():
            if not PLAYABLE.fullmatch(lemma):
                continue
            for offset in offsets:
                words, gloss = synsets[offset]
                # Keep the sense only when the synset spells this lemma in lowercase.
                if lemma not in words:
                    continue
                key = (pos, offset)
                if key not in gloss_index:
                    gloss_index[key] = len(glosses)
                    glosses.append([pos, gloss])
                lemmas.setdefault(lemma, []).append(gloss_index[key])
        exceptions[pos] = parse_exceptions(source / f"{name}.exc.gz")
    return {
        "source": "WordNet 3.0 (Princeton University); see LICENSE-WordNet-3.0.txt",
        "glosses": glosses,
        "lemmas": dict(sorted(lemmas.items())),
        "exceptions": exceptions,
    }


def write(data: dict[str, object], out: Path) -> None:
    out.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"), sort_keys=False)
    # mtime=0 so a rebuild from the same sources gives the same bytes.
    with gzip.GzipFile(out, "wb", compresslevel=9, mtime=0) as f:
        f.write(text.encode("utf-8"))


def coverage(word_list: Path, fixture: Path) -> tuple[int, int]:
    """(words with at least one definition, words) for a gzip list of uppercase words."""
    sys.path.insert(0, str(ROOT))
    from dictionaries.definitions import WordNet

    wordnet = WordNet.load(fixture)
    total = found = 0
    with gzip.open(word_list, "rt", encoding="utf-8") as f:
        for line in f:
            word = line.strip()
            if not word:
                continue
            total += 1
            if wordnet.define(word):
                found += 1
    return found, total


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--source", type=Path, default=DEFAULT_SOURCE)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument(
        "--coverage", type=Path, metavar="WORDLIST", help="measure coverage instead of building"
    )
    args = parser.parse_args(argv)
    if args.coverage:
        found, total = coverage(args.coverage, args.out)
        print(f"{found} of {total} words have a definition ({100 * found / total:.1f} %)")
        return 0
    data = build(args.source)
    write(data, args.out)
    shutil.copyfile(args.source / LICENCE, args.out.parent / LICENCE)
    lemmas = data["lemmas"]
    glosses = data["glosses"]
    assert isinstance(lemmas, dict)
    assert isinstance(glosses, list)
    print(f"{len(lemmas)} lemmas, {len(glosses)} senses -> {args.out} ({args.out.stat().st_size} bytes)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
