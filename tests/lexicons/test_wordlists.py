"""The committed lexicons in fixtures/lexicons/ (built by dictionaries/wordlists.py).

Each language's graph must answer exactly like its word list, hold the common
inflected words players expect, and leave out proper nouns, enclitic forms and
spelled-out numbers (docs/lexicons.md).
"""

from __future__ import annotations

import gzip
import random
from functools import cache
from pathlib import Path

import pytest

from engine.lexicon import WordGraph
from engine.normalize import alphabet, normalize_word
from scripts.common_words import common_words, measure

pytestmark = pytest.mark.pure

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "lexicons"
#: The raw sources beside the repository (shared/lexicon-sources), when present.
SOURCES = Path(__file__).resolve().parents[3] / "shared" / "lexicon-sources"
LANGUAGES = ("en", "en-GB", "es", "it", "pt-BR", "de", "fr")


@cache
def graph(language: str) -> WordGraph:
    return WordGraph.load(FIXTURES / f"{language}.dawg")


@cache
def word_list(language: str) -> list[str]:
    with gzip.open(FIXTURES / f"{language}.txt.gz", "rt", encoding="utf-8") as f:
        return f.read().split("\n")[:-1]


VALID = {
    "en": "CATS RUNNING WENT QUICKLY HOUSES ZEBRAS EMAIL OXEN GEESE ATE QUIZZES",
    "en-GB": "COLOUR COLOURS ORGANISED REALISE CENTRE TRAVELLED HONOURS CATS",
    "es": "CASA CASAS NIÑOS CANTABAMOS COMIENDO HABLARON PINGUINO ACCION CORAZONES ESPAÑOL HABLO COMIMOS",
    "it": "CASA CASE MANGIARE MANGIATO MANGIAVAMO PARLANO BELLISSIMO CITTA PERCHE FATTI FINIVI AMASTI "
    "TRE VENTI CENTO MILLE DICIANNOVE "
    # homographs of enclitic forms that are words in their own right (issue 15)
    "FANNO RIFANNO DISFANNO APRILE GENERALE GENERALI LOCALE LOCALI CENTRALE CAPITALE NORMALE NATALE "
    "SEGNALE MATERIALE COMMERCIALE PORTALE MUSICALE PENALE STATALE VALLE FALLO DALLO DALLA DAGLI "
    "APRIVI ABBATTEMMO",
    "pt-BR": "CASA CASAS CORAÇAO CORAÇOES FALAMOS FALAVAM COMENDO AÇAO PORTUGUES FALAR",
    "de": "HAUS HÄUSER STRASSE GEHEN GING GEGANGEN SCHÖNER BERLINER ESSEN HALLE BADEN ZWANZIG ZWEITE LKW HAMPELN",
    "fr": "MAISON MAISONS COEUR ETAIENT ALLONS GARCON FORET",
}
INVALID = {
    # proper nouns, abbreviations, unplayable spellings
    "en": "ENGLAND MICHAEL NASA AMERICA DONT",
    "en-GB": "LONDON DAVID DONT ENGLAND SMORBROD",
    "es": "ESPAÑA MEXICO FRANCIA EUROPA MADRID KIWI",
    "it": "ROMA ITALIA GIOVANNI MARIO FIRENZE EUROPA",
    "pt-BR": "PORTUGAL ESPANHA ALEMANHA INGLATERRA FERNANDO EUROPA",
    # EDMUNDS and TICINO passed the hand-written stop-list: the names the source dictionary
    # marks by its affix flags (scripts/derive_proper_nouns.py) are out too.
    "de": "BERLIN BERLINS DEUTSCHLAND MÜNCHEN ANGELA HANS GMBH EDMUNDS EDMUND TICINO PEGGY KEPLER VIVALDI",
    "fr": "MARSEILLE FRANCE LYON EUROPE AUJOURDHUI",
}
ENCLITIC_OR_NUMBER = {
    "es": "COMIENDOLO DICIENDOLE HABLARLE COMERLO DIGAMELO PONERSELO DAMELO DIMELO DAME DILE HAZLO HAZMELO",
    "it": "MANGIAMOLO PARLARNE ANDARSENE DICENDOGLIELO INCORDATOLO QUARANTASETTEMILATRECENTOOTTO VENTITRE "
    "DAMMI DIMMELO DILLO DIMMI VATTENE FAMMICI GENERALO MANGIALE",
    "de": "VIERUNDZWANZIG ZWEIHUNDERT DREIUNDZWANZIGSTEN",
}


