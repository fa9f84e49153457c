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

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError, connection, transaction
from django.db.models import Q, QuerySet
from django.db.models.functions import Lower
from django.utils import timezone
from django.utils.functional import Promise
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from accounts import glicko2, hooks, realtime, reasons
from accounts.models import (
    CORRESPONDENCE,
    Block,
    CoinEntry,
    Friendship,
    ModerationAction,
    Notice,
    Rating,
    RatingChange,
    Report,
    User,
    VacationPeriod,
)

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


#: Names nobody may sign up with (case-insensitive): they mean something in the new-game form.
RESERVED_USERNAMES = frozenset({"computer", "random"})


#: The leaderboard lists players with a rated game in this many days.
LEADERBOARD_ACTIVE_DAYS = 30


MESSAGES: dict[str, Promise] = {
    "self": _("That is you."),
    "unknown_player": _("There is no player with that name."),
    "blocked": _("You cannot do that with this player."),
    "already_friends": _("You are already friends."),
    "no_request": _("There is no such friend request."),
    "already_reported": _("You have already reported this player; the moderators will look at it."),
    "on_vacation": _("You are already on vacation."),
    "no_vacation_left": _("You have used all your vacation days for this year."),
    "not_on_vacation": _("You are not on vacation."),
    "unfinished_games": _("Finish or resign your games first (invitations and waiting games too)."),
}


class AccountError(Exception):
    """A refused player action; ``message`` is translated for the user."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code

    @property
    def message(self) -> str:
        return str(MESSAGES[self.code])


def lock_users(*users: User) -> None:
    """Lock the users' rows, lowest id first (call inside a transaction). ``FOR NO KEY
    UPDATE`` where the database has it, so rows pointing at a user can still be inserted."""
    no_key = connection.features.has_select_for_no_key_update
    ids = sorted({u.pk for u in users})
    list(User.objects.select_for_update(no_key=no_key).filter(pk__in=ids).order_by("pk").values_list("pk"))


def blocked_ids(user: Any) -> QuerySet[User, int]:
    """The ids of players ``user`` blocked or was blocked by, as a subquery for ``__in``."""
    if not getattr(user, "is_authenticated", False):
        return User.objects.none().values_list("pk", flat=True)
    return User.objects.filter(
        Q(pk__in=Block.objects.filter(blocker=user).values("blocked"))
        | Q(pk__in=Block.objects.filter(blocked=user).values("blocker"))
    ).values_list("pk", flat=True)


def is_blocked(a: Any, b: Any) -> bool:
    """True when either player blocked the other: no chat, invitations or pairings."""
    return Block.objects.filter(Q(blocker=a, blocked=b) | Q(blocker=b, blocked=a)).exists()


def block_user(*, blocker: User, blocked: User) -> Block:
    """Block ``blocked`` (again is harmless); any friendship or request between them ends."""
    if blocker.pk == blocked.pk:
        raise AccountError("self")
    with transaction.atomic():
        lock_users(blocker, blocked)
        block, _created = Block.objects.get_or_create(blocker=blocker, blocked=blocked)
        _friendships(blocker, blocked).delete()
    return block


def unblock_user(*, blocker: User, blocked: User) -> None:
    Block.objects.filter(blocker=blocker, blocked=blocked).delete()


def _friendships(a: User, b: User) -> QuerySet[Friendship]:
    return Friendship.objects.filter(Q(from_user=a, to_user=b) | Q(from_user=b, to_user=a))


def friends_of(user: User) -> QuerySet[User]:
    accepted = Friendship.objects.filter(status=Friendship.Status.ACCEPTED)
    return User.objects.filter(
        Q(pk__in=accepted.filter(from_user=user).values("to_user"))
        | Q(pk__in=accepted.filter(to_user=user).values("from_user")),
        is_active=True,
    ).order_by(Lower("username"))


def friendship_status(user: User, other: User) -> str:
    """``"friends"``, ``"sent"`` (user asked), ``"received"`` (other asked) or ``""``."""
    for friendship in _friendships(user, other):
        if friendship.status == Friendship.Status.ACCEPTED:
            return "friends"
        return "sent" if friendship.from_user_id == user.pk else "received"
    return ""


def request_friend(*, user: User, other: User) -> Friendship:
    """Ask ``other`` to be friends. If ``other`` had already asked, they are friends now;
    asking twice returns the same request. Refused for oneself, a deleted account, or a
    player either of them blocked."""
    if other.pk == user.pk:
        raise AccountError("self")
    if not other.is_active:
        raise AccountError("unknown_player")
    with transaction.atomic():
        # Both rows locked: two players asking each other at once make one friendship.
        lock_users(user, other)
        if is_blocked(user, other):
            raise AccountError("blocked")
        existing = _friendships(user, other).first()
        if existing is None:
            friendship = Friendship.objects.create(from_user=user, to_user=other)
            hooks.friend_requested(from_user=user, to_user=other)
            return friendship
        if existing.status == Friendship.Status.ACCEPTED:
            raise AccountError("already_friends")
        if existing.from_user_id == other.pk:
            existing.status = Friendship.Status.ACCEPTED
            existing.accepted_at = timezone.now()
            existing.save(update_fields=["status", "accepted_at"])
        return existing


def accept_friend(*, user: User, other: User) -> Friendship:
    """Accept ``other``'s pending request."""
    with transaction.atomic():
        lock_users(user, other)
        request = Friendship.objects.filter(
            from_user=other, to_user=user, status=Friendship.Status.PENDING
        ).first()
        if request is None:
            raise AccountError("no_request")
        request.status = Friendship.Status.ACCEPTED
        request.accepted_at = timezone.now()
        request.save(update_fields=["status", "accepted_at"])
    return request


