#!/usr/bin/env python3
"""Turn a raw word list into the project's lexicon for one language.

The build that ``manage.py import_wordlist`` and ``scripts/import_wordlist.py`` run
(docs/lexicons.md). It needs neither Django nor a database, so maintainer scripts can
import it (``scripts/`` imports the app, never the other way round).

A raw list has one entry per line (``.gz`` is read transparently), such as
``shared/lexicon-sources/<LANG>.source.txt.gz``. The rules (RULES.md, SOURCES.md),
applied per entry in this order, each dropped entry counted under its reason:

1. ``hyphen_apostrophe`` / ``non_letter``: any character that is not a Unicode
   letter (after NFC and stripping the line).
2. ``capitalised``: any uppercase letter (proper nouns, acronyms). German nouns are
   capitalised, so there only an initial capital is allowed (``GmbH`` goes,
   ``Häuser`` stays).
3. ``absent_letter``: ``engine.normalize.normalize_word`` rejects it (a letter
   outside the language's alphabet after normalisation).
4. ``one_letter``: a normalised word of 1 letter.

Entries that normalise to the same word are merged (``duplicate``). Then the
word-list policy, counted on distinct normalised words (docs/lexicons.md):

5. ``enclitic`` (es, it, pt-BR): in ``<LANG>.enclitics.dawg`` (made by
   ``scripts/derive_enclitics.py`` from the hunspell affix rules).
6. ``number`` (it, de): a spelled-out compound number, i.e. two or more numeral
   words joined (``quarantasettemilatrecentootto``, ``vierundzwanzig``), see
   :func:`is_spelled_number`.
7. ``stoplist`` (de): a proper noun in ``de.stoplist.txt`` or its genitive in -s.

Last, the curated additions of ``<LANG>.additions.txt`` (en: ZEN, QI, EMOJI...) are
added. :func:`import_wordlist` writes ``<LANG>.txt.gz`` (sorted, deterministic gzip:
mtime 0, no name) and ``<LANG>.dawg`` (``engine.lexicon.WordGraph``).
"""

from __future__ import annotations

import gzip
import io
import unicodedata
from collections import Counter
from collections.abc import Container, Iterable, Iterator
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from engine.lexicon import WordGraph
from engine.normalize import MIN_LEXICON_WORD_LENGTH, alphabet, normalize_word
from engine.tiles import LANGUAGES

__all__ = [
    "FIXTURES",
    "LANGUAGES",
    "REASONS",
    "WordlistResult",
    "build_wordlist",
    "import_wordlist",
    "is_spelled_number",
    "raw_entry_kept",
    "read_additions",
    "read_lines",
    "read_word_list",
    "write_word_list",
]

#: The committed lexicons and their policy files (stop-lists, additions).
FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "lexicons"

#: Drop reasons in the order they are applied.
REASONS = (
    "hyphen_apostrophe",
    "non_letter",
    "capitalised",
    "absent_letter",
    "one_letter",
    "duplicate",
    "enclitic",
    "number",
    "stoplist",
)

_HYPHENS_APOSTROPHES = frozenset("-‐‑‒–—'’ʼ`´")

# -- spelled-out numbers ---------------------------------------------------------------
# Numeral words per language (normalised). A word made of two or more of them
# (optionally followed by an ordinal/derivational ending) is a spelled-out number.
# Lexicalised single numerals (TRE, VENTI, DREIZEHN, ZWANZIG) stay, so do their
# derivatives (VENTENNE, ZWANZIGSTE, DREISSIGER).
_NUMERALS: dict[str, tuple[frozenset[str], tuple[str, ...]]] = {
    "it": (
        frozenset(
            [
                "UNO",
                "UN",
                "DUE",
                "TRE",
                "QUATTRO",
                "CINQUE",
                "SEI",
                "SETTE",
                "OTTO",
                "NOVE",
                "DIECI",
                "UNDICI",
                "DODICI",
                "TREDICI",
                "QUATTORDICI",
                "QUINDICI",
                "SEDICI",
                "DICIASSETTE",
                "DICIOTTO",
                "DICIANNOVE",
                "VENTI",
                "VENT",
                "TRENTA",
                "TRENT",
                "QUARANTA",
                "QUARANT",
                "CINQUANTA",
                "CINQUANT",
                "SESSANTA",
                "SESSANT",
                "SETTANTA",
                "SETTANT",
                "OTTANTA",
                "OTTANT",
                "NOVANTA",
                "NOVANT",
                "CENTO",
                "CENT",
                "MILLE",
                "MILA",
                "MILIONE",
                "MILIONI",
                "MILIARDO",
                "MILIARDI",
            ]
        ),
        ("ESIMO", "ESIMA", "ESIMI", "ESIME", "ENNE", "ENNI"),
    ),
    "de": (
        frozenset(
            [
                "EIN",
                "EINS",
                "EINE",
                "ZWEI",
                "DREI",
                "VIER",
                "FÜNF",
                "SECHS",
                "SIEBEN",
                "ACHT",
                "NEUN",
                "ZEHN",
                "ELF",
                "ZWÖLF",
                "DREIZEHN",
                "VIERZEHN",
                "FÜNFZEHN",
                "SECHZEHN",
                "SIEBZEHN",
                "SIEBENZEHN",
                "ACHTZEHN",
                "NEUNZEHN",
                "ZWANZIG",
                "DREISSIG",
                "VIERZIG",
                "FÜNFZIG",
                "SECHZIG",
                "SIEBZIG",
                "SIEBENZIG",
                "ACHTZIG",
                "NEUNZIG",
                "HUNDERT",
                "TAUSEND",
                "UND",
                "MILLION",
                "MILLIONEN",
                "MILLIARDE",
                "MILLIARDEN",
            ]
        ),
        (
            "STEL",
            "STELN",
            "STELS",
            "STEN",
            "STER",
            "STES",
            "STEM",
            "STE",
            "TEL",
            "TELN",
            "TELS",
            "TEN",
            "TER",
            "TES",
            "TEM",
            "TE",
            "ERN",
            "ERS",
            "ER",
        ),
    ),
}


