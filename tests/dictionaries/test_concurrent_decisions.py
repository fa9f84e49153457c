"""Decisions from several threads at once (separate connections): the dictionary row
lock serialises them, so versions never collide and a change is decided once."""

from __future__ import annotations

import threading
from collections.abc import Callable
from functools import partial
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.db import connections

from dictionaries.models import Dictionary, WordChange
from dictionaries.services import ensure_dictionaries, propose_change


def run_together(actions: list[Callable[[], object]]) -> list[str]:
    """Run each action in its own thread (own database connection); return outcomes."""
    outcomes: list[str] = []
    start = threading.Barrier(len(actions))

    def worker(action: Callable[[], object]) -> None:
        try:
            start.wait()
            action()
            outcomes.append("ok")
        except ValidationError as error:
            outcomes.append(error.error_list[0].code or "invalid")
        finally:
            connections.close_all()

    threads = [threading.Thread(target=worker, args=(a,)) for a in actions]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    return sorted(outcomes)


@pytest.mark.django_db(transaction=True)
def test_concurrent_approvals_get_distinct_versions(ana: Any, mia: Any) -> None:
    ensure_dictionaries()
    start = Dictionary.objects.get(language="en").version
    changes = [
        propose_change(language="en", word=w, action="add", proposed_by=ana) for w in ("blorp", "frob")
    ]
    assert run_together([partial(c.approve, by=mia) for c in changes]) == ["ok", "ok"]
    versions = sorted(
        v
        for v in WordChange.objects.filter(pk__in=[c.pk for c in changes]).values_list("version", flat=True)
        if v
    )
    assert versions == [start + 1, start + 2]
    assert Dictionary.objects.get(language="en").version == start + 2


@pytest.mark.django_db(transaction=True)
def test_same_change_decided_twice_at_once_is_decided_once(ana: Any, mia: Any) -> None:
    ensure_dictionaries()
    change = propose_change(language="en", word="blorp", action="add", proposed_by=ana)
    start = Dictionary.objects.get(language="en").version
    copies = [WordChange.objects.get(pk=change.pk) for _ in range(2)]
    outcomes = run_together([lambda: copies[0].approve(by=mia), lambda: copies[1].reject(by=mia, reason="")])
    assert outcomes == ["already_decided", "ok"]
    change.refresh_from_db()
    assert Dictionary.objects.get(language="en").version == start + (change.status == "approved")


@pytest.mark.django_db(transaction=True)
def test_players_suggesting_one_word_at_once_make_one_change(ana: Any, ben: Any, cleo: Any) -> None:
    from dictionaries.services import suggest_word

    ensure_dictionaries()
    players = (ana, ben, cleo)
    outcomes = run_together([partial(suggest_word, user=p, language="en", word="blorp") for p in players])
    assert outcomes == ["ok", "ok", "ok"]
    change = WordChange.objects.get(normalized="BLORP")
    assert sorted(change.suggestions.values_list("user__username", flat=True)) == ["ana", "ben", "cleo"]


@pytest.mark.django_db(transaction=True)
def test_one_player_suggesting_past_the_limit_at_once_stays_within_it(ana: Any, settings: Any) -> None:
    from dictionaries.models import WordSuggestion
    from dictionaries.services import suggest_word

    settings.WORD_SUGGESTIONS_PER_DAY = 2
    ensure_dictionaries()
    words = ("blorp", "frob", "zorch", "quux")
    outcomes = run_together([partial(suggest_word, user=ana, language="en", word=w) for w in words])
    assert outcomes == ["ok", "ok", "too_many_suggestions", "too_many_suggestions"]
    assert WordSuggestion.objects.filter(user=ana).count() == 2
