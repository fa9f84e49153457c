"""Meanings of inflected words through their base forms (worked out with simplemma when the
fixtures are built), Apertium's larger dictionaries for Spanish and Italian, and the share
of a drawn sample of common words with a meaning, per language."""

from __future__ import annotations

import gzip
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from dictionaries.definitions import (
    APERTIUM_FIXTURES,
    LEMMA_FIXTURE,
    fixture_path,
    lookup_meanings,
    meanings,
    source_of,
    translations,
)
from scripts import build_apertium, meanings_sample
from tests.games.helpers import make_game

FOLDER = fixture_path().parent
DOCS = Path(settings.BASE_DIR) / "docs" / "lexicons.md"


@pytest.mark.parametrize(
    ("language", "word", "line"),
    [
        ("es", "conozco", "conozco → conocer: know"),
        ("es", "CANCIONES", "canciones → canción: song"),
        ("it", "prendo", "prendo → prendere: take"),
        ("pt-BR", "falamos", "falamos → falar: speak"),
        ("fr", "était", "était → être: be"),
        ("de", "hatte", "hatte → haben: have"),
        ("en", "geese", "geese → goose: "),
    ],
)
def test_an_inflected_form_names_itself_and_its_base_form(language: str, word: str, line: str) -> None:
    assert any(found.startswith(line) for found in meanings(language, word)), meanings(language, word)


def test_a_verb_form_shows_the_verb_before_a_noun_of_the_same_base() -> None:
    # "poder" is a verb (can) and a noun (power): "pudieron" is the verb, "poderes" the noun.
    assert lookup_meanings("es", "pudieron")[0].pos == "v"
    assert lookup_meanings("es", "poderes")[0].pos == "n"


def test_a_word_with_its_own_entry_shows_it_before_its_base_form() -> None:
    found = lookup_meanings("es", "era")
    assert (found[0].headword, found[0].form) == ("era", "")
    assert ("ser", "era") in [(m.headword, m.form) for m in found]


def test_the_server_never_loads_the_lemmatiser() -> None:
    # simplemma holds about 380 MB once loaded: the base forms come from the fixtures.
    code = (
        "import os, sys, django; os.environ['DJANGO_SETTINGS_MODULE'] = 'wordgame.settings'; django.setup(); "
        "from dictionaries.definitions import meanings; "
        "assert meanings('es', 'conozco') == ['conozco → conocer: know'], meanings('es', 'conozco'); "
        "assert 'simplemma' not in sys.modules"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=settings.BASE_DIR, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]


def test_spanish_and_italian_function_words_have_a_meaning_from_apertium() -> None:
    assert "from, of" in meanings("es", "de")
    assert "the" in meanings("it", "il")
    assert source_of("es").endswith("Apertium Spanish-English bilingual dictionary 0.8.1 (Apertium, GPL-2)")
    assert "chained" in source_of("it")


def test_lemma_and_apertium_fixtures_are_compact_and_ship_their_licences() -> None:
    for language in meanings_sample.THRESHOLDS:
        path = FOLDER / LEMMA_FIXTURE.format(language=language)
        assert path.stat().st_size < 3_000_000, path.name
        with gzip.open(path, "rt", encoding="utf-8") as f:
            data = json.load(f)
        assert data["language"] == language
        assert data["lemmatiser"] == "simplemma 2.0.0"
        assert (FOLDER / data["licence_file"]).exists()
    for language, name in APERTIUM_FIXTURES.items():
        with gzip.open(FOLDER / name, "rt", encoding="utf-8") as f:
            data = json.load(f)
        assert (data["language"], data["licence"], data["licence_file"]) == (
            language,
            "GPL-2",
            "LICENSE-Apertium.txt",
        )
    apertium = (FOLDER / "LICENSE-Apertium.txt").read_text(encoding="utf-8")
    assert "=== apertium-eng-spa" in apertium
    assert "=== apertium-spa-ita" in apertium
    assert "Universitat d'Alacant" in apertium
    simplemma = (FOLDER / "LICENSE-simplemma.txt").read_text(encoding="utf-8")
    assert "MIT License" in simplemma
    assert "Open Database License" in simplemma


