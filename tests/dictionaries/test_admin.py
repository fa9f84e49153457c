"""The moderators' admin: pages render, actions call the model methods, bulk propose."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.test import Client
from django.urls import reverse

from dictionaries import hooks
from dictionaries.models import WordChange
from dictionaries.services import propose_change
from tests.factories import make_user

pytestmark = pytest.mark.django_db

CHANGELIST = "admin:dictionaries_wordchange_changelist"
BULK = "admin:dictionaries_wordchange_bulk_propose"


@pytest.fixture
def no_usage_counter() -> Iterator[None]:
    """Run without the games app's counter, and put back whatever was registered."""
    saved = hooks._word_usage_counter
    hooks.register_word_usage_counter(None)
    yield
    hooks.register_word_usage_counter(saved)


def test_moderator_sees_changelist_with_normalised_form(client: Client, moderator: Any, ana: Any) -> None:
    propose_change(language="de", word="Straßen", action="add", proposed_by=ana)
    propose_change(language="en", word="zen", action="remove", proposed_by=ana).approve(by=moderator)
    client.force_login(moderator)
    response = client.get(reverse(CHANGELIST))
    assert response.status_code == 200
    assert "STRASSEN" in response.text
    assert "ZEN" in response.text  # decided changes show too
    assert reverse(BULK) in response.text


def test_changelist_search_and_filter(client: Client, moderator: Any, ana: Any) -> None:
    propose_change(language="fr", word="blorp", action="add", proposed_by=ana)
    propose_change(language="en", word="texting", action="remove", proposed_by=ana).approve(by=moderator)
    client.force_login(moderator)
    found = client.get(reverse(CHANGELIST), {"q": "blorp"})
    assert "BLORP" in found.text
    assert "TEXTING" not in found.text
    approved = client.get(reverse(CHANGELIST), {"status__exact": "approved"})
    assert "TEXTING" in approved.text
    assert "BLORP" not in approved.text


def test_non_staff_user_cannot_reach_admin(client: Client, cleo: Any) -> None:
    client.force_login(cleo)
    response = client.get(reverse(CHANGELIST))
    assert response.status_code == 302
    assert reverse("admin:login") in response["Location"]


def test_staff_without_moderators_group_is_forbidden(client: Client, dictionaries: None) -> None:
    client.force_login(make_user("sam", is_staff=True))
    assert client.get(reverse(CHANGELIST)).status_code == 403
    assert client.get(reverse(BULK)).status_code == 403


def test_moderator_approves_via_admin_action(client: Client, moderator: Any, ana: Any) -> None:
    change = propose_change(language="en", word="blorp", action="add", proposed_by=ana)
    client.force_login(moderator)
    response = client.post(
        reverse(CHANGELIST), {"action": "approve_changes", ACTION_CHECKBOX_NAME: [change.pk]}, follow=True
    )
    assert response.status_code == 200
    change.refresh_from_db()
    assert (change.status, change.decided_by, change.version) == ("approved", moderator, 1)
    assert "1 word change decided" in response.text


def test_approve_action_reports_stale_proposal(client: Client, moderator: Any, ana: Any) -> None:
    change = propose_change(language="en", word="blorp", action="add", proposed_by=ana)
    change.approve(by=moderator)
    client.force_login(moderator)
    response = client.post(
        reverse(CHANGELIST), {"action": "approve_changes", ACTION_CHECKBOX_NAME: [change.pk]}, follow=True
    )
    assert "already approved" in response.text
    assert "0 word changes decided" in response.text


def test_moderator_rejects_with_reason_in_two_steps(client: Client, moderator: Any, ana: Any) -> None:
    change = propose_change(language="en", word="blorp", action="add", proposed_by=ana)
    client.force_login(moderator)
    data = {"action": "reject_changes", ACTION_CHECKBOX_NAME: [change.pk]}
    confirm = client.post(reverse(CHANGELIST), data)
    assert confirm.status_code == 200
    assert "Reason for the rejection" in confirm.text
    change.refresh_from_db()
    assert change.status == "proposed"
    client.post(reverse(CHANGELIST), {**data, "apply": "1", "reason": "made up"})
    change.refresh_from_db()
    assert (change.status, change.decision_note, change.decided_by) == ("rejected", "made up", moderator)


def test_moderator_adds_proposal_through_add_form(client: Client, moderator: Any) -> None:
    from dictionaries.models import Dictionary

    client.force_login(moderator)
    url = reverse("admin:dictionaries_wordchange_add")
    assert client.get(url).status_code == 200
    es = Dictionary.objects.get(language="es")
    refused = client.post(url, {"dictionary": es.pk, "word": "kiwi", "action": "add", "reason": ""})
    assert refused.status_code == 200
    assert "cannot be a word in Spanish" in refused.text
    client.post(url, {"dictionary": es.pk, "word": "perro", "action": "add", "reason": "common"})
    change = WordChange.objects.get(normalized="PERRO")
    assert (change.proposed_by, change.status, change.dictionary) == (moderator, "proposed", es)


def test_bulk_propose_creates_changes_and_reports_invalid(client: Client, moderator: Any) -> None:
    client.force_login(moderator)
    assert client.get(reverse(BULK)).status_code == 200
    response = client.post(
        reverse(BULK),
        {"language": "en", "action": "add", "words": "blorp\nfrobs, x-ray\ncat\n", "reason": "batch"},
    )
    assert response.status_code == 200
    assert "2 proposals created" in response.text
    assert "2 words refused" in response.text
    assert "x-ray" in response.text
    created = WordChange.objects.filter(reason="batch")
    assert {(c.normalized, c.proposed_by, c.status) for c in created} == {
        ("BLORP", moderator, "proposed"),
        ("FROBS", moderator, "proposed"),
    }


def test_removal_shows_dash_without_usage_counter(
    client: Client, moderator: Any, ana: Any, no_usage_counter: None
) -> None:
    change = propose_change(language="en", word="dog", action="remove", proposed_by=ana)
    client.force_login(moderator)
    response = client.get(reverse("admin:dictionaries_wordchange_change", args=[change.pk]))
    assert response.status_code == 200
    assert "—" in response.text


def test_removal_shows_count_from_registered_counter(
    client: Client, moderator: Any, ana: Any, no_usage_counter: None
) -> None:
    calls: list[tuple[str, str]] = []

    def counter(language: str, word: str) -> int:
        calls.append((language, word))
        return 42

    hooks.register_word_usage_counter(counter)
    propose_change(language="en", word="dog", action="remove", proposed_by=ana)
    client.force_login(moderator)
    response = client.get(reverse(CHANGELIST), {"action__exact": "remove"})
    assert ("en", "DOG") in calls
    assert '<td class="field-games_played">42</td>' in response.text


def test_dictionary_changelist_is_read_only_for_moderator(client: Client, moderator: Any) -> None:
    client.force_login(moderator)
    response = client.get(reverse("admin:dictionaries_dictionary_changelist"))
    assert response.status_code == 200
    assert "pt-BR" in response.text or "Portuguese" in response.text
    assert client.get(reverse("admin:dictionaries_dictionary_add")).status_code == 403
