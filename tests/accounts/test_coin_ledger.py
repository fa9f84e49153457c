"""The coins ledger: entries and balance written together, append-only, never below zero."""

from __future__ import annotations

from itertools import count
from typing import Any

import pytest
from django.db import IntegrityError, transaction
from django.db.models import Sum
from django.db.models.deletion import ProtectedError
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from accounts import reasons
from accounts.models import AppendOnlyError, CoinEntry, User
from accounts.services import (
    CoinError,
    NotEnoughCoins,
    adjust_coins,
    grant_coins,
    refund_coins,
    spend_coins,
)
from tests.factories import make_user


def ledger_sum(user: Any) -> int:
    return CoinEntry.objects.filter(user=user).aggregate(total=Sum("amount"))["total"] or 0


def balance(user: Any) -> int:
    return User.objects.get(pk=user.pk).coins


@pytest.mark.django_db
def test_grant_and_spend_write_an_entry_and_the_balance_together(ana: Any) -> None:
    grant_coins(user=ana, amount=30, reason="test", reference="r1")
    entry = spend_coins(user=ana, amount=12, reason="extra:tile_bag", reference="game:1:turn:3")
    assert entry.amount == -12
    assert entry.kind == CoinEntry.Kind.SPENT
    assert entry.balance_after == 18
    assert ana.coins == 18  # the caller's instance follows
    assert balance(ana) == 18 == ledger_sum(ana)


@pytest.mark.django_db
def test_spending_more_than_the_balance_is_refused_and_changes_nothing(ana: Any) -> None:
    grant_coins(user=ana, amount=4, reason="test")
    with pytest.raises(NotEnoughCoins) as refused:
        spend_coins(user=ana, amount=5, reason="extra:tile_bag")
    assert (refused.value.balance, refused.value.amount) == (4, 5)
    assert "5" in refused.value.message
    assert "4" in refused.value.message
    assert balance(ana) == 4
    assert CoinEntry.objects.filter(user=ana).count() == 1


@pytest.mark.django_db
def test_a_refusal_inside_the_callers_transaction_leaves_it_usable(ana: Any) -> None:
    grant_coins(user=ana, amount=3, reason="test")
    with transaction.atomic():
        with pytest.raises(NotEnoughCoins):
            spend_coins(user=ana, amount=10, reason="extra:hindsight")
        spend_coins(user=ana, amount=2, reason="extra:hindsight")
    assert balance(ana) == 1 == ledger_sum(ana)


@pytest.mark.django_db
def test_a_rolled_back_caller_takes_the_entry_and_the_balance_with_it(ana: Any) -> None:
    grant_coins(user=ana, amount=10, reason="test")

    class GameRefused(Exception):
        pass

    def purchase_then_refusal() -> None:
        with transaction.atomic():
            spend_coins(user=ana, amount=5, reason="extra:tile_bag")
            raise GameRefused

    with pytest.raises(GameRefused):
        purchase_then_refusal()
    assert balance(ana) == 10 == ledger_sum(ana)


@pytest.mark.django_db
@pytest.mark.parametrize("amount", [0, -3, 2.5, True, "5", 10_000_001])
def test_bad_amounts_are_refused(ana: Any, amount: Any) -> None:
    with pytest.raises(CoinError):
        grant_coins(user=ana, amount=amount, reason="test")
    with pytest.raises(CoinError):
        spend_coins(user=ana, amount=amount, reason="test")
    assert not CoinEntry.objects.exists()


@pytest.mark.django_db
def test_reason_and_reference_are_checked(ana: Any) -> None:
    with pytest.raises(CoinError):
        grant_coins(user=ana, amount=1, reason="")
    with pytest.raises(CoinError):
        grant_coins(user=ana, amount=1, reason="x" * 41)
    with pytest.raises(CoinError):
        grant_coins(user=ana, amount=1, reason="test", reference="r" * 101)
    assert not CoinEntry.objects.exists()


@pytest.mark.django_db
def test_the_same_reference_again_returns_the_first_entry(ana: Any) -> None:
    first = grant_coins(user=ana, amount=5, reason=reasons.GAME_FINISHED, reference="game:7")
    again = grant_coins(user=ana, amount=5, reason=reasons.GAME_FINISHED, reference="game:7")
    assert again.pk == first.pk
    assert balance(ana) == 5
    spent = spend_coins(user=ana, amount=2, reason="extra:tile_bag", reference="game:7:turn:2")
    assert spend_coins(user=ana, amount=2, reason="extra:tile_bag", reference="game:7:turn:2").pk == spent.pk
    assert balance(ana) == 3 == ledger_sum(ana)
    with pytest.raises(CoinError):  # same reference, different amount: a bug in the caller
        grant_coins(user=ana, amount=6, reason=reasons.GAME_FINISHED, reference="game:7")


