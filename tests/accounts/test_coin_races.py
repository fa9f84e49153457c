"""Concurrent spending on PostgreSQL (row locks, one connection per thread): the
balance never goes below zero and always equals the ledger's sum."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from datetime import date
from typing import Any

import pytest
from django.db import connection, transaction
from django.db.models import Sum

from accounts.models import CoinEntry, User
from accounts.services import NotEnoughCoins, grant_coins, grant_daily_bonus, refund_coins, spend_coins


def run_together(*calls: Callable[[], str]) -> list[str]:
    """Run ``calls`` in threads released at the same moment, each on its own connection."""
    barrier = threading.Barrier(len(calls))
    results: list[str] = [""] * len(calls)

    def worker(index: int, call: Callable[[], str]) -> None:
        try:
            barrier.wait()
            results[index] = call()
        except NotEnoughCoins:
            results[index] = "refused"
        finally:
            connection.close()

    threads = [threading.Thread(target=worker, args=(i, c)) for i, c in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return results


def ledger_sum(user: Any) -> int:
    return CoinEntry.objects.filter(user=user).aggregate(total=Sum("amount"))["total"] or 0


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_concurrent_purchases_never_overdraw(postgres: None, ana: Any) -> None:
    grant_coins(user=ana, amount=25, reason="test")

    def buy() -> str:
        # A fresh copy each time: every thread starts from a stale balance of 25.
        user = User.objects.get(pk=ana.pk)
        return str(spend_coins(user=user, amount=5, reason="extra:tile_bag").pk)

    results = run_together(*[buy] * 8)
    assert results.count("refused") == 3
    assert User.objects.get(pk=ana.pk).coins == 0 == ledger_sum(ana)
    assert CoinEntry.objects.filter(user=ana, kind=CoinEntry.Kind.SPENT).count() == 5


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_a_purchase_holds_the_user_row_until_the_callers_transaction_ends(postgres: None, ana: Any) -> None:
    """A spends inside its own transaction (as a game action does) and then rolls back;
    B, spending meanwhile, waits for A's lock and then sees the balance A left: all of it."""
    grant_coins(user=ana, amount=10, reason="test")
    a_has_spent, b_started = threading.Event(), threading.Event()

    class Abandoned(Exception):
        pass

    def a() -> str:
        try:
            with transaction.atomic():
                spend_coins(user=User.objects.get(pk=ana.pk), amount=7, reason="extra:hindsight")
                a_has_spent.set()
                b_started.wait(10)
                time.sleep(0.3)  # B is now blocked on the row lock
                raise Abandoned
        except Abandoned:
            return "rolled back"

    def b() -> str:
        a_has_spent.wait(10)
        b_started.set()
        started = time.monotonic()
        spend_coins(user=User.objects.get(pk=ana.pk), amount=9, reason="extra:word_strength")
        return f"waited {time.monotonic() - started:.1f}"

    results = run_together(a, b)
    assert results[0] == "rolled back"
    assert results[1].startswith("waited")
    assert float(results[1].split()[1]) >= 0.2
    assert User.objects.get(pk=ana.pk).coins == 1 == ledger_sum(ana)


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_spending_and_refunding_at_once_keep_balance_equal_to_sum(postgres: None, ana: Any) -> None:
    grant_coins(user=ana, amount=12, reason="test")
    bought = [spend_coins(user=ana, amount=4, reason=f"extra:{n}") for n in range(3)]

    def refund(entry: CoinEntry) -> Callable[[], str]:
        return lambda: str(refund_coins(entry=entry).pk)

    def buy() -> str:
        return str(spend_coins(user=User.objects.get(pk=ana.pk), amount=3, reason="extra:more").pk)

    results = run_together(refund(bought[0]), refund(bought[0]), refund(bought[1]), buy, buy, buy)
    assert results[0] == results[1]  # one refund of one purchase, however many ask
    final = User.objects.get(pk=ana.pk).coins
    assert final == ledger_sum(ana) >= 0
    assert CoinEntry.objects.filter(user=ana, kind=CoinEntry.Kind.REFUNDED).count() == 2


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_two_simultaneous_first_requests_grant_the_daily_bonus_once(
    postgres: None, ana: Any, settings: Any
) -> None:
    settings.COINS_DAILY_BONUS = 5
    day = date(2026, 11, 24)

    def first_request() -> str:
        entry = grant_daily_bonus(user=User.objects.get(pk=ana.pk), today=day)
        return "granted" if entry else "already"

    results = run_together(*[first_request] * 4)
    assert sorted(results) == ["already", "already", "already", "granted"]
    assert User.objects.get(pk=ana.pk).coins == 5 == ledger_sum(ana)
