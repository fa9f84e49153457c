"""Build the base-form (lemma) fixtures: for the words of each game language's word list,
the base forms whose meaning the dictionaries know (``conozco`` -> ``conocer``).

The lemmatiser is ``simplemma`` (a pinned development dependency, ``requirements-dev.txt``).
It holds about 380 MB in a process that loads its data, so only this build uses it: the
server reads the result, ``fixtures/definitions/lemmas-<lang>.json.gz``, a gzip JSON object

* ``language``, ``lemmatiser`` (``simplemma <version>``), ``licence``, ``licence_file``;
* ``lemmas``: ``{base form as simplemma spells it: "FORM FORM ..."}``, the normalised forms
  of the game's word list (``engine.normalize``) that lead to it, space-separated.

A form is kept when it is a word of the game's word list, its base form differs from it,
and the base form, spelled as simplemma spells it, has an entry in the language's dictionaries (the committed FreeDict and
Apertium fixtures, read through ``dictionaries.definitions``; build those first). The
forms come from simplemma's own form -> lemma lists, spelled with their accents, and
normalised the way the board spells them (``está`` -> ``ESTA``), so a board word may lead
to several base forms (``ESTA`` -> ``este``, ``estar``); then each word of the list that
found none and has no entry of its own is given to ``simplemma.lemmatize`` as the board
spells it (its rules for unknown forms), kept only if the base it gives is known.

Usage::

    python scripts/build_lemmas.py [--lexicons DIR] [--out DIR] [LANGUAGE ...]

Licence of the data: ``fixtures/definitions/LICENSE-simplemma.txt`` (simplemma is MIT; its
lemma lists credit the sources named there).
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import sys
from importlib import metadata
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scripts.build_freedict import DEFAULT_LEXICONS, DEFAULT_OUT, playable, word_list  # noqa: E402

#: Game language -> simplemma's language code.
LANGUAGES = {"es": "es", "it": "it", "pt-BR": "pt", "de": "de", "fr": "fr"}
LICENCE = "LICENSE-simplemma.txt"
MAX_BASES = 3


def known_headwords(language: str) -> dict[str, set[str]]:
    """Normalised word -> the headwords (lowercase) its entries in ``language``'s
    dictionaries give, in the parts of speech a base form is shown with (the server's
    ``Translations.look_up`` skips a plural's or a bare form's own entry)."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "wordgame.settings")
    import django

    django.setup()
    from dictionaries.definitions import translations

    known: dict[str, set[str]] = {}
    dictionaries = translations(language)
    for dictionary in dictionaries.dictionaries:
        for key in dictionary.words:
            heads = {m.headword.lower() for m in dictionary.entries(key) if m.pos not in {"pl", ""}}
            if heads:
                known.setdefault(key, set()).update(heads)
    return known


def base_forms(language: str, words: set[str], known: dict[str, set[str]]) -> dict[str, list[str]]:
    """Normalised form -> the base forms (as simplemma spells them) with a known entry."""
    import simplemma
    from simplemma.strategies.dictionaries.dictionary_factory import DefaultDictionaryFactory

    code = LANGUAGES[language]
    found: dict[str, list[str]] = {}

    def add(key: str, lemma: str) -> None:
        lemma_key = playable(language, lemma)
        if lemma_key is None or lemma_key == key or lemma.lower() not in known.get(lemma_key, ()):
            return
        bases = found.setdefault(key, [])
        if lemma not in bases and len(bases) < MAX_BASES:
            bases.append(lemma)

    for form, lemma in DefaultDictionaryFactory().get_dictionary(code).items():
        key = playable(language, form)
        if key is not None and key in words:
            add(key, lemma)
    for key in sorted(words - set(known) - set(found)):
        add(key, simplemma.lemmatize(key.lower(), lang=code))
    return found


def build(language: str, words: set[str], known: dict[str, set[str]]) -> dict[str, object]:
    by_lemma: dict[str, list[str]] = {}
    for key, lemmas in sorted(base_forms(language, words, known).items()):
        for lemma in lemmas:
            by_lemma.setdefault(lemma, []).append(key)
    return {
        "language": language,
        "lemmatiser": f"simplemma {metadata.version('simplemma')}",
        "licence": "MIT (simplemma); sources in the licence file",
        "licence_file": LICENCE,
        "lemmas": {lemma: " ".join(keys) for lemma, keys in sorted(by_lemma.items())},
    }


def licence_text() -> str:
    dist = metadata.distribution("simplemma")
    licence = next(
        (Path(str(f.locate())).read_text(encoding="utf-8") for f in dist.files or [] if f.name == "LICENSE"),
        "",
    )
    description = dist.metadata.get_payload() if hasattr(dist.metadata, "get_payload") else ""
    start, end = "<!-- include:credits:start -->", "<!-- include:credits:end -->"
    credits = description[description.index(start) + len(start) : description.index(end)].strip()
    return (
        f"The base forms in lemmas-*.json.gz were worked out with simplemma {dist.version}\n"
        "(https://github.com/adbar/simplemma) from its form -> lemma lists. Its credits and\n"
        "licences, as its package states them:\n\n"
        f"{credits}\n\n"
        "The base forms are data derived from those lists and are distributed on the same terms:\n"
        "with the attribution above, and share-alike where a source's licence asks for it (the\n"
        "Open Database License of the Lemmatization lists; CC BY-SA for Wiktionary's entries).\n"
        "simplemma keeps each source's licence text in the licenses folder of its repository\n"
        "(not in its package); for the FreeLing data it refers to section 2b, DATA COMPONENTS,\n"
        "of FreeLing's COPYING file.\n\n"
        f"=== simplemma's licence ===\n\n{licence.strip()}\n"
    )


def write(data: dict[str, object], out: Path) -> None:
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    # mtime=0 so a rebuild from the same sources gives the same bytes.
    with gzip.GzipFile(out, "wb", compresslevel=9, mtime=0) as f:
        f.write(text.encode("utf-8"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("languages", nargs="*", help=f"game languages (default: {' '.join(LANGUAGES)})")
    parser.add_argument("--lexicons", type=Path, default=DEFAULT_LEXICONS, help="the game's word lists")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args(argv)
    languages = args.languages or list(LANGUAGES)
    unknown = set(languages) - set(LANGUAGES)
    if unknown:
        parser.error(f"unknown language(s): {' '.join(sorted(unknown))}")
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / LICENCE).write_text(licence_text(), encoding="utf-8")
    for language in languages:
        data = build(language, word_list(language, args.lexicons), known_headwords(language))
        out = args.out / f"lemmas-{language}.json.gz"
        write(data, out)
        lemmas = data["lemmas"]
        assert isinstance(lemmas, dict)
        forms = sum(len(keys.split()) for keys in lemmas.values())
        print(f"{language}: {forms} forms -> {len(lemmas)} base forms -> {out} ({out.stat().st_size} bytes)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
