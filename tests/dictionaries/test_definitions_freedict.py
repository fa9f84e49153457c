"""Meanings in every game language: WordNet for English, FreeDict's English translations
for the others, the committed fixtures, their licences and the script that builds them."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest
from django.test import Client

from dictionaries.definitions import (
    FREEDICT_FIXTURES,
    bilingual,
    fixture_path,
    lookup_meanings,
    meanings,
    source_of,
)
from scripts import build_freedict

FOLDER = fixture_path().parent


def heads(language: str, word: str) -> list[tuple[str, str, str]]:
    return [(m.headword, m.pos, m.form) for m in lookup_meanings(language, word)]


@pytest.mark.parametrize(
    ("language", "word", "sense"),
    [
        ("es", "casa", "house"),
        ("it", "gatto", "cat"),
        ("pt-BR", "coração", "heart"),
        ("fr", "maison", "house"),
        ("de", "Katze", "cat"),
        ("en", "cat", "feline mammal"),
        ("en-GB", "colour", "a visual attribute"),
    ],
)
def test_each_language_has_meanings(language: str, word: str, sense: str) -> None:
    assert any(sense in line for line in meanings(language, word)), meanings(language, word)


def test_a_word_on_the_board_finds_its_accented_headword() -> None:
    # The board says ETE; the dictionary says été.
    assert heads("fr", "ETE")[0] == ("été", "n", "")
    assert ("être", "v", "été") in heads("fr", "ETE")  # also the past participle of être
    assert meanings("fr", "ETE")[0] == "summer"
    assert meanings("fr", "ETE") == meanings("fr", "été")
    assert heads("pt-BR", "CORAÇAO")[0][0] == "coração"


def test_german_inflected_forms_lead_to_their_base_word() -> None:
    found = heads("de", "Häuser")
    assert found[0] == ("Häuser", "pl", "")  # the plural's own translations first
    assert ("Haus", "n", "Häuser") in found
    assert "houses" in meanings("de", "HÄUSER")
    assert "Häuser → Haus: house" in meanings("de", "häuser")
    # Irregular past and a conjugated form: to gehen, not to laufen (also referenced).
    assert [h for h, _pos, form in heads("de", "ging") if form] == ["gehen"]
    assert "ging → gehen: go" in meanings("de", "ging")
    assert [h for h, _pos, form in heads("de", "wirft") if form] == ["werfen"]


def test_german_senses_come_main_sense_first_and_nouns_keep_their_capital() -> None:
    verbs = [m for m in lookup_meanings("de", "gehen") if m.pos == "v"]
    assert verbs[0].headword == "gehen"
    assert "go" in verbs[0].senses[:3]
    assert heads("de", "HAUS")[0][0] == "Haus"
    assert heads("de", "STRASSE")[0][0] == "Straße"


def test_english_base_forms_are_prefixed_in_plain_meanings() -> None:
    lines = meanings("en", "geese")
    assert lines
    assert all(line.startswith("geese → goose: ") for line in lines)


def test_unknown_unspellable_and_empty_words_have_no_meaning() -> None:
    assert meanings("es", "blorpo") == []
    assert meanings("it", "kiwi") == []  # no K in Italian
    assert meanings("de", "") == []
    assert meanings("fr", "l'été") == []
    with pytest.raises(KeyError):
        meanings("xx", "casa")


def test_sources_name_the_dictionary_and_its_licence() -> None:
    assert source_of("en") == "WordNet 3.0, Princeton University"
    assert source_of("es").startswith(
        "Spanish-English FreeDict Dictionary, edition 0.3.1 (FreeDict, GPL-2+); "
    )
    assert source_of("de").startswith("German - English Ding/FreeDict dictionary")
    assert source_of("de").endswith("(FreeDict, GPL-3+)")


def test_fixtures_are_compact_and_ship_their_licences() -> None:
    for language, name in FREEDICT_FIXTURES.items():
        path = FOLDER / name
        assert path.stat().st_size < 3_000_000, name
        with gzip.open(path, "rt", encoding="utf-8") as f:
            data = json.load(f)
        assert data["language"] == language
        assert data["licence_file"] == "LICENSE-FreeDict.txt"
        assert data["licence"] in {"GPL-2+", "GPL-3+"}
    licence = (FOLDER / "LICENSE-FreeDict.txt").read_text(encoding="utf-8")
    for code in ("spa", "ita", "por", "deu", "fra"):
        assert f"Files: {code}-eng/*" in licence
    assert "either version 2 of" in licence  # the GPL-2+ notice itself
    with gzip.open(FOLDER / "LICENSE-FreeDict.debian-copyright.txt.gz", "rt", encoding="utf-8") as f:
        assert "Upstream-Name: FreeDict" in f.read()


def test_each_dictionary_is_loaded_once_per_process() -> None:
    assert bilingual("de") is bilingual("de")


@pytest.mark.parametrize(
    ("language", "at_least"),
    [("en", 0.9), ("es", 0.92), ("it", 0.87), ("pt-BR", 0.88), ("de", 0.88), ("fr", 0.92)],
)
def test_share_of_common_words_with_a_meaning(language: str, at_least: float) -> None:
    """The figures recorded in docs/lexicons.md (measured on wordfreq's lists) hold."""
    words = build_freedict.common_words(language, 3000)
    assert len(words) == 3000
    found = sum(1 for word in words if meanings(language, word))
    assert found / len(words) >= at_least


# --- the look-up page -----------------------------------------------------------------


@pytest.mark.django_db
def test_lookup_page_shows_english_translations_with_their_source(client: Client) -> None:
    response = client.get("/words/", {"word": "häuser", "language": "de"}, headers={"HX-Request": "true"})
    html = response.text
    assert "In English" in html
    assert '<h4 class="entry" lang="de">Häuser (plural)</h4>' in html
    assert "Häuser → Haus (noun, base form)" in html
    assert "<li>houses</li>" in html
    assert "English translations: German - English Ding/FreeDict dictionary" in html
    assert "WordNet" not in html


@pytest.mark.django_db
def test_lookup_page_says_when_the_dictionary_has_no_translation(client: Client) -> None:
    response = client.get("/words/", {"word": "blorpo", "language": "es"}, headers={"HX-Request": "true"})
    assert "The dictionary has no translation for this word." in response.text
    assert "Spanish-English FreeDict Dictionary" in response.text


@pytest.mark.django_db
def test_lookup_page_translations_in_the_interface_language(client: Client) -> None:
    response = client.get(
        "/words/", {"word": "casa", "language": "es"}, headers={"HX-Request": "true", "Accept-Language": "fr"}
    )
    assert "En anglais" in response.text
    assert "<li>house</li>" in response.text


# --- the build script ---------------------------------------------------------------------


def test_articles_are_parsed_without_examples_notes_or_pronunciations() -> None:
    ding = build_freedict.parse_article(
        "Straße /ʃtɾˈɑːsə/ <fem, n, sg>\n"
        "avenue <n>Ave,  /ˈɑːvɛ/ , alley <n>\n"
        '      "eine Straße"  - a street\n'
        "         Note: of trees\n"
        "   Synonym: {Allee}\n\n"
        " see: {Alleen}, {Straßen}\n"
    )
    assert ding is not None
    assert (ding.headword, ding.pos, ding.senses, ding.references, ding.examples) == (
        "Straße",
        "n",
        ["avenue, alley"],
        ["Alleen", "Straßen"],
        1,
    )
    ergane = build_freedict.parse_article("aller /ale/ <v>\n1. fare\n2. go, ride, travel\n")
    assert ergane is not None
    assert (ergane.pos, ergane.senses) == ("v", ["fare", "go, ride, travel"])
    labelled = build_freedict.parse_article("Haus /hˈaʊs/ <neut, n, sg>\n [adm.] establishment <n>\n")
    assert labelled is not None
    assert labelled.senses == ["establishment"]


def dictd(folder: Path, articles: list[str]) -> tuple[Path, Path]:
    """A small dictd database (index and gzip data) holding ``articles``."""
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"

    def code(number: int) -> str:
        text = ""
        while True:
            text = alphabet[number % 64] + text
            number //= 64
            if not number:
                return text

    info = "00-database-info\nTest-English FreeDict Dictionary\n\nEdition: 0.1\n\nAvailability:\n\n    GPL.\n\nNotes:\n"
    data = b""
    lines = []
    for key, text in [("00databaseinfo", info), *((a.split(" ")[0].lower(), a) for a in articles)]:
        raw = text.encode()
        lines.append(f"{key}\t{code(len(data))}\t{code(len(raw))}")
        data += raw
    index, dictionary = folder / "t.index", folder / "t.dict.dz"
    index.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with gzip.open(dictionary, "wb") as f:
        f.write(data)
    return index, dictionary


def test_build_keys_words_maps_forms_and_keeps_only_playable_words(tmp_path: Path) -> None:
    index, dictionary = dictd(
        tmp_path,
        [
            "Haus /h/ <neut, n, sg>\nhouse <n>\n" + '      "ein Haus"  - a house\n',
            "Haus /h/ <neut, n, sg>\n [adm.] establishment <n>\n",
            "Häuser /h/ <pl>\nhouses\n see: {Haus}, {frei Haus}\n",
            "gehen /g/ <v>\ngo <v>\n",
            "laufen /l/ <v>\nrun <v>\n",
            "ich/er/sie ging /g/\nI/he/she went\n see: {gehen}, {laufen}\n",
            "frei Haus /f/\ncarriage free\n",
            "Xylofon /x/ <n>\nxylophone\n",
        ],
    )
    words = {"HAUS", "HÄUSER", "GEHEN", "GING", "LAUFEN"}
    data = build_freedict.build("de", index, dictionary, words, "GPL-3+")
    assert data["name"] == "Test-English FreeDict Dictionary, edition 0.1"
    assert data["words"] == {
        "GEHEN": [["", "v", ["go"]]],
        "GING": [["", "", ["I/he/she went"]]],
        "HAUS": [["^", "n", ["house", "establishment"]]],  # the article with examples first
        "HÄUSER": [["^", "pl", ["houses"]]],
        "LAUFEN": [["", "v", ["run"]]],
    }
    assert data["forms"] == {"GING": ["gehen"], "HÄUSER": ["Haus"]}
    everything = build_freedict.build("de", index, dictionary, None, "GPL-3+")
    assert "XYLOFON" in everything["words"]  # type: ignore[operator]
