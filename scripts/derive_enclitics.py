#!/usr/bin/env python3
"""Derive the enclitic stop-lists for es, it and pt-BR from the hunspell dictionaries.

Tournament word lists leave out verb forms with attached (enclitic) pronouns
(``cómetelo``, ``mangiamolo``). The raw sources in ``shared/lexicon-sources`` were
expanded from LibreOffice hunspell dictionaries, and those dictionaries generate
the enclitic forms with dedicated affix rules. So the forms are found *through the
rules that make them*, not by guessing from word endings:

1. pick the enclitic affix rules of the ``.aff`` (see :func:`enclitic_rules`), and
   the ``.dic`` entries that are enclitic forms of the irregular monosyllabic
   imperatives (``dammi``, ``dimmelo``, ``dámelo``: :func:`imperative_clitic_forms`),
   which the dictionaries list as plain words rather than make by a rule;
2. expand the dictionary again without them, with hunspell-reader 9.7.0 (as
   ``SOURCES.md`` does);
3. candidates = normalised(full expansion) - normalised(reduced expansion): a form
   that another rule also makes (``fatti`` = "facts", not ``fa+ti``; ``fanno``, the
   present of ``fare``) is a regular inflection of a lemma and stays;
4. Italian only: keep the candidates that are words in their own right although no
   rule of the ``.dic`` makes them otherwise (:func:`italian_homographs`). The
   Italian ``.dic`` has no entry ``generale``, ``locale`` or ``aprile``: the
   dictionary relies on ``genera+le``, ``loca+le``, ``apri+le`` to accept them, so
   step 3 alone would drop about 12,000 forms in -ALE and as many in -ALI.

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
import hashlib
import re
import subprocess
import sys
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from dictionaries.wordlists import raw_entry_kept, read_lines  # noqa: E402
from engine.lexicon import WordGraph  # noqa: E402
from engine.normalize import alphabet, normalize_word  # noqa: E402

PACKAGES = {"es": "hunspell-es", "it": "hunspell-it", "pt-BR": "hunspell-pt-br"}
#: The thesaurus of the same LibreOffice dictionaries (Debian source package
#: libreoffice-dictionaries): its headwords are Italian lemmas (step 4).
THESAURUS = {"it": ("mythes-it", "usr/share/mythes/th_it_IT_v2.dat")}
DICTS = {"es": "es_ES", "it": "it_IT", "pt-BR": "pt_BR"}
DEBIAN_VERSION = "1:7.5.0-1"
HUNSPELL_READER = "hunspell-reader@9.7.0"

# Italian: SOURCES.md removed the eight elision prefix classes before expanding; the
# "full" expansion here is made the same way so that it equals it.source.txt.
IT_ELISION_PREFIXES = frozenset("TUX^iqrs")

# Enclitic pronoun chains (one pronoun, or two where the language joins them).
# Italian "me te se ce ve glie" occur only before lo/la/li/le/ne, so a bare "-te"
# (finite = 2nd plural) is not a clitic. The doubled forms are the clitics of the
# monosyllabic imperatives (fammi, dillo, dacci, fanne, stagli): the pronoun's own
# consonant doubles, so "-nno" (fanno, the present of fare) or "-mmo" is not one.
_IT_DOUBLED = r"(?:mmi|tti|cci|vvi|llo|lla|lli|lle|nne)"
_IT_CHAIN = re.compile(
    r"(?:me|te|se|ce|ve|glie|mme|tte|cce|vve)(?:lo|la|li|le|ne)"
    r"|(?:mi|ti|ci|vi|si|gli|lo|la|li|le|ne)(?:ci|si)?"
    rf"|{_IT_DOUBLED}(?:ci|si)?"
)
_IT_OBJECT = ("lo", "la", "li", "le", "ne")
_ES_CHAIN = re.compile(r"(?:me|te|se|nos|os)?(?:lo|la|los|las|le|les)|me|te|se|nos|os")

# The irregular (monosyllabic) imperatives, whose enclitic forms the dictionaries
# list as plain entries: it da' di' fa' sta' va'; es da di haz ve pon sal sé ten ven.
IMPERATIVES = {
    "it": ("da", "di", "fa", "sta", "va"),
    "es": ("da", "di", "haz", "ve", "pon", "sal", "se", "ten", "ven"),
}
# After them the Italian pronoun doubles its consonant (dammi, dillo, vattene), except
# gli (dagli, digliene).
_IT_IMPERATIVE_CHAIN = re.compile(rf"(?:mme|tte|cce|vve|glie)(?:lo|la|li|le|ne)|{_IT_DOUBLED}(?:ci|si)?|gli")
# An infinitive without its final -e and a pronoun chain (alzarsi, porne): never a
# homograph here, whatever the thesaurus says (it tags "alzarsi" s.m. once).
_IT_INFINITIVE_CLITIC = re.compile(rf"[a-z]*r(?:{_IT_CHAIN.pattern})")
#: The articulated prepositions of "da" that are spelled like da' + pronoun.
IT_ARTICULATED = frozenset({"DALLO", "DALLA", "DALLE", "DAGLI"})
# Lemmas derived from a noun or adjective in -le (generalmente, centralità, aprilino):
# one .dic entry <stem><suffix> shows that <stem>e is a word in its own right. -ista and
# -izzare also make words from verbs and other nouns (capilista, paralizzare), so
# those two count only together with a third suffix of this list.
IT_LE_DERIVATIONS = ("MENTE", "ITA", "ISSIMO", "IZIO", "INO", "ESCO")
IT_LE_WEAK_DERIVATIONS = ("ISMO", "ISTICO", "ISTA", "IZZARE")
# Regular inflections by part of speech (the thesaurus's tags): an adjective in -o
# has -a -i -e, a masculine noun -i, a feminine noun in -a -e; any noun or
# adjective in -e has -i.
_IT_INFLECTIONS = {
    "agg.": {"O": "AIE", "A": "EI", "E": "I"},
    "s.m.": {"O": "I", "A": "I", "E": "I"},
    "s.f.": {"A": "E", "E": "I"},
    "s.m.f.": {"O": "I", "A": "EI", "E": "I"},
}


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


def imperative_clitic_forms(language: str, words: Iterable[str]) -> set[str]:
    """The normalised ``words`` spelled as an irregular imperative plus a pronoun chain
    (it ``DAMMI``, ``DIMMELO``, ``VATTENE``; es ``DAME``, ``DAMELO``, ``HAZLO``).

    Shape only: real words spelled the same way (``DALLO``, ``VALLE``, ``VELO``) are
    told apart afterwards (:func:`italian_homographs`; es: the entries with affix flags).
    """
    chain = {"it": _IT_IMPERATIVE_CHAIN, "es": _ES_CHAIN}[language]
    found = set()
    for word in words:
        lower = word.lower()
        if any(lower.startswith(v) and chain.fullmatch(lower[len(v) :]) for v in IMPERATIVES[language]):
            found.add(word)
    return found


def dic_entries(lines: Iterable[str]) -> list[tuple[str, str]]:
    """``(word, flags)`` of each entry of a ``.dic`` (the count line and comments skipped)."""
    entries = []
    for index, line in enumerate(lines):
        text = line.strip()
        if not text or (index == 0 and text.isdigit()) or text.startswith(("/", "#")):
            continue
        word, _, flags = text.partition("/")
        entries.append((word, flags.split()[0] if flags.strip() else ""))
    return entries


def thesaurus_lemmas(language: str, lines: Iterable[str]) -> dict[str, set[str]]:
    """Normalised one-word headwords of a MyThes thesaurus (``.dat``) that have a sense
    other than a verb, each with its part-of-speech tags (``generale|4`` then
    ``(agg.)|...`` lines: ``{"GENERALE": {"agg.", "s.m."}}``)."""
    lemmas: dict[str, set[str]] = {}
    headword, pending = "", 0
    tags: set[str] = set()
    for line in lines:
        head, _, rest = line.rstrip("\n").partition("|")
        if pending == 0:
            if rest.isdigit():
                headword, pending, tags = head, int(rest), set()
            continue
        pending -= 1
        tag = head.strip("()").split(" ")[0]
        if not tag.startswith("v"):
            tags.add(tag)
        if pending == 0 and tags and headword.isalpha() and headword.islower():
            word = normalize_word(language, headword)
            if word is not None:
                lemmas.setdefault(word, set()).update(tags)
    return lemmas


def _inflection_lemmas(form: str) -> list[tuple[str, str]]:
    """``(lemma, tag)`` pairs of which ``form`` would be a regular inflection."""
    pairs = []
    for tag, table in _IT_INFLECTIONS.items():
        for ending, endings in table.items():
            if form[-1] in endings:
                pairs.append((form[:-1] + ending, tag))
    return pairs


def italian_homographs(
    candidates: Iterable[str], lemmas: Mapping[str, set[str]], dic_words: Iterable[str]
) -> set[str]:
    """The candidate forms that are Italian words in their own right, made by no rule.

    * a noun, adjective or other non-verb lemma of the thesaurus (``GENERALE``,
      ``LOCALE``, ``VALLE``, ``FALLO``), or a regular inflection of one for its part
      of speech (``GENERALI``, ``STALLE``);
    * a form in -LE/-LI whose stem the ``.dic`` derives lemmas from
      (:data:`IT_LE_DERIVATIONS`: ``generalmente``, ``musicalità``, ``aprilino``
      keep ``GENERALE``, ``MUSICALE``, ``APRILE`` and their plurals);
    * an articulated preposition (``DALLO``, ``DAGLI``).

    A form spelled as an infinitive plus a pronoun (``ALZARSI``, ``PORNE``) is never
    kept: it is what the stop-list is for.
    """
    dic = set(dic_words)
    kept = set()
    for form in candidates:
        if _IT_INFINITIVE_CLITIC.fullmatch(form.lower()):
            continue
        lemma = form in lemmas or any(tag in lemmas.get(base, ()) for base, tag in _inflection_lemmas(form))
        derived = False
        if form.endswith(("LE", "LI")):
            stem = form[:-1]
            weak = sum(stem + d in dic for d in IT_LE_WEAK_DERIVATIONS)
            derived = any(stem + d in dic for d in IT_LE_DERIVATIONS) or weak >= 3
        if lemma or derived or form in IT_ARTICULATED:
            kept.add(form)
    return kept


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


def _debian_package(work: Path, package: str) -> Path:
    """Download and extract ``package`` (the pinned version) into ``work/package``."""
    folder = work / package
    if not folder.exists():
        _run(["apt-get", "download", f"{package}={DEBIAN_VERSION}"], work)
        deb = next(work.glob(f"{package}_*.deb"))
        _run(["dpkg-deb", "-x", deb.name, package], work)
    return folder


def prepare(work: Path, language: str) -> tuple[Path, Path, Path | None]:
    """Download/extract the Debian packages and hunspell-reader if needed.

    Returns (path of the .dic, path of the hunspell-reader executable, path of the
    thesaurus or None).
    """
    work.mkdir(parents=True, exist_ok=True)
    dic = _debian_package(work, PACKAGES[language]) / "usr/share/hunspell" / f"{DICTS[language]}.dic"
    thesaurus = None
    if language in THESAURUS:
        package, path = THESAURUS[language]
        thesaurus = _debian_package(work, package) / path
    reader = work / "hr/node_modules/.bin/hunspell-reader"
    if not reader.exists():
        _run(["npm", "install", "--prefix", str(work / "hr"), HUNSPELL_READER], work)
    return dic, reader, thesaurus


def expand(
    reader: Path, aff_lines: Iterable[str], dic_lines: Iterable[str], name: str, out_dir: Path
) -> Path:
    """Expand the given .dic content with the given .aff content; returns the word file.

    The expansion is cached in ``out_dir`` under a digest of both, so a changed rule
    selection is expanded again.
    """
    aff = "".join(aff_lines)
    dic = "".join(dic_lines)
    digest = hashlib.sha256(f"{aff}\0{dic}".encode()).hexdigest()[:16]
    folder = out_dir / digest
    words = folder / "words.txt"
    if not words.exists():
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"{name}.aff").write_text(aff, encoding="utf-8")
        (folder / f"{name}.dic").write_text(dic, encoding="utf-8")
        _run([str(reader), "words", "-u", "-o", "words.part", f"{name}.dic"], folder)
        (folder / "words.part").rename(words)
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
    parser.add_argument("--report", action="store_true", help="print the selected rules and entries")
    parser.add_argument("--source", type=Path, help="raw source (default: shared/lexicon-sources)")
    args = parser.parse_args(argv)
    language: str = args.language
    dic, reader, thesaurus = prepare(args.work, language)
    name = DICTS[language]
    aff = dic.with_suffix(".aff").read_text(encoding="utf-8-sig").splitlines(keepends=True)
    dic_lines = dic.read_text(encoding="utf-8-sig").splitlines(keepends=True)
    if language == "it":
        aff = [
            line
            for line in aff
            if not (line.split()[:1] == ["PFX"] and line.split()[1] in IT_ELISION_PREFIXES)
        ]
    if args.report:
        print(report(language, aff))
    drop = enclitic_rules(language, parse_aff(aff))
    reduced_aff = [line for i, line in enumerate(aff) if i not in drop]
    # Step 1b: the .dic entries that are enclitic forms of the irregular imperatives.
    entries = dic_entries(dic_lines)
    shaped_entries: set[str] = set()
    if language in IMPERATIVES:
        normalised = {
            raw: normalize_word(language, raw) for raw, _ in entries if raw_entry_kept(language, raw)
        }
        shaped = imperative_clitic_forms(language, {w for w in normalised.values() if w})
        shaped_entries = {raw for raw, word in normalised.items() if word in shaped}
    kept_lines = [line for line in dic_lines[1:] if line.split("/")[0].strip() not in shaped_entries]
    work = args.work / language.lower()
    with open(
        expand(reader, reduced_aff, [f"{len(kept_lines)}\n", *kept_lines], name, work), encoding="utf-8"
    ) as f:
        kept = normalised_set(language, f)
    # What the dropped entries make by ordinary rules stays, unless it is itself an
    # imperative + pronoun (dimmelo/g makes dimmela, dimmele...).
    dropped_lines = [line for line in dic_lines[1:] if line.split("/")[0].strip() in shaped_entries]
    if dropped_lines:
        with open(
            expand(reader, reduced_aff, [f"{len(dropped_lines)}\n", *dropped_lines], name, work),
            encoding="utf-8",
        ) as f:
            made = normalised_set(language, f)
        kept |= made - imperative_clitic_forms(language, made)
    if language == "es":
        # es.source merges the expansion with Letterpress: expand the full .aff too.
        with open(expand(reader, aff, dic_lines, name, work), encoding="utf-8") as f:
            full = normalised_set(language, f)
    else:
        # it and pt-BR sources are exactly the full expansion (SOURCES.md: reproduced
        # byte for byte; pt-BR minus hyphenated forms, which normalisation drops).
        full = normalised_set(language, read_lines(args.source or _shared_source(language)))
    candidates = full - kept
    homographs: set[str] = set()
    if language == "it" and thesaurus is not None:
        lemmas = thesaurus_lemmas(language, thesaurus.read_text(encoding="utf-8").splitlines()[1:])
        dic_words = {w for raw, _ in entries if raw.islower() and (w := normalize_word(language, raw))}
        homographs = italian_homographs(candidates, lemmas, dic_words)
    elif language == "es":
        # rla-es lists the enclitic imperatives (dame, dámelo) without affix flags and
        # its nouns with them (vela/S, velo/CSN, dios/nk): what those make are words.
        flagged = [line for line in dropped_lines if "/" in line]
        with open(
            expand(reader, reduced_aff, [f"{len(flagged)}\n", *flagged], name, work), encoding="utf-8"
        ) as f:
            homographs = candidates & normalised_set(language, f)
    enclitics = sorted(candidates - homographs)
    if args.report:
        print(
            f"irregular imperative entries dropped ({len(shaped_entries)}): {' '.join(sorted(shaped_entries))}"
        )
        print(f"homographs kept ({len(homographs)}): {' '.join(sorted(homographs))}")
    # Stored as a word graph: 2.5 million Italian forms take 6 MB as gzip text but
    # well under 1 MB as a DAWG; `list(WordGraph.load(path))` lists them.
    path = args.out / f"{language}.enclitics.dawg"
    WordGraph.build(enclitics, alphabet(language)).save(path)
    print(
        f"{language}: full {len(full)}, reduced {len(kept)}, candidates {len(candidates)}, "
        f"homographs kept {len(homographs)}, enclitic forms {len(enclitics)} -> {path}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
