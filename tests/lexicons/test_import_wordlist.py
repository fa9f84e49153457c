"""dictionaries/wordlists.py: the lexicon rules, the policy and the written files."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from dictionaries.wordlists import (
    additions_for,
    build_wordlist,
    import_wordlist,
    is_spelled_number,
    read_word_list,
    write_word_list,
)
from engine.lexicon import WordGraph
from scripts.derive_enclitics import (
    dic_entries,
    enclitic_rules,
    imperative_clitic_forms,
    italian_homographs,
    parse_aff,
    thesaurus_lemmas,
)

pytestmark = pytest.mark.pure


def test_each_rule_drops_its_entries_with_a_reason() -> None:
    lines = [
        "cat",
        "cats",
        "don't",
        "rock-n-roll",
        "a1",
        "NASA",
        "Paris",
        "a",
        "naïve",
        "naive",
        "",
        "  dog  ",
    ]
    result = build_wordlist("en", lines)
    assert result.words == ["CAT", "CATS", "DOG", "NAIVE"]
    assert result.raw_entries == 11
    assert result.dropped["hyphen_apostrophe"] == 2
    assert result.dropped["non_letter"] == 1
    assert result.dropped["capitalised"] == 2
    assert result.dropped["one_letter"] == 1
    assert result.dropped["duplicate"] == 1


def test_german_allows_an_initial_capital_only() -> None:
    result = build_wordlist("de", ["Häuser", "GmbH", "ADAC", "gehen", "Straße"])
    assert result.words == ["GEHEN", "HÄUSER", "STRASSE"]
    assert result.dropped["capitalised"] == 2


def test_absent_letters_are_dropped() -> None:
    result = build_wordlist("es", ["kiwi", "casa", "whisky", "niño"])
    assert result.words == ["CASA", "NIÑO"]
    assert result.dropped["absent_letter"] == 2


def test_policy_drops_enclitics_numbers_and_stoplisted_names() -> None:
    result = build_wordlist(
        "de",
        ["Berlin", "Berlins", "Berliner", "Baden", "baden", "vierundzwanzig", "zwanzig", "Haus"],
        stoplist=["BERLIN", "BADEN"],
    )
    # BADEN stays because the source also has the verb "baden".
    assert result.words == ["BADEN", "BERLINER", "HAUS", "ZWANZIG"]
    assert result.dropped["stoplist"] == 2
    assert result.dropped["number"] == 1
    es = build_wordlist("es", ["comerlo", "comer", "casa"], enclitics=frozenset({"COMERLO"}))
    assert es.words == ["CASA", "COMER"]
    assert es.dropped["enclitic"] == 1


@pytest.mark.parametrize(
    ("language", "word", "expected"),
    [
        ("it", "QUARANTASETTEMILATRECENTOOTTO", True),
        ("it", "VENTITRE", True),
        ("it", "VENTITREESIMO", True),
        ("it", "VENTI", False),
        ("it", "VENTESIMO", False),
        ("it", "DICIASSETTESIMO", False),
        ("it", "TRENO", False),
        ("de", "VIERUNDZWANZIG", True),
        ("de", "DREIUNDZWANZIGSTEN", True),
        ("de", "DREIZEHN", False),
        ("de", "ZWANZIGSTE", False),
        ("de", "ZWEIFACH", False),
        ("es", "VEINTITRES", False),
    ],
)
def test_spelled_numbers_are_compounds_of_numerals(language: str, word: str, expected: bool) -> None:
    assert is_spelled_number(language, word) is expected


def test_word_list_file_is_deterministic(tmp_path: Path) -> None:
    write_word_list(tmp_path / "a.txt.gz", ["AB", "CD"])
    first = (tmp_path / "a.txt.gz").read_bytes()
    write_word_list(tmp_path / "a.txt.gz", ["AB", "CD"])
    assert (tmp_path / "a.txt.gz").read_bytes() == first
    assert first[4:8] == b"\0\0\0\0"  # gzip mtime 0
    assert gzip.decompress(first) == b"AB\nCD\n"
    assert read_word_list(tmp_path / "a.txt.gz") == ["AB", "CD"]


def test_import_writes_the_list_and_the_graph(tmp_path: Path) -> None:
    source = tmp_path / "src.txt"
    source.write_text("chat\nchats\nL'homme\nœuvre\nParis\nété\n", encoding="utf-8")
    result = import_wordlist("fr", source, tmp_path)
    assert result.words == ["CHAT", "CHATS", "ETE", "OEUVRE"]
    assert read_word_list(tmp_path / "fr.txt.gz") == result.words
    assert list(WordGraph.load(tmp_path / "fr.dawg")) == result.words


def test_italian_enclitic_rules_are_picked_rule_by_rule() -> None:
    aff = [
        "SFX C Y 6\n",
        "SFX C re amo ire\n",  # finiamo: conjugation
        "SFX C re amolo ire\n",  # finiamolo: enclitic
        "SFX C re amoci ire\n",
        "SFX C re amola ire\n",
        "SFX C re amone ire\n",
        "SFX C re vi ire\n",  # finivi: imperfect, looks like fini+vi but stays
        "SFX C re sti ire\n",  # finisti: past, stays
    ]
    picked = enclitic_rules("it", parse_aff(aff))
    assert picked == {2, 3, 4, 5}


def test_spanish_enclitic_classes_are_the_non_ascii_flags() -> None:
    aff = ["SFX S Y 1\n", "SFX S 0 s [aeiou]\n", "SFX À Y 2\n", "SFX À 0 la r\n", "SFX À 0 lo r\n"]
    assert enclitic_rules("es", parse_aff(aff)) == {3, 4}


def test_additions_are_added_after_the_policy_and_counted(tmp_path: Path) -> None:
    (tmp_path / "en.additions.txt").write_text(
        "# curated\nzen\tmodern word\ncat\talready there\n", encoding="utf-8"
    )
    assert additions_for("en", tmp_path) == ["ZEN", "CAT"]
    source = tmp_path / "src.txt"
    source.write_text("cat\ncats\n", encoding="utf-8")
    result = import_wordlist("en", source, tmp_path, policy_dir=tmp_path)
    assert result.words == ["CAT", "CATS", "ZEN"]
    assert result.added == 1
    assert "additions: +1" in result.summary()
    assert list(WordGraph.load(tmp_path / "en.dawg")) == ["CAT", "CATS", "ZEN"]


@pytest.mark.parametrize("line", ["zen\t\n", "don't\tcontraction\n", "q\tone letter\n"])
def test_an_addition_without_reason_or_unplayable_is_refused(tmp_path: Path, line: str) -> None:
    (tmp_path / "en.additions.txt").write_text(line, encoding="utf-8")
    with pytest.raises(ValueError, match=r"en\.additions\.txt"):
        additions_for("en", tmp_path)


def test_italian_doubled_pronouns_are_only_real_ones() -> None:
    # fa+nno (fanno, the present of fare) and fa+mmo are conjugation; fa+mmi, fa+llo,
    # fa+nne are the clitics of the imperative fa'.
    aff = [
        "SFX P Y 8\n",
        "SFX P re nno are\n",
        "SFX P re mmo are\n",
        "SFX P re mmi are\n",
        "SFX P re llo are\n",
        "SFX P re lla are\n",
        "SFX P re nne are\n",
        "SFX P re cci are\n",
        "SFX P re tte are\n",
    ]
    assert enclitic_rules("it", parse_aff(aff)) == {3, 4, 5, 6, 7}


def test_irregular_imperatives_with_pronouns_are_found_by_shape() -> None:
    words = {"DAMMI", "DIMMELO", "VATTENE", "FAMMICI", "DAGLI", "FANNO", "DATTERO", "DITTA", "DAMA"}
    assert imperative_clitic_forms("it", words) == {"DAMMI", "DIMMELO", "VATTENE", "FAMMICI", "DAGLI"}
    words = {"DAME", "DAMELO", "DIMELO", "HAZLO", "VETE", "VELO", "DAMA", "HAZAÑA", "SALTE", "PONTE"}
    assert imperative_clitic_forms("es", words) == {
        "DAME",
        "DAMELO",
        "DIMELO",
        "HAZLO",
        "VETE",
        "VELO",
        "SALTE",
        "PONTE",
    }


def test_italian_homographs_are_lemmas_their_inflections_or_derivation_bases() -> None:
    thesaurus = [
        "generale|2",
        "(agg.)|comune|universale",
        "(s.m.)|ufficiale",
        "stalla|1",
        "(s.f.)|scuderia",
        "alzarsi|2",
        "(s.m.)|distinguersi",  # a tagging slip: an infinitive + pronoun is never kept
        "(v.)|levarsi",
        "mangiare|1",
        "(v.)|cibarsi",
    ]
    lemmas = thesaurus_lemmas("it", thesaurus)
    assert lemmas == {"GENERALE": {"agg.", "s.m."}, "STALLA": {"s.f."}, "ALZARSI": {"s.m."}}
    candidates = {
        "GENERALE", "GENERALI", "GENERALO",  # genera+le/li/lo: only the first two are words
        "STALLE", "STALLI",  # plural of stalla (feminine: -e only)
        "APRILE", "APRILI",  # aprilino in the .dic: a derivative of aprile
        "MANGIALE", "ALZARSI", "DALLO",
    }  # fmt: skip
    kept = italian_homographs(candidates, lemmas, {"APRILINO", "MANGIARE"})
    assert kept == {"GENERALE", "GENERALI", "STALLE", "APRILE", "APRILI", "DALLO"}


def test_dic_entries_keep_words_and_flags() -> None:
    assert dic_entries(["3\n", "dammi\n", "velo/CSN\n", "dimmelo/g\n"]) == [
        ("dammi", ""),
        ("velo", "CSN"),
        ("dimmelo", "g"),
    ]
