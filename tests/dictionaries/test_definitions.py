"""WordNet definitions and morphy: exception lists first, then detachment rules."""

from __future__ import annotations

from dictionaries.definitions import WordNet, define, fixture_path, wordnet


def bases(word: str) -> set[tuple[str, str]]:
    return {(e.base, e.pos) for e in define(word)}


def test_irregular_plural_found_through_exception_list() -> None:
    assert bases("geese") == {("goose", "n")}


def test_verb_form_found_through_detachment_rules() -> None:
    found = bases("running")
    assert ("run", "v") in found
    assert ("running", "n") in found  # the form itself is a noun too


def test_irregular_past_and_comparative_found() -> None:
    assert ("run", "v") in bases("ran")
    assert ("good", "a") in bases("better")
    assert ("happy", "a") in bases("happiest")


def test_plural_ending_in_ies_and_ches() -> None:
    assert ("city", "n") in bases("cities")
    assert ("church", "n") in bases("churches")


def test_case_is_ignored_and_glosses_are_ordered_by_sense() -> None:
    entries = define("DOG")
    assert entries[0].base == "dog"
    assert entries[0].pos == "n"
    assert entries[0].glosses[0].startswith("a member of the genus Canis")


def test_unknown_or_unplayable_word_has_no_definition() -> None:
    assert define("blorp") == []
    assert define("e-mail") == []
    assert define("") == []


def test_proper_noun_senses_are_left_out() -> None:
    # "china" is porcelain; the country (spelled China in WordNet) is not a sense.
    glosses = " ".join(g for e in define("china") for g in e.glosses)
    assert "porcelain" in glosses
    assert "communist" not in glosses


def test_wordnet_loaded_once_per_process() -> None:
    assert wordnet() is wordnet()
    assert isinstance(wordnet(), WordNet)


def test_fixture_is_compact_and_ships_licence() -> None:
    path = fixture_path()
    assert path.stat().st_size < 4_000_000
    licence = path.parent / "LICENSE-WordNet-3.0.txt"
    assert "WordNet 3.0 Copyright 2006 by Princeton University" in licence.read_text()