@pytest.mark.django_db
def test_refund_gives_the_coins_back_once(ana: Any) -> None:
    grant_coins(user=ana, amount=10, reason="test")
    spent = spend_coins(user=ana, amount=5, reason="extra:tile_bag", reference="game:3:turn:1")
    refund = refund_coins(entry=spent)
    assert refund.kind == CoinEntry.Kind.REFUNDED
    assert refund.amount == 5
    assert refund.refund_of == spent
    assert refund.reference == spent.reference
    assert refund_coins(entry=spent).pk == refund.pk
    assert balance(ana) == 10 == ledger_sum(ana)
    with pytest.raises(CoinError):
        refund_coins(entry=refund)
    earned = CoinEntry.objects.filter(user=ana, kind=CoinEntry.Kind.EARNED).get()
    with pytest.raises(CoinError):
        refund_coins(entry=earned)


@pytest.mark.django_db
def test_two_purchases_with_one_reference_are_refunded_separately(ana: Any) -> None:
    grant_coins(user=ana, amount=20, reason="test")
    bag = spend_coins(user=ana, amount=5, reason="extra:tile_bag", reference="game:3:turn:1")
    strength = spend_coins(user=ana, amount=3, reason="extra:word_strength", reference="game:3:turn:1")
    refund_coins(entry=bag)
    refund_coins(entry=strength)
    assert balance(ana) == 20 == ledger_sum(ana)


@pytest.mark.django_db
def test_staff_adjustment_grants_and_takes_but_never_below_zero(ana: Any, mia: Any) -> None:
    entry = adjust_coins(user=ana, amount=8, note="Bug bounty", by=mia)
    assert (entry.kind, entry.reason, entry.note, entry.created_by) == (
        CoinEntry.Kind.ADJUSTED,
        reasons.STAFF,
        "Bug bounty",
        mia,
    )
    adjust_coins(user=ana, amount=-3, note="Duplicate grant", by=mia)
    with pytest.raises(NotEnoughCoins):
        adjust_coins(user=ana, amount=-6, note="Too much", by=mia)
    with pytest.raises(CoinError):
        adjust_coins(user=ana, amount=2, note="  ", by=mia)
    with pytest.raises(CoinError):
        adjust_coins(user=ana, amount=0, note="nothing", by=mia)
    assert balance(ana) == 5 == ledger_sum(ana)


@pytest.mark.django_db
def test_entries_are_never_edited_or_deleted(ana: Any) -> None:
    entry = grant_coins(user=ana, amount=5, reason="test")
    entry.amount = 500
    with pytest.raises(AppendOnlyError):
        entry.save()
    with pytest.raises(AppendOnlyError):
        entry.delete()
    with pytest.raises(AppendOnlyError):
        CoinEntry.objects.filter(pk=entry.pk).update(amount=500)
    with pytest.raises(AppendOnlyError):
        CoinEntry.objects.all().delete()
    # A player with entries is anonymised, not deleted: the ledger protects the row.
    with pytest.raises(ProtectedError):
        User.objects.get(pk=ana.pk).delete()
    assert CoinEntry.objects.get(pk=entry.pk).amount == 5


@pytest.mark.django_db
def test_the_database_refuses_a_negative_balance(ana: Any) -> None:
    with pytest.raises(IntegrityError), transaction.atomic():
        User.objects.filter(pk=ana.pk).update(coins=-1)


@pytest.mark.django_db
def test_the_database_refuses_an_entry_whose_sign_contradicts_its_kind(ana: Any) -> None:
    with pytest.raises(IntegrityError), transaction.atomic():
        CoinEntry.objects.create(user=ana, kind=CoinEntry.Kind.SPENT, amount=5, balance_after=5, reason="x")


# Operations a player's coins go through, in any order: (kind, amount or index).
OPERATIONS = st.lists(
    st.one_of(
        st.tuples(st.just("grant"), st.integers(1, 40)),
        st.tuples(st.just("spend"), st.integers(1, 40)),
        st.tuples(st.just("refund"), st.integers(0, 30)),
        st.tuples(st.just("staff"), st.integers(-40, 40).filter(bool)),
    ),
    max_size=30,
)
_usernames = count()


@pytest.mark.django_db
@hypothesis_settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(operations=OPERATIONS)
def test_any_sequence_keeps_balance_equal_to_the_sum_and_never_negative(
    mia: Any, operations: list[tuple[str, int]]
) -> None:
    user = make_user(f"prop{next(_usernames)}")
    expected = 0
    purchases: list[CoinEntry] = []
    refunded: set[int] = set()
    for kind, value in operations:
        entries_before = CoinEntry.objects.filter(user=user).count()
        try:
            if kind == "grant":
                grant_coins(user=user, amount=value, reason="test")
                expected += value
            elif kind == "spend":
                purchases.append(spend_coins(user=user, amount=value, reason="extra:test"))
                expected -= value
            elif kind == "staff":
                adjust_coins(user=user, amount=value, note="property test", by=mia)
                expected += value
            elif purchases:
                bought = purchases[value % len(purchases)]
                refund_coins(entry=bought)
                if bought.pk not in refunded:
                    refunded.add(bought.pk)
                    expected -= bought.amount
        except NotEnoughCoins:
            # Refused only when it really would go below zero, and then nothing changed.
            assert expected - value < 0 if kind == "spend" else expected + value < 0
            assert CoinEntry.objects.filter(user=user).count() == entries_before
        stored = balance(user)
        assert stored == expected == ledger_sum(user)
        assert stored >= 0
    last = CoinEntry.objects.filter(user=user).order_by("-pk").first()
    assert (last.balance_after if last else 0) == expected
