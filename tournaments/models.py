"""Tournaments: their players, rounds, tables and the organiser's action log.

The log (``TournamentEvent``) is the record: every organiser action appends one event
(who, when, what, why) and is never edited or deleted. ``Registration``, ``Round`` and
``Pairing`` are what those events made, kept as rows so pages and exports can query
them; ``tournaments.replay`` rebuilds the same tables and standings from the events and
the games alone (tested). Every change goes through ``tournaments.services``, which
locks the tournament row, appends the event and updates these rows in one transaction.

Players' rating-body memberships (``PlayerMembership``) belong to the player and are
copied into nothing: a registration may override the member number and rating for one
tournament.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from accounts.models import bot_label
from games.models import Game
from tournaments import pairing


class RatingBody(models.TextChoices):
    NASPA = "naspa", "NASPA"
    ABSP = "absp", "ABSP"
    WESPA = "wespa", "WESPA"


class PlayerMembership(models.Model):
    """A player's member number and rating with one rating body."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships")
    body = models.CharField(_("rating body"), max_length=8, choices=RatingBody.choices)
    number = models.CharField(_("member number"), max_length=32, blank=True)
    rating = models.PositiveIntegerField(_("rating"), null=True, blank=True)
    updated_at = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        verbose_name = _("rating-body membership")
        verbose_name_plural = _("rating-body memberships")
        ordering = ["user", "body"]
        constraints = [models.UniqueConstraint(fields=["user", "body"], name="tournaments_membership_unique")]

    def __str__(self) -> str:
        return f"{self.user} {self.get_body_display()} {self.number}"


class Tournament(models.Model):
    """A tournament run by its organiser (``created_by``)."""

    class System(models.TextChoices):
        ROUND_ROBIN = pairing.ROUND_ROBIN, _("Round robin")
        DOUBLE_ROUND_ROBIN = pairing.DOUBLE_ROUND_ROBIN, _("Double round robin")
        SWISS = pairing.SWISS, _("Swiss")

    class Adjudication(models.TextChoices):
        AS_THEY_STAND = "standing", _("scored as they stand")
        FORFEIT = "forfeit", _("forfeited by both players")

    class Status(models.TextChoices):
        REGISTRATION = "registration", _("Open for registration")
        RUNNING = "running", _("In progress")
        FINISHED = "finished", _("Finished")

    name = models.CharField(_("name"), max_length=100)
    language = models.CharField(_("game language"), max_length=8)
    system = models.CharField(_("pairing system"), max_length=20, choices=System.choices)
    rounds = models.PositiveSmallIntegerField(_("number of rounds"))
    days_per_move = models.PositiveSmallIntegerField(_("days per move"))
    # Whether the games count for the site's ratings: recorded here, and handed to each
    # game once games have a "rated" switch of their own.
    rated = models.BooleanField(_("rated on the site"), default=True)
    starts_at = models.DateTimeField(_("start time"))
    # None: no check-in. Otherwise players check in from then until the first round is
    # paired, and those who have not are withdrawn then.
    checkin_opens_at = models.DateTimeField(_("check-in opens"), null=True, blank=True)
    # Blank until the start: then the version the organiser chose, or the one current
    # at the start. Never changed afterwards.
    dictionary_version = models.PositiveIntegerField(_("dictionary version"), null=True, blank=True)
    rating_body = models.CharField(_("rating body"), max_length=8, choices=RatingBody.choices, blank=True)
    bye_spread = models.PositiveSmallIntegerField(_("spread of a bye"))
    # What clubs add to a Swiss (``pairing.Options``); refused for a round robin.
    king_of_the_hill = models.BooleanField(_("King of the Hill in the last round"), default=False)
    gibsonize = models.BooleanField(_("Gibsonisation"), default=False)
    prize_places = models.PositiveSmallIntegerField(_("prize places"), default=1)
    # Prizes by rating band: the caps (a prize for the best player rated below each).
    prize_bands = models.JSONField(_("rating-band prizes"), default=list, blank=True)
    # Rounds that run themselves: the next round paired and started as soon as every
    # table of the current one has a result; and/or a time limit per round, when
    # unfinished games are adjudicated by ``adjudication``.
    auto_rounds = models.BooleanField(_("next round by itself"), default=False)
    round_hours = models.PositiveSmallIntegerField(_("hours per round"), null=True, blank=True)
    # The games' "no forfeit without a warning" (games.rules._extendable): a turn that
    # lapses before any warning reached the player moves on once by a day. Off unless
    # the organiser turns it on, since it may stall a round.
    no_forfeit_without_warning = models.BooleanField(_("no forfeit without a warning"), default=False)
    adjudication = models.CharField(
        _("unfinished games at the time limit"),
        max_length=8,
        choices=Adjudication.choices,
        default=Adjudication.AS_THEY_STAND,
    )
    forfeit_spread = models.PositiveSmallIntegerField(_("spread of a forfeit"))
    status = models.CharField(
        _("status"), max_length=12, choices=Status.choices, default=Status.REGISTRATION, db_index=True
    )
    current_round = models.PositiveSmallIntegerField(_("current round"), default=0)
    # The rules every game of the tournament is dealt with (``games.models.Game``'s
    # preset and challenge rule; ``engine.preset``), named in its exports.
    rules_preset = models.CharField(
        _("rules"), max_length=10, choices=Game.Preset.choices, default=Game.Preset.WWF
    )
    challenge_rule = models.CharField(
        _("challenge rule"), max_length=8, choices=Game.ChallengeRule.choices, default=Game.ChallengeRule.VOID
    )
    # A round robin's rounds regenerated after a late entry: [[round, [[first, second
    # or None], ...]], ...] by player number; empty: the circle method's schedule.
    schedule = models.JSONField(_("regenerated rounds"), default=list, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="tournaments_organised"
    )
    # A division is a tournament of its own (players, pairings, standings, log, files)
    # within an event; ``division_code`` is its TSH division name and file stem ("a").
    event = models.ForeignKey(
        "self", on_delete=models.PROTECT, null=True, blank=True, related_name="divisions"
    )
    division_code = models.CharField(_("division"), max_length=8, blank=True)
    # The ratings a division takes when players register for the event (None: open).
    rating_min = models.PositiveIntegerField(_("lowest rating"), null=True, blank=True)
    rating_max = models.PositiveIntegerField(_("highest rating"), null=True, blank=True)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        ordering = ["-starts_at", "-pk"]

    def __str__(self) -> str:
        return self.name

    def run_by(self, user: Any) -> bool:
        """May ``user`` run this tournament (register others, pair, override)? Its
        organiser while they hold the organisers' permission, and superusers."""
        if not getattr(user, "is_authenticated", False):
            return False
        if user.is_superuser:
            return True
        return bool(user.pk == self.created_by_id and user.has_perm("tournaments.change_tournament"))

    def takes_rating(self, rating: int) -> bool:
        """Is ``rating`` within this division's band?"""
        return (self.rating_min is None or rating >= self.rating_min) and (
            self.rating_max is None or rating <= self.rating_max
        )

    @property
    def is_round_robin(self) -> bool:
        return self.system in (self.System.ROUND_ROBIN, self.System.DOUBLE_ROUND_ROBIN)

    def regenerated_rounds(self) -> dict[int, list[pairing.Pair]]:
        return {int(n): [pairing.Pair(a, b) for a, b in tables] for n, tables in self.schedule}

    def pairing_options(self) -> pairing.Options:
        return pairing.Options(
            rounds=self.rounds,
            king_of_the_hill=self.king_of_the_hill,
            gibsonize=self.gibsonize,
            prizes=self.prize_places,
        )