def end_friendship(*, user: User, other: User) -> None:
    """Decline a request, withdraw one, or stop being friends: whatever is between them."""
    if not _friendships(user, other).delete()[0]:
        raise AccountError("no_request")


def report_user(
    *, reporter: User, reported: User, reason: str, details: str = "", game_id: int | None = None
) -> Report:
    """File a report for the moderators. One open report per reporter and player."""
    if reporter.pk == reported.pk:
        raise AccountError("self")
    if Report.objects.filter(reporter=reporter, reported=reported, resolved=False).exists():
        raise AccountError("already_reported")
    return Report.objects.create(
        reporter=reporter, reported=reported, reason=reason, details=details.strip(), game_id=game_id
    )


def file_system_report(
    *, reported: User, reason: str, language: str, figures: dict[str, Any], game_id: int | None = None
) -> Report | None:
    """File a report for the moderators as the site itself (no reporter; ``by_system``)
    about ``reported`` in one game ``language``, carrying the ``figures`` behind it.

    At most one such report is open per player and language: returns None when one is
    open already (a unique constraint holds this when two reviews race)."""
    if Report.objects.filter(reported=reported, language=language, by_system=True, resolved=False).exists():
        return None
    try:
        with transaction.atomic():
            return Report.objects.create(
                reporter=None,
                reported=reported,
                reason=reason,
                language=language,
                by_system=True,
                figures=figures,
                game_id=game_id,
            )
    except IntegrityError:  # filed meanwhile by a concurrent review
        return None


def resolve_reports(*, reports: Iterable[Report], moderator: User, note: str = "") -> int:
    """Mark ``reports`` resolved by ``moderator``; already resolved ones are left as they were.

    Each resolution is logged (``ModerationAction``) and its reporter is told, in the
    same transaction as the report's change."""
    from accounts.moderation import record
    from accounts.notices import notify

    now = timezone.now()
    done = 0
    for report in reports:
        if report.resolved:
            continue
        report.resolved, report.resolved_by, report.resolved_at = True, moderator, now
        if note:
            report.moderator_note = note
        with transaction.atomic():
            report.save(update_fields=["resolved", "resolved_by", "resolved_at", "moderator_note"])
            record(
                moderator=moderator,
                subject=report.reported,
                kind=ModerationAction.Kind.REPORT_RESOLVED,
                reason=report.moderator_note,
                game_id=report.game_id,
                report=report,
            )
            if report.reporter is not None:
                notify(
                    user=report.reporter, kind=Notice.Kind.REPORT_RESOLVED, player=report.reported.username
                )
        done += 1
    return done


