"""Build the English-translation fixtures from the FreeDict bilingual dictionaries.

Reads the dictd databases that Debian's ``dict-freedict-<xxx>-eng`` packages install
(``apt-get install dict-freedict-spa-eng dict-freedict-ita-eng dict-freedict-por-eng
dict-freedict-deu-eng dict-freedict-fra-eng``; version 2022.04.21-1 in Debian 12):
``/usr/share/dictd/freedict-<xxx>-eng.{index,dict.dz}``, and their licences from
``/usr/share/doc/dict-freedict-<xxx>-eng/copyright``. Writes, per game language,
``fixtures/definitions/freedict-<xxx>-eng.json.gz``, a gzip JSON object:

* ``name``, ``licence``: the dictionary's name and edition, and its licence (``GPL-2+``);
* ``source``: its own description of its authors and licence;
* ``words``: ``{normalised word: [[headword, part of speech, [translation, ...]], ...]}``,
  keyed with the game's normalisation (``engine.normalize``: ``HAUS``, ``ETE``) so that a
  word on the board finds its entries; the headword as the dictionary spells it
  (``été``), or ``""`` when it is the key in lowercase and ``"^"`` when capitalised;
* ``forms``: ``{normalised inflected form: [base headword, ...]}``, the base words an
  inflected form leads to (``HÄUSER`` -> ``Haus``), where the dictionary says so;

and, once for all five, ``LICENSE-FreeDict.txt`` (the stanzas of Debian's copyright
file that apply, with the GPL notices) and the complete file,
``LICENSE-FreeDict.debian-copyright.txt.gz`` (the five packages ship the same one).

Kept: the words of the game's word list (``fixtures/lexicons/<lang>.txt.gz``, which
also drops Ergane's proper nouns and misspellings; ``--all-words`` keeps every
one-word headword) and the base words their inflected forms lead to; per headword at
most ``MAX_SENSES`` translation lines of at most ``MAX_SENSE_CHARS`` characters. Usage
examples, notes and synonym lists are left out. The German dictionary (from Ding) lists
inflected forms (plurals, participles, conjugated forms such as ``er/sie wirft``) as
entries of their own, with their own translations and cross-references to the words
they belong to; such a form is also mapped to the one referenced base word that shares
the longest beginning with it (``ging`` -> ``gehen``, not ``laufen``). The other four
dictionaries (from Ergane) have no inflection data, so only their headwords are found.

Usage::

    python scripts/build_freedict.py [--source DIR] [--docs DIR] [--out DIR] [LANGUAGE ...]
    python scripts/build_freedict.py --coverage [LANGUAGE ...]

``--coverage`` prints, per language, the share of the 3,000 most common words of
``wordfreq`` (letters only, the game's normalisation) that get at least one meaning
through ``dictionaries.definitions.meanings`` (needs ``wordfreq``, a development
dependency).
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import re
import sys
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.normalize import is_lexicon_length, normalize_word  # noqa: E402

DEFAULT_SOURCE = Path("/usr/share/dictd")
DEFAULT_DOCS = Path("/usr/share/doc")
DEFAULT_OUT = ROOT / "fixtures" / "definitions"
DEFAULT_LEXICONS = ROOT / "fixtures" / "lexicons"

#: Game language -> FreeDict's three-letter code.
DICTIONARIES = {"es": "spa", "it": "ita", "pt-BR": "por", "de": "deu", "fr": "fra"}
#: wordfreq's language codes, where they differ from the game's.
WORDFREQ_CODES = {"en-GB": "en", "pt-BR": "pt"}
MAX_SENSES = 8
MAX_SENSE_CHARS = 160

# The dictd index encodes offsets and lengths in this base-64 alphabet.
B64 = {c: i for i, c in enumerate("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")}
HEAD = re.compile(r"^(?P<word>.+?)(?: /[^/]*/)?(?: <(?P<gram>[^>]*)>)?\s*$")
# A grammar tag, with the abbreviation and its pronunciation Ding may glue to it
# ("avenue <n>Ave,  /ˈɑːvɛ/ , alley <n>" -> "avenue, alley").
TAG = re.compile(r"\s*<[^>]*>(?:[^\s,<]+,\s+/[^/]*/\s*)?")
SPACE_BEFORE_COMMA = re.compile(r"\s+,")
LABEL = re.compile(r"^(?:\s*\[[^\]]*\])+\s*")
NUMBERED = re.compile(r"^\d+\.\s+")
REFERENCE = re.compile(r"\{([^}]*)\}")
# Ding's conjugated forms: "er/sie wirft", "ich/er/sie ging".
CONJUGATED = re.compile(r"^(?:ich|du|er|sie|es|wir|ihr)(?:/(?:ich|du|er|sie|es|wir|ihr))* (\w+)$")
#: Parts of speech an inflected form may lead to.
BASE_POS = {"n", "v", "a"}
LICENCE = "LICENSE-FreeDict.txt"
# Grammar codes of the dictionaries -> the fixture's part of speech.
POS_CODES = {
    "n": "n",
    "v": "v",
    "vt": "v",
    "vi": "v",
    "adj": "a",
    "adv": "r",
    "prep": "prep",
    "pron": "pron",
    "conj": "conj",
    "num": "num",
    "int": "int",
    "art": "art",
    "pl": "pl",
}


def b64(text: str) -> int:
    value = 0
    for char in text:
        value = value * 64 + B64[char]
    return value


@dataclass
class Article:
    """One dictd article: a headword with its grammar, translations and references."""

    headword: str
    pos: str
    senses: list[str]
    references: list[str] = field(default_factory=list)
    examples: int = 0


def articles(index: Path, data: bytes) -> tuple[str, list[Article]]:
    """The dictionary's description (its ``00-database-info``) and every article once
    (the index names some articles under several keys)."""
    seen: set[int] = set()
    info = ""
    found: list[Article] = []
    for line in index.read_text(encoding="utf-8").splitlines():
        word, offset_code, length_code = line.split("\t")
        offset = b64(offset_code)
        text = data[offset : offset + b64(length_code)].decode("utf-8")
        if word.startswith("00database"):
            if word == "00databaseinfo":
                info = text
            continue
        if offset in seen:
            continue
        seen.add(offset)
        article = parse_article(text)
        if article is not None:
            found.append(article)
    return info, found


def title(info: str) -> str:
    """ "Spanish-English FreeDict Dictionary, edition 0.3.1" from a ``00-database-info``."""
    lines = info.splitlines()
    name = next(line.strip() for line in lines if line.strip() and not line.startswith("00-database"))
    edition = next((line.split(":", 1)[1].strip() for line in lines if line.startswith("Edition:")), "")
    return f"{name}, edition {edition}" if edition else name


def licence_name(copyright_file: Path, code: str) -> str:
    """The licence Debian's copyright file gives the dictionary ``code`` (``GPL-2+``)."""
    for paragraph in copyright_file.read_text(encoding="utf-8").split("\n\n"):
        lines = paragraph.strip().split("\n")
        if lines[0] == f"Files: {code}-eng/*":
            return next(line.split(":", 1)[1].strip() for line in lines if line.startswith("License:"))
    raise SystemExit(f"no licence stanza for {code}-eng")


