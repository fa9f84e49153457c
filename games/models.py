"""Games, their seats, their moves and their chat.

A ``Game`` stores the engine's state as JSON (``GameState.to_dict``) plus the columns
queries need (status, turn seat, deadline, version). Every state change is one model
method that opens a transaction, locks the game row with ``select_for_update``, calls
the engine, saves the new state with ``version + 1``, records a ``Move`` and schedules the
broadcast (``games.realtime``) for after the commit. The engine does the rules; this
module does persistence, permissions and time.
"""

from __future__ import annotations

import copy
import logging
import random
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import partial
from typing import TYPE_CHECKING, Any, Protocol

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser
from django.db import connection, models, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

import engine
from accounts import metrics, ratelimit
from accounts.models import bot_label
from engine import actions as engine_actions
from engine import errors
from engine.errors import GAME_OVER
from engine.lexicon import Lexicon
from engine.state import CHALLENGE_RULES
from games import clocks, extras, realtime, rules
from games.actions import (
    BESIDE_THE_BOARD,
    CHALLENGE_ACTION_KINDS,
    ENGINE_ACTION_KINDS,
    SYSTEM,
    Abort,
    Accept,
    AcceptPlay,
    Action,
    BuyExtra,
    Challenge,
    Deal,
    Decline,
    EngineAction,
    Exchange,
    Extend,
    Pass,
    Play,
    Resign,
    Timeout,
)
from games.pace import CORRESPONDENCE, LIVE, SPEED_CHOICES, Pace
from games.pov import Pov, resolve

if TYPE_CHECKING:
    from accounts.models import User

    #: Who reads a list of games: a signed-in user, or nobody (anonymous).
    Reader = User | AnonymousUser


class GameError(Exception):
    """An action refused by the site rather than by the rules (stale version, not a
    player, game not started). ``code`` keys ``games.messages.ERROR_MESSAGES``."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


class GameMovedOn(GameError):
    """The client acted on an old version of the game: someone else moved first."""

    def __init__(self, code: str = "game_moved_on") -> None:
        super().__init__(code)


class GameChanged(GameMovedOn):
    """The client acted on an old version because the game changed without a move (a
    resignation, a lapsed turn, an invitation answered): nobody "played first"."""

    def __init__(self) -> None:
        super().__init__("game_changed")


class AlreadyMoved(GameMovedOn):
    """The client acted on an old version because the same player already acted from
    another tab or window (or a retry carried a new id): not the opponent's doing."""

    def __init__(self) -> None:
        super().__init__("already_moved")


#: The kinds of action that are a player's move (a play, an exchange, a pass, a
#: resignation): a client whose version they made stale hears "the game moved on".
ENGINE_MOVE_KINDS = frozenset(
    {Play.kind, Exchange.kind, Pass.kind, Resign.kind, Challenge.kind, AcceptPlay.kind}
)
assert set(ENGINE_ACTION_KINDS) | set(CHALLENGE_ACTION_KINDS) >= ENGINE_MOVE_KINDS

#: Refusal codes that are the engine's own (raised as ``IllegalMove`` like the engine would).
ENGINE_REFUSALS = frozenset({errors.NOT_YOUR_TURN, errors.GAME_OVER})


def refused(code: str) -> Exception:
    """The exception for a refusal ``code`` from the rule table."""
    if code in ENGINE_REFUSALS:
        return engine.IllegalMove(code, error_text(code))
    return GameError(code)


def error_text(code: str) -> str:
    return {errors.NOT_YOUR_TURN: "It is not your turn.", errors.GAME_OVER: "The game is over."}.get(
        code, code
    )


@dataclass(frozen=True, slots=True)
class Transition:
    """What follow-up work needs to know about a committed change (plain values: it is
    read after the commit, outside the lock)."""

    game_id: int
    version: int
    status: str
    turn_deadline: datetime | None
    computer_to_move: bool
    live: bool = False
    abort_at: datetime | None = None

    @classmethod
    def of(cls, game: Game) -> Transition:
        return cls(
            game_id=game.pk,
            version=game.version,
            status=game.status,
            turn_deadline=game.turn_deadline,
            computer_to_move=game.computer_seat_to_move() is not None,
            live=game.is_live,
            abort_at=game.abort_at(),
        )


logger = logging.getLogger(__name__)
_followup_hooks: list[Callable[[Transition], None]] = []
_after_commit_hooks: list[Callable[[Transition], None]] = []
_move_hooks: list[Callable[[Game, Move], None]] = []


class Notifier(Protocol):
    """What a change tells the people it concerns (``games.notify``, registered from
    ``GamesConfig.ready``: models never import it, it reads models). Each records its
    notifications inside the change's transaction."""

    def record_action(self, game: Game, pov: Pov, action: Action) -> None: ...
    def record_chat(self, game: Game, message: ChatMessage) -> None: ...
    def record_deadline_warning(self, game: Game, user: Any) -> None: ...


_notifiers: list[Notifier] = []


def register_notifier(notifier: Notifier) -> None:
    _notifiers[:] = [notifier]


def register_followups(hook: Callable[[Transition], None]) -> None:
    """Run ``hook`` inside the transaction of every change of a game, after the change is
    saved (``games.tasks`` enqueues the follow-up work here from ``GamesConfig.ready``).
    What it writes (task rows in the same database) commits or rolls back with the
    change, so a committed change always has its follow-ups, exactly once."""
    if hook not in _followup_hooks:
        _followup_hooks.append(hook)


def run_followups(transition: Transition) -> None:
    """Called inside the change's transaction. A failing hook fails the change: a change
    without its follow-ups (a rated game never rated) must not be committed."""
    for hook in _followup_hooks:
        hook(transition)


def register_after_commit(hook: Callable[[Transition], None]) -> None:
    """Run ``hook`` after every committed change of a game (``games.tasks`` registers the
    scheduling of follow-up work here from ``GamesConfig.ready``: models never import
    tasks, which import models)."""
    if hook not in _after_commit_hooks:
        _after_commit_hooks.append(hook)


def register_move_committed(hook: Callable[[Game, Move], None]) -> None:
    """Run ``hook(game, move)`` when a change that recorded ``move`` commits, before the
    broadcast of the change (``games.live`` keeps the game's new version from the one it
    held and this move: ``LoadedGames.after_move``). ``game`` is the saved, locked copy,
    with its seats; neither may be changed. A failing hook is logged."""
    if hook not in _move_hooks:
        _move_hooks.append(hook)


def run_after_commit_hooks(transition: Transition) -> None:
    """Called on commit. A failing hook is logged: the change itself is committed and
    the player's answer must not turn into an error page."""
    for hook in _after_commit_hooks:
        try:
            hook(transition)
        except Exception:
            logger.exception("follow-up of game %s version %s failed", transition.game_id, transition.version)


def lexicon_for(language: str, version: int | None = None) -> Lexicon:
    """The lexicon a game checks words against (the live one unless ``version`` pins
    another). One indirection so tests can substitute a small word list."""
    from dictionaries.lexicons import for_language

    return for_language(language, version=version)


class _AnyWord:
    """Every word: what a play's words are checked against before a challenge."""

    def __contains__(self, word: object) -> bool:
        return True


ANY_WORD = _AnyWord()