def apply_rated_result(
    *,
    language: str,
    player: User,
    opponent: User,
    score: float,
    reference: str,
    at: datetime | None = None,
    speed: str = CORRESPONDENCE,
) -> tuple[RatingChange, RatingChange]:
    """Rate one game: ``player`` scored ``score`` (1 win, 0.5 draw, 0 loss) against
    ``opponent`` in ``language`` at ``speed`` (live and correspondence are rated apart). Both ratings are updated from their values before the
    game (Glicko-2, one game a rating period, the deviation first widened for the time
    since each player's last rated game) and a history row is written for each.

    Idempotent per ``reference``: when it was applied already, the rows written then are
    returned and nothing changes. Opens a transaction and locks both rating rows
    (lower user id first); a caller holding the game row keeps the lock order.
    """
    if player.pk == opponent.pk:
        raise ValueError("a player cannot be rated against themselves")
    if score not in (0, 0.5, 1):
        raise ValueError(f"score must be 0, 0.5 or 1, not {score!r}")
    at = at or timezone.now()
    with transaction.atomic():
        for user in (player, opponent):
            Rating.objects.get_or_create(user=user, language=language, speed=speed)
        rows = {
            r.user_id: r
            for r in Rating.objects.select_for_update()
            .filter(language=language, speed=speed, user__in=[player.pk, opponent.pk])
            .order_by("user_id")
        }
        done = {c.user_id: c for c in RatingChange.objects.filter(reference=reference)}
        if len(done) == 2:
            return done[player.pk], done[opponent.pk]
        period = timedelta(days=settings.RATING_PERIOD_DAYS)
        before = {uid: _aged(row, at, period) for uid, row in rows.items()}
        changes = []
        for user, other, result in ((player, opponent, score), (opponent, player, 1 - score)):
            new = glicko2.rate(before[user.pk], [glicko2.Result(before[other.pk], result)])
            row = rows[user.pk]
            changes.append(
                RatingChange(
                    user=user,
                    language=language,
                    speed=speed,
                    opponent=other,
                    score=result,
                    rating_before=row.rating,
                    rating_after=new.rating,
                    deviation_after=new.deviation,
                    volatility_after=new.volatility,
                    reference=reference,
                    created_at=at,
                )
            )
            row.rating, row.deviation, row.volatility = new.rating, new.deviation, new.volatility
            row.games += 1
            row.last_played_at = max(row.last_played_at or at, at)
        for row in rows.values():
            row.save()
        RatingChange.objects.bulk_create(changes)
    return changes[0], changes[1]


def _aged(row: Rating, at: datetime, period: timedelta) -> glicko2.Rating:
    if row.last_played_at is None or at <= row.last_played_at:
        return row.as_glicko()
    return glicko2.age(row.as_glicko(), (at - row.last_played_at) / period)


def leaderboard(
    language: str, *, speed: str = CORRESPONDENCE, now: datetime | None = None, limit: int = 50
) -> QuerySet[Rating]:
    """The top rated players of ``language`` at ``speed`` with a rated game in the last 30 days."""
    since = (now or timezone.now()) - timedelta(days=LEADERBOARD_ACTIVE_DAYS)
    return (
        Rating.objects.filter(language=language, speed=speed, last_played_at__gte=since, user__is_active=True)
        .select_related("user")
        .order_by("-rating", "deviation", "user__username")[:limit]
    )


@dataclass(frozen=True)
class VacationStatus:
    allowance_days: int
    used: timedelta
    remaining: timedelta
    current: VacationPeriod | None

    @property
    def on_vacation(self) -> bool:
        return self.current is not None