def describe(info: str) -> str:
    """Name, edition and licence statement from a FreeDict ``00-database-info``."""
    lines = info.splitlines()
    title = next(line.strip() for line in lines if line.strip() and not line.startswith("00-database"))
    edition = next((line.split(":", 1)[1].strip() for line in lines if line.startswith("Edition:")), "")
    licence: list[str] = []
    if "Availability:" in lines:
        for line in lines[lines.index("Availability:") + 1 :]:
            if line and not line.startswith(" "):
                break
            licence.append(line.strip())
    text = " ".join(part for part in licence if part)
    return f"{title}, edition {edition}. {text}".strip()


def parse_article(text: str) -> Article | None:
    lines = text.rstrip("\n").split("\n")
    head = HEAD.match(lines[0])
    if head is None:
        return None
    grams = [g.strip() for g in (head.group("gram") or "").split(",")]
    pos = next((POS_CODES[g] for g in grams if g in POS_CODES), "")
    senses: list[str] = []
    references: list[str] = []
    examples = 0
    in_translations = True
    for raw in lines[1:]:
        stripped = raw.strip()
        if stripped.startswith("see:"):
            references += REFERENCE.findall(stripped)
        if stripped.startswith('"'):
            examples += 1
        if not stripped:
            in_translations = False  # examples, synonyms and notes follow
            continue
        if (
            not in_translations
            or stripped.startswith(('"', "Synonym", "see:", "Note:"))
            or raw.startswith("      ")
        ):
            continue
        sense = SPACE_BEFORE_COMMA.sub(",", NUMBERED.sub("", LABEL.sub("", TAG.sub("", stripped))))
        sense = " ".join(sense.split()).strip(" ,;")
        if sense:
            senses.append(sense[:MAX_SENSE_CHARS])
    return Article(head.group("word").strip(), pos, senses, references, examples)


