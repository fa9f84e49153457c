"""Games, their seats, their moves and their chat.

A ``Game`` stores the engine's state as JSON (``GameState.to_dict``) plus the columns
queries need (status, turn seat, deadline, version). Every state change is one model
method that opens a transaction, locks the game row with ``select_for_update``, calls
the engine, saves the new state with ``version + 1``, records a ``Move`` and schedules the
broadcast (``games.realtime``) for after the commit. The engine does the rules; this
module does persistence, permissions and time.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.mail import send_mail
from django.db import connection, models, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

import engine
from engine.errors import GAME_OVER
from engine.lexicon import Lexicon
from games import realtime

if TYPE_CHECKING:
    from accounts.models import User


class GameError(Exception):
    """An action refused by the site rather than by the rules (stale version, not a
    player, game not started). ``code`` keys ``games.messages.ERROR_MESSAGES``."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


class GameMovedOn(GameError):
    """The client acted on an old version of the game: someone else moved first."""

    def __init__(self) -> None:
        super().__init__("game_moved_on")


def lexicon_for(language: str, version: int | None = None) -> Lexicon:
    """The lexicon a game checks words against (the live one unless ``version`` pins
    another). One indirection so tests can substitute a small word list."""
    from dictionaries.lexicons import for_language

    return for_language(language, version=version)


def lexicon_version(lexicon: object) -> int | None:
    version = getattr(lexicon, "version", None)
    return version if isinstance(version, int) else None


def rng_for(seed: int, purpose: str, number: int = 0) -> random.Random:
    """A deterministic RNG for one use of a game's seed: dealing the bag (``deal``),
    the exchange at move ``number`` (``exchange``), the computer's choice (``computer``).
    Replaying a game from its seed and moves gives the same bag."""
    return random.Random(f"{seed}:{purpose}:{number}")


def lock_user(user: Any) -> None:
    """Lock ``user``'s row for the active-games count (call inside a transaction).

    ``FOR NO KEY UPDATE`` on PostgreSQL, not ``FOR UPDATE``: inserting a row that points
    at a user (a Seat, a Game, a Move) takes ``FOR KEY SHARE`` on that user, which
    ``FOR UPDATE`` blocks. With ``FOR UPDATE``, ana inviting ben while ben invites ana
    (or both asking for a rematch) deadlocked: each held their own row and waited for
    the other's to insert the other's seat.
    """
    no_key = connection.features.has_select_for_no_key_update
    get_user_model().objects.select_for_update(no_key=no_key).filter(pk=user.pk).first()