def overlap_seconds(periods: Iterable[tuple[datetime, datetime]], start: datetime, end: datetime) -> float:
    """Seconds of [start, end] covered by the ``periods`` (each a [from, to] pair; they
    do not overlap one another). Pure."""
    total = 0.0
    for low, high in periods:
        total += max(0.0, (min(high, end) - max(low, start)).total_seconds())
    return total


def paused_seconds(user: Any, start: datetime, end: datetime) -> float:
    """How long ``user``'s clocks stood still between ``start`` and ``end`` (vacations).

    For the turn clock: a deadline set at ``start`` moves later by this much, measured
    up to now. An ongoing vacation counts up to the earlier of ``end`` and its last day.
    """
    if user is None or end <= start:
        return 0.0
    periods = VacationPeriod.objects.filter(user=user, started_at__lt=end, ends_by__gt=start)
    return overlap_seconds(((p.started_at, p.effective_end) for p in periods), start, end)


def on_vacation(user: Any, now: datetime | None = None) -> VacationPeriod | None:
    """The vacation ``user`` is on at ``now``, if any."""
    return next(iter(on_vacation_now([user], now)), None)


def on_vacation_now(users: Iterable[Any], now: datetime | None = None) -> list[VacationPeriod]:
    """The vacations ``users`` are on at ``now`` (one query for several players)."""
    now = now or timezone.now()
    return list(
        VacationPeriod.objects.filter(user__in=list(users), started_at__lte=now, ends_by__gt=now).filter(
            Q(ended_at__isnull=True) | Q(ended_at__gt=now)
        )
    )


def vacation_status(user: User, now: datetime | None = None) -> VacationStatus:
    """The allowance of the calendar year (UTC) of ``now``, used and left. A vacation
    counts in the year it started."""
    now = now or timezone.now()
    year_start = datetime(now.year, 1, 1, tzinfo=UTC)
    allowance = timedelta(days=settings.VACATION_DAYS_PER_YEAR)
    used = timedelta()
    for period in VacationPeriod.objects.filter(user=user, started_at__gte=year_start, started_at__lte=now):
        used += min(period.effective_end, now) - period.started_at
    return VacationStatus(
        allowance_days=settings.VACATION_DAYS_PER_YEAR,
        used=used,
        remaining=max(timedelta(), allowance - used),
        current=on_vacation(user, now),
    )


def start_vacation(*, user: User, now: datetime | None = None) -> VacationPeriod:
    """Go on vacation until coming back, for at most what is left of the year's days."""
    now = now or timezone.now()
    with transaction.atomic():
        lock_users(user)
        status = vacation_status(user, now)
        if status.on_vacation:
            raise AccountError("on_vacation")
        if status.remaining <= timedelta(minutes=1):
            raise AccountError("no_vacation_left")
        return VacationPeriod.objects.create(user=user, started_at=now, ends_by=now + status.remaining)


def end_vacation(*, user: User, now: datetime | None = None) -> VacationPeriod:
    now = now or timezone.now()
    with transaction.atomic():
        lock_users(user)
        current = on_vacation(user, now)
        if current is None:
            raise AccountError("not_on_vacation")
        current.ended_at = now
        current.save(update_fields=["ended_at"])
    return current