@pytest.mark.parametrize("language", LANGUAGES)
def test_common_inflected_words_are_valid(language: str) -> None:
    missing = [w for w in VALID[language].split() if w not in graph(language)]
    assert missing == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_proper_nouns_are_not_valid(language: str) -> None:
    present = [w for w in INVALID[language].split() if w in graph(language)]
    assert present == []


@pytest.mark.parametrize("language", sorted(ENCLITIC_OR_NUMBER))
def test_enclitic_forms_and_spelled_numbers_are_not_valid(language: str) -> None:
    present = [w for w in ENCLITIC_OR_NUMBER[language].split() if w in graph(language)]
    assert present == []


@pytest.mark.parametrize("language", ["es", "it"])
def test_enclitic_stoplist_holds_the_forms_it_removes(language: str) -> None:
    enclitics = WordGraph.load(FIXTURES / f"{language}.enclitics.dawg")
    assert all(w in enclitics for w in ENCLITIC_OR_NUMBER[language].split()[:4])
    # Homographs of ordinary forms are not in the stop-list (fatti = facts, finivi).
    assert "CASA" not in enclitics
    assert "FATTI" not in enclitics
    homographs = {"it": "FANNO GENERALE LOCALI APRILE DALLO VALLE", "es": "VELO VELA DIOS SALTE"}[language]
    assert [w for w in homographs.split() if w in enclitics] == []


@pytest.mark.parametrize(
    ("language", "floor"),
    # Measured with scripts/common_words.py (docs/lexicons.md), less half a point. The
    # rest of each top 3,000 is names (ROMA, MADRID), foreign words (THE), abbreviations
    # (TV) and, in es and it, enclitic forms the policy leaves out (FARLO, HACERLO).
    [("en", 94.2), ("en-GB", 94.2), ("es", 96.4), ("it", 95.4), ("pt-BR", 96.4), ("de", 92.7), ("fr", 96.0)],
)
def test_most_common_words_are_accepted(language: str, floor: float) -> None:
    share = measure(language, common_words(language, 3000), graph(language))
    assert share.playable > 2800
    assert 100 * len(share.accepted) / share.playable >= floor, share.refused


@pytest.mark.parametrize("language", LANGUAGES)
def test_graph_header_matches_the_word_list(language: str) -> None:
    words = word_list(language)
    g = graph(language)
    assert g.word_count == len(words)
    assert g.alphabet == alphabet(language)
    assert 150_000 <= len(words) <= 3_000_000


@pytest.mark.parametrize("language", ["en", "en-GB"])
def test_small_graphs_hold_exactly_their_word_lists(language: str) -> None:
    assert list(graph(language)) == word_list(language)


@pytest.mark.parametrize("language", LANGUAGES)
def test_graph_agrees_with_word_list_on_words_and_non_words(language: str) -> None:
    words = word_list(language)
    known = set(words)
    rng = random.Random(language)
    sample = rng.sample(words, min(len(words), 20_000))
    assert all(w in graph(language) for w in sample)
    letters = alphabet(language)
    non_words = set()
    for w in sample:
        i = rng.randrange(len(w) + 1)
        non_words.add(w[:i] + rng.choice(letters) + w[i:])  # insertion
        non_words.add(w[:i] + w[i + 1 :])  # deletion
    g = graph(language)
    assert all((w in g) == (w in known) for w in non_words if w)