def test_each_language_loads_its_base_forms_once() -> None:
    assert translations("es") is translations("es")
    assert translations("es").lemmas.of("CONOZCO") == ["conocer"]
    assert translations("es").lemmas.of("ZZZZ") == []


# --- the sample of common words --------------------------------------------------------


def figures_in_docs() -> dict[str, tuple[int, int]]:
    """language -> (with a meaning, sample size), from the table in docs/lexicons.md."""
    text = DOCS.read_text(encoding="utf-8")
    section = text[text.index("## Meanings of a sample of common words") :]
    return {
        m[1]: (int(m[2]), int(m[3]))
        for m in re.finditer(r"^\| `([a-zA-Z-]+)` \| (\d+) of (\d+) \|", section, re.M)
    }


@pytest.mark.parametrize(("language", "threshold"), sorted(meanings_sample.THRESHOLDS.items()))
def test_the_sample_of_common_words_has_meanings_above_the_threshold(language: str, threshold: float) -> None:
    """The drawn sample (wordfreq, a fixed seed) read through the committed fixtures reaches
    the issue's threshold, and docs/lexicons.md records the figure measured."""
    words = meanings_sample.draw(language)
    assert len(set(words)) == meanings_sample.SIZE == 40
    found = sum(1 for word in words if meanings(language, word))
    assert found / len(words) >= threshold, [w for w in words if not meanings(language, w)]
    assert figures_in_docs()[language] == (found, len(words))


def test_the_sample_is_drawn_the_same_way_every_time() -> None:
    assert meanings_sample.draw("fr") == meanings_sample.draw("fr")
    assert meanings_sample.draw("fr") != meanings_sample.draw("fr", seed=meanings_sample.SEED + 1)


# --- where meanings show ---------------------------------------------------------------


@pytest.mark.django_db
def test_lookup_page_says_which_form_led_to_which_base(client: Client) -> None:
    response = client.get("/words/", {"word": "conozco", "language": "es"}, headers={"HX-Request": "true"})
    assert "conozco → conocer (verb, base form)" in response.text
    assert "<li>know</li>" in response.text
    french = client.get(
        "/words/",
        {"word": "conozco", "language": "es"},
        headers={"HX-Request": "true", "Accept-Language": "fr"},
    )
    assert "conozco → conocer (verbe, forme de base)" in french.text


@pytest.mark.django_db
def test_a_game_shows_the_base_form_of_a_move_log_word(ana: Any, ben: Any) -> None:
    game = make_game(ana, ben, language="es")
    client = Client()
    client.force_login(ben)
    answer = client.get(reverse("games:define", args=[game.pk]) + "?word=conozco")
    assert '<strong class="word">CONOZCO</strong>' in answer.text
    assert '<span class="meaning">conozco → conocer: know</span>' in answer.text


# --- the build scripts' pure parts -----------------------------------------------------------


def test_apertium_personal_pronouns_and_particles_are_spelled_out() -> None:
    assert build_apertium.english("prpers<prn><obj><p1><mf><sg>") == "me"
    assert build_apertium.english("prpers<prn><subj><p3><f><sg>") == "she"
    assert build_apertium.english("prpers<prn><obj><p3><nt><sg>") == "it"
    assert build_apertium.english("take# away<vblex><sep>") == "take away"
    assert build_apertium.split("conocer<vblex><inf>") == ("conocer", ["vblex", "inf"])


def test_italian_goes_through_spanish_with_the_same_part_of_speech() -> None:
    italian = {("gatto", "n"): ["gato<n>"], ("essere", "vbser"): ["ser<vbser>"]}
    spanish = {("gato", "n"): ["cat<n>"], ("ser", "vbser"): ["be<vbser>"], ("ser", "n"): ["being<n>"]}
    assert build_apertium.chained(italian, spanish) == {
        ("gatto", "n"): ["cat<n>"],
        ("essere", "vbser"): ["be<vbser>"],
    }
    table = {("gatto", "n"): ["cat<n>", "tomcat<n>"], ("xyz1", "n"): ["x<n>"]}
    data = build_apertium.build("it", table, {"GATTO"}, "Test", "source")
    assert data["words"] == {"GATTO": [["", "n", ["cat, tomcat"]]]}
