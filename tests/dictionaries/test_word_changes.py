"""Proposals and decisions: validation, version bumps, the moderation record."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.exceptions import ValidationError

from dictionaries.models import Dictionary, WordChange
from dictionaries.services import ensure_dictionaries, propose_change, propose_changes

pytestmark = pytest.mark.django_db


def en() -> Dictionary:
    return Dictionary.objects.get(language="en")


def test_propose_word_with_absent_letter_raises_clear_error(dictionaries: None, ana: Any) -> None:
    with pytest.raises(ValidationError) as error:
        propose_change(language="es", word="kiwi", action="add", proposed_by=ana)
    assert error.value.error_list[0].code == "not_normalisable"
    assert "kiwi" in error.value.messages[0]
    assert "Spanish" in error.value.messages[0]
    assert not WordChange.objects.filter(word="kiwi").exists()


def test_propose_word_with_hyphen_is_refused(dictionaries: None, ana: Any) -> None:
    with pytest.raises(ValidationError, match="not a letter"):
        propose_change(language="en", word="e-mail", action="add", proposed_by=ana)


def test_propose_one_letter_word_is_refused(dictionaries: None, ana: Any) -> None:
    with pytest.raises(ValidationError, match="at least two letters"):
        propose_change(language="en", word="q", action="add", proposed_by=ana)


def test_propose_adding_valid_word_is_refused(dictionaries: None, ana: Any) -> None:
    with pytest.raises(ValidationError, match="already valid"):
        propose_change(language="en", word="Cat", action="add", proposed_by=ana)


def test_propose_removing_invalid_word_is_refused(dictionaries: None, ana: Any) -> None:
    with pytest.raises(ValidationError, match="not valid in English"):
        propose_change(language="en", word="blorp", action="remove", proposed_by=ana)


def test_propose_same_open_proposal_twice_is_refused(dictionaries: None, ana: Any, ben: Any) -> None:
    propose_change(language="en", word="blorp", action="add", proposed_by=ana)
    with pytest.raises(ValidationError, match="already has an open proposal"):
        propose_change(language="en", word="BLORP", action="add", proposed_by=ben)


def test_propose_stores_typed_and_normalised_word(dictionaries: None, ana: Any) -> None:
    change = propose_change(language="de", word=" Straßen ", action="add", proposed_by=ana, reason="plural")
    assert (change.word, change.normalized, change.status) == ("Straßen", "STRASSEN", "proposed")
    assert change.proposed_by == ana
    assert change.version is None


def test_approve_bumps_version_and_records_decision(dictionaries: None, ana: Any, mia: Any) -> None:
    before = en().version
    change = propose_change(language="en", word="blorp", action="add", proposed_by=ana)
    change.approve(by=mia)
    change.refresh_from_db()
    assert en().version == before + 1
    assert change.status == WordChange.Status.APPROVED
    assert change.version == before + 1
    assert change.decided_by == mia
    assert change.decided_at is not None
    assert en().word_is_valid("BLORP")


def test_reject_records_reason_without_version_bump(dictionaries: None, ana: Any, mia: Any) -> None:
    before = en().version
    change = propose_change(language="en", word="blorp", action="add", proposed_by=ana)
    change.reject(by=mia, reason="not a word")
    change.refresh_from_db()
    assert (change.status, change.decision_note, change.decided_by) == ("rejected", "not a word", mia)
    assert change.version is None
    assert en().version == before
    assert not en().word_is_valid("BLORP")


def test_decided_change_cannot_be_decided_again(dictionaries: None, ana: Any, mia: Any) -> None:
    change = propose_change(language="en", word="blorp", action="add", proposed_by=ana)
    change.approve(by=mia)
    with pytest.raises(ValidationError, match="already approved"):
        change.reject(by=mia)
    with pytest.raises(ValidationError, match="already approved"):
        WordChange.objects.get(pk=change.pk).approve(by=mia)


def test_approve_stale_proposal_is_refused(dictionaries: None, ana: Any, ben: Any, mia: Any) -> None:
    # Two proposals made before either was decided (the duplicate check ran for both).
    first = propose_change(language="en", word="dog", action="remove", proposed_by=ana)
    second = WordChange.objects.create(
        dictionary=en(), word="DOG", normalized="DOG", action="remove", proposed_by=ben
    )
    first.approve(by=mia)
    version = en().version
    with pytest.raises(ValidationError, match="not valid in English"):
        second.approve(by=mia)
    second.refresh_from_db()
    assert second.status == WordChange.Status.PROPOSED
    assert en().version == version


def test_decided_change_cannot_be_deleted(dictionaries: None, ana: Any, mia: Any) -> None:
    change = propose_change(language="en", word="blorp", action="add", proposed_by=ana)
    change.reject(by=mia)
    with pytest.raises(ValidationError):
        change.delete()
    assert WordChange.objects.filter(pk=change.pk).exists()


def test_latest_approved_change_decides_validity(dictionaries: None, ana: Any, mia: Any) -> None:
    propose_change(language="en", word="dog", action="remove", proposed_by=ana).approve(by=mia)
    assert not en().word_is_valid("DOG")
    propose_change(language="en", word="dog", action="add", proposed_by=ana).approve(by=mia)
    assert en().word_is_valid("DOG")


def test_bulk_propose_reports_refused_words(dictionaries: None, ana: Any) -> None:
    result = propose_changes(
        language="it", words=["gatti", "kiwi", "casa", "gatti"], action="add", proposed_by=ana
    )
    assert [c.normalized for c in result.created] == ["GATTI"]
    refused = dict(result.refused)
    assert set(refused) == {"kiwi", "casa", "gatti"}
    assert "already valid" in refused["casa"]
    assert "open proposal" in refused["gatti"]


def test_ensure_dictionaries_creates_rows_and_no_changes_for_the_additions(db: None) -> None:
    lines = ensure_dictionaries()
    assert Dictionary.objects.count() == 7
    assert Dictionary.objects.get(language="de").word_count == 4
    # The curated additions (zen, texting) are in the built graph: no moderated change.
    assert not WordChange.objects.exists()
    assert en().version == 0
    assert en().word_count == 13  # 11 base words + ZEN + TEXTING
    assert en().word_is_valid("ZEN")
    assert en().word_is_valid("TEXTING")
    assert any("Dictionary en: created (13 words" in line for line in lines)


def test_ensure_dictionaries_twice_changes_nothing(db: None) -> None:
    ensure_dictionaries()
    lines = ensure_dictionaries()
    assert WordChange.objects.count() == 0
    assert en().version == 0
    assert not [line for line in lines if line.startswith("Dictionary")]


def test_ensure_dictionaries_keeps_moderators_removal(dictionaries: None, ana: Any, mia: Any) -> None:
    propose_change(language="en", word="zen", action="remove", proposed_by=ana).approve(by=mia)
    ensure_dictionaries()
    assert not en().word_is_valid("ZEN")