@cache
def _min_numeral_parts(language: str, word: str) -> int:
    """Fewest numeral words that spell ``word`` exactly (0 when impossible)."""
    parts = _NUMERALS[language][0]
    best = [0] + [10**6] * len(word)
    for end in range(1, len(word) + 1):
        for start in range(max(0, end - 12), end):
            if best[start] < 10**6 and word[start:end] in parts:
                best[end] = min(best[end], best[start] + 1)
    return 0 if best[-1] >= 10**6 else best[-1]


def is_spelled_number(language: str, word: str) -> bool:
    """True for a compound of two or more numeral words (it and de only).

    An ordinal or derivational ending may follow, and before it the last numeral
    may lose its final vowel (``ventitreesimo``, ``diciassettesimo`` stays as one
    numeral, ``trentaseiesimo`` goes; ``dreiundzwanzigste`` goes).
    """
    if language not in _NUMERALS:
        return False
    endings = _NUMERALS[language][1]
    candidates = [word]
    for ending in endings:
        if word.endswith(ending) and len(word) > len(ending):
            stem = word[: -len(ending)]
            candidates.append(stem)
            for vowel in "AEIO":  # elided final vowel: DICIASSETT+ESIMO
                candidates.append(stem + vowel)
    return any(_min_numeral_parts(language, c) >= 2 for c in candidates)


# -- per-entry rules -------------------------------------------------------------------


def entry_drop_reason(language: str, raw: str) -> str | None:
    """Why a raw entry (already stripped, NFC) is not a lexicon word, or None."""
    if not raw.isalpha():
        if any(ch in _HYPHENS_APOSTROPHES for ch in raw):
            return "hyphen_apostrophe"
        return "non_letter"
    upper = [i for i, ch in enumerate(raw) if ch.isupper() or ch.istitle()]
    if upper and not (language == "de" and upper == [0]):
        return "capitalised"
    return None


def raw_entry_kept(language: str, raw: str) -> bool:
    """True when a raw entry passes the letter and capitalisation rules (1 and 2)."""
    return bool(raw) and entry_drop_reason(language, unicodedata.normalize("NFC", raw)) is None


@dataclass
class WordlistResult:
    """Outcome of :func:`build_wordlist`: the sorted words and the drop counts."""

    language: str
    words: list[str]
    raw_entries: int
    dropped: Counter[str] = field(default_factory=Counter)
    #: Curated additions that were not already in the list.
    added: int = 0

    def summary(self) -> str:
        """One line per reason, for logs and docs/lexicons.md."""
        lines = [f"{self.language}: raw {self.raw_entries:,} -> final {len(self.words):,}"]
        for reason in REASONS:
            if self.dropped[reason]:
                lines.append(f"  {reason}: {self.dropped[reason]:,}")
        if self.added:
            lines.append(f"  additions: +{self.added:,}")
        return "\n".join(lines)


