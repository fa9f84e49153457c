"""The interface in seven languages: complete catalogues, and pages that really change language.

The catalogues are checked with a small stdlib .po parser (no gettext tools needed), the
compiled .mo files against their .po, and the source strings (templates through Django's
own ``templatize``, Python through ``ast``) against every catalogue, so a string added
without a translation fails here rather than showing up in English on a French page.
"""

from __future__ import annotations

import ast
import gettext as stdlib_gettext
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import translation
from django.utils.translation import to_locale
from django.utils.translation.template import templatize

from games import models as game_models
from tests.games.helpers import lexicon, make_game

ROOT = Path(settings.BASE_DIR)
LOCALE = ROOT / "locale"
TRANSLATED = [code for code, _name in settings.LANGUAGES if code != settings.LANGUAGE_CODE]
# The folders makemessages skips: --ignore=.venv --ignore=static/vendor --ignore=tests
# --ignore=bench --ignore=scripts (the rest hold no templates or Python of the site).
SKIPPED_DIRS = {
    ".venv",
    "tests",
    "bench",
    "scripts",
    "node_modules",
    "staticfiles",
    "var",
    "test-artifacts",
    ".git",
}
PLACEHOLDER = re.compile(r"%%|%\([A-Za-z_]+\)[sdr]|\{[A-Za-z_]+\}")
GETTEXT_NAMES = {
    "_": "gettext",
    "gettext": "gettext",
    "gettext_lazy": "gettext",
    "gettext_noop": "gettext",
    "ngettext": "ngettext",
    "ngettext_lazy": "ngettext",
    "pgettext": "pgettext",
    "pgettext_lazy": "pgettext",
    "npgettext": "npgettext",
    "npgettext_lazy": "npgettext",
}


@dataclass
class Entry:
    """One message of a .po file."""

    msgid: str
    context: str | None = None
    plural: str | None = None
    strings: dict[int, str] = field(default_factory=dict)
    flags: set[str] = field(default_factory=set)

    @property
    def key(self) -> tuple[str | None, str]:
        return (self.context, self.msgid)


def parse_po(path: Path) -> list[Entry]:
    """The non-obsolete entries of ``path``, header included (msgid "")."""
    entries: list[Entry] = []
    for block in re.split(r"\n[ \t]*\n", path.read_text(encoding="utf-8").strip()):
        parts: dict[str, list[str]] = {}
        flags: set[str] = set()
        current: list[str] | None = None
        for line in block.splitlines():
            if line.startswith("#~"):
                current = None
                continue
            if line.startswith("#,"):
                flags |= {flag.strip() for flag in line[2:].split(",")}
            elif line.startswith("#"):
                continue
            elif match := re.match(r'(msgctxt|msgid_plural|msgid|msgstr(?:\[\d+\])?) (".*")$', line):
                current = parts.setdefault(match.group(1), [])
                current.append(match.group(2))
            elif line.startswith('"') and current is not None:
                current.append(line)
            else:
                raise AssertionError(f"{path}: unexpected line {line!r}")
        if "msgid" not in parts:
            continue  # an obsolete (#~) block
        text = {key: "".join(ast.literal_eval(piece) for piece in pieces) for key, pieces in parts.items()}
        strings = {
            int(key[7:-1]) if key != "msgstr" else 0: value
            for key, value in text.items()
            if key.startswith("msgstr")
        }
        entries.append(Entry(text["msgid"], text.get("msgctxt"), text.get("msgid_plural"), strings, flags))
    return entries


def catalogue(language: str) -> list[Entry]:
    return parse_po(LOCALE / language / "LC_MESSAGES" / "django.po")


def nplurals(header: Entry) -> int:
    match = re.search(r"Plural-Forms:\s*nplurals=(\d+);", header.strings[0])
    assert match, "no Plural-Forms header"
    return int(match.group(1))


def placeholders(text: str) -> list[str]:
    return sorted(PLACEHOLDER.findall(text))


def source_files(suffixes: tuple[str, ...]) -> list[Path]:
    found = []
    for folder, dirs, files in os.walk(ROOT):
        rel = Path(folder).relative_to(ROOT)
        # Prune while walking: .venv alone holds tens of thousands of files.
        dirs[:] = [d for d in dirs if d not in SKIPPED_DIRS and (rel / d).parts != ("static", "vendor")]
        found += [Path(folder) / name for name in files if name.endswith(suffixes)]
    return sorted(found)


def template_messages(path: Path) -> set[tuple[str | None, str]]:
    """The (context, msgid) pairs of a template, read the way makemessages reads them."""
    python = templatize(path.read_text(encoding="utf-8"), origin=str(path))
    found: set[tuple[str | None, str]] = set()
    # templatize writes a string holding an apostrophe in double quotes.
    literal = r"""u(?:'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")"""
    for match in re.finditer(rf"\b(n?p?gettext)\(\s*({literal}(?:\s*,\s*{literal})*)", python):
        args = [ast.literal_eval(piece[1:]) for piece in re.findall(literal, match.group(2))]
        found.add(
            (args[0], args[1]) if match.group(1).startswith(("pgettext", "npgettext")) else (None, args[0])
        )
    return found