def playable(language: str, word: str) -> str | None:
    key = normalize_word(language, word)
    return key if key is not None and is_lexicon_length(key) else None


def folded(word: str) -> str:
    """Lowercase without diacritics, to compare the beginnings of two words."""
    return "".join(c for c in unicodedata.normalize("NFD", word.lower()) if not unicodedata.combining(c))


def shared_start(a: str, b: str) -> int:
    n = 0
    for x, y in zip(folded(a), folded(b), strict=False):
        if x != y:
            break
        n += 1
    return n


def build(
    language: str, index: Path, dictionary: Path, words: set[str] | None, licence: str
) -> dict[str, object]:
    """The fixture of one language (see the module docstring); ``words`` (normalised),
    when given, limits it to those words and the base words their forms lead to."""
    with gzip.open(dictionary, "rb") as f:
        data = f.read()
    info, found = articles(index, data)
    grouped: dict[tuple[str, str], list[Article]] = {}
    forms: dict[str, list[str]] = {}  # inflected form (as spelled) -> referenced words
    for article in found:
        conjugated = CONJUGATED.match(article.headword)
        if conjugated and article.references:
            # "er/sie wirft": the form is the last word, the article its translation.
            article.headword = conjugated.group(1)
            article.pos = ""
        if playable(language, article.headword) is None:
            continue
        grouped.setdefault((article.headword, article.pos), []).append(article)
        # Ding's inflected forms: plurals (<pl>) and forms with no part of speech.
        if article.pos in {"pl", ""} and article.references:
            forms.setdefault(article.headword, []).extend(article.references)
    entries: dict[str, list[tuple[str, str, list[str]]]] = {}
    for (headword, pos), group in grouped.items():
        senses: list[str] = []
        # The article with the most usage examples first: Ding's main sense ("gehen":
        # "go" before "turn out"); the order is otherwise the dictionary's.
        for article in sorted(group, key=lambda a: -a.examples):
            senses += [s for s in article.senses if s not in senses]
        if senses:
            key = playable(language, headword)
            assert key is not None
            entries.setdefault(key, []).append((headword, pos, senses[:MAX_SENSES]))
    base_forms: dict[str, list[str]] = {}
    for form, references in forms.items():
        candidates = [
            r
            for r in dict.fromkeys(references)
            if r != form
            and any(h == r and p in BASE_POS for h, p, _s in entries.get(playable(language, r) or "", []))
        ]
        if not candidates:
            continue
        best = max(shared_start(form, c) for c in candidates)
        chosen = [c for c in candidates if shared_start(form, c) == best]
        key = playable(language, form)
        if best > 0 and len(chosen) == 1 and key is not None:
            known = base_forms.setdefault(key, [])
            if chosen[0] not in known:
                known.append(chosen[0])
    if words is not None:
        wanted = {key for key in (*entries, *base_forms) if key in words}
        wanted |= {playable(language, base) or "" for key in wanted for base in base_forms.get(key, [])}
        entries = {k: v for k, v in entries.items() if k in wanted}
        base_forms = {k: v for k, v in base_forms.items() if k in wanted}
    return {
        "language": language,
        "name": title(info),
        "licence": licence,
        "licence_file": LICENCE,
        "source": describe(info),
        "words": {key: [[spelling(key, h), p, s] for h, p, s in entries[key]] for key in sorted(entries)},
        "forms": dict(sorted(base_forms.items())),
    }


def spelling(key: str, headword: str) -> str:
    """The headword, shortened when the key gives it: "" = lowercase, "^" = capitalised."""
    if headword == key.lower():
        return ""
    if headword == key.lower().capitalize():
        return "^"
    return headword


def licence_stanzas(copyright_file: Path) -> str:
    """The parts of Debian's FreeDict copyright file that apply to the five dictionaries."""
    paragraphs = copyright_file.read_text(encoding="utf-8").split("\n\n")
    wanted = {f"Files: {code}-eng/*" for code in DICTIONARIES.values()}
    kept = [paragraphs[0]]
    kept += [p for p in paragraphs if p.strip().split("\n")[0] in wanted]
    kept += [p for p in paragraphs if p.strip().split("\n")[0] in {"License: GPL-2+", "License: GPL-3+"}]
    intro = (
        "The translations in freedict-*-eng.json.gz are extracted from the FreeDict dictionaries\n"
        "spa-eng, ita-eng, por-eng, deu-eng and fra-eng as packaged by Debian (dict-freedict-*-eng\n"
        "2022.04.21-1). Below: the stanzas of Debian's copyright file that apply to them; the\n"
        "complete file is LICENSE-FreeDict.debian-copyright.txt.gz.\n"
    )
    return intro + "\n" + "\n\n".join(p.strip("\n") for p in kept) + "\n"


