"""Build larger English-translation fixtures from Apertium's bilingual dictionaries.

The FreeDict Spanish and Italian dictionaries are small (about 3,000-3,800 headwords, most
function words missing), the Portuguese and French ones not much larger. Apertium's
machine-translation data has a bilingual dictionary of every lemma its translator knows,
function words included. Debian packages them: ``apt-get install apertium-eng-spa
apertium-spa-ita apertium-es-pt apertium-fr-es lttoolbox-dev`` (the versions in
``VERSIONS``, Debian 12); ``lt-print`` (from ``lttoolbox-dev``) lists the compiled
dictionaries ``/usr/share/apertium/apertium-<pair>/<a>-<b>.autobil.bin`` as transducer arcs,
and this script walks them into ``lemma<tags> -> translation<tags>`` pairs.

* Spanish: ``spa-eng.autobil.bin``, Spanish lemma -> English lemma.
* Italian, Portuguese, French: Debian has no pair of theirs with English, so their
  dictionary into Spanish (``ita-spa``, ``pt-es``, ``fr-es``) is chained with the Spanish ->
  English one, matching the part of speech at the Spanish step (``gatto<n>`` -> ``gato<n>``
  -> ``cat``). A chained translation can pick up the other sense of an ambiguous Spanish
  word; the fixture's name says it was chained, and FreeDict's own entries come first.

Writes ``fixtures/definitions/apertium-<xxx>-eng.json.gz`` in the format of the FreeDict
fixtures (``scripts/build_freedict.py``: ``words`` keyed with the game's normalisation, no
``forms``; one sense line per lemma and part of speech, its translations joined by commas),
kept to the words of the game's word list, and ``LICENSE-Apertium.txt`` (Debian's copyright
files of the packages; GPL-2).

Usage::

    python scripts/build_apertium.py [--source DIR] [--docs DIR] [--out DIR] [LANGUAGE ...]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scripts.build_freedict import (  # noqa: E402
    DEFAULT_LEXICONS,
    DEFAULT_OUT,
    playable,
    spelling,
    word_list,
    write,
)

DEFAULT_SOURCE = Path("/usr/share/apertium")
DEFAULT_DOCS = Path("/usr/share/doc")
LICENCE = "LICENSE-Apertium.txt"
#: Game language -> (the fixture's three-letter code, the package and dictionary that
#: lead to Spanish, or None for Spanish itself).
LANGUAGES: dict[str, tuple[str, str | None, str]] = {
    "es": ("spa", None, "spa-eng"),
    "it": ("ita", "apertium-spa-ita", "ita-spa"),
    "pt-BR": ("por", "apertium-es-pt", "pt-es"),
    "fr": ("fra", "apertium-fr-es", "fr-es"),
}
#: Package -> (upstream version, Debian version) the fixtures were built from.
VERSIONS = {
    "apertium-eng-spa": ("0.8.1", "0.8.1-2"),
    "apertium-spa-ita": ("0.2.1", "0.2.1-3"),
    "apertium-es-pt": ("1.1.6", "1.1.6-1"),
    "apertium-fr-es": ("0.9.4", "0.9.4-1"),
}
PACKAGES = tuple(VERSIONS)
MAX_TRANSLATIONS = 6

# Apertium's first tag -> the fixture's part of speech (dictionaries.definitions.POS_NAMES).
POS_CODES = {
    "n": "n",
    "vblex": "v",
    "vbser": "v",
    "vbhaver": "v",
    "vbmod": "v",
    "vaux": "v",
    "adj": "a",
    "adv": "r",
    "preadv": "r",
    "pr": "prep",
    "prn": "pron",
    "cnjcoo": "conj",
    "cnjsub": "conj",
    "cnjadv": "conj",
    "num": "num",
    "ij": "int",
    "det": "det",
    "predet": "det",
    "rel": "pron",
}
# Apertium leaves English personal pronouns to its generator: "prpers" with person, number,
# gender and case tags. (case, person, number, gender) -> the pronoun; gender "mf" when any.
PERSONAL = {
    ("subj", "p1", "sg"): "I",
    ("obj", "p1", "sg"): "me",
    ("subj", "p2", "sg"): "you",
    ("obj", "p2", "sg"): "you",
    ("subj", "p2", "sp"): "you",
    ("obj", "p2", "sp"): "you",
    ("subj", "p1", "pl"): "we",
    ("obj", "p1", "pl"): "us",
    ("subj", "p2", "pl"): "you",
    ("obj", "p2", "pl"): "you",
    ("subj", "p3", "pl"): "they",
    ("obj", "p3", "pl"): "them",
}
PERSONAL_THIRD = {("subj", "m"): "he", ("obj", "m"): "him", ("subj", "f"): "she", ("obj", "f"): "her"}


def arcs(bin_path: Path) -> list[tuple[dict[int, list[tuple[int, str, str]]], set[int]]]:
    """The sections of a compiled lttoolbox dictionary: (state -> arcs, final states)."""
    text = subprocess.run(
        ["lt-print", str(bin_path)], check=True, capture_output=True, text=True, encoding="utf-8"
    ).stdout
    sections: list[tuple[dict[int, list[tuple[int, str, str]]], set[int]]] = []
    current: dict[int, list[tuple[int, str, str]]] = defaultdict(list)
    finals: set[int] = set()
    for line in text.split("\n"):
        fields = line.split("\t")
        if fields[0] == "--":
            sections.append((current, finals))
            current, finals = defaultdict(list), set()
        elif len(fields) >= 4 and fields[2]:
            current[int(fields[0])].append((int(fields[1]), fields[2], fields[3]))
        elif fields[0]:
            finals.add(int(fields[0]))
    sections.append((current, finals))
    return sections


def pairs(bin_path: Path) -> list[tuple[str, str]]:
    """Every (input, output) path of the dictionary whose input is a word (letters,
    spaces, hyphens, apostrophes) followed by tags; numbers and other patterns (loops of
    digits) are not walked. Each path is walked once (no state twice on one path)."""
    found: list[tuple[str, str]] = []
    for transitions, finals in arcs(bin_path):
        stack: list[tuple[int, str, str, frozenset[int]]] = [(0, "", "", frozenset({0}))]
        while stack:
            state, source, target, seen = stack.pop()
            if state in finals:
                found.append((source, target))
            for nxt, a, b in transitions.get(state, ()):
                if nxt in seen or not (a == "ε" or a.startswith("<") or a.isalpha() or a in " -'"):
                    continue
                stack.append(
                    (nxt, source + ("" if a == "ε" else a), target + ("" if b == "ε" else b), seen | {nxt})
                )
    return found


def split(entry: str) -> tuple[str, list[str]]:
    """``"conocer<vblex><inf>"`` -> ``("conocer", ["vblex", "inf"])``."""
    lemma, _, rest = entry.partition("<")
    return lemma, [t for t in ("<" + rest).replace(">", "").split("<") if t] if rest else []


def english(target: str) -> str:
    """The English side as a reader sees it: personal pronouns spelled out, Apertium's
    "#" (the place of a separable particle: ``take# away``) dropped."""
    word, tags = split(target)
    if word == "prpers":
        case = "subj" if "subj" in tags else "obj"
        person = next((t for t in tags if t in {"p1", "p2", "p3"}), "")
        number = next((t for t in tags if t in {"sg", "pl", "sp"}), "")
        if person == "p3" and number == "sg":
            if "nt" in tags:
                return "it"
            gender = next((t for t in tags if t in {"m", "f"}), "")
            return PERSONAL_THIRD.get((case, gender), "he, she" if case == "subj" else "him, her")
        return PERSONAL.get((case, person, number), "")
    return word.replace("#", "").strip()


def translations(bin_path: Path) -> dict[tuple[str, str], list[str]]:
    """(source lemma, Apertium part of speech) -> target lemmas with their tags, in the
    order found, for the words a player could type."""
    table: dict[tuple[str, str], list[str]] = {}
    for source, target in pairs(bin_path):
        lemma, tags = split(source)
        if not tags or tags[0] not in POS_CODES or not target or not lemma.replace(" ", "").isalpha():
            continue
        known = table.setdefault((lemma, tags[0]), [])
        if target not in known:
            known.append(target)
    return table


def build(
    language: str, table: dict[tuple[str, str], list[str]], words: set[str] | None, name: str, source: str
) -> dict[str, object]:
    """The fixture of one language from (lemma, Apertium POS) -> English targets."""
    entries: dict[str, list[tuple[str, str, list[str]]]] = {}
    for (lemma, tag), targets in sorted(table.items()):
        key = playable(language, lemma)
        if key is None or (words is not None and key not in words):
            continue
        glosses = list(dict.fromkeys(e for e in (english(t) for t in targets) if e))[:MAX_TRANSLATIONS]
        if not glosses:
            continue
        pos = POS_CODES[tag]
        same = next((e for e in entries.get(key, []) if e[0] == lemma and e[1] == pos), None)
        if same is None:
            entries.setdefault(key, []).append((lemma, pos, [", ".join(glosses)]))
        else:
            # Two Apertium tags of one part of speech (vblex and vbmod): one line.
            merged = list(dict.fromkeys([*same[2][0].split(", "), *glosses]))[:MAX_TRANSLATIONS]
            same[2][0] = ", ".join(merged)
    return {
        "language": language,
        "name": name,
        "licence": "GPL-2",
        "project": "Apertium",
        "licence_file": LICENCE,
        "source": source,
        "words": {key: [[spelling(key, h), p, s] for h, p, s in entries[key]] for key in sorted(entries)},
        "forms": {},
    }


def chained(
    first: dict[tuple[str, str], list[str]], second: dict[tuple[str, str], list[str]]
) -> dict[tuple[str, str], list[str]]:
    """Italian -> Spanish -> English: each Spanish lemma looked up with its own part of speech."""
    table: dict[tuple[str, str], list[str]] = {}
    for (lemma, tag), middles in first.items():
        for middle in middles:
            word, tags = split(middle)
            for target in second.get((word, tags[0] if tags else tag), []):
                known = table.setdefault((lemma, tag), [])
                if target not in known:
                    known.append(target)
    return table


def licence_text(docs: Path) -> str:
    packages = ", ".join(f"{p} {debian}" for p, (_v, debian) in VERSIONS.items())
    intro = (
        "The translations in apertium-*-eng.json.gz are extracted from the bilingual dictionaries\n"
        f"of Apertium's translation data as packaged by Debian ({packages});\n"
        "the Italian, Portuguese and French ones go through Spanish. Below: Debian's copyright\n"
        "files of these packages. The complete GNU General Public License version 2 is at\n"
        "https://www.gnu.org/licenses/old-licenses/gpl-2.0.txt.\n"
    )
    parts = [intro]
    for package in PACKAGES:
        text = (docs / package / "copyright").read_text(encoding="utf-8")
        parts.append(f"=== {package} (Debian copyright file) ===\n\n{text.strip()}\n")
    return "\n".join(parts)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("languages", nargs="*", help=f"game languages (default: {' '.join(LANGUAGES)})")
    parser.add_argument("--source", type=Path, default=DEFAULT_SOURCE, help="Apertium's data folder")
    parser.add_argument("--docs", type=Path, default=DEFAULT_DOCS, help="the packages' copyright files")
    parser.add_argument("--lexicons", type=Path, default=DEFAULT_LEXICONS, help="the game's word lists")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args(argv)
    languages = args.languages or list(LANGUAGES)
    unknown = set(languages) - set(LANGUAGES)
    if unknown:
        parser.error(f"unknown language(s): {' '.join(sorted(unknown))}")
    spa_eng = translations(args.source / "apertium-eng-spa" / "spa-eng.autobil.bin")
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / LICENCE).write_text(licence_text(args.docs), encoding="utf-8")
    for language in languages:
        code, package, dictionary = LANGUAGES[language]
        if package is None:
            table = spa_eng
            name = f"Apertium Spanish-English bilingual dictionary {VERSIONS['apertium-eng-spa'][0]}"
        else:
            table = chained(translations(args.source / package / f"{dictionary}.autobil.bin"), spa_eng)
            name = (
                f"Apertium {dictionary} {VERSIONS[package][0]} and Spanish-English "
                f"{VERSIONS['apertium-eng-spa'][0]} bilingual dictionaries, chained"
            )
        used = [p for p in (package, "apertium-eng-spa") if p]
        source = "; ".join(f"{p} {VERSIONS[p][0]} (Debian {VERSIONS[p][1]})" for p in used) + ", GPL-2."
        data = build(language, table, word_list(language, args.lexicons), name, source)
        out = args.out / f"apertium-{code}-eng.json.gz"
        write(data, out)
        entries = data["words"]
        assert isinstance(entries, dict)
        print(f"{language}: {len(entries)} words with a translation -> {out} ({out.stat().st_size} bytes)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
