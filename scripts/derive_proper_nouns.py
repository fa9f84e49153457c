#!/usr/bin/env python3
"""Derive the German proper-noun stop-list from the hunspell dictionary the list comes from.

German capitalises every noun, so case cannot tell ``Haus`` from ``Edmund``; until issue 26
the only guard was ``de.stoplist.txt``, 1,119 names written by hand, and every other name of
the source passed (EDMUNDS, TICINO, and thousands more). The dictionary itself says which
entries are names, through the affix flags it gives them (``de_DE_frami.dic`` of Debian
``hunspell-de-de-frami`` 1:7.5.0-1, the source of most of the list):

- a common noun carries a plural or compounding flag (``Haus/Tpmij``, ``Rose/Nm``,
  ``Kiel/EPSmij``); a name carries none, or only the genitive ``S`` (``Edmund/S``,
  ``Angela/S``, ``Ticino``, ``Hans``);
- so a candidate is an entry spelled with a capital and then lowercase letters, whose
  flags are none or ``S``.

Some common nouns have no plural either. A candidate is kept (not a name) when it is

- spelled without a vowel: an abbreviation used as a noun (``Lkw``, ``Pkw``, ``Kfz``);
- a diminutive (-chen, -lein) or a derivation with a common-noun suffix (-heit, -keit, -ung,
  -schaft, -tum, -ismus, -ität, -logie, -nis, -sein ...);
- a headword or inflected form of the German-English Ding dictionary
  (``fixtures/definitions/freedict-deu-eng.json.gz``), which lists common words and few
  names (``Aalen``, a geological stage, stays; ``Edmund`` is not there);
- or (in the build, ``dictionaries/wordlists.py``) spelled lowercase too somewhere in the
  source: a verb or adjective (``hampeln`` keeps HAMPELN).

Writes ``fixtures/lexicons/de.propernouns.txt``, one name per line as the dictionary spells
it. Needs network access to Debian once (``apt-get download``) or a work directory prepared
by an earlier run. Standard library and the engine only::

    python scripts/derive_proper_nouns.py --work /tmp/lexwork
"""

from __future__ import annotations

import argparse
import gzip
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from engine.normalize import normalize_word  # noqa: E402

PACKAGE = "hunspell-de-de-frami"
DEBIAN_VERSION = "1:7.5.0-1"
DIC = "usr/share/hunspell/de_DE_frami.dic"
DING = ROOT / "fixtures" / "definitions" / "freedict-deu-eng.json.gz"
OUT = ROOT / "fixtures" / "lexicons" / "de.propernouns.txt"

#: Flags a name may carry: none, or the genitive -s.
NAME_FLAGS = frozenset("S")
#: Endings of common nouns (derivations), never of names.
COMMON_SUFFIXES = (
    "chen",
    "lein",
    "heit",
    "keit",
    "ung",
    "schaft",
    "tum",
    "ismus",
    "ität",
    "logie",
    "grafie",
    "graphie",
    "metrie",
    "kratie",
    "nis",
    "sein",
    "ion",
    "ium",
    "ien",
    "erei",
)


def dic_path(work: Path) -> Path:
    """The unpacked ``.dic`` (downloaded and unpacked into ``work`` the first time)."""
    target = work / PACKAGE / DIC
    if not target.exists():
        work.mkdir(parents=True, exist_ok=True)
        subprocess.run(["apt-get", "download", f"{PACKAGE}={DEBIAN_VERSION}"], cwd=work, check=True)
        deb = next(work.glob(f"{PACKAGE}_*.deb"))
        subprocess.run(["dpkg-deb", "-x", str(deb), str(work / PACKAGE)], check=True)
    return target


def entries(dic: Path) -> list[tuple[str, str]]:
    """(stem, flags) of every entry (the file is ISO-8859-1; its first line is a count)."""
    result = []
    for line in dic.read_text(encoding="iso-8859-1").splitlines()[1:]:
        if not line or line.startswith(("#", "\t")):
            continue
        stem, _, flags = line.partition("/")
        result.append((stem.split("\t")[0].strip(), flags.split("\t")[0].strip()))
    return result


def ding_words() -> set[str]:
    with gzip.open(DING, "rt", encoding="utf-8") as f:
        data = json.load(f)
    return set(data["words"]) | set(data["forms"])


def proper_nouns(pairs: list[tuple[str, str]], known: set[str]) -> list[str]:
    """The entries the flags mark as names, less the common nouns described above."""
    names = set()
    for stem, flags in pairs:
        if len(stem) < 2 or not (stem[0].isupper() and stem[1:].islower() and stem.isalpha()):
            continue
        if set(flags) - NAME_FLAGS or stem.endswith(COMMON_SUFFIXES):
            continue
        # No vowel: an abbreviation used as a noun (Lkw, Pkw, Kfz), not a name.
        if not any(ch in "aeiouyäöü" for ch in stem.lower()):
            continue
        word = normalize_word("de", stem)
        if word is None or word in known:
            continue
        names.add(stem)
    return sorted(names)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--work", type=Path, required=True, help="download and unpack here")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    names = proper_nouns(entries(dic_path(args.work)), ding_words())
    header = (
        "# German proper nouns, derived by scripts/derive_proper_nouns.py from the affix flags of\n"
        f"# {PACKAGE} {DEBIAN_VERSION} ({DIC}; GPL-2 or GPL-3). Do not edit: rebuild.\n"
    )
    args.out.write_text(header + "".join(f"{name}\n" for name in names), encoding="utf-8")
    print(f"{len(names)} names -> {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