@pytest.mark.parametrize("language", LANGUAGES)
def test_word_lists_are_sorted_normalised_and_two_letters_or_more(language: str) -> None:
    words = word_list(language)
    sample = words[:: max(1, len(words) // 5000)]
    assert all(len(w) >= 2 and normalize_word(language, w) == w for w in sample)
    assert words == sorted(words)  # code-point order (the graph iterates in alphabet order)


def test_english_additions_are_new_normalised_words_built_into_en() -> None:
    rows = [
        line.split("\t")
        for line in (FIXTURES / "en.additions.txt").read_text(encoding="utf-8").splitlines()
        if line and not line.startswith("#")
    ]
    words = [row[0] for row in rows]
    assert 20 <= len(words) <= 80
    assert all(len(row) == 2 and row[1].strip() for row in rows)  # every addition has a reason
    assert all(normalize_word("en", w) == w for w in words)
    # en = ENABLE2K plus the curated additions: none of them is in ENABLE2K itself, all
    # are in the built graph, and nothing else was added.
    assert {"ZEN", "QI", "ZA", "EW", "TEXTING"} <= set(words)
    assert [w for w in words if w not in graph("en")] == []
    source = SOURCES / "en.source.txt.gz"
    if source.exists():
        with gzip.open(source, "rt", encoding="utf-8") as f:
            enable2k = {line.strip().upper() for line in f}
        assert not [w for w in words if w in enable2k]
        assert set(word_list("en")) == enable2k | set(words)
    else:
        assert len(word_list("en")) == 173_528 + len(words)


def test_german_stoplist_entries_normalise() -> None:
    lines = (FIXTURES / "de.stoplist.txt").read_text(encoding="utf-8").splitlines()
    names = [line for line in lines if line and not line.startswith("#")]
    assert len(names) >= 500
    assert all(normalize_word("de", name) for name in names)
    assert "Essen" not in names
    assert "Halle" not in names


def test_engine_command_line_accepts_the_english_additions_without_a_database() -> None:
    # `python -m engine score` loads only fixtures/lexicons/en.dawg: the curated
    # additions must be in it (they used to exist only as moderated database rows).
    import json
    import subprocess
    import sys

    empty = ["." * 15] * 15
    requests = [
        {
            "id": word,
            "board": empty,
            "rack": word,
            "move": [[7, 7 + i, ch] for i, ch in enumerate(word)],
        }
        for word in ("ZEN", "QI", "EMOJI", "TEXTING")
    ]
    requests.append({"id": "ZZX", "board": empty, "rack": "ZZX", "move": [[7, 7, "Z"], [7, 8, "X"]]})
    done = subprocess.run(
        [sys.executable, "-m", "engine", "score", "--language", "en"],
        input="\n".join(json.dumps(r) for r in requests),
        capture_output=True,
        text=True,
        check=True,
        cwd=FIXTURES.parents[1],
    )
    legal = {row["id"]: row["legal"] for row in map(json.loads, done.stdout.splitlines())}
    assert legal == {"ZEN": True, "QI": True, "EMOJI": True, "TEXTING": True, "ZZX": False}


def test_proper_nouns_are_told_by_the_dictionarys_affix_flags() -> None:
    from scripts.derive_proper_nouns import proper_nouns

    entries = [
        ("Edmund", "S"),  # a name: only the genitive
        ("Ticino", ""),  # a name: no flag at all
        ("Haus", "Tpmij"),  # a noun: plural and compounding flags
        ("Ährchen", "S"),  # a diminutive
        ("Treuherzigkeit", ""),  # a derivation with a common-noun suffix
        ("Lkw", ""),  # an abbreviation used as a noun
        ("Aalen", "S"),  # in the Ding dictionary (a geological stage)
        ("GmbH", ""),  # not capital-then-lowercase: the capitalised rule's business
    ]
    assert proper_nouns(entries, known={"AALEN"}) == ["Edmund", "Ticino"]


def test_derived_german_proper_nouns_normalise_and_spare_common_words() -> None:
    names = [
        line
        for line in (FIXTURES / "de.propernouns.txt").read_text(encoding="utf-8").splitlines()
        if line and not line.startswith("#")
    ]
    assert len(names) > 5000
    assert all(normalize_word("de", name) for name in names)
    assert {"Edmund", "Ticino"} <= set(names)
    assert not {"Haus", "Essen", "Halle", "Lkw", "Rose"} & set(names)