def write(data: dict[str, object], out: Path) -> None:
    out.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    # mtime=0 so a rebuild from the same sources gives the same bytes.
    with gzip.GzipFile(out, "wb", compresslevel=9, mtime=0) as f:
        f.write(text.encode("utf-8"))


def fixture_name(language: str) -> str:
    return f"freedict-{DICTIONARIES[language]}-eng.json.gz"


def common_words(language: str, top: int = 3000) -> list[str]:
    """wordfreq's ``top`` most common words of ``language`` that the game could spell
    (letters of its alphabet only, two or more), most common first."""
    from wordfreq import iter_wordlist

    words: list[str] = []
    for word in iter_wordlist(WORDFREQ_CODES.get(language, language)):
        if word.isalpha() and playable(language, word) is not None:
            words.append(word)
            if len(words) == top:
                break
    return words


def coverage(language: str, top: int = 3000) -> tuple[int, int, list[str]]:
    """(words with a meaning, words, the first few without) among ``common_words``,
    through ``dictionaries.definitions.meanings``."""
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "wordgame.settings")
    django.setup()
    from dictionaries.definitions import meanings

    words = common_words(language, top)
    missing = [w for w in words if not meanings(language, w)]
    return len(words) - len(missing), len(words), missing[:15]


def word_list(language: str, lexicons: Path) -> set[str]:
    """The game's normalised word list of ``language`` (``fixtures/lexicons/<lang>.txt.gz``)."""
    with gzip.open(lexicons / f"{language}.txt.gz", "rt", encoding="utf-8") as f:
        return {line.strip() for line in f if line.strip()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("languages", nargs="*", help=f"game languages (default: {' '.join(DICTIONARIES)})")
    parser.add_argument("--source", type=Path, default=DEFAULT_SOURCE, help="the dictd databases")
    parser.add_argument("--docs", type=Path, default=DEFAULT_DOCS, help="the packages' copyright files")
    parser.add_argument("--lexicons", type=Path, default=DEFAULT_LEXICONS, help="the game's word lists")
    parser.add_argument("--all-words", action="store_true", help="keep words outside the game's word list")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--coverage", action="store_true", help="measure coverage instead of building")
    args = parser.parse_args(argv)
    args.languages = args.languages or list(DICTIONARIES)
    unknown = set(args.languages) - {*DICTIONARIES, "en", "en-GB"}
    if unknown:
        parser.error(f"unknown language(s): {' '.join(sorted(unknown))}")
    if args.coverage:
        for language in args.languages:
            found, total, missing = coverage(language)
            print(
                f"{language}: {found} of the {total} most common words have a meaning "
                f"({100 * found / total:.1f} %); some without: {' '.join(missing)}"
            )
        return 0
    if {"en", "en-GB"} & set(args.languages):
        parser.error("English definitions are built by scripts/build_definitions.py")
    copyrights = {
        (args.docs / f"dict-freedict-{DICTIONARIES[lang]}-eng" / "copyright") for lang in args.languages
    }
    texts = {path.read_bytes() for path in copyrights}
    if len(texts) != 1:
        raise SystemExit("the packages' copyright files differ: update licence_stanzas()")
    copyright_file = next(iter(copyrights))
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / LICENCE).write_text(licence_stanzas(copyright_file), encoding="utf-8")
    with gzip.GzipFile(
        args.out / f"{LICENCE.removesuffix('.txt')}.debian-copyright.txt.gz", "wb", mtime=0
    ) as f:
        f.write(copyright_file.read_bytes())
    for language in args.languages:
        name = f"freedict-{DICTIONARIES[language]}-eng"
        words = None if args.all_words else word_list(language, args.lexicons)
        licence = licence_name(copyright_file, DICTIONARIES[language])
        data = build(language, args.source / f"{name}.index", args.source / f"{name}.dict.dz", words, licence)
        out = args.out / fixture_name(language)
        write(data, out)
        entries, forms = data["words"], data["forms"]
        assert isinstance(entries, dict)
        assert isinstance(forms, dict)
        print(
            f"{language}: {sum(len(e) for e in entries.values())} entries for {len(entries)} words, "
            f"{len(forms)} inflected forms -> {out} ({out.stat().st_size} bytes)"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