def rules_for(preset: str, language: str, challenge: str) -> engine.Rules:
    """The engine's rules for a preset and a challenge rule (``engine.preset``); raises
    ``GameError(bad_rules)`` for a preset the language has no tiles for, or an unknown one."""
    if challenge not in CHALLENGE_RULES:
        raise GameError("bad_rules")
    try:
        return engine.preset(preset, language, challenge=challenge)
    except ValueError:
        raise GameError("bad_rules") from None


def lexicon_version(lexicon: object) -> int | None:
    version = getattr(lexicon, "version", None)
    return version if isinstance(version, int) else None


def rng_for(seed: int, purpose: str, number: int = 0) -> random.Random:
    """A deterministic RNG for one use of a game's seed: dealing the bag (``deal``),
    the exchange at move ``number`` (``exchange``), the computer's choice (``computer``).
    Replaying a game from its seed and moves gives the same bag."""
    return random.Random(f"{seed}:{purpose}:{number}")


def lock_user(user: User) -> None:
    """Lock ``user``'s row for the active-games count (call inside a transaction).

    ``FOR NO KEY UPDATE`` on PostgreSQL, not ``FOR UPDATE``: inserting a row that points
    at a user (a Seat, a Game, a Move) takes ``FOR KEY SHARE`` on that user, which
    ``FOR UPDATE`` blocks. With ``FOR UPDATE``, ana inviting ben while ben invites ana
    (or both asking for a rematch) deadlocked: each held their own row and waited for
    the other's to insert the other's seat.
    """
    no_key = connection.features.has_select_for_no_key_update
    get_user_model().objects.select_for_update(no_key=no_key).filter(pk=user.pk).first()


def seats_with_users() -> models.Prefetch:
    return models.Prefetch("seats", queryset=Seat.objects.select_related("user"))


class GameQuerySet(models.QuerySet["Game"]):
    def with_seats(self) -> GameQuerySet:
        """Each game's seats with their users, fetched in one more query."""
        return self.prefetch_related(seats_with_users())

    def for_player(self, user: Reader) -> GameQuerySet:
        """Games where ``user`` has a seat (including friend invitations sent to them)."""
        if isinstance(user, AnonymousUser) or not user.is_authenticated:
            return self.none()
        return self.filter(seats__user=user).distinct()

    def watchable_by(self, user: Reader) -> GameQuerySet:
        """Games ``user`` may look at: their own (seated, or the open seek they created),
        and public games that have started. Anonymous users see nothing."""
        if isinstance(user, AnonymousUser) or not user.is_authenticated:
            return self.none()
        public = Q(is_public=True, status__in=[Game.Status.ACTIVE, Game.Status.FINISHED])
        own = Q(pk__in=Seat.objects.filter(user=user).values("game_id")) | Q(created_by=user)
        return self.filter(own | public)

    def mine(self, user: Reader) -> GameQuerySet:
        """``user``'s games as the API lists them: seated in them (invitations included)
        or their own open seeks, with the creator and the seats read."""
        if isinstance(user, AnonymousUser) or not user.is_authenticated:
            return self.none()
        seated = Seat.objects.filter(user=user).values("game_id")
        mine = Q(pk__in=seated) | Q(created_by=user, status=Game.Status.OPEN)
        return self.filter(mine).select_related("created_by").with_seats()

    def active_for(self, user: User) -> GameQuerySet:
        """What counts against ``MAX_ACTIVE_GAMES``: what ``user`` took on (games on,
        invitations they sent, their open seeks). Invitations they received and have not
        accepted do not count: others could otherwise fill anyone's limit for them."""
        return self.filter(
            Q(pk__in=Seat.objects.filter(user=user).values("game_id"), status=Game.Status.ACTIVE)
            | Q(created_by=user, status__in=[Game.Status.INVITED, Game.Status.OPEN])
        )

    def unfinished_for(self, user: User) -> GameQuerySet:
        """Every game ``user`` still has a part in: games on, invitations sent or received,
        their open seeks (what stands in the way of deleting the account)."""
        return self.filter(
            Q(pk__in=Seat.objects.filter(user=user).values("game_id"), status__in=Game.LIVE_STATUSES)
            | Q(created_by=user, status=Game.Status.OPEN)
        )

    def invitations_sent_by(self, user: User) -> GameQuerySet:
        """Invitations ``user`` sent that wait for an answer (``MAX_PENDING_INVITATIONS``)."""
        return self.filter(created_by=user, status=Game.Status.INVITED, mode=Game.Mode.FRIEND)

    def due_for_timeout(self, now: datetime) -> GameQuerySet:
        return self.filter(status=Game.Status.ACTIVE, turn_deadline__lte=now)

    def due_for_reminder(self, now: datetime) -> GameQuerySet:
        """Active games whose player to move is due a deadline warning they have not had
        this turn (``DEADLINE_WARNING_HOURS``; none longer than the turn itself)."""
        due = Q()
        for lead in settings.DEADLINE_WARNING_HOURS:
            due |= Q(turn_deadline__lte=now + timedelta(hours=lead), inactivity_days__gt=lead // 24) & (
                Q(warned_hours__isnull=True) | Q(warned_hours__gt=lead)
            )
        return self.filter(due, status=Game.Status.ACTIVE, turn_deadline__gt=now) if due else self.none()

    def computer_to_move(self) -> GameQuerySet:
        """Active games waiting for a computer seat: what a restarted server picks up."""
        computer_turns = Seat.objects.filter(game=models.OuterRef("pk"), index=models.OuterRef("turn_seat"))
        return self.filter(status=Game.Status.ACTIVE).filter(
            models.Exists(computer_turns.filter(user__isnull=True))
        )