class GameQuerySet(models.QuerySet["Game"]):
    def for_player(self, user: Any) -> GameQuerySet:
        """Games where ``user`` has a seat (including friend invitations sent to them)."""
        if not getattr(user, "is_authenticated", False):
            return self.none()
        return self.filter(seats__user=user).distinct()

    def watchable_by(self, user: Any) -> GameQuerySet:
        """Games ``user`` may look at: their own (seated, or the open seek they created),
        and public games that have started. Anonymous users see nothing."""
        if not getattr(user, "is_authenticated", False):
            return self.none()
        public = Q(is_public=True, status__in=[Game.Status.ACTIVE, Game.Status.FINISHED])
        own = Q(pk__in=Seat.objects.filter(user=user).values("game_id")) | Q(created_by=user)
        return self.filter(own | public)

    def active_for(self, user: Any) -> GameQuerySet:
        """What counts against ``MAX_ACTIVE_GAMES``: games on, invitations, open seeks."""
        return self.filter(
            Q(pk__in=Seat.objects.filter(user=user).values("game_id"), status__in=Game.LIVE_STATUSES)
            | Q(created_by=user, status=Game.Status.OPEN)
        )

    def due_for_timeout(self, now: datetime) -> GameQuerySet:
        return self.filter(status=Game.Status.ACTIVE, turn_deadline__lte=now)

    def due_for_reminder(self, now: datetime) -> GameQuerySet:
        """Active games whose player to move has a day or less left and no reminder yet."""
        return self.filter(
            status=Game.Status.ACTIVE,
            turn_deadline__gt=now,
            turn_deadline__lte=now + timedelta(days=1),
            reminder_sent_at__isnull=True,
        )

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

    class EndReason(models.TextChoices):
        OUT = "out", _("A player went out")
        SCORELESS = "scoreless", _("Three scoreless turns")
        RESIGN = "resign", _("Resigned")
        TIMEOUT = "timeout", _("Ran out of time")

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
    turn_deadline = models.DateTimeField(_("turn deadline"), null=True, blank=True, db_index=True)
    reminder_sent_at = models.DateTimeField(_("reminder sent"), null=True, blank=True)
    end_reason = models.CharField(_("how it ended"), max_length=10, choices=EndReason.choices, blank=True)
    winner_seat = models.SmallIntegerField(_("winner seat"), null=True, blank=True)
    final_scores = models.JSONField(_("final scores"), null=True, blank=True)
    # None: always the live dictionary. A version string pins the game to that edition.
    dictionary_version = models.PositiveIntegerField(_("pinned dictionary version"), null=True, blank=True)
    is_public = models.BooleanField(_("public (spectators allowed)"), default=True)
    # Rated games change both players' ratings when they end (games.outcomes); never
    # against the computer, and paid extras are off in them.
    rated = models.BooleanField(_("rated"), default=False)
    rematch_of = models.ForeignKey(
        "self", on_delete=models.SET_NULL, null=True, blank=True, related_name="rematches"
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated"), auto_now=True)
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)

    objects = GameQuerySet.as_manager()

    class Meta:
        verbose_name = _("game")
        verbose_name_plural = _("games")
        ordering = ["-updated_at"]
        indexes = [models.Index(fields=["status", "language", "created_at"])]

    def __str__(self) -> str:
        return f"#{self.pk} {self.language} {self.mode} ({self.status})"

    # ----- reading -------------------------------------------------------------

    def state_obj(self) -> engine.GameState:
        return engine.GameState.from_dict(self.state)

    def seat_list(self) -> list[Seat]:
        """Seats in index order (uses a prefetch when there is one)."""
        return sorted(self.seats.all(), key=lambda s: s.index)

    def seat_of(self, user: Any) -> int | None:
        if not getattr(user, "is_authenticated", False):
            return None
        for seat in self.seat_list():
            if seat.user_id == user.pk:
                return seat.index
        return None

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

    def lexicon(self) -> Lexicon:
        return lexicon_for(self.language, self.dictionary_version)

    def computer_seat_to_move(self) -> Seat | None:
        if self.status != Game.Status.ACTIVE or self.turn_seat is None:
            return None
        for seat in self.seat_list():
            if seat.index == self.turn_seat and seat.is_computer:
                return seat
        return None

    def preview(self, user: Any, placements: list[engine.Placement]) -> engine.Evaluation:
        """Validate and score ``placements`` for ``user``'s rack on the current board
        with the live lexicon, changing nothing (the free word-value preview). Raises
        ``IllegalMove`` or ``GameError``; no lock, nothing saved."""
        seat = self.seat_of(user)
        if seat is None:
            raise GameError("not_a_player")
        if self.status != Game.Status.ACTIVE:
            raise GameError("not_started") if self.status != Game.Status.FINISHED else GameError(GAME_OVER)
        state = self.state_obj()
        return engine.evaluate(
            state.board,
            placements,
            tileset=state.tileset,
            layout=engine.layout(state.layout),
            lexicon=self.lexicon(),
            rack=state.racks[seat],
        )

    # ----- state changes (each: one transaction, the row locked) ---------------

    def play(
        self,
        user: Any,
        placements: list[engine.Placement],
        *,
        version: int | None = None,
        action_id: str = "",
    ) -> Move:
        """Play tiles for ``user``. Opens a transaction, locks the game row, checks the
        version, calls ``engine.play`` with the game's lexicon, saves, records the Move
        and broadcasts on commit. Raises ``IllegalMove`` or ``GameError`` (nothing saved)."""

        def act(game: Game, state: engine.GameState, seat: int) -> tuple[engine.Played, int | None]:
            lexicon = game.lexicon()
            return engine.play(state, seat, placements, lexicon), lexicon_version(lexicon)

        return self._act(user, act, version=version, action_id=action_id)

    def exchange(self, user: Any, tiles: str, *, version: int | None = None, action_id: str = "") -> Move:
        """Exchange ``tiles`` (rack letters, ``?`` for a blank). Locks like :meth:`play`;
        the bag is shuffled with an RNG derived from the seed and the move number."""

        def act(game: Game, state: engine.GameState, seat: int) -> tuple[engine.Played, int | None]:
            rng = rng_for(game.seed, "exchange", state.moves_played)
            return engine.exchange(state, seat, list(tiles), rng), None

        return self._act(user, act, version=version, action_id=action_id)

    def pass_turn(self, user: Any, *, version: int | None = None, action_id: str = "") -> Move:
        """Pass. Locks like :meth:`play`."""
        return self._act(
            user,
            lambda game, state, seat: (engine.pass_turn(state, seat), None),
            version=version,
            action_id=action_id,
        )

    def resign(self, user: Any, *, version: int | None = None, action_id: str = "") -> Move:
        """Resign (allowed on either player's turn). Locks like :meth:`play`."""
        return self._act(
            user,
            lambda game, state, seat: (engine.resign(state, seat), None),
            version=version,
            action_id=action_id,
        )

    def timeout(self, *, now: datetime | None = None) -> Move | None:
        """End the game because the player to move let their deadline pass. Locks the
        row and re-checks the deadline under the lock, so a move made meanwhile wins;
        returns None when there was nothing to do."""
        now = now or timezone.now()
        with transaction.atomic():
            game = Game.objects.select_for_update().get(pk=self.pk)
            if game.status != Game.Status.ACTIVE or game.turn_deadline is None or game.turn_deadline > now:
                return None
            assert game.turn_seat is not None
            state = game.state_obj()
            played = engine.timeout(state, game.turn_seat)
            move = game._commit(
                played, user=game.seat_user(game.turn_seat), action_id="", dictionary_version=None
            )
        self._reload(game)
        return move

    def play_computer(self, decision: dict[str, Any], *, version: int) -> Move | None:
        """Apply the computer's ``decision`` (from ``games.thinking.think``) if the game is
        still at ``version`` with a computer to move. Locks the row like :meth:`play`.
        Returns None when the game moved on meanwhile (a duplicate or stale job)."""
        with transaction.atomic():
            game = Game.objects.select_for_update().get(pk=self.pk)
            seat = game.computer_seat_to_move()
            if game.version != version or seat is None:
                return None
            state = game.state_obj()
            lexicon_used: int | None = None
            kind = decision["kind"]
            if kind == "play":
                lexicon = game.lexicon()
                lexicon_used = lexicon_version(lexicon)
                placements = [engine.Placement.from_dict(p) for p in decision["placements"]]
                played = engine.play(state, seat.index, placements, lexicon)
            elif kind == "exchange":
                rng = rng_for(game.seed, "exchange", state.moves_played)
                played = engine.exchange(state, seat.index, list(decision["tiles"]), rng)
            else:
                played = engine.pass_turn(state, seat.index)
            move = game._commit(played, user=None, action_id="", dictionary_version=lexicon_used)
        self._reload(game)
        return move

    def accept(self, user: Any) -> None:
        """The invited friend accepts: the game starts. Locks the row; broadcasts on commit.
        Raises ``GameError`` if ``user`` is not the invitee of a pending invitation or has
        reached the active-games limit."""
        with transaction.atomic():
            game = Game.objects.select_for_update().get(pk=self.pk)
            invitee = game.invitee
            if game.status != Game.Status.INVITED or invitee is None or invitee.pk != user.pk:
                raise GameError("not_invited")
            # Two invitations accepted at once must not both pass the limit.
            lock_user(user)
            limit = settings.MAX_ACTIVE_GAMES
            if Game.objects.active_for(user).exclude(pk=game.pk).count() >= limit:
                raise GameError("too_many_games")
            game.status = Game.Status.ACTIVE
            game._start_turn_clock(game.state_obj())
            game.version += 1
            game.save()
            realtime.game_changed(game.pk, game.version, player_ids=game.player_ids())
        self._reload(game)

    def decline(self, user: Any) -> None:
        """The invitee declines an invitation, or its creator withdraws it or their open
        seek. Locks the row; broadcasts on commit. Raises ``GameError`` otherwise."""
        with transaction.atomic():
            game = Game.objects.select_for_update().get(pk=self.pk)
            invitee = game.invitee
            may = (
                game.status == Game.Status.INVITED
                and user.pk in {game.created_by_id, getattr(invitee, "pk", None)}
            ) or (game.status == Game.Status.OPEN and user.pk == game.created_by_id)
            if not may:
                raise GameError("not_invited")
            game.status = Game.Status.DECLINED
            game.turn_seat = None
            game.turn_deadline = None
            game.version += 1
            game.save()
            realtime.game_changed(game.pk, game.version, player_ids=game.player_ids())
        self._reload(game)

    def post_chat(self, user: Any, text: str) -> ChatMessage:
        """A seated player says something. One insert, broadcast on commit; the game row
        is not locked because chat does not change the game state or its version."""
        if self.seat_of(user) is None:
            raise GameError("not_a_player")
        with transaction.atomic():
            message = ChatMessage.objects.create(game=self, author=user, text=text.strip())
            realtime.chat_posted(self.pk, message.pk)
        return message

    def send_turn_reminder(self, *, now: datetime | None = None) -> bool:
        """E-mail the player to move that their time runs out within a day, once per turn.
        Locks the row and re-checks under the lock; the mail is sent inside the
        transaction so that a failed send leaves the reminder due for the next run."""
        now = now or timezone.now()
        with transaction.atomic():
            game = Game.objects.select_for_update().get(pk=self.pk)
            if not game.due_for_reminder(now):
                return False
            assert game.turn_seat is not None
            user = game.seat_user(game.turn_seat)
            game.reminder_sent_at = now
            game.save(update_fields=["reminder_sent_at", "updated_at"])
            if user is not None and user.email:
                assert game.turn_deadline is not None
                send_mail(
                    subject=gettext("Your turn in Wordgame game #%(id)s") % {"id": game.pk},
                    message=gettext(
                        "It is your turn in game #%(id)s. If you do not play, pass or swap by "
                        "%(deadline)s (UTC), the game ends as a loss by timeout."
                    )
                    % {"id": game.pk, "deadline": game.turn_deadline.strftime("%Y-%m-%d %H:%M")},
                    from_email=None,
                    recipient_list=[user.email],
                )
        self._reload(game)
        return True

    def due_for_reminder(self, now: datetime) -> bool:
        return (
            self.status == Game.Status.ACTIVE
            and self.reminder_sent_at is None
            and self.turn_deadline is not None
            and now < self.turn_deadline <= now + timedelta(days=1)
        )

    # ----- helpers for the methods above (call with the row locked) ------------

    def seat_user(self, index: int) -> Any:
        for seat in self.seat_list():
            if seat.index == index:
                return seat.user
        return None

    def _act(
        self,
        user: Any,
        action: Callable[[Game, engine.GameState, int], tuple[engine.Played, int | None]],
        *,
        version: int | None,
        action_id: str,
    ) -> Move:
        """The shared body of a player's action. Opens a transaction and locks the row.

        Order matters: a repeated ``action_id`` returns the Move it already made (even
        though its version is now stale), then the version is checked, then who may act.
        """
        with transaction.atomic():
            game = Game.objects.select_for_update().get(pk=self.pk)
            if action_id and (done := game.moves.filter(action_id=action_id).first()) is not None:
                self._reload(game)
                return done
            if version is not None and version != game.version:
                raise GameMovedOn()
            seat = game.seat_of(user)
            if seat is None:
                raise GameError("not_a_player")
            if game.status in (Game.Status.INVITED, Game.Status.OPEN):
                raise GameError("not_started")
            if game.status == Game.Status.DECLINED:
                raise GameError("declined")
            played, dictionary_version = action(game, game.state_obj(), seat)
            move = game._commit(played, user=user, action_id=action_id, dictionary_version=dictionary_version)
        self._reload(game)
        return move

    def _commit(
        self, played: engine.Played, *, user: Any, action_id: str, dictionary_version: int | None
    ) -> Move:
        """Save the engine's new state, record the move, schedule the broadcast and, when
        a computer is to move next, its reply. Call inside a transaction with the row locked."""
        state = played.state
        move = Move.record(
            self, played, user=user, action_id=action_id, dictionary_version=dictionary_version
        )
        for seat in self.seat_list():
            if seat.score != state.scores[seat.index]:
                seat.score = state.scores[seat.index]
                seat.save(update_fields=["score"])
        self.state = state.to_dict()
        self.version += 1
        if state.over:
            assert state.end is not None
            self.status = Game.Status.FINISHED
            self.end_reason = state.end.reason
            self.winner_seat = state.end.winner
            self.final_scores = list(state.end.final_scores)
            self.finished_at = timezone.now()
            self.turn_seat = None
            self.turn_deadline = None
        else:
            self._start_turn_clock(state)
        self.save()
        realtime.game_changed(self.pk, self.version, player_ids=self.player_ids())
        if self.computer_seat_to_move() is not None:
            from games import computer  # computer imports models: import here, not at the top

            game_id, version = self.pk, self.version
            transaction.on_commit(lambda: computer.schedule(game_id, version))
        return move

    def _start_turn_clock(self, state: engine.GameState) -> None:
        self.turn_seat = state.turn
        self.reminder_sent_at = None
        if self.computer_seat_to_move() is not None:
            self.turn_deadline = None
        else:
            self.turn_deadline = timezone.now() + timedelta(days=self.inactivity_days)

    def _reload(self, fresh: Game) -> None:
        """Copy a locked, saved copy's fields onto ``self`` so callers see the new state."""
        for field in self._meta.concrete_fields:
            setattr(self, field.attname, getattr(fresh, field.attname))
        if hasattr(self, "_prefetched_objects_cache"):
            self._prefetched_objects_cache.clear()


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
        return str(self.user)


