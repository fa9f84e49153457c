#!/usr/bin/env python3
"""Derive the enclitic stop-lists for es, it and pt-BR from the hunspell affix classes.

Tournament word lists leave out verb forms with attached (enclitic) pronouns
(``cómetelo``, ``mangiamolo``). The raw sources in ``shared/lexicon-sources`` were
expanded from LibreOffice hunspell dictionaries, and those dictionaries generate
the enclitic forms with dedicated affix rules. So the forms are found *through the
rules that make them*, not by guessing from word endings:

1. pick the enclitic affix rules of the ``.aff`` (see :func:`enclitic_rules`);
2. write a reduced ``.aff`` without them and expand the dictionary again with
   hunspell-reader 9.7.0 (as ``SOURCES.md`` does);
3. stop-list = normalised(full expansion) - normalised(reduced expansion).

A form that some other rule also generates (``fatti`` = "facts", not ``fa+ti``)
survives step 3, so homographs of ordinary forms are never dropped.
``dictionaries/wordlists.py`` then removes the stop-list from the *merged* source
(for es that includes the Letterpress half).

Needs network access to Debian and npm once (``apt-get download``, ``npm install``)
or a work directory prepared by an earlier run. Standard library only::

    python scripts/derive_enclitics.py es --work /tmp/lexwork
    python scripts/derive_enclitics.py it --work /tmp/lexwork --report

Writes ``fixtures/lexicons/<LANG>.enclitics.dawg`` (an ``engine.lexicon.WordGraph``).
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from dictionaries.wordlists import raw_entry_kept, read_lines  # noqa: E402
from engine.lexicon import WordGraph  # noqa: E402
from engine.normalize import alphabet, normalize_word  # noqa: E402

PACKAGES = {"es": "hunspell-es", "it": "hunspell-it", "pt-BR": "hunspell-pt-br"}
DICTS = {"es": "es_ES", "it": "it_IT", "pt-BR": "pt_BR"}
DEBIAN_VERSION = "1:7.5.0-1"
HUNSPELL_READER = "hunspell-reader@9.7.0"

# Italian: SOURCES.md removed the eight elision prefix classes before expanding; the
# "full" expansion here is made the same way so that it equals it.source.txt.
IT_ELISION_PREFIXES = frozenset("TUX^iqrs")

# Enclitic pronoun chains (one pronoun, or two where the language joins them).
# Italian "me te se ce ve glie" occur only before lo/la/li/le/ne, so a bare "-te"
# (finite = 2nd plural) is not a clitic. The doubled forms are the clitics of the
# monosyllabic imperatives (fammi, dillo, dacci, fanne, stagli).
_IT_CHAIN = re.compile(
    r"(?:me|te|se|ce|ve|glie)(?:lo|la|li|le|ne)"
    r"|(?:mi|ti|ci|vi|si|gli|lo|la|li|le|ne)(?:ci|si)?"
    r"|(?:mm|tt|cc|ll|nn|g)(?:i|a|o|e)(?:(?:ci|si)|(?:lo|la|li|le|ne))?"
)
_IT_OBJECT = ("lo", "la", "li", "le", "ne")
_ES_CHAIN = re.compile(r"(?:me|te|se|nos|os)?(?:lo|la|los|las|le|les)|me|te|se|nos|os")


@dataclass(frozen=True)
class Rule:
    """One affix rule line of a .aff file."""

    line: int
    kind: str  # "SFX" or "PFX"
    flag: str
    strip: str
    append: str  # without continuation flags; "" for "0"
    condition: str


def parse_aff(lines: list[str]) -> list[Rule]:
    """The affix rules of an .aff file (header lines ``SFX f Y n`` skipped)."""
    rules: list[Rule] = []
    seen: set[tuple[str, str]] = set()
    for i, line in enumerate(lines):
        parts = line.split()
        if len(parts) < 4 or parts[0] not in ("SFX", "PFX"):
            continue
        key = (parts[0], parts[1])
        if key not in seen:  # the class header comes first
            seen.add(key)
            continue
        append = parts[3].split("/")[0]
        rules.append(
            Rule(
                line=i,
                kind=parts[0],
                flag=parts[1],
                strip="" if parts[2] == "0" else parts[2],
                append="" if append == "0" else append,
                condition=parts[4] if len(parts) > 4 else ".",
            )
        )
    return rules


def _chain_splits(append: str, chain: re.Pattern[str]) -> list[tuple[str, str]]:
    return [(append[:k], append[k:]) for k in range(len(append)) if chain.fullmatch(append[k:])]


def enclitic_rules(language: str, rules: list[Rule]) -> set[int]:
    """Line numbers of the affix rules that attach enclitic pronouns.

    * es (rla-es): the suffix classes with non-ASCII flags (``À`` ... ``ú``) form the
      pronoun block of ``es_ES.aff``; every one of their rules ends in a pronoun
      chain (checked here). All other classes are conjugation/derivation.
    * it: classes mix conjugation and clitic rules (class ``C`` has ``-iamo`` and
      ``-iamolo``), so rules are picked one by one. A suffix rule ``strip/base+chain``
      is enclitic when, in its class, the same (strip, base) takes at least four
      different pronoun chains including an object pronoun (lo/la/li/le or a chain
      ending in one) -- a whole pronoun paradigm, not an accidental ending such as
      ``-sti``/``-ssi``/``-vi`` of the past and imperfect; or when ``strip/base``
      is itself a rule of the class and the chain is an object pronoun; or the
      participle/imperfect + ``si`` rules (``-entesi``, ``-entisi``, ``-vasi``).
    * pt-BR (VERO): every enclitic and mesoclitic rule writes a hyphen (classes
      ``k m n o p q r s v`` and 10 rules of ``b``); they are all selected, and the
      hyphenated forms were already removed from the source, so the stop-list is
      empty (checked when this runs).
    """
    selected: set[int] = set()
    if language == "es":
        for rule in rules:
            if rule.kind == "SFX" and not rule.flag.isascii():
                if not _chain_splits(rule.append, _ES_CHAIN):
                    raise ValueError(f"es: rule on line {rule.line + 1} is not a pronoun rule")
                selected.add(rule.line)
        return selected
    if language == "pt-BR":
        return {r.line for r in rules if r.kind == "SFX" and "-" in r.append}
    if language != "it":
        raise ValueError(f"no enclitic rules for {language}")
    by_class: dict[str, list[Rule]] = defaultdict(list)
    for rule in rules:
        if rule.kind == "SFX":
            by_class[rule.flag].append(rule)
    for class_rules in by_class.values():
        forms = {(r.strip, r.append) for r in class_rules}
        groups: dict[tuple[str, str], set[str]] = defaultdict(set)
        splits = {r.line: _chain_splits(r.append, _IT_CHAIN) for r in class_rules}
        for r in class_rules:
            for base, chain in splits[r.line]:
                groups[(r.strip, base)].add(chain)
        for r in class_rules:
            for base, chain in splits[r.line]:
                group = groups[(r.strip, base)]
                paradigm = len(group) >= 4 and any(c.endswith(_IT_OBJECT) for c in group)
                on_form = (r.strip, base) in forms and chain.endswith(_IT_OBJECT)
                reflexive = chain == "si" and base.endswith(("ente", "enti", "va"))
                if paradigm or on_form or reflexive:
                    selected.add(r.line)
                    break
    return selected


def report(language: str, lines: list[str]) -> str:
    """Per class: rules selected, and the pronoun-shaped rules left alone (for review)."""
    rules = parse_aff(lines)
    selected = enclitic_rules(language, rules)
    chain = {"es": _ES_CHAIN, "it": _IT_CHAIN}.get(language)
    by_class: dict[str, list[Rule]] = defaultdict(list)
    for r in rules:
        by_class[f"{r.kind} {r.flag}"].append(r)
    out = []
    for name, class_rules in by_class.items():
        chosen = [r for r in class_rules if r.line in selected]
        left = [
            f"{r.strip or 0}:{r.append or 0}"
            for r in class_rules
            if r.line not in selected and chain is not None and _chain_splits(r.append, chain)
        ]
        if chosen:
            out.append(f"{name}: {len(chosen)}/{len(class_rules)} rules selected")
            if left:
                out.append(f"    pronoun-shaped but kept: {' '.join(left)}")
    out.append(f"total selected: {len(selected)}")
    return "\n".join(out)


def _run(cmd: list[str], cwd: Path) -> None:
    print("+", " ".join(cmd), file=sys.stderr)
    subprocess.run(cmd, cwd=cwd, check=True)


def prepare(work: Path, language: str) -> tuple[Path, Path]:
    """Download/extract the Debian package and hunspell-reader if needed.

    Returns (path of the .dic, path of the hunspell-reader executable).
    """
    work.mkdir(parents=True, exist_ok=True)
    package = PACKAGES[language]
    dic = work / package / "usr/share/hunspell" / f"{DICTS[language]}.dic"
    if not dic.exists():
        _run(["apt-get", "download", f"{package}={DEBIAN_VERSION}"], work)
        deb = next(work.glob(f"{package}_*.deb"))
        _run(["dpkg-deb", "-x", deb.name, package], work)
    reader = work / "hr/node_modules/.bin/hunspell-reader"
    if not reader.exists():
        _run(["npm", "install", "--prefix", str(work / "hr"), HUNSPELL_READER], work)
    return dic, reader


def expand(reader: Path, aff_lines: Iterable[str], dic: Path, out_dir: Path) -> Path:
    """Expand ``dic`` with the given .aff content; returns the word file."""
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / dic.with_suffix(".aff").name).write_text("".join(aff_lines), encoding="utf-8")
    target_dic = out_dir / dic.name
    if not target_dic.exists():
        target_dic.write_bytes(dic.read_bytes())
    words = out_dir / "words.txt"
    if not words.exists():
        _run([str(reader), "words", "-u", "-o", str(words), str(target_dic)], out_dir)
    return words


def normalised_set(language: str, lines: Iterable[str]) -> set[str]:
    """The lexicon-rule normalisation of raw lines (as the import script does it)."""
    out: set[str] = set()
    for line in lines:
        if raw_entry_kept(language, line.strip()):
            word = normalize_word(language, line)
            if word is not None and len(word) >= 2:
                out.add(word)
    return out


def _shared_source(language: str) -> Path:
    return ROOT.parent / "shared" / "lexicon-sources" / f"{language}.source.txt.gz"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("language", choices=sorted(PACKAGES))
    parser.add_argument("--work", type=Path, default=Path("/tmp/lexwork"))
    parser.add_argument("--out", type=Path, default=ROOT / "fixtures/lexicons")
    parser.add_argument("--report", action="store_true", help="print the selected rules")
    parser.add_argument("--source", type=Path, help="raw source (default: shared/lexicon-sources)")
    args = parser.parse_args(argv)
    language: str = args.language
    dic, reader = prepare(args.work, language)
    aff = dic.with_suffix(".aff").read_text(encoding="utf-8-sig").splitlines(keepends=True)
    if language == "it":
        aff = [
            line
            for line in aff
            if not (line.split()[:1] == ["PFX"] and line.split()[1] in IT_ELISION_PREFIXES)
        ]
    if args.report:
        print(report(language, aff))
    drop = enclitic_rules(language, parse_aff(aff))
    reduced = [line for i, line in enumerate(aff) if i not in drop]
    tag = language.lower()
    reduced_words = expand(reader, reduced, dic, args.work / f"{tag}-reduced")
    with open(reduced_words, encoding="utf-8") as f:
        kept = normalised_set(language, f)
    if language == "es":
        # es.source merges the expansion with Letterpress: expand the full .aff too.
        full_words = expand(reader, aff, dic, args.work / f"{tag}-full")
        with open(full_words, encoding="utf-8") as f:
            full = normalised_set(language, f)
    else:
        # it and pt-BR sources are exactly the full expansion (SOURCES.md: reproduced
        # byte for byte; pt-BR minus hyphenated forms, which normalisation drops).
        full = normalised_set(language, read_lines(args.source or _shared_source(language)))
    enclitics = sorted(full - kept)
    # Stored as a word graph: 2.5 million Italian forms take 6 MB as gzip text but
    # well under 1 MB as a DAWG; `python -m scripts.show_words FILE` lists them.
    path = args.out / f"{language}.enclitics.dawg"
    WordGraph.build(enclitics, alphabet(language)).save(path)
    print(f"{language}: full {len(full)}, reduced {len(kept)}, enclitic forms {len(enclitics)} -> {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