class Game(models.Model):
    """One game between two seats (users or a computer player)."""

    class Mode(models.TextChoices):
        FRIEND = "friend", _("Friend")
        RANDOM = "random", _("Random opponent")
        COMPUTER = "computer", _("Computer")

    class Status(models.TextChoices):
        INVITED = "invited", _("Invitation pending")
        OPEN = "open", _("Waiting for an opponent")
        ACTIVE = "active", _("In progress")
        FINISHED = "finished", _("Finished")
        DECLINED = "declined", _("Declined")
        ABORTED = "aborted", _("Aborted")

    class EndReason(models.TextChoices):
        OUT = "out", _("A player went out")
        SCORELESS = "scoreless", _("Three scoreless turns")
        RESIGN = "resign", _("Resigned")
        TIMEOUT = "timeout", _("Ran out of time")
        TURNS = "turns", _("Turn limit reached")

    class Preset(models.TextChoices):
        WWF = "wwf", _("Wordgame rules")
        CLASSIC = "classic", _("Classic rules")

    class ChallengeRule(models.TextChoices):
        VOID = "void", _("No challenges: every word checked when played")
        SINGLE = "single", _("Single challenge")
        DOUBLE = "double", _("Double challenge")
        FIVE = "five", _("Five-point challenge")

    LIVE_STATUSES = (Status.INVITED, Status.ACTIVE)

    language = models.CharField(_("language"), max_length=8)
    mode = models.CharField(_("mode"), max_length=10, choices=Mode.choices)
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, db_index=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="games_created"
    )
    # The engine's GameState.to_dict(); empty for an open seek until it is matched.
    state = models.JSONField(_("engine state"), default=dict, blank=True)
    version = models.PositiveIntegerField(_("version"), default=0)
    seed = models.BigIntegerField(_("random seed"))
    turn_seat = models.SmallIntegerField(_("seat to move"), null=True, blank=True)
    first_player = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        help_text=_("Who moved first (seat 0); empty when the computer did."),
    )
    inactivity_days = models.PositiveSmallIntegerField(_("inactivity limit (days)"))
    # The pace (games.pace): correspondence (``inactivity_days`` a move) or live (a clock
    # of ``clock_seconds`` per player, ``increment_seconds`` added after each move, and
    # ``overtime_minutes`` past zero at 10 points a started minute; 0: sudden death).
    speed = models.CharField(_("pace"), max_length=16, choices=SPEED_CHOICES, default=CORRESPONDENCE)
    clock_seconds = models.PositiveIntegerField(_("clock per player (seconds)"), default=0)
    increment_seconds = models.PositiveSmallIntegerField(_("seconds added a move"), default=0)
    overtime_minutes = models.PositiveSmallIntegerField(_("overtime limit (minutes)"), default=10)
    # A live game's clocks (games.clocks), moved on only by ``act``: each seat's time left
    # in milliseconds at ``turn_started_at`` (below zero in overtime), and when the turn of
    # the seat to move began. The flag falls at ``turn_deadline``.
    clock_ms = models.JSONField(_("time left per seat (ms)"), null=True, blank=True)
    turn_started_at = models.DateTimeField(_("turn started"), null=True, blank=True)
    # An open random request: its player's rating (language, speed) when it was opened,
    # which the rating window is measured from (games.seeks).
    seek_rating = models.FloatField(_("rating when seeking"), null=True, blank=True)
    turn_deadline = models.DateTimeField(_("turn deadline"), null=True, blank=True, db_index=True)
    reminder_sent_at = models.DateTimeField(_("reminder sent"), null=True, blank=True)
    # The deadline warnings of this turn (DEADLINE_WARNING_HOURS): the shortest lead warned
    # so far, so that each is sent at most once per turn.
    warned_hours = models.PositiveSmallIntegerField(_("warned (hours before)"), null=True, blank=True)
    # When a warning reached the player to move during this turn (a push or a mail the
    # service accepted) or they looked at the game; a lapsed turn without it is extended.
    turn_noticed_at = models.DateTimeField(_("turn noticed"), null=True, blank=True)
    deadline_extended = models.BooleanField(_("deadline extended this turn"), default=False)
    # Correspondence games outside tournaments: no timeout without a warning delivered.
    warn_before_timeout = models.BooleanField(_("extend a turn no warning reached"), default=True)
    end_reason = models.CharField(_("how it ended"), max_length=10, choices=EndReason.choices, blank=True)
    winner_seat = models.SmallIntegerField(_("winner seat"), null=True, blank=True)
    final_scores = models.JSONField(_("final scores"), null=True, blank=True)
    # None: always the live dictionary. A version string pins the game to that edition.
    dictionary_version = models.PositiveIntegerField(_("pinned dictionary version"), null=True, blank=True)
    is_public = models.BooleanField(_("public (spectators allowed)"), default=True)
    # A player's vacation pauses their turn clock (not in tournament games).
    vacation_pauses = models.BooleanField(_("vacations pause the clock"), default=True)
    # Paid extras (tile bag, hindsight, word strength) may be bought in this game.
    extras_allowed = models.BooleanField(_("paid extras allowed"), default=True)
    # Rated games change both players' ratings when they end (games.outcomes); never
    # against the computer, and paid extras are off in them.
    rated = models.BooleanField(_("rated"), default=False)
    rematch_of = models.ForeignKey(
        "self", on_delete=models.SET_NULL, null=True, blank=True, related_name="rematches"
    )
    # The rules the game is dealt with (``engine.preset``): the dealt state carries them
    # (``GameState.rules``); these columns choose them before the deal (an open seek has
    # no state yet) and let queries match seeks and list games by them.
    rules_preset = models.CharField(_("rules"), max_length=10, choices=Preset.choices, default=Preset.WWF)
    challenge_rule = models.CharField(
        _("challenge rule"), max_length=8, choices=ChallengeRule.choices, default=ChallengeRule.VOID
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated"), auto_now=True)
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)

    objects = GameQuerySet.as_manager()

    class Meta:
        verbose_name = _("game")
        verbose_name_plural = _("games")
        ordering = ["-updated_at"]
        indexes = [
            models.Index(fields=["status", "language", "created_at"]),
            # The archive's order (games.archive): finished games by (finished_at, id).
            models.Index(
                fields=["-finished_at", "-id"], condition=Q(status="finished"), name="games_finished_order"
            ),
        ]

    def __str__(self) -> str:
        return f"#{self.pk} {self.language} {self.mode} ({self.status})"

    # ----- reading -------------------------------------------------------------

    def state_obj(self) -> engine.GameState:
        return engine.GameState.from_dict(self.state)

    def rules(self) -> engine.Rules:
        """The rules this game is played by: its dealt state's, or before the deal the
        ones its columns choose (``engine.preset``)."""
        if self.state:
            return engine.Rules.from_dict(self.state["rules"]) if "rules" in self.state else engine.Rules()
        return rules_for(self.rules_preset, self.language, self.challenge_rule)

    def tileset(self) -> engine.TileSet:
        """The tile set this game is played with (its rules', not only its language's)."""
        return self.rules().tileset_for(self.language)

    def seat_list(self) -> list[Seat]:
        """Seats in index order (uses a prefetch when there is one)."""
        return sorted(self.seats.all(), key=lambda s: s.index)

    def pending_play(self) -> engine.Pending | None:
        """The play the player to move may still challenge, if any."""
        pending = self.state.get("pending") if self.state else None
        return engine.Pending.from_dict(pending) if pending else None

    def pov(self, actor: object) -> Pov:
        """Who ``actor`` (a user, ``SYSTEM``, ``Computer(seat)``) is to this game now
        (``games.pov``: the one place that works it out)."""
        return resolve(self, actor)

    def seat_of(self, user: object) -> int | None:
        """The seat ``user`` holds, if any (for callers that need nothing else)."""
        return self.pov(user).seat if not isinstance(user, Pov) else user.seat

    def player_ids(self) -> list[int]:
        ids = {s.user_id for s in self.seat_list() if s.user_id is not None}
        ids.add(self.created_by_id)
        return sorted(ids)

    @property
    def invitee(self) -> User | None:
        """The invited friend of a pending invitation."""
        for seat in self.seat_list():
            if seat.user_id is not None and seat.user_id != self.created_by_id:
                return seat.user
        return None

    @property
    def is_over(self) -> bool:
        return self.status == Game.Status.FINISHED

    @property
    def pace(self) -> Pace:
        return Pace.of(self)

    @property
    def is_live(self) -> bool:
        return self.speed == LIVE

    @property
    def awaiting_first_move(self) -> bool:
        """A game under way in which nobody has moved yet."""
        return self.status == Game.Status.ACTIVE and not self.state.get("moves_played")

    def abort_at(self) -> datetime | None:
        """When a live game nobody has moved in is called off (``LIVE_ABORT_SECONDS``)."""
        if not (self.is_live and self.awaiting_first_move and self.turn_started_at is not None):
            return None
        return self.turn_started_at + timedelta(seconds=settings.LIVE_ABORT_SECONDS)

    def lexicon(self) -> Lexicon:
        return lexicon_for(self.language, self.dictionary_version)

    def computer_seat_to_move(self) -> Seat | None:
        if self.status != Game.Status.ACTIVE or self.turn_seat is None:
            return None
        for seat in self.seat_list():
            if seat.index == self.turn_seat and seat.is_computer:
                return seat
        return None

    def preview(self, pov: Pov, placements: list[engine.Placement]) -> engine.Evaluation:
        """Validate and score ``placements`` for the rack of ``pov``'s seat on the current
        board with the live lexicon (under a challenge rule, without checking the words),
        changing nothing (the free word-value preview).
        Raises ``IllegalMove`` or ``GameError``; no lock, nothing saved."""
        seat = pov.seat if pov.is_player else None
        if seat is None:
            raise GameError("not_a_player")
        if self.status != Game.Status.ACTIVE:
            raise GameError("not_started") if self.status != Game.Status.FINISHED else GameError(GAME_OVER)
        state = self.state_obj()
        # Under a challenge rule a play's words are checked only when it is challenged:
        # the preview scores it without saying whether they are words (no free look-up).
        challenged = state.rules.challenge != "void" and state.players > 1
        return engine.evaluate(
            state.board,
            placements,
            tileset=state.tileset,
            layout=engine.layout(state.layout),
            lexicon=ANY_WORD if challenged else self.lexicon(),
            rack=state.racks[seat],
        )

    # ----- the rule table ---------------------------------------------------------

    def allowed_actions(self, actor: object, *, now: datetime | None = None) -> frozenset[str]:
        """The action kinds ``actor`` (or a ``Pov``) may take now (``games.rules``): what
        ``act`` checks, and where the page's "may I play / resign / accept / cancel"
        flags come from."""
        pov = actor if isinstance(actor, Pov) else self.pov(actor)
        return rules.allowed_actions(self, pov, now or timezone.now())

    # ----- the one transition path ------------------------------------------------

    def act(
        self,
        actor: object,
        action: Action,
        *,
        version: int | None,
        action_id: str = "",
        now: datetime | None = None,
    ) -> GameAction:
        """Apply ``action`` for ``actor`` (a ``Pov`` the caller resolved, or a user,
        ``SYSTEM`` or ``Computer(seat)`` resolved here): the only way a game changes.
        Opens a transaction and, in this order:

        1. locks the game row (``select_for_update``; on SQLite the IMMEDIATE transaction
           serialises writers). Any user row is locked after it, never before;
        2. a known ``action_id`` returns the record of what it did the first time;
        3. a missing or stale ``version`` is refused (:meth:`_stale`). Stale means that a
           change the client could not have seen touched the board, a rack, the scores,
           the turn or the status: changes beside the board (an extra bought) move the
           version on, for every screen, but stale nobody's next action;
        4. the rule table (``games.rules``) says whether this actor may act now;
        5. the action is applied (the engine checks its own rules);
        6. the game is saved with ``version + 1`` and the action recorded;
        7. the follow-up tasks (the turn clock, a computer turn, a finished game's rating
           and analysis) are enqueued in this transaction, the broadcast registered to
           run on commit (:meth:`_after_commit`).

        Raises ``GameError`` or ``IllegalMove`` with nothing saved. Updates ``self``.
        The record returned carries the ``Pov`` the action was admitted under
        (``record.pov``), so a caller that answers with the game's view resolves nobody
        again.
        """
        now = now or timezone.now()
        with transaction.atomic():
            game = Game.objects.select_for_update().get(pk=self.pk)
            game._take_seats_from(self)
            pov = game._who(actor)
            if action_id and (done := game.actions.filter(action_id=action_id).first()) is not None:
                self._reload(game)
                done.pov = pov
                return done
            game._admit(pov, action, version, now)
            # A deadline moved on is about the player to move (the log names them).
            seat = game.turn_seat if isinstance(action, Extend) else pov.seat
            move = game._apply(pov, action, now)
            game.version += 1
            game.save()
            record = GameAction.objects.create(
                game=game,
                version=game.version,
                kind=action.kind,
                user_id=pov.user_id,
                seat=seat,
                action_id=action_id,
                move=move,
            )
            record.pov = pov
            # Whoever this change concerns is told in this transaction (an outbox row).
            for notifier in _notifiers:
                notifier.record_action(game, pov, action)
            game._after_commit(by=pov.user_id, move=move)
            # Counted once committed (operators' moves per second, ``accounts.metrics``).
            transaction.on_commit(metrics.game_actions.labels(action.kind).inc)
        self._reload(game)
        return record

    def _who(self, actor: object) -> Pov:
        """Who ``actor`` is to this game, its row locked: a ``Pov`` the caller resolved
        while it still holds (same version and status), otherwise resolved afresh."""
        if isinstance(actor, Pov):
            return actor if actor.holds_at(self.version, self.status) else resolve(self, actor.actor())
        return resolve(self, actor)

    def _admit(self, pov: Pov, action: Action, version: int | None, now: datetime) -> None:
        """Admit ``pov``'s ``action`` (row locked): a version given and not stale
        (:meth:`_stale`), the action allowed by the rule table. Raises the refusal
        otherwise."""
        if version is None:
            raise GameError("missing_version")
        if version != self.version and (stale := self._stale(pov, version)) is not None:
            raise stale
        if code := rules.refusal(self, pov, action, now):
            raise refused(code)

    # One line each on top of ``act`` (for views, tasks and tests).

    def play(
        self, user: object, placements: list[engine.Placement], *, version: int | None, action_id: str = ""
    ) -> Move:
        return self._move(self.act(user, Play.of(placements), version=version, action_id=action_id))

    def exchange(self, user: object, tiles: str, *, version: int | None, action_id: str = "") -> Move:
        return self._move(self.act(user, Exchange.of(tiles), version=version, action_id=action_id))

    def pass_turn(self, user: object, *, version: int | None, action_id: str = "") -> Move:
        return self._move(self.act(user, Pass(), version=version, action_id=action_id))

    def resign(self, user: object, *, version: int | None, action_id: str = "") -> Move:
        return self._move(self.act(user, Resign(), version=version, action_id=action_id))

    def accept(self, user: object, *, version: int | None, action_id: str = "") -> None:
        self.act(user, Accept(), version=version, action_id=action_id)

    def decline(self, user: object, *, version: int | None, action_id: str = "") -> None:
        self.act(user, Decline(), version=version, action_id=action_id)

    def challenge(self, user: object, *, version: int | None, action_id: str = "") -> Move:
        return self._move(self.act(user, Challenge(), version=version, action_id=action_id))

    def accept_play(self, user: object, *, version: int | None, action_id: str = "") -> Move:
        return self._move(self.act(user, AcceptPlay(), version=version, action_id=action_id))

    def timeout(self, *, now: datetime | None = None, version: int | None = None) -> Move | None:
        """Time out the player to move if their deadline has passed at ``now`` and the
        game is still at ``version`` (default: the version this copy was read at).
        Returns None when there was nothing to do (a move was made meanwhile), or when the
        deadline was moved on instead because no warning reached the player (``Extend``)."""
        at = self.version if version is None else version
        if "extend" in self.allowed_actions(SYSTEM, now=now):
            try:
                self.act(SYSTEM, Extend(), version=at, now=now)
                return None
            except (GameError, engine.IllegalMove):
                pass  # this copy was stale: the locked row decides below
        try:
            record = self.act(
                SYSTEM,
                Timeout(),
                version=self.version if version is None else version,
                now=now,
            )
        except (GameError, engine.IllegalMove):
            return None
        return record.move

    @staticmethod
    def _move(record: GameAction) -> Move:
        assert record.move is not None, "an engine action records a move"
        return record.move

    # ----- applying each action (called by ``act`` with the row locked) -----------

    def _apply(self, pov: Pov, action: Action, now: datetime) -> Move | None:
        match action:
            case Deal():
                self._deal(action)
            case Accept():
                self._accept(pov)
            case Decline():
                self.status = Game.Status.DECLINED
                self.turn_seat = None
                self.turn_deadline = None
            case BuyExtra():
                self._buy_extra(pov, action)
            case Abort():
                # Counts for nothing: no result, no rating, no coins; its seats are free.
                self.status = Game.Status.ABORTED
                self.turn_seat = None
                self.turn_deadline = None
                self.turn_started_at = None
            case Extend():
                assert self.turn_deadline is not None, "the rule table extends only a turn with a deadline"
                self.turn_deadline = max(self.turn_deadline, now) + timedelta(
                    hours=settings.DEADLINE_EXTENSION_HOURS
                )
                self.deadline_extended = True
                self.warned_hours = None
                self.reminder_sent_at = None
            case _:
                return self._apply_engine(pov, action, now)
        return None

    def _apply_engine(self, pov: Pov, action: EngineAction | Challenge | AcceptPlay, now: datetime) -> Move:
        state = self.state_obj()
        seat = state.turn if isinstance(action, Timeout) else pov.seat
        assert seat is not None, "the rule table lets only seated actors play"
        # A live clock stops first: a flag is recorded at the moment the clock ran out,
        # whenever the task acting on it runs.
        at = self._stop_clock(state.turn, pov, action, now) if self.is_live else now
        # A play's words are checked when it is made (the void rule) or challenged.
        lexicon = self.lexicon() if isinstance(action, Play | Challenge) else None
        played = engine_actions.apply(
            state,
            seat,
            engine_actions.Accept() if isinstance(action, AcceptPlay) else action,
            lexicon=lexicon if lexicon is not None else frozenset(),
            rng=rng_for(self.seed, "exchange", state.moves_played),
        )
        move = Move.record(
            self,
            played,
            user=self.seat_user(seat),
            dictionary_version=lexicon_version(lexicon) if lexicon is not None else None,
            clock_ms=self.clock_ms if self.is_live else None,
        )
        if played.record.kind == "challenge" and played.record.invalid:
            # The phony's own line reads "withdrawn"; the words it formed were never played.
            # The pending play is always the move just before its challenge.
            self.moves.filter(number=state.moves_played, kind=Move.Kind.PLAY).update(
                withdrawn=True, words_text=""
            )
        if played.state.over:
            self._settle_coins(played, state)
        final = self._overtime_penalties(played.state) if played.state.over and self.is_live else played.state
        for s in self.seat_list():
            if s.score != final.scores[s.index]:
                s.score = final.scores[s.index]
                s.save(update_fields=["score"])
        self.state = final.to_dict()
        if final.over:
            end = final.end
            assert end is not None
            self.status = Game.Status.FINISHED
            self.end_reason = end.reason
            self.winner_seat = end.winner
            self.final_scores = list(end.final_scores)
            self.finished_at = at
            self.turn_seat = None
            self.turn_deadline = None
            self.turn_started_at = None
        else:
            self._start_turn_clock(final, at)
        return move

    def _stop_clock(
        self, turn: int, pov: Pov, action: EngineAction | Challenge | AcceptPlay, now: datetime
    ) -> datetime:
        """Charge the seat to move for its turn (row locked): the time since the turn
        began, less the increment after a move of its own that ends the turn (a play, an
        exchange or a pass: not a challenge, after which the challenger may move again). A
        flag (``Timeout``) is charged up to the moment it fell, which it returns (else
        ``now``). In a challenge window the seat to move is the one who may challenge: its
        clock runs, and its flag accepts the last play (``engine.moves.timeout``)."""
        assert self.clock_ms is not None, "a live game has clocks"
        assert self.turn_started_at is not None, "a live turn has its start"
        at = now
        increment = 0
        if isinstance(action, Timeout):
            assert self.turn_deadline is not None, "a live turn has its flag"
            at = min(now, self.turn_deadline)
        elif pov.seat == turn and action.kind in (Play.kind, Exchange.kind, Pass.kind):
            increment = self.increment_seconds * 1000
        self.clock_ms = clocks.charged(self.clock_ms, turn, self.turn_started_at, at, increment_ms=increment)
        return at

    def _overtime_penalties(self, state: engine.GameState) -> engine.GameState:
        """At the end of a live game (row locked): 10 points off per started minute of
        overtime each player used, as the engine's time penalties, each recorded as a move
        (the GCG's time-penalty lines)."""
        assert self.clock_ms is not None, "a live game has clocks"
        for seat, points in enumerate(clocks.penalties(self.clock_ms)):
            if points:
                penalised = engine.penalize(state, seat, points)
                Move.record(
                    self,
                    penalised,
                    user=self.seat_user(seat),
                    dictionary_version=None,
                    clock_ms=self.clock_ms,
                )
                state = penalised.state
        return state

    def _buy_extra(self, pov: Pov, action: BuyExtra) -> None:
        """Spend the extra's price and record the purchase for the period the extra is for
        now (``extra_not_now`` outside one). The user row is locked after the game row."""
        from accounts.services import NotEnoughCoins, spend_coins

        seat, user = pov.seat, pov.user
        assert seat is not None, "the rule table lets only seated players buy"
        assert user is not None, "the rule table lets only seated players buy"
        when = extras.period_now(self, action.extra, seat)
        if when is None:
            raise GameError("extra_not_now")
        if ExtraPurchase.objects.filter(game=self, seat=seat, extra=action.extra, period=when).exists():
            raise GameError("already_bought")
        try:
            entry = spend_coins(
                user=user,
                amount=extras.price(action.extra),
                reason=f"extra:{action.extra}",
                reference=f"game:{self.pk}:{action.extra}:{seat}:{when}",
            )
        except NotEnoughCoins:
            raise GameError("not_enough_coins") from None
        ExtraPurchase.objects.create(
            game=self, seat=seat, user=user, extra=action.extra, period=when, entry=entry
        )

    def _settle_coins(self, played: engine.Played, before: engine.GameState) -> None:
        """At the end of the game (row locked): refund the extras bought for the turn in
        progress when the other player's resignation or timeout ended it before they
        could be used, and pay the players' coins for a game played to the end."""
        from accounts.services import award_game_coins, refund_coins

        end = played.state.end
        assert end is not None
        if end.reason in ("resign", "timeout"):
            unused = ExtraPurchase.objects.filter(
                game=self, period=before.moves_played + 1, refund__isnull=True, extra__in=extras.FOR_THE_TURN
            ).exclude(seat=played.record.seat)
            for purchase in unused.select_related("entry"):
                purchase.refund = refund_coins(entry=purchase.entry)
                purchase.save(update_fields=["refund"])
        seats = self.seat_list()
        if len(seats) < 2:
            # A solo game (a challenge against a target) pays no coins: no one was played.
            return
        made = Counter(m.seat for m in self.moves.filter(kind__in=["play", "exchange", "pass"]))
        if played.record.kind in ("play", "exchange", "pass"):
            made[played.record.seat] += 1
        award_game_coins(
            players=[s.user for s in seats],
            moves_by_player=[made[s.index] for s in seats],
            winner=next((s.user for s in seats if s.index == end.winner), None),
            reference=f"game:{self.pk}",
        )

    def _deal(self, action: Deal) -> None:
        users = get_user_model().objects.in_bulk([p for p in action.players if isinstance(p, int)])
        players = [p if isinstance(p, str) else users[p] for p in action.players]
        create_seats(self, players)
        state = engine.new_game(
            self.language,
            rng_for(self.seed, "deal"),
            players=len(players),
            rules=action.rules
            if action.rules is not None
            else rules_for(self.rules_preset, self.language, self.challenge_rule),
        )
        self.state = state.to_dict()
        self.first_player = None if isinstance(players[0], str) else players[0]
        self.status = Game.Status.ACTIVE if action.start else Game.Status.INVITED
        if action.start:
            self._start_turn_clock(state, timezone.now())

    def _accept(self, pov: Pov) -> None:
        # Two invitations accepted at once must not both pass the limit (user row after
        # the game row: the lock order everywhere).
        user = pov.user
        assert user is not None, "the rule table lets only the invitee accept"
        lock_user(user)
        if Game.objects.active_for(user).exclude(pk=self.pk).count() >= settings.MAX_ACTIVE_GAMES:
            raise GameError("too_many_games")
        # Either account may have become a bot's since the invitation: a rated game is
        # bot against bot or person against person, whenever it starts.
        if self.rated and len({s.user.is_bot for s in self.seat_list() if s.user is not None}) > 1:
            raise GameError("bot_rated_human")
        self.status = Game.Status.ACTIVE
        self._start_turn_clock(self.state_obj(), timezone.now())

    def _stale(self, pov: Pov, version: int) -> GameMovedOn | None:
        """The refusal for a client at ``version``, which is not the game's, or None when
        every change since touched nothing the client's action depends on (extras bought:
        ``BESIDE_THE_BOARD``). Refused: a version the game never had, or one behind a
        change of the board, racks, scores, turn or status: "you already moved" when
        that change was this actor's own (another tab, a retry with a new id), "the game
        moved on" when someone else moved (or resigned), "the game changed" when nobody
        did (a lapsed turn, an answered invitation)."""
        since = self.actions.filter(version__gt=version).order_by("version").values_list("kind", "user_id")
        first = (
            next((a for a in since if a[0] not in BESIDE_THE_BOARD), None) if version < self.version else None
        )
        if version < self.version and first is None:
            return None
        if first is not None and pov.user_id is not None and first[1] == pov.user_id:
            return AlreadyMoved()
        if first is not None and first[0] not in ENGINE_MOVE_KINDS:
            return GameChanged()
        return GameMovedOn()

    def _after_commit(self, *, by: int | None = None, move: Move | None = None) -> None:
        """Called inside the change's transaction: records, in one place, what follows the
        change. The follow-up work (turn deadline and reminder, a computer turn, what a
        finished game sets off) is enqueued now, in this transaction, through the hook
        ``games.tasks`` registers (``games.apps``): a process that dies right after the
        commit loses none of it. The broadcast to every screen and the other apps'
        hooks run once the change is committed."""
        # The broadcast first: its send is registered before the follow-ups', which the
        # tests' immediate backend runs on commit too (the analysis tells the screens it is
        # ready: after the move's own update, never before it). Before the broadcast, the
        # hooks of a move (what is read for the new version, kept for its pushes).
        if move is not None:
            for hook in _move_hooks:
                transaction.on_commit(partial(hook, self, move), robust=True)
        realtime.game_changed(self.pk, self.version, player_ids=self.player_ids(), by=by)
        snapshot = Transition.of(self)
        run_followups(snapshot)
        transaction.on_commit(lambda: run_after_commit_hooks(snapshot))

    def post_chat(self, author: object, text: str) -> ChatMessage:
        """A seated player (a user, or who they are to this game: ``Pov``) says something.
        One insert, broadcast on commit; the game row is not locked because chat does not
        change the game state or its version. At most ``CHAT_LINES_PER_MINUTE`` lines a
        minute per player, in all games together (``chat_too_fast``; the shared limiter,
        which lets chat through if the cache is down)."""
        pov = author if isinstance(author, Pov) else self.pov(author)
        if code := rules.chat_refusal(self, pov):
            raise GameError(code)
        assert pov.user is not None, "the rule lets only a seated player write"
        if not ratelimit.allow("chat", ratelimit.who(pov.user), limit=settings.CHAT_LINES_PER_MINUTE):
            raise GameError("chat_too_fast")
        with transaction.atomic():
            message = ChatMessage.objects.create(game=self, author=pov.user, text=text.strip())
            for notifier in _notifiers:
                notifier.record_chat(self, message)
            realtime.chat_posted(self.pk, message.pk)
        return message

    def send_turn_reminder(self, *, version: int, now: datetime | None = None) -> bool:
        """Warn the player to move that their time is running out: the most urgent warning
        of ``DEADLINE_WARNING_HOURS`` now due, at most one of each per turn, none longer
        than the turn itself (a one-day turn gets no "one day left" at its start).

        Bookkeeping beside the game, not a change of it (the version stays, so nobody's
        page goes stale): one conditional UPDATE claims the warning for ``version`` only
        if the game is still there and that warning was not recorded, and the warning is
        recorded in the same transaction as a notification (``games.notify``), delivered
        after the commit on every channel the player has, in their language and time zone."""
        now = now or timezone.now()
        for lead in sorted(settings.DEADLINE_WARNING_HOURS):
            if lead >= self.inactivity_days * 24:
                continue
            within = now + timedelta(hours=lead)
            with transaction.atomic():
                claimed = (
                    Game.objects.filter(
                        pk=self.pk, version=version, status=Game.Status.ACTIVE, turn_deadline__gt=now
                    )
                    .filter(turn_deadline__lte=within)
                    .filter(Q(warned_hours__isnull=True) | Q(warned_hours__gt=lead))
                    .update(warned_hours=lead, reminder_sent_at=now)
                )
                if claimed:
                    game = Game.objects.prefetch_related("seats__user").get(pk=self.pk)
                    assert game.turn_seat is not None
                    user = game.seat_user(game.turn_seat)
                    if user is not None:
                        for notifier in _notifiers:
                            notifier.record_deadline_warning(game, user)
            if claimed:
                self._reload(game)
                return True
            if self.turn_deadline is not None and self.turn_deadline <= within:
                return False  # this one was sent: the longer ones are past
        return False

    def next_warning_at(self, now: datetime) -> datetime | None:
        """When the next deadline warning of this turn falls due, if one is still to come."""
        if self.status != Game.Status.ACTIVE or self.turn_deadline is None:
            return None
        times = [
            self.turn_deadline - timedelta(hours=lead)
            for lead in settings.DEADLINE_WARNING_HOURS
            if lead < self.inactivity_days * 24 and (self.warned_hours is None or self.warned_hours > lead)
        ]
        later = [t for t in times if t > now]
        return min(later) if later else None

    def due_for_reminder(self, now: datetime) -> bool:
        return Game.objects.filter(pk=self.pk).due_for_reminder(now).exists()

    # ----- helpers (call with the row locked) -------------------------------------

    def seat_user(self, index: int) -> Any:
        for seat in self.seat_list():
            if seat.index == index:
                return seat.user
        return None

    def _start_turn_clock(self, state: engine.GameState, now: datetime) -> None:
        self.turn_seat = state.turn
        self.reminder_sent_at = None
        self.warned_hours = None
        self.turn_noticed_at = None
        self.deadline_extended = False
        if self.is_live:
            # The computer's clock runs too; the flag falls at the turn's deadline.
            if self.clock_ms is None:
                self.clock_ms = [self.clock_seconds * 1000] * state.players
            self.turn_started_at = now
            self.turn_deadline = clocks.flag_at(self.clock_ms[state.turn], now, self.overtime_minutes)
        elif self.computer_seat_to_move() is not None:
            self.turn_deadline = None
        else:
            self.turn_deadline = now + timedelta(days=self.inactivity_days)

    def _take_seats_from(self, read: Game) -> None:
        """The seats with their users (read many times by ``act``; not locked: a game's
        seats change only under this game row's lock): those ``read`` holds when it was
        read at this copy's version (every change of the seats, a score or a player
        joining, moves the version on), else read now, in one more query."""
        seats = getattr(read, "_prefetched_objects_cache", {}).get("seats")
        if seats is not None and read.version == self.version:
            # Copies: ``act`` changes scores, and a rolled-back action must leave the
            # caller's seats as they were.
            self._prefetched_objects_cache: dict[str, list[Seat]] = {"seats": [copy.copy(s) for s in seats]}
        else:
            models.prefetch_related_objects([self], seats_with_users())

    def _reload(self, fresh: Game) -> None:
        """Copy a locked, saved copy's fields onto ``self`` so callers see the new state,
        with its seats when it read them (they are saved as they are)."""
        for field in self._meta.concrete_fields:
            setattr(self, field.attname, getattr(fresh, field.attname))
        if hasattr(self, "_prefetched_objects_cache"):
            self._prefetched_objects_cache.clear()
        seats = getattr(fresh, "_prefetched_objects_cache", {}).get("seats")
        if seats is not None:
            self._prefetched_objects_cache = {"seats": seats}


