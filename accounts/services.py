"""Coins: the only code that writes the ledger and the balance on the user row.

Every function here opens a transaction (a savepoint inside the caller's) and locks the
player's row with ``select_for_update()`` before it reads the balance, so the entry
and the new balance are written together and concurrent spending can never take the
balance below zero. They work inside a caller's transaction, and a caller that also
locks other rows must respect the one lock order of the project:

    **the game row first, then the user row(s)** (several users in primary-key order).

So a purchase of a game extra locks its game, then calls ``spend_coins`` in the same
transaction. The balance is pushed to the player's open pages after the commit
(``accounts.realtime``); a rolled-back transaction pushes nothing.

A non-empty ``reference`` makes a call idempotent: the same (user, reason, reference)
again returns the entry made the first time and changes nothing, so a retried request
or a task run twice never pays or charges twice.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from accounts import realtime, reasons
from accounts.models import CoinEntry, User

MAX_AMOUNT = 1_000_000


class CoinError(ValueError):
    """A coins operation that cannot be done; nothing was changed."""


class NotEnoughCoins(CoinError):
    """The balance is smaller than what the operation takes; nothing was changed."""

    def __init__(self, *, balance: int, amount: int) -> None:
        self.balance = balance
        self.amount = amount
        super().__init__(f"needs {amount} coins, has {balance}")

    @property
    def message(self) -> str:
        """The refusal in the active interface language."""
        return gettext("This costs %(amount)d coins and you have %(balance)d.") % {
            "amount": self.amount,
            "balance": self.balance,
        }


def _check_amount(amount: int) -> None:
    if isinstance(amount, bool) or not isinstance(amount, int) or not 0 < amount <= MAX_AMOUNT:
        raise CoinError(f"an amount is a whole number from 1 to {MAX_AMOUNT}, got {amount!r}")


def _check_text(name: str, value: str, limit: int, *, required: bool) -> None:
    if not isinstance(value, str) or len(value) > limit or (required and not value.strip()):
        raise CoinError(f"{name} must be text of {'1' if required else '0'} to {limit} characters")


def _record(
    *,
    user: User,
    kind: str,
    amount: int,
    reason: str,
    reference: str = "",
    note: str = "",
    refund_of: CoinEntry | None = None,
    by: User | None = None,
) -> CoinEntry:
    """Lock ``user``'s row, write one entry and the new balance (see the module docstring)."""
    _check_text("reason", reason, 40, required=True)
    _check_text("reference", reference, 100, required=False)
    _check_text("note", note, 200, required=False)
    with transaction.atomic():
        locked = User.objects.select_for_update().get(pk=user.pk)
        if reference and kind != CoinEntry.Kind.REFUNDED:
            earlier = CoinEntry.objects.filter(user=locked, reason=reason, reference=reference).first()
            if earlier is not None:
                if earlier.amount != amount or earlier.kind != kind:
                    raise CoinError(f"reference {reference!r} was used for another {reason} entry")
                user.coins = locked.coins
                return earlier
        balance = locked.coins + amount
        if balance < 0:
            raise NotEnoughCoins(balance=locked.coins, amount=-amount)
        entry = CoinEntry.objects.create(
            user=locked,
            kind=kind,
            amount=amount,
            balance_after=balance,
            reason=reason,
            reference=reference,
            note=note,
            refund_of=refund_of,
            created_by=by,
        )
        User.objects.filter(pk=locked.pk).update(coins=balance)
        realtime.balance_changed(locked.pk)
    # The caller's instance shows the new balance too (header, later checks).
    user.coins = balance
    return entry


def grant_coins(*, user: User, amount: int, reason: str, reference: str = "") -> CoinEntry:
    """Give ``user`` ``amount`` coins they earned. Locks the user row (after any game row)."""
    _check_amount(amount)
    return _record(user=user, kind=CoinEntry.Kind.EARNED, amount=amount, reason=reason, reference=reference)


def spend_coins(*, user: User, amount: int, reason: str, reference: str = "") -> CoinEntry:
    """Take ``amount`` coins from ``user`` for ``reason`` and return the ledger entry.

    Raises ``NotEnoughCoins`` (nothing changed) when the balance is smaller. Locks the
    user row with ``select_for_update``; inside a caller's transaction that has locked
    a game, the game row must already be locked (lock order: game, then user).
    """
    _check_amount(amount)
    return _record(user=user, kind=CoinEntry.Kind.SPENT, amount=-amount, reason=reason, reference=reference)