def delete_account(*, user: User, resign_all: bool = False) -> User:
    """Anonymise ``user``: the row stays (as "deleted player N") so that finished games
    and ledger entries keep their player, and everything personal goes: names, e-mail,
    password, languages, friends, blocks, vacations, and what other apps erase through
    ``accounts.hooks``. Refused while games are still going (``unfinished_games``), unless
    ``resign_all``: then every game in the way is resigned, declined or cancelled first
    (each in its own transaction, before the user row is locked)."""
    if resign_all:
        for _name, provider in hooks.providers():
            provider.give_up(user)
    with transaction.atomic():
        lock_users(user)
        if any(provider.unfinished(user) for _name, provider in hooks.providers()):
            raise AccountError("unfinished_games")
        for _name, provider in hooks.providers():
            provider.erase(user)
        Friendship.objects.filter(Q(from_user=user) | Q(to_user=user)).delete()
        Block.objects.filter(Q(blocker=user) | Q(blocked=user)).delete()
        VacationPeriod.objects.filter(user=user).delete()
        # The moderation log keeps its entries (ModerationAction): they point at this
        # row, which stays, anonymised. The notices were for the player alone.
        Notice.objects.filter(user=user).delete()
        user.username = f"deleted player {user.pk}"
        user.display_name = user.first_name = user.last_name = user.email = ""
        user.game_language = user.interface_language = ""
        user.verified_email = user.time_zone = ""
        user.quiet_hours_start = user.quiet_hours_end = None
        user.is_active = user.is_staff = user.is_superuser = False
        user.deleted_at = timezone.now()
        user.set_unusable_password()
        user.save()
        user.groups.clear()
        user.user_permissions.clear()
    return user