def python_messages(path: Path) -> set[tuple[str | None, str]]:
    """The (context, msgid) pairs of literal gettext calls in a Python module."""
    found: set[tuple[str | None, str]] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Call):
            continue
        name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", "")
        kind = GETTEXT_NAMES.get(name)
        args = [a.value for a in node.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
        if kind is None or not args:
            continue
        if kind in {"pgettext", "npgettext"}:
            if len(args) >= 2:
                found.add((args[0], args[1]))
        else:
            found.add((None, args[0]))
    return found


@pytest.mark.parametrize("language", TRANSLATED)
def test_catalogue_has_no_untranslated_or_fuzzy_entries(language: str) -> None:
    header, *entries = catalogue(to_locale(language))
    forms = nplurals(header)
    assert "fuzzy" not in header.flags
    assert len(entries) > 300
    for entry in entries:
        assert "fuzzy" not in entry.flags, entry.msgid
        expected = forms if entry.plural is not None else 1
        assert len(entry.strings) == expected, entry.msgid
        assert all(text.strip() for text in entry.strings.values()), (
            f"{language}: untranslated {entry.msgid!r}"
        )


@pytest.mark.parametrize("language", TRANSLATED)
def test_catalogue_keeps_every_placeholder(language: str) -> None:
    _header, *entries = catalogue(to_locale(language))
    for entry in entries:
        for index, text in entry.strings.items():
            # msgstr[0] may drop the number ("lettre dans le sac"): compare it with the
            # singular, the other forms with the plural, as the English does.
            source = entry.msgid if (index == 0 or entry.plural is None) else entry.plural
            assert placeholders(text) == placeholders(source), f"{language}: {entry.msgid!r} -> {text!r}"


@pytest.mark.parametrize("language", TRANSLATED)
def test_compiled_catalogue_matches_its_po_file(language: str) -> None:
    """The committed .mo is the .po compiled (a fresh machine needs no gettext tools)."""
    with open(LOCALE / to_locale(language) / "LC_MESSAGES" / "django.mo", "rb") as handle:
        compiled = stdlib_gettext.GNUTranslations(handle)
    _header, *entries = catalogue(to_locale(language))
    for entry in entries:
        msgid = entry.msgid if entry.context is None else f"{entry.context}\x04{entry.msgid}"
        if entry.plural is None:
            assert compiled.gettext(msgid) == entry.strings[0], entry.msgid
        else:
            assert compiled.ngettext(msgid, entry.plural, 1) == entry.strings[0], entry.msgid


def test_every_source_string_is_in_every_catalogue() -> None:
    """Templates and Python modules have no string the catalogues lack: if this fails,
    run ``manage.py makemessages -a`` with the --ignore options above, translate the new
    entries, then ``compilemessages``."""
    wanted: set[tuple[str | None, str]] = set()
    for path in source_files((".html", ".txt")):
        if "templates" in path.relative_to(ROOT).parts:
            wanted |= template_messages(path)
    for path in source_files((".py",)):
        wanted |= python_messages(path)
    assert (None, "Swap tiles") in wanted
    assert ("premium square", "TW") in wanted
    for language in TRANSLATED:
        have = {entry.key for entry in catalogue(to_locale(language))[1:] if all(entry.strings.values())}
        missing = sorted(wanted - have, key=str)
        assert not missing, f"{language} lacks {missing[:10]}"


def test_plural_forms_follow_each_language() -> None:
    # French counts zero as singular; German does not.
    with translation.override("fr"):
        assert translation.ngettext("tile in the bag", "tiles in the bag", 0) == "lettre dans le sac"
        assert translation.ngettext("tile in the bag", "tiles in the bag", 2) == "lettres dans le sac"
    with translation.override("de"):
        assert translation.ngettext("tile in the bag", "tiles in the bag", 0) == "Spielsteine im Beutel"
        assert translation.ngettext("tile in the bag", "tiles in the bag", 1) == "Spielstein im Beutel"


def test_premium_labels_use_each_language_abbreviations() -> None:
    expected = {"en": "TW", "fr": "MT", "es": "TP", "pt-br": "PT", "de": "3W", "sv": "TO", "it": "TP"}
    for language, label in expected.items():
        with translation.override(language):
            assert translation.pgettext("premium square", "TW") == label
    with translation.override("de"):
        assert translation.pgettext("premium square", "DL") == "2B"


@pytest.mark.django_db
def test_home_page_in_french_from_accept_language(client: Any) -> None:
    response = client.get("/", headers={"accept-language": "fr"})
    html = response.content.decode()
    assert response.status_code == 200
    assert '<html lang="fr">' in html
    assert "Un jeu de lettres à la façon des mots croisés" in html
    assert "Se connecter" in html
    assert "Log in" not in html


@pytest.mark.django_db
def test_login_page_in_swedish_from_the_language_cookie(client: Any) -> None:
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "sv"
    response = client.get(reverse("login"))
    html = response.content.decode()
    assert response.status_code == 200
    assert "Logga in" in html
    assert "Glömt lösenordet?" in html
    assert "Forgot your password?" not in html


@pytest.mark.django_db
def test_language_switcher_changes_the_next_page(client: Any) -> None:
    response = client.post(reverse("set_language"), {"language": "it", "next": "/"})
    assert response.status_code == 302
    html = client.get("/").content.decode()
    assert "Lingue di gioco" in html
    assert "Accedi" in html


@pytest.mark.django_db
def test_game_page_in_german_has_german_labels_and_script_strings(
    client: Any, ana: Any, ben: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    words = lexicon()
    monkeypatch.setattr(game_models, "lexicon_for", lambda language, version=None: words)
    game = make_game(ana, ben)
    client.force_login(ana)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "de"
    html = client.get(reverse("games:detail", args=[game.pk])).content.decode()
    assert "Tauschen" in html
    assert "Deine Ablage" in html
    assert 'data-label="3W"' in html
    assert 'data-label="2B"' in html
    # Strings handed to app.js keep a single-% placeholder for its fmt().
    assert "Kein %(letter)s auf deiner Ablage." in html
    assert "%%(letter)s" not in html
