"""Who may take which action on a game, now: the one rule table.

``Game.act`` asks :func:`refusal` before it applies anything, and the page's "may I
play / resign / accept / cancel" flags come from :func:`allowed_actions` on the same
table, so the two can never disagree. A rule returns None (allowed) or the code of
the refusal (``games.messages`` has the sentence for each; ``not_your_turn`` and
``game_over`` are the engine's own codes).

Every rule takes who the actor is to the game as resolved once (``games.pov.Pov``):
nothing here works a seat out again. The game is passed in, never imported
(``games.models`` imports this module). The engine still checks its own rules (tiles,
words, bag) when the action is applied.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Protocol

from django.conf import settings

from accounts.moderation import chat_muted_until, suspended_until
from accounts.services import is_blocked, paused_seconds
from engine import errors
from games import extras
from games.actions import ACTION_KINDS, Action
from games.pov import Pov

if TYPE_CHECKING:
    from accounts.models import User


class Game(Protocol):
    """What the rules read of a game (``games.models.Game``, which imports this module:
    the rules name no model)."""

    @property
    def status(self) -> str: ...
    @property
    def turn_seat(self) -> int | None: ...
    @property
    def turn_deadline(self) -> datetime | None: ...
    @property
    def vacation_pauses(self) -> bool: ...
    @property
    def inactivity_days(self) -> int: ...
    @property
    def state(self) -> object: ...
    @property
    def created_by(self) -> User: ...
    @property
    def created_by_id(self) -> int: ...
    @property
    def extras_allowed(self) -> bool: ...
    @property
    def warn_before_timeout(self) -> bool: ...
    @property
    def deadline_extended(self) -> bool: ...
    @property
    def turn_noticed_at(self) -> datetime | None: ...
    @property
    def speed(self) -> str: ...
    @property
    def turn_started_at(self) -> datetime | None: ...
    @property
    def awaiting_first_move(self) -> bool: ...
    def seat_user(self, index: int) -> User | None: ...
    def seat_list(self) -> Sequence[RuleSeat]: ...


class RuleSeat(Protocol):
    @property
    def user_id(self) -> int | None: ...
    @property
    def user(self) -> User | None: ...


# Game statuses, as stored (``Game.Status``).
INVITED, OPEN, ACTIVE, FINISHED, DECLINED = "invited", "open", "active", "finished", "declined"
ABORTED = "aborted"

Rule = Callable[[Game, Pov, datetime], "str | None"]


def _not_on(game: Game) -> str | None:
    """Why nothing can be played in this game now, if anything."""
    if game.status in (INVITED, OPEN):
        return "not_started"
    if game.status == DECLINED:
        return "declined"
    if game.status == ABORTED:
        return "aborted"
    if game.status == FINISHED:
        return errors.GAME_OVER
    return None


def _flag_fell(game: Game, pov: Pov, now: datetime) -> str | None:
    """In a live game whose clock to move ran out at ``now`` (its flag, ``turn_deadline``,
    is past: the task acting on it may not have run yet), nothing but the flag may act:
    ``time_up`` for the player whose time it was, ``clock_flag`` for anyone else."""
    if (
        game.speed != "live"
        or game.status != ACTIVE
        or game.turn_deadline is None
        or game.turn_deadline > now
    ):
        return None
    return "time_up" if pov.seat == game.turn_seat else "clock_flag"


def _turn(game: Game, pov: Pov, now: datetime) -> str | None:
    """A seated player (or the computer) whose turn it is, in a game under way, before
    the flag of a live clock fell (a challenge or an accept too: in a challenge window
    the clock of the player who may challenge runs)."""
    if pov.seat is None:
        return "not_a_player"
    if refused := _not_on(game):
        return refused
    if game.turn_seat != pov.seat:
        return errors.NOT_YOUR_TURN
    return _flag_fell(game, pov, now)


def _pending(game: Game) -> dict[str, object] | None:
    """The play the player to move may challenge (a challenge rule's), as stored."""
    state = game.state
    pending = state.get("pending") if isinstance(state, dict) else None
    return pending if isinstance(pending, dict) else None


def _on_turn(game: Game, pov: Pov, now: datetime) -> str | None:
    """Play, exchange, pass: a seated player (or the computer) whose turn it is, unless
    the last play of the game waits to be challenged or accepted (its window holds the
    end of the game: nothing else may be done then)."""
    if refused := _turn(game, pov, now):
        return refused
    pending = _pending(game)
    return errors.CHALLENGE_WINDOW_OPEN if pending is not None and pending.get("final") else None


def _challenge(game: Game, pov: Pov, now: datetime) -> str | None:
    """Challenge: the player to move, while the play before theirs is still provisional
    (a challenge rule; they have not moved since)."""
    if refused := _turn(game, pov, now):
        return refused
    return None if _pending(game) is not None else errors.NOTHING_TO_CHALLENGE


def _accept_play(game: Game, pov: Pov, now: datetime) -> str | None:
    """Accept the last play of the game without challenging it (any other provisional
    play is accepted by moving)."""
    if refused := _turn(game, pov, now):
        return refused
    pending = _pending(game)
    return None if pending is not None and pending.get("final") else errors.NOTHING_TO_CHALLENGE


def _resign(game: Game, pov: Pov, now: datetime) -> str | None:
    """Resign: a seated player, on either player's turn, while the game is on (and, in a
    live game, before the flag fell: the game is lost on time then)."""
    if not pov.is_player:
        return "not_a_player"
    return _not_on(game) or _flag_fell(game, pov, now)


def _lapsed(game: Game, pov: Pov, now: datetime) -> str | None:
    """Why the system may not act on a lapsed deadline now (only the system, only once the
    deadline, moved on by any vacation, has passed), or None."""
    if not pov.is_system:
        return "not_allowed"
    if refused := _not_on(game):
        return refused
    if game.turn_deadline is None or effective_deadline(game, now) > now:
        return "not_due"
    return None


def _extendable(game: Game) -> bool:
    """A lapsed turn moves on once instead (``Extend``) in a game that warns before a
    timeout (correspondence games outside tournaments), once per turn, when no warning
    reached the player to move and they did not look at the game during the turn
    (``Game.turn_noticed_at``)."""
    return game.warn_before_timeout and not game.deadline_extended and game.turn_noticed_at is None


def _timeout(game: Game, pov: Pov, now: datetime) -> str | None:
    """A lapsed deadline, once no extension is due: no forfeit without a warning that
    reached the player."""
    return _lapsed(game, pov, now) or ("not_due" if _extendable(game) else None)


def _extend(game: Game, pov: Pov, now: datetime) -> str | None:
    """Move a lapsed deadline on once (see :func:`_extendable`)."""
    return _lapsed(game, pov, now) or (None if _extendable(game) else "not_due")


def effective_deadline(game: Game, now: datetime) -> datetime:
    """The turn deadline, moved later by the time the player to move spent on vacation
    during this turn (up to ``now``), in games whose clocks vacations pause."""
    deadline = game.turn_deadline
    assert deadline is not None, "only a turn with a deadline lapses"
    if not game.vacation_pauses or game.turn_seat is None:
        return deadline
    started = deadline - timedelta(days=game.inactivity_days)
    paused = paused_seconds(game.seat_user(game.turn_seat), started, now)
    return deadline + timedelta(seconds=paused)


def _abort(game: Game, pov: Pov, now: datetime) -> str | None:
    """Call off a live game nobody has moved in: only the system, only once the first
    player has let ``LIVE_ABORT_SECONDS`` pass since the game began."""
    if not pov.is_system:
        return "not_allowed"
    if refused := _not_on(game):
        return refused
    if game.speed != "live" or not game.awaiting_first_move or game.turn_started_at is None:
        return "not_due"
    return None if game.turn_started_at + timedelta(seconds=settings.LIVE_ABORT_SECONDS) <= now else "not_due"


def _deal(game: Game, pov: Pov, now: datetime) -> str | None:
    """The first deal: only the system, only on a game nobody has been dealt yet."""
    if not pov.is_system:
        return "not_allowed"
    if game.state or game.status not in (INVITED, OPEN):
        return "already_dealt"
    return None


def _accept(game: Game, pov: Pov, now: datetime) -> str | None:
    """Accept: the invitee of a pending invitation (not its creator)."""
    if game.status != INVITED or not pov.is_player or pov.user_id == game.created_by_id:
        return "not_invited"
    # One of them blocked the other after the invitation was sent.
    if is_blocked(game.created_by, pov.user):
        return "blocked"
    # A moderator suspended the invitee from joining games meanwhile.
    return "suspended" if pov.user is not None and suspended_until(pov.user) is not None else None


def _decline(game: Game, pov: Pov, now: datetime) -> str | None:
    """Decline: either side of a pending invitation, or the creator of an open seek."""
    if pov.user_id is None:
        return "not_invited"
    if game.status == INVITED and (pov.is_player or pov.user_id == game.created_by_id):
        return None
    if game.status == OPEN and pov.user_id == game.created_by_id:
        return None
    return "not_invited"


def _buy_extra(game: Game, pov: Pov, now: datetime) -> str | None:
    """Buy an extra: a seated player (not the computer), in a game that allows extras.
    The kind of extra is checked by :func:`extra_refusal`; whether this is the period
    the extra is for is worked out once, where the purchase is recorded
    (``Game._buy_extra``: ``extra_not_now``)."""
    if not pov.is_player:
        return "not_a_player"
    if refused := _not_on(game):
        return refused
    return None if game.extras_allowed else "extras_off"


def extra_refusal(extra: str) -> str | None:
    """Why ``extra`` is no extra one may buy (``bad_extra``), or None."""
    return None if extra in extras.EXTRAS else "bad_extra"


RULES: dict[str, Rule] = {
    "play": _on_turn,
    "exchange": _on_turn,
    "pass": _on_turn,
    "resign": _resign,
    "timeout": _timeout,
    "deal": _deal,
    "accept": _accept,
    "decline": _decline,
    "buy_extra": _buy_extra,
    "extend": _extend,
    "abort": _abort,
    "challenge": _challenge,
    "accept_play": _accept_play,
}
assert set(RULES) == set(ACTION_KINDS), "every action kind has exactly one rule"


def refusal(game: Game, pov: Pov, action: Action, now: datetime) -> str | None:
    """Why ``pov`` may not take ``action`` on ``game`` now, or None."""
    rule = RULES.get(action.kind)
    if rule is None:
        return "not_allowed"
    if refused := rule(game, pov, now):
        return refused
    extra = getattr(action, "extra", None)
    return extra_refusal(extra) if isinstance(extra, str) else None


def allowed_actions(game: Game, pov: Pov, now: datetime) -> frozenset[str]:
    """Every action kind ``pov`` may take on ``game`` now."""
    return frozenset(kind for kind, rule in RULES.items() if rule(game, pov, now) is None)


def chat_refusal(game: Game, pov: Pov) -> str | None:
    """Why ``pov`` may not write in ``game``'s chat now, or None: not a seated player
    (``not_a_player``), their chat is off (``chat_off``), a moderator muted them
    (``chat_muted``), or in a game under way one of its players blocked the other
    (``chat_blocked``: blocking hides the other's lines already; their new ones are not
    even stored)."""
    author = pov.user
    if not pov.is_player or author is None:
        return "not_a_player"
    if not author.chat_enabled:
        return "chat_off"
    if chat_muted_until(author) is not None:
        return "chat_muted"
    others = [seat.user for seat in game.seat_list() if seat.user_id not in (None, author.pk)]
    if game.status == ACTIVE and any(is_blocked(author, other) for other in others):
        return "chat_blocked"
    return None