class Registration(models.Model):
    """A player in a tournament. ``number`` (their TSH player number) is given at the
    start in seed order, or on entry for a late entrant."""

    class Status(models.TextChoices):
        ACTIVE = "active", _("Playing")
        WITHDRAWN = "withdrawn", _("Withdrawn")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="registrations")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="registrations")
    number = models.PositiveSmallIntegerField(_("player number"), null=True, blank=True)
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.ACTIVE)
    # Set by the organiser for this tournament; blank/None: the player's membership.
    member_number = models.CharField(_("member number"), max_length=32, blank=True)
    rating = models.PositiveIntegerField(_("rating"), null=True, blank=True)
    registered_at = models.DateTimeField(_("registered"), auto_now_add=True)
    checked_in_at = models.DateTimeField(_("checked in"), null=True, blank=True)
    # "Last, First" set by the organiser for this tournament; blank: the player's own.
    real_name = models.CharField(_("real name"), max_length=150, blank=True)

    class Meta:
        verbose_name = _("registration")
        verbose_name_plural = _("registrations")
        ordering = ["tournament", "number", "registered_at", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "user"], name="tournaments_registration_unique_user"
            ),
            models.UniqueConstraint(
                fields=["tournament", "number"],
                condition=Q(number__isnull=False),
                name="tournaments_registration_unique_number",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.tournament_id}/{self.number or '-'} {self.user}"

    @property
    def is_active(self) -> bool:
        return self.status == self.Status.ACTIVE

    @property
    def name(self) -> str:
        return self.real_name or player_name(self.user)

    @property
    def shown_name(self) -> str:
        """The name on the site's pages: a bot's says it is one (never in the files)."""
        return bot_label(self.name) if getattr(self.user, "is_bot", False) else self.name

    @property
    def has_real_name(self) -> bool:
        return bool(self.real_name) or has_real_name(self.user)


def has_real_name(user: Any) -> bool:
    return bool(
        (getattr(user, "first_name", "") or "").strip() and (getattr(user, "last_name", "") or "").strip()
    )


def player_name(user: Any) -> str:
    """The name a player has in tournament files: "Last, First" when both are set (as
    rating bodies list players), otherwise their username."""
    first, last = (
        (getattr(user, "first_name", "") or "").strip(),
        (getattr(user, "last_name", "") or "").strip(),
    )
    if first and last:
        return f"{last}, {first}"
    return str(user.username)