class Seat(models.Model):
    """A place at the table: a user, or a computer player at ``computer_level``."""

    class Level(models.TextChoices):
        EASY = "easy", _("Easy")
        MEDIUM = "medium", _("Medium")
        HARD = "hard", _("Hard")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    index = models.PositiveSmallIntegerField(_("seat"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, null=True, blank=True, related_name="seats"
    )
    computer_level = models.CharField(_("computer level"), max_length=10, choices=Level.choices, blank=True)
    score = models.IntegerField(_("score"), default=0)

    class Meta:
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        ordering = ["game", "index"]
        # One player's games (the archive, their statistics).
        indexes = [models.Index(fields=["user", "game"], name="games_seat_user_game")]
        constraints = [
            models.UniqueConstraint(fields=["game", "index"], name="games_seat_unique_index"),
            models.UniqueConstraint(
                fields=["game", "user"], condition=Q(user__isnull=False), name="games_seat_unique_user"
            ),
            models.CheckConstraint(
                condition=(Q(user__isnull=False) & Q(computer_level=""))
                | (Q(user__isnull=True) & ~Q(computer_level="")),
                name="games_seat_user_xor_computer",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game_id}/{self.index}: {self.display_name}"

    @property
    def is_computer(self) -> bool:
        return self.user_id is None

    @property
    def display_name(self) -> str:
        if self.user_id is None:
            return gettext("Computer (%(level)s)") % {"level": self.get_computer_level_display()}
        return bot_label(str(self.user)) if getattr(self.user, "is_bot", False) else str(self.user)

    @property
    def player_gone(self) -> bool:
        """The seat's player deleted (or had deactivated) their account: no new game with
        them can ever be accepted."""
        return self.user is not None and not self.user.is_active


class Move(models.Model):
    """One recorded action of a game, in order: enough to replay and export it."""

    class Kind(models.TextChoices):
        PLAY = "play", _("Play")
        EXCHANGE = "exchange", _("Exchange")
        PASS = "pass", _("Pass")
        RESIGN = "resign", _("Resign")
        TIMEOUT = "timeout", _("Timeout")
        PENALTY = "penalty", _("Time penalty")
        CHALLENGE = "challenge", _("Challenge")
        ACCEPT = "accept", _("Accepted the last play")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="moves")
    number = models.PositiveIntegerField(_("number"))
    seat = models.PositiveSmallIntegerField(_("seat"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    kind = models.CharField(_("kind"), max_length=10, choices=Kind.choices)
    # [{"row", "col", "letter", "blank"}] and [{"word", "score", ...}] as the engine writes them.
    tiles = models.JSONField(_("tiles"), default=list, blank=True)
    words = models.JSONField(_("words"), default=list, blank=True)
    # " CAT AT " (every word formed, space-delimited): finds the games that played a word
    # with a plain substring query on every database.
    words_text = models.CharField(_("words formed"), max_length=400, blank=True)
    score = models.IntegerField(_("score"), default=0)
    bingo = models.BooleanField(_("bingo"), default=False)
    rack_before = models.CharField(_("rack before"), max_length=16, blank=True)
    rack_after = models.CharField(_("rack after"), max_length=16, blank=True)
    exchanged = models.CharField(_("exchanged tiles"), max_length=16, blank=True)
    # The engine's full MoveRecord.to_dict(), including the end of game if this move ended it.
    engine_record = models.JSONField(_("engine record"), default=dict)
    # The dictionary version a play's words were checked against (None: not a play).
    dictionary_version = models.PositiveIntegerField(_("dictionary version"), null=True, blank=True)
    # A live game's clocks right after this move (each seat's time left, ms): the replay's.
    clock_ms = models.JSONField(_("clocks after the move (ms)"), null=True, blank=True)
    # A challenge: the seat whose play was challenged (its score moves that seat's total)
    # and the words of it not in the dictionary (a phony, taken back), space-separated.
    challenged_seat = models.SmallIntegerField(_("challenged seat"), null=True, blank=True)
    invalid_words = models.CharField(_("words not in the dictionary"), max_length=200, blank=True)
    # A play challenged off the board afterwards (set by the challenge that took it back).
    withdrawn = models.BooleanField(_("withdrawn after a challenge"), default=False)
    created_at = models.DateTimeField(_("played at"), auto_now_add=True)

    class Meta:
        verbose_name = _("move")
        verbose_name_plural = _("moves")
        ordering = ["game", "number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="games_move_unique_number"),
        ]

    def __str__(self) -> str:
        return f"{self.game_id}#{self.number} {self.kind} {self.score}"

    @classmethod
    def record(
        cls,
        game: Game,
        played: engine.Played,
        *,
        user: User | None,
        dictionary_version: int | None,
        clock_ms: list[int] | None = None,
    ) -> Move:
        """Insert the row for ``played`` (call inside the locked transaction)."""
        rec = played.record
        return cls.objects.create(
            game=game,
            number=played.state.moves_played,
            seat=rec.seat,
            user=user,
            kind=rec.kind,
            tiles=[p.to_dict() for p in rec.placements],
            words=[w.to_dict() for w in rec.words],
            # A challenge's words are those of the play it challenged (counted there).
            words_text=f" {' '.join(w.word for w in rec.words)} " if rec.words and rec.kind == "play" else "",
            score=rec.score,
            bingo=rec.bingo,
            rack_before=rec.rack_before,
            rack_after=rec.rack_after,
            exchanged="".join(rec.exchanged),
            engine_record=rec.to_dict(),
            dictionary_version=dictionary_version,
            clock_ms=clock_ms,
            challenged_seat=rec.target,
            invalid_words=" ".join(rec.invalid),
        )

    @property
    def scored_seat(self) -> int:
        """The seat whose total this move's score changes: a challenge's is its target's."""
        return self.challenged_seat if self.challenged_seat is not None else self.seat

    def record_obj(self) -> engine.MoveRecord:
        return engine.MoveRecord.from_dict(self.engine_record)


class ExtraPurchase(models.Model):
    """A paid extra bought in a game: by which seat, for which period (a move number,
    ``games.extras``), and the coins ledger entry that paid for it (and the refund, if
    the game ended before it could be used). Both players see that it was bought."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="purchases")
    seat = models.PositiveSmallIntegerField(_("seat"))
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    extra = models.CharField(_("extra"), max_length=16, choices=[(e, e) for e in extras.EXTRAS])
    period = models.PositiveIntegerField(_("for move"))
    entry = models.OneToOneField("accounts.CoinEntry", on_delete=models.PROTECT, related_name="+")
    refund = models.OneToOneField(
        "accounts.CoinEntry", on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(_("bought"), auto_now_add=True)

    class Meta:
        verbose_name = _("extra bought")
        verbose_name_plural = _("extras bought")
        ordering = ["game", "period", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["game", "seat", "extra", "period"], name="games_purchase_once_per_period"
            )
        ]

    def __str__(self) -> str:
        return f"{self.game_id}: seat {self.seat} {self.extra} for move {self.period}"


class GameAction(models.Model):
    """Every action applied to a game, in order: who (a user; none for the system or the
    computer), which kind, the version it produced, the client's ``action_id`` (a
    repeated id is answered with this record instead of acting twice) and the Move it
    made, if it made one. ``seat``: the actor's seat, or for an ``Extend`` (the system's)
    the seat whose deadline it moved on, which the game's log names."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="actions")
    version = models.PositiveIntegerField(_("version after"))
    kind = models.CharField(_("kind"), max_length=16)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    seat = models.SmallIntegerField(_("seat"), null=True, blank=True)
    action_id = models.CharField(_("action id"), max_length=64, blank=True)
    move = models.OneToOneField(
        "Move", on_delete=models.CASCADE, null=True, blank=True, related_name="action"
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    # Not stored: who the action was admitted as, set by ``Game.act`` on the record it
    # returns (the API answers with the view of that point of view).
    pov: Pov | None = None

    class Meta:
        verbose_name = _("game action")
        verbose_name_plural = _("game actions")
        ordering = ["game", "version"]
        constraints = [
            models.UniqueConstraint(fields=["game", "version"], name="games_action_unique_version"),
            models.UniqueConstraint(
                fields=["game", "action_id"], condition=~Q(action_id=""), name="games_action_unique_id"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game_id}@{self.version} {self.kind}"


class ChatMessage(models.Model):
    """A line of chat between the players of a game. A moderator may hide it
    (``games.moderation.hide_chat_line``): the players then see "hidden by a moderator"
    in its place; the text stays for the moderation record."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="chat_messages")
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    text = models.CharField(_("text"), max_length=500)
    created_at = models.DateTimeField(_("sent at"), auto_now_add=True)
    hidden_at = models.DateTimeField(_("hidden"), null=True, blank=True, editable=False)
    hidden_reason = models.TextField(_("why it was hidden"), blank=True, editable=False)

    class Meta:
        verbose_name = _("chat message")
        verbose_name_plural = _("chat messages")
        ordering = ["game", "created_at", "pk"]

    def __str__(self) -> str:
        return f"{self.author}: {self.text[:40]}"


def create_seats(game: Game, players: Iterable[User | str]) -> None:
    """Seat ``players`` in order: a user, or a computer level string."""
    for index, player in enumerate(players):
        if isinstance(player, str):
            Seat.objects.create(game=game, index=index, computer_level=player)
        else:
            Seat.objects.create(game=game, index=index, user=player)
    # Seats read before (a prefetch) are stale now.
    getattr(game, "_prefetched_objects_cache", {}).pop("seats", None)


class GameAnalysis(models.Model):
    """The post-game analysis of a finished game (``games.analysis``), computed once by
    the ``analyse_game`` task and stored: one entry per rated move, totals per seat."""

    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="analysis")
    moves = models.JSONField(_("moves"), default=list)
    totals = models.JSONField(_("totals"), default=list)
    seconds = models.FloatField(_("computing time (s)"), default=0.0)
    computed_at = models.DateTimeField(_("computed"), auto_now_add=True)

    class Meta:
        verbose_name = _("game analysis")
        verbose_name_plural = _("game analyses")

    def __str__(self) -> str:
        return f"analysis of game {self.game_id}"


class FairPlayGame(models.Model):
    """One player's fair-play signals in one analysed rated game (``games.fairplay``):
    each move's rank among the legal plays and not playing, its share of the best score,
    and the seconds it took, as short lists in move order. Written with the game's
    analysis; ``games.moderation.review_fair_play`` reads a player's latest ones."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="fair_play")
    language = models.CharField(_("language"), max_length=8)
    finished_at = models.DateTimeField(_("finished"))
    ranks = models.JSONField(_("ranks"), default=list)
    shares = models.JSONField(_("shares of the best score"), default=list)
    seconds = models.JSONField(_("seconds per move"), default=list)

    class Meta:
        verbose_name = _("fair-play signals")
        verbose_name_plural = _("fair-play signals")
        ordering = ["user", "language", "-finished_at"]
        constraints = [
            models.UniqueConstraint(fields=["game", "user"], name="games_fair_play_once_per_player"),
        ]
        indexes = [models.Index(fields=["user", "language", "-finished_at"], name="games_fair_play_latest")]

    def __str__(self) -> str:
        return f"{self.user_id} {self.language} game {self.game_id}"


class StudyItem(models.Model):
    """A word a player could have played and did not (a missed bingo, or a play worth
    many more points), collected from their analysed games into a study list per game
    language; the quiz remembers how often it was answered right and wrong."""

    class Kind(models.TextChoices):
        BINGO = "bingo", _("Missed bingo")
        PLAY = "play", _("High-scoring play")
        WORD = "word", _("Word from a game's moves")

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="study_items")
    language = models.CharField(_("language"), max_length=8)
    word = models.CharField(_("word"), max_length=32)
    kind = models.CharField(_("kind"), max_length=8, choices=Kind.choices)
    rack = models.CharField(_("rack"), max_length=16)
    board_letters = models.CharField(_("letters on the board"), max_length=32, blank=True)
    score = models.IntegerField(_("score"))
    game = models.ForeignKey(Game, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    move_number = models.PositiveIntegerField(_("move"))
    right = models.PositiveIntegerField(_("answered right"), default=0)
    wrong = models.PositiveIntegerField(_("answered wrong"), default=0)
    last_answered_at = models.DateTimeField(_("last answered"), null=True, blank=True)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("study item")
        verbose_name_plural = _("study items")
        ordering = ["user", "language", "created_at"]
        constraints = [
            models.UniqueConstraint(fields=["user", "game", "move_number"], name="games_study_unique_move"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} {self.language} {self.word}"
