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


def run_together(actions: list[Callable[[], None]]) -> list[str]:
    """Run each action in its own thread (own database connection); return outcomes."""
    outcomes: list[str] = []
    start = threading.Barrier(len(actions))

    def worker(action: Callable[[], None]) -> None:
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