class Round(models.Model):
    """A round: paired (tables shown, still open to pairing overrides), then started
    (its games created)."""

    class Status(models.TextChoices):
        PAIRED = "paired", _("Paired")
        STARTED = "started", _("Started")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="round_set")
    number = models.PositiveSmallIntegerField(_("round"))
    status = models.CharField(_("status"), max_length=8, choices=Status.choices, default=Status.PAIRED)
    paired_at = models.DateTimeField(_("paired"), auto_now_add=True)
    started_at = models.DateTimeField(_("started"), null=True, blank=True)
    # When the round's time is up (tournaments with a time limit per round).
    deadline = models.DateTimeField(_("time limit"), null=True, blank=True)

    class Meta:
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="tournaments_round_unique")
        ]

    def __str__(self) -> str:
        return f"{self.tournament_id} round {self.number}"


class Pairing(models.Model):
    """One table of a round: ``first`` moves first against ``second`` (None: a bye), in
    ``game`` once the round has started. An organiser's result override, when there is
    one, replaces what the game says."""

    class Override(models.TextChoices):
        NONE = "", _("none")
        SCORES = "scores", _("scores set by the organiser")
        FORFEIT = "forfeit", _("forfeit")

    class Absent(models.TextChoices):
        NONE = "", _("nobody")
        FIRST = "first", _("the player going first")
        SECOND = "second", _("the player going second")
        BOTH = "both", _("both players")

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="pairings")
    table = models.PositiveSmallIntegerField(_("table"))
    first = models.ForeignKey(Registration, on_delete=models.PROTECT, related_name="+")
    second = models.ForeignKey(
        Registration, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    game = models.OneToOneField(
        "games.Game", on_delete=models.PROTECT, null=True, blank=True, related_name="tournament_pairing"
    )
    override = models.CharField(_("result override"), max_length=8, choices=Override.choices, blank=True)
    first_score = models.IntegerField(_("first player's score"), null=True, blank=True)
    second_score = models.IntegerField(_("second player's score"), null=True, blank=True)
    absent = models.CharField(_("absent"), max_length=8, choices=Absent.choices, blank=True)

    class Meta:
        verbose_name = _("pairing")
        verbose_name_plural = _("pairings")
        ordering = ["round", "table"]
        constraints = [models.UniqueConstraint(fields=["round", "table"], name="tournaments_pairing_unique")]

    def __str__(self) -> str:
        return f"{self.round} table {self.table}"

    @property
    def is_bye(self) -> bool:
        return self.second_id is None


class TournamentEventQuerySet(models.QuerySet["TournamentEvent"]):
    def update(self, **kwargs: Any) -> int:
        raise TypeError("tournament events are append-only")

    def delete(self) -> tuple[int, dict[str, int]]:
        raise TypeError("tournament events are append-only")


class TournamentEvent(models.Model):
    """One entry of a tournament's append-only log: who did what, when and why.

    ``data`` holds what the action did in plain values (registration ids, game ids,
    scores), enough for ``tournaments.replay`` to rebuild the tournament. Saving an
    existing event or deleting one raises ``TypeError``.
    """

    class Kind(models.TextChoices):
        CREATED = "created", _("Tournament created")
        REGISTERED = "registered", _("Player registered")
        CHECKED_IN = "checked_in", _("Player checked in")
        WITHDRAWN = "withdrawn", _("Player withdrawn")
        REINSTATED = "reinstated", _("Player reinstated")
        RATING_SET = "rating_set", _("Member number and rating set")
        NAME_SET = "name_set", _("Real name set")
        PRIZES_SET = "prizes_set", _("Prizes by rating band set")
        STARTED = "started", _("Tournament started")
        ROUND_PAIRED = "round_paired", _("Round paired")
        PAIRING_OVERRIDDEN = "pairing_overridden", _("Pairing changed")
        ROUND_STARTED = "round_started", _("Round started")
        RESULT_OVERRIDDEN = "result_overridden", _("Result changed")
        FINISHED = "finished", _("Tournament finished")
        DIVISION_ADDED = "division_added", _("Division added")
        MOVED = "moved", _("Player moved to another division")

    # PROTECT: a tournament with a log cannot be deleted, so its log never is.
    tournament = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="events")
    sequence = models.PositiveIntegerField(_("number"))
    kind = models.CharField(_("kind"), max_length=20, choices=Kind.choices)
    # None: the site itself (a tournament finishing when its last game ends).
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    reason = models.CharField(_("reason"), max_length=300, blank=True)
    data = models.JSONField(_("data"), default=dict, blank=True)
    created_at = models.DateTimeField(_("when"), auto_now_add=True)

    objects = TournamentEventQuerySet.as_manager()

    class Meta:
        verbose_name = _("tournament event")
        verbose_name_plural = _("tournament events")
        ordering = ["tournament", "sequence"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "sequence"], name="tournaments_event_unique_sequence"
            )
        ]

    def __str__(self) -> str:
        return f"{self.tournament_id}#{self.sequence} {self.kind}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if self.pk is not None:
            raise TypeError("tournament events are append-only")
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> tuple[int, dict[str, int]]:
        raise TypeError("tournament events are append-only")