def refund_coins(*, entry: CoinEntry) -> CoinEntry:
    """Give back the coins of a ``spend_coins`` entry, once: a second call returns the
    first refund. Locks the user row, like the others."""
    if entry.kind != CoinEntry.Kind.SPENT:
        raise CoinError("only spent coins can be refunded")
    user = User.objects.get(pk=entry.user_id)
    with transaction.atomic():
        # The lock is taken in _record; take it here first so that two refunds of one
        # entry see each other's row.
        User.objects.select_for_update().filter(pk=user.pk).first()
        done = CoinEntry.objects.filter(refund_of=entry).first()
        if done is not None:
            return done
        return _record(
            user=user,
            kind=CoinEntry.Kind.REFUNDED,
            amount=-entry.amount,
            reason=reasons.REFUND,
            reference=entry.reference,
            refund_of=entry,
        )


def adjust_coins(*, user: User, amount: int, note: str, by: User) -> CoinEntry:
    """A staff member gives (``amount`` > 0) or takes (< 0) coins, saying why.

    A take larger than the balance raises ``NotEnoughCoins`` and changes nothing.
    """
    if isinstance(amount, bool) or not isinstance(amount, int) or not 0 < abs(amount) <= MAX_AMOUNT:
        raise CoinError(f"an adjustment is a whole number from -{MAX_AMOUNT} to {MAX_AMOUNT}, not 0")
    _check_text("the reason", note, 200, required=True)
    return _record(
        user=user, kind=CoinEntry.Kind.ADJUSTED, amount=amount, reason=reasons.STAFF, note=note.strip(), by=by
    )


def grant_signup_coins(*, user: User) -> CoinEntry | None:
    """The welcome coins of a new account (``COINS_SIGNUP``), once per account."""
    if settings.COINS_SIGNUP <= 0:
        return None
    return grant_coins(user=user, amount=settings.COINS_SIGNUP, reason=reasons.SIGNUP, reference="signup")


def grant_daily_bonus(*, user: User, today: date | None = None) -> CoinEntry | None:
    """The daily bonus (``COINS_DAILY_BONUS``) for the UTC day ``today``, at most once a day.

    Returns ``None`` when ``user`` already had it that day. Two simultaneous first
    requests grant it once: the second waits for the user row lock, then sees the day
    recorded by the first (and the ledger's unique reference backs that up).
    """
    today = today or timezone.now().date()  # USE_TZ: now() is UTC
    if settings.COINS_DAILY_BONUS <= 0 or (user.last_daily_bonus and user.last_daily_bonus >= today):
        return None
    with transaction.atomic():
        locked = User.objects.select_for_update().get(pk=user.pk)
        if locked.last_daily_bonus and locked.last_daily_bonus >= today:
            user.last_daily_bonus = locked.last_daily_bonus
            return None
        User.objects.filter(pk=locked.pk).update(last_daily_bonus=today)
        entry = grant_coins(
            user=user,
            amount=settings.COINS_DAILY_BONUS,
            reason=reasons.DAILY_BONUS,
            reference=today.isoformat(),
        )
    user.last_daily_bonus = today
    return entry


def award_game_coins(
    *,
    players: Sequence[User | None],
    moves_by_player: Sequence[int],
    winner: User | None,
    reference: str,
) -> list[CoinEntry]:
    """Pay the players of a finished game; call it once the game is over, in its transaction.

    ``players`` are the seats in order (``None`` for a computer seat) and
    ``moves_by_player`` the moves each seat made (plays, exchanges and passes).
    When every seat made at least ``COINS_GAME_MIN_MOVES`` moves, each human player
    earns ``COINS_GAME_FINISHED`` and the winner ``COINS_GAME_WON`` on top; a game
    resigned or abandoned earlier pays nothing, to winner or loser. ``reference``
    (e.g. ``"game:42"``) makes a repeated call pay nothing more. The caller holds the
    game row lock; the players' rows are locked here, in primary-key order, so two
    games ending at once between the same players cannot deadlock.
    """
    if len(players) != len(moves_by_player) or len(players) < 2:
        raise CoinError("one move count per seat, and at least two seats")
    if not reference:
        raise CoinError("a finished game's coins need a reference (e.g. 'game:42')")
    if winner is not None and winner not in players:
        raise CoinError("the winner is not one of the players")
    if min(moves_by_player) < settings.COINS_GAME_MIN_MOVES:
        return []
    entries: list[CoinEntry] = []
    humans = sorted({p.pk: p for p in players if p is not None}.values(), key=lambda p: p.pk)
    for player in humans:
        if settings.COINS_GAME_FINISHED > 0:
            entries.append(
                grant_coins(
                    user=player,
                    amount=settings.COINS_GAME_FINISHED,
                    reason=reasons.GAME_FINISHED,
                    reference=reference,
                )
            )
        if winner is not None and player.pk == winner.pk and settings.COINS_GAME_WON > 0:
            entries.append(
                grant_coins(
                    user=player, amount=settings.COINS_GAME_WON, reason=reasons.GAME_WON, reference=reference
                )
            )
    return entries
