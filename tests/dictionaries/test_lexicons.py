"""``for_language``: the engine lexicon over the base graph plus moderated changes."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest

from dictionaries import lexicons
from dictionaries.services import propose_change
from engine import GameState, IllegalMove, Placement, evaluate, layout, new_game, play, tileset
from engine.lexicon import Lexicon
from engine.movegen import generate

pytestmark = pytest.mark.django_db


def test_for_language_is_engine_lexicon_with_version(dictionaries: None) -> None:
    lexicon = lexicons.for_language("en")
    assert isinstance(lexicon, Lexicon)
    assert lexicon.version == 0  # no moderated change yet
    assert "CAT" in lexicon
    assert "ZEN" in lexicon  # a curated addition, built into the base graph
    assert "BLORP" not in lexicon
    assert len(lexicon.graphs()) == 2


def test_for_language_without_dictionary_row_is_base_graph_at_version_0(db: None) -> None:
    lexicon = lexicons.for_language("fr")
    assert lexicon.version == 0
    assert "COEUR" in lexicon
    assert lexicon.removed == frozenset()


def test_approved_addition_becomes_live_after_check_interval(
    dictionaries: None, ana: Any, mia: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = lexicons.for_language("en")
    change = propose_change(language="en", word="blorp", action="add", proposed_by=ana)
    # In this (non-transactional) test on_commit never fires: only the periodic
    # version check, which is what other processes rely on, can pick the change up.
    change.approve(by=mia)
    assert lexicons.for_language("en") is before  # checked less than a second ago
    monkeypatch.setattr(lexicons, "LIVE_CHECK_SECONDS", 0.0)
    after = lexicons.for_language("en")
    assert "BLORP" in after
    assert after.version == before.version + 1


def test_approved_change_is_live_at_once_in_deciding_process(
    dictionaries: None, ana: Any, mia: Any, django_capture_on_commit_callbacks: Any
) -> None:
    lexicons.for_language("en")
    change = propose_change(language="en", word="blorp", action="add", proposed_by=ana)
    with django_capture_on_commit_callbacks(execute=True):
        change.approve(by=mia)
    assert "BLORP" in lexicons.for_language("en")


def test_approved_removal_is_in_removed_set(dictionaries: None, ana: Any, mia: Any) -> None:
    propose_change(language="en", word="dog", action="remove", proposed_by=ana).approve(by=mia)
    lexicons.forget("en")
    lexicon = lexicons.for_language("en")
    assert "DOG" not in lexicon
    assert "DOGS" in lexicon
    assert lexicon.removed == frozenset({"DOG"})


def test_pinned_version_ignores_later_changes(dictionaries: None, ana: Any, mia: Any) -> None:
    pinned_at = lexicons.current_version("en")
    propose_change(language="en", word="blorp", action="add", proposed_by=ana).approve(by=mia)
    propose_change(language="en", word="cat", action="remove", proposed_by=ana).approve(by=mia)
    pinned = lexicons.for_language("en", version=pinned_at)
    assert pinned.version == pinned_at
    assert ("BLORP" in pinned, "CAT" in pinned, "ZEN" in pinned) == (False, True, True)
    middle = lexicons.for_language("en", version=pinned_at + 1)
    assert ("BLORP" in middle, "CAT" in middle) == (True, True)
    assert lexicons.for_language("en", version=0).graphs()[1].word_count == 0


def test_pinned_version_above_current_raises(dictionaries: None) -> None:
    with pytest.raises(ValueError, match="version 0, not 5"):
        lexicons.for_language("en", version=5)


def test_engine_play_accepts_word_after_approval(dictionaries: None, ana: Any, mia: Any) -> None:
    state = state_with_rack(new_game("en", random.Random(7)), "BLORP")
    placements = [Placement(7, 5 + i, letter) for i, letter in enumerate("BLORP")]
    with pytest.raises(IllegalMove, match="BLORP"):
        play(state, 0, placements, lexicons.for_language("en"))
    propose_change(language="en", word="blorp", action="add", proposed_by=ana).approve(by=mia)
    lexicons.forget("en")
    played = play(state, 0, placements, lexicons.for_language("en"))
    assert played.record.words[0].word == "BLORP"
    assert played.state.scores[0] > 0


def test_move_generator_finds_added_word_and_drops_removed(dictionaries: None, ana: Any, mia: Any) -> None:
    propose_change(language="en", word="blorp", action="add", proposed_by=ana).approve(by=mia)
    propose_change(language="en", word="dog", action="remove", proposed_by=ana).approve(by=mia)
    lexicons.forget("en")
    lexicon = lexicons.for_language("en")
    geometry = layout("wwf")
    moves = generate(
        geometry.empty_board(), "BLORPDG", tileset=tileset("en"), layout=geometry, lexicon=lexicon
    )
    main_words = {m.words[0].word for m in moves}
    assert "BLORP" in main_words
    assert "DOG" not in main_words
    assert "GOD" not in main_words  # never in the word list
    evaluation = evaluate(
        geometry.empty_board(),
        [Placement(7, 7 + i, c) for i, c in enumerate("BLORP")],
        tileset=tileset("en"),
        layout=geometry,
        lexicon=lexicon,
    )
    assert evaluation.main_word.word == "BLORP"


def state_with_rack(state: GameState, letters: str) -> GameState:
    """``state`` with seat 0's rack holding ``letters`` (tiles swapped with the bag)."""
    pool = list(state.racks[0] + state.bag)
    for letter in letters:
        pool.remove(letter)
    rest = "".join(pool)
    fill = 7 - len(letters)
    rack = letters + rest[:fill]
    return replace(state, racks=(rack, *state.racks[1:]), bag=rest[fill:])