def build_wordlist(
    language: str,
    lines: Iterable[str],
    *,
    enclitics: Container[str] = frozenset(),
    stoplist: Iterable[str] = (),
    additions: Iterable[str] = (),
) -> WordlistResult:
    """Apply the lexicon rules and the policy to raw ``lines``, then add ``additions``.

    ``enclitics`` and ``stoplist`` are normalised words to leave out; a stop-list
    word also takes its genitive ``-S`` form with it (German names: ``ANNAS``), but
    never a word that the source also spells with a lowercase initial.
    ``additions`` are normalised words the project adds by hand (the curated
    ``<LANG>.additions.txt``); the policy does not apply to them.
    Returns the sorted distinct words, the count of each drop reason and of additions.
    """
    alphabet(language)  # fails early on an unknown language
    dropped: Counter[str] = Counter()
    words: set[str] = set()
    # Words also spelled lowercase somewhere in the source (German "baden" beside
    # "Baden"): a verb or adjective, so the proper-noun stop-list must spare them.
    lowercase: set[str] = set()
    raw_entries = 0
    for line in lines:
        raw = unicodedata.normalize("NFC", line.strip())
        if not raw:
            continue
        raw_entries += 1
        reason = entry_drop_reason(language, raw)
        word = None
        if reason is None:
            word = normalize_word(language, raw)
            if word is None:
                reason = "absent_letter"
            elif len(word) < MIN_LEXICON_WORD_LENGTH:
                reason = "one_letter"
            else:
                if not raw[0].isupper():
                    lowercase.add(word)
                if word in words:
                    reason = "duplicate"
        if reason is not None:
            dropped[reason] += 1
        elif word is not None:
            words.add(word)
    enclitic_set = {w for w in words if w in enclitics}
    dropped["enclitic"] = len(enclitic_set)
    words -= enclitic_set
    numbers = {w for w in words if is_spelled_number(language, w)}
    dropped["number"] = len(numbers)
    words -= numbers
    stop: set[str] = set()
    for name in stoplist:
        stop.update((name, name + "S"))
    stopped = (stop & words) - lowercase
    dropped["stoplist"] = len(stopped)
    words -= stopped
    added = set(additions) - words
    words |= added
    return WordlistResult(language, sorted(words), raw_entries, dropped, added=len(added))


# -- files -----------------------------------------------------------------------------


def read_lines(path: Path) -> Iterator[str]:
    """Lines of a UTF-8 text file, gunzipped when the name ends in .gz."""
    if path.suffix == ".gz":
        with gzip.open(path, "rt", encoding="utf-8") as f:
            yield from f
    else:
        with open(path, encoding="utf-8") as f:
            yield from f


def read_word_list(path: Path) -> list[str]:
    """A word list file (one word per line, ``#`` comments, extra columns ignored)."""
    out = []
    for line in read_lines(path):
        word = line.split("#", 1)[0].split("\t", 1)[0].strip()
        if word:
            out.append(word)
    return out


def write_word_list(path: Path, words: Iterable[str]) -> None:
    """Write words, one per line, gzip level 9 with mtime 0 and no file name."""
    data = "".join(f"{w}\n" for w in words).encode("utf-8")
    buffer = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", compresslevel=9, fileobj=buffer, mtime=0) as gz:
        gz.write(data)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(buffer.getvalue())


def policy_files(language: str, directory: Path) -> tuple[Container[str], list[str]]:
    """(enclitics, stoplist) for ``language`` from ``directory`` (missing = empty). The
    stop-list is the hand-written ``<LANG>.stoplist.txt`` and the names derived from the
    source dictionary's affix flags, ``<LANG>.propernouns.txt``
    (``scripts/derive_proper_nouns.py``)."""
    enclitics_path = directory / f"{language}.enclitics.dawg"
    enclitics: Container[str] = frozenset()
    if enclitics_path.exists():
        enclitics = WordGraph.load(enclitics_path)
    stop: list[str] = []
    for stop_path in (directory / f"{language}.stoplist.txt", directory / f"{language}.propernouns.txt"):
        if not stop_path.exists():
            continue
        for entry in read_word_list(stop_path):
            word = normalize_word(language, entry)
            if word is None:
                raise ValueError(f"{stop_path}: {entry!r} does not normalise")
            stop.append(word)
    return enclitics, stop


def read_additions(path: Path) -> list[tuple[str, str]]:
    """``(word, reason)`` pairs from a ``WORD<TAB>reason`` file (``#`` comments allowed)."""
    pairs: list[tuple[str, str]] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        word, _, reason = line.partition("\t")
        pairs.append((word.strip(), reason.strip()))
    return pairs


def additions_for(language: str, directory: Path) -> list[str]:
    """The normalised words of ``<directory>/<LANG>.additions.txt`` (none when missing).

    Raises ``ValueError`` naming the entry when one is not a playable word of the
    language or has no reason: a curated word must say why it is there.
    """
    path = directory / f"{language}.additions.txt"
    if not path.exists():
        return []
    words = []
    for entry, reason in read_additions(path):
        word = normalize_word(language, entry)
        if word is None or len(word) < MIN_LEXICON_WORD_LENGTH:
            raise ValueError(f"{path.name}: {entry!r} is not a playable {language} word")
        if not reason:
            raise ValueError(f"{path.name}: {entry!r} has no reason")
        words.append(word)
    return words


def import_wordlist(language: str, source: Path, out: Path, policy_dir: Path = FIXTURES) -> WordlistResult:
    """Build, write ``<out>/<LANG>.txt.gz`` and ``<out>/<LANG>.dawg``; return the result.

    The stop-lists and the additions are read from ``policy_dir`` (the committed ones
    by default).
    """
    enclitics, stop = policy_files(language, policy_dir)
    result = build_wordlist(
        language,
        read_lines(source),
        enclitics=enclitics,
        stoplist=stop,
        additions=additions_for(language, policy_dir),
    )
    write_word_list(out / f"{language}.txt.gz", result.words)
    graph = WordGraph.build(result.words, alphabet(language))
    graph.save(out / f"{language}.dawg")
    return result