class Move(models.Model):
    """One recorded action of a game, in order: enough to replay and export it."""

    class Kind(models.TextChoices):
        PLAY = "play", _("Play")
        EXCHANGE = "exchange", _("Exchange")
        PASS = "pass", _("Pass")
        RESIGN = "resign", _("Resign")
        TIMEOUT = "timeout", _("Timeout")

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
    # Client-generated id of the POST that made this move: a retried POST finds it and is
    # not applied twice.
    action_id = models.CharField(_("action id"), max_length=64, blank=True)
    created_at = models.DateTimeField(_("played at"), auto_now_add=True)

    class Meta:
        verbose_name = _("move")
        verbose_name_plural = _("moves")
        ordering = ["game", "number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="games_move_unique_number"),
            models.UniqueConstraint(
                fields=["game", "action_id"], condition=~Q(action_id=""), name="games_move_unique_action"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game_id}#{self.number} {self.kind} {self.score}"

    @classmethod
    def record(
        cls, game: Game, played: engine.Played, *, user: Any, action_id: str, dictionary_version: int | None
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
            words_text=f" {' '.join(w.word for w in rec.words)} " if rec.words else "",
            score=rec.score,
            bingo=rec.bingo,
            rack_before=rec.rack_before,
            rack_after=rec.rack_after,
            exchanged="".join(rec.exchanged),
            engine_record=rec.to_dict(),
            dictionary_version=dictionary_version,
            action_id=action_id,
        )

    def record_obj(self) -> engine.MoveRecord:
        return engine.MoveRecord.from_dict(self.engine_record)


class ChatMessage(models.Model):
    """A line of chat between the players of a game."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="chat_messages")
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    text = models.CharField(_("text"), max_length=500)
    created_at = models.DateTimeField(_("sent at"), auto_now_add=True)

    class Meta:
        verbose_name = _("chat message")
        verbose_name_plural = _("chat messages")
        ordering = ["game", "created_at", "pk"]

    def __str__(self) -> str:
        return f"{self.author}: {self.text[:40]}"


def create_seats(game: Game, players: Iterable[Any | str]) -> None:
    """Seat ``players`` in order: a user, or a computer level string."""
    for index, player in enumerate(players):
        if isinstance(player, str):
            Seat.objects.create(game=game, index=index, computer_level=player)
        else:
            Seat.objects.create(game=game, index=index, user=player)
