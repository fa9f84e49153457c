"""A player's coin statement: what the coins page shows, read in a few queries."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import QuerySet, Sum

from accounts.models import CoinEntry, User


@dataclass(frozen=True)
class Statement:
    balance: int
    earned: int
    spent: int  # a positive number of coins
    refunded: int
    adjusted: int  # signed: staff grants minus staff takes
    entries: QuerySet[CoinEntry]

    @property
    def total(self) -> int:
        """What the entries add up to; equal to ``balance`` (the ledger's invariant)."""
        return self.earned - self.spent + self.refunded + self.adjusted


def statement(user: User) -> Statement:
    """``user``'s statement as the database has it now (the balance re-read too)."""
    sums = dict(
        CoinEntry.objects.filter(user=user).values_list("kind").annotate(total=Sum("amount")).order_by()
    )
    balance = User.objects.filter(pk=user.pk).values_list("coins", flat=True).get()
    entries = CoinEntry.objects.filter(user=user).select_related("refund_of").order_by("-created_at", "-pk")
    return Statement(
        balance=balance,
        earned=sums.get(CoinEntry.Kind.EARNED, 0),
        spent=-sums.get(CoinEntry.Kind.SPENT, 0),
        refunded=sums.get(CoinEntry.Kind.REFUNDED, 0),
        adjusted=sums.get(CoinEntry.Kind.ADJUSTED, 0),
        entries=entries,
    )