def _when(value: datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


KEPT_ANONYMISED = "kept: the row stays, pointing at the anonymised account"
NOT_THEIRS = "not in the export: "

#: What "download my data" (``export_data``) and ``delete_account`` do with each
#: reference to the user held by accounts' models and Django's (the other apps declare
#: theirs with their ``accounts.hooks`` provider).
ACCOUNT_COVERAGE: dict[str, hooks.Coverage] = {
    "accounts.CoinEntry.user": hooks.Coverage(
        "coins.ledger", f"{KEPT_ANONYMISED} (the ledger is append-only)"
    ),
    "accounts.CoinEntry.created_by": hooks.Coverage(
        NOT_THEIRS + "the staff member who adjusted someone's coins", KEPT_ANONYMISED
    ),
    "accounts.Friendship.from_user": hooks.Coverage("friends", "deleted"),
    "accounts.Friendship.to_user": hooks.Coverage("friends", "deleted"),
    "accounts.Block.blocker": hooks.Coverage("blocked", "deleted"),
    "accounts.Block.blocked": hooks.Coverage(NOT_THEIRS + "who blocked them is the blocker's", "deleted"),
    "accounts.UsernameRename.user": hooks.Coverage(
        "not in the export: the admin's record of a rename (the username itself is exported)",
        "kept: the admin's record of the rename (the account is anonymised, not removed)",
    ),
    "accounts.UsernameRename.kept_by": hooks.Coverage(
        NOT_THEIRS + "another account's rename, naming the older account that kept the name", "set to none"
    ),
    "accounts.Report.reporter": hooks.Coverage("reports_made", KEPT_ANONYMISED + " (the moderators' record)"),
    "accounts.Report.reported": hooks.Coverage(
        NOT_THEIRS + "a report about them is the reporter's", KEPT_ANONYMISED + " (the moderators' record)"
    ),
    "accounts.Report.resolved_by": hooks.Coverage(NOT_THEIRS + "a moderator's work", KEPT_ANONYMISED),
    "accounts.Rating.user": hooks.Coverage("ratings", KEPT_ANONYMISED + " (opponents' ratings came from it)"),
    "accounts.RatingChange.user": hooks.Coverage("rating_history", KEPT_ANONYMISED),
    "accounts.RatingChange.opponent": hooks.Coverage("rating_history", KEPT_ANONYMISED),
    "accounts.VacationPeriod.user": hooks.Coverage("vacations", "deleted"),
    "accounts.ModerationAction.subject": hooks.Coverage(
        "moderation", KEPT_ANONYMISED + " (the moderation log)"
    ),
    "accounts.ModerationAction.moderator": hooks.Coverage(
        NOT_THEIRS + "a moderator's work on others", KEPT_ANONYMISED + " (the moderation log)"
    ),
    "accounts.Notice.user": hooks.Coverage("notices", "deleted"),
    "admin.LogEntry.user": hooks.Coverage(NOT_THEIRS + "the staff's admin log", KEPT_ANONYMISED),
}


def data_coverage() -> dict[str, hooks.Coverage]:
    """Every reference to a user the export and the deletion account for."""
    return {**ACCOUNT_COVERAGE, **hooks.coverage()}


def export_data(user: User) -> dict[str, Any]:
    """Everything the site holds about ``user`` that is theirs, as JSON-ready values.
    Other players' private data (their racks, their reports) is not in it."""
    friendships = Friendship.objects.filter(Q(from_user=user) | Q(to_user=user)).select_related(
        "from_user", "to_user"
    )
    data: dict[str, Any] = {
        "format": "wordgame-player-data/1",
        "exported_at": timezone.now().isoformat(),
        "account": {
            "username": user.username,
            "display_name": user.display_name,
            "email": user.email,
            "first_name": user.first_name,
            "last_name": user.last_name,
            "date_joined": _when(user.date_joined),
            "last_login": _when(user.last_login),
            "game_language": user.game_language,
            "interface_language": user.interface_language,
        },
        "ratings": [
            {
                "language": r.language,
                "speed": r.speed,
                "rating": round(r.rating, 2),
                "deviation": round(r.deviation, 2),
                "volatility": r.volatility,
                "games": r.games,
            }
            for r in Rating.objects.filter(user=user).order_by("language", "speed")
        ],
        "rating_history": [
            {
                "language": c.language,
                "speed": c.speed,
                "opponent": str(c.opponent) if c.opponent else None,
                "score": c.score,
                "rating_before": round(c.rating_before, 2),
                "rating_after": round(c.rating_after, 2),
                "reference": c.reference,
                "at": _when(c.created_at),
            }
            for c in RatingChange.objects.filter(user=user).select_related("opponent")
        ],
        "friends": [
            {
                "player": str(f.to_user if f.from_user_id == user.pk else f.from_user),
                "status": f.status,
                "asked_by_me": f.from_user_id == user.pk,
                "since": _when(f.accepted_at or f.created_at),
            }
            for f in friendships
        ],
        "blocked": [
            {"player": str(b.blocked), "since": _when(b.created_at)}
            for b in Block.objects.filter(blocker=user).select_related("blocked")
        ],
        "reports_made": [
            {
                "player": str(r.reported),
                "reason": r.reason,
                "details": r.details,
                "game": r.game_id,
                "at": _when(r.created_at),
                "resolved": r.resolved,
            }
            for r in Report.objects.filter(reporter=user).select_related("reported")
        ],
        "vacations": [
            {
                "started_at": _when(v.started_at),
                "ended_at": _when(v.ended_at),
                "ends_by": _when(v.ends_by),
            }
            for v in VacationPeriod.objects.filter(user=user)
        ],
        "settings": {
            "chat_enabled": user.chat_enabled,
            "game_language": user.game_language,
            "interface_language": user.interface_language,
            "display_name": user.display_name,
            "is_bot": user.is_bot,
        },
        "coins": {
            "balance": user.coins,
            "last_daily_bonus": user.last_daily_bonus.isoformat() if user.last_daily_bonus else None,
            "ledger": [
                {
                    "at": _when(e.created_at),
                    "kind": e.kind,
                    "amount": e.amount,
                    "balance_after": e.balance_after,
                    "reason": e.reason,
                    "reference": e.reference,
                    "note": e.note,
                    "refund_of": e.refund_of_id,
                    "id": e.pk,
                }
                for e in CoinEntry.objects.filter(user=user).order_by("created_at", "pk")
            ],
        },
        "notices": [
            {
                "kind": n.kind,
                "details": n.params,
                "at": _when(n.created_at),
                "read_at": _when(n.acknowledged_at),
            }
            for n in Notice.objects.filter(user=user).order_by("created_at", "pk")
        ],
        # What the moderators did about this player (who did it is the moderators' own).
        "moderation": [
            {"action": m.kind, "reason": m.reason, "until": _when(m.until), "game": m.game_id}
            for m in ModerationAction.objects.filter(subject=user).order_by("pk")
        ],
    }
    for name, provider in hooks.providers():
        data[name] = provider.export(user)
    return data
