"""Every change to a tournament, one function each (STYLE.md 3.4).

Each function locks the tournament row (``select_for_update``; SQLite's IMMEDIATE
transactions serialise writers), checks who may do it and whether it can be done now,
appends one ``TournamentEvent`` (who, what, why), updates the rows it made
(registrations, rounds, tables), and tells the tournament's page after the commit. A
refusal raises ``TournamentError`` with nothing changed. Games are created through
``games.services.start_paired_game``; ``games`` tells us that one finished through the
after-commit hook registered in ``TournamentsConfig.ready`` (:func:`on_game_committed`).

Lock order: the tournament row first, then the game rows its round creates.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.models import Group, Permission
from django.db import transaction
from django.db.models import Max
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext

import engine
from dictionaries.lexicons import current_version
from games.hooks import GameNote
from games.models import Game, GameError, Transition, rules_for
from games.notify import game_path, player_name
from games.services import start_paired_game
from notifications.models import Kind as NoteKind
from notifications.services import Note, notify_each
from tournaments import pairing, realtime
from tournaments.models import (
    Pairing,
    PlayerMembership,
    RatingBody,
    Registration,
    Round,
    Tournament,
    TournamentEvent,
)
from tournaments.replay import Snapshot, replay
from tournaments.standings import (
    GameFacts,
    Outcome,
    Rules,
    Standing,
    player_results,
    standings,
    table_outcome,
)

logger = logging.getLogger(__name__)
Kind = TournamentEvent.Kind


class TournamentError(Exception):
    """A refused tournament action; ``code`` keys ``tournaments.messages``."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(code)
        self.code = code
        self.params = params


# ----- helpers -------------------------------------------------------------------------


#: Enqueues a round's time limit, ``(tournament id, round number, when)``: registered by
#: ``tournaments.tasks`` (from ``TournamentsConfig.ready``), whose task calls back into
#: this module, so that services never import tasks.
_round_close: list[Callable[[int, int, datetime], None]] = []


def register_round_close(schedule: Callable[[int, int, datetime], None]) -> None:
    _round_close[:] = [schedule]


def schedule_round_close(tournament_id: int, round_number: int, at: datetime) -> None:
    """Enqueue the round's time limit, inside the caller's transaction (the task queue is
    in the same database: it commits with the round or not at all)."""
    for schedule in _round_close:
        schedule(tournament_id, round_number, at)


def _locked(tournament: Tournament) -> Tournament:
    locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
    return locked


def _log(
    tournament: Tournament, kind: str, *, actor: Any, data: dict[str, Any], reason: str = ""
) -> TournamentEvent:
    """Append an event (call with the tournament row locked: the sequence is max + 1)."""
    last = tournament.events.aggregate(last=Max("sequence"))["last"] or 0
    return TournamentEvent.objects.create(
        tournament=tournament, sequence=last + 1, kind=kind, actor=actor, data=data, reason=reason.strip()
    )


def _require_organiser(tournament: Tournament, user: Any) -> None:
    if not tournament.run_by(user):
        raise TournamentError("not_organiser")


def _require_reason(reason: str) -> None:
    if not reason.strip():
        raise TournamentError("reason_required")


def _refresh(target: Tournament, locked: Tournament) -> None:
    for f in Tournament._meta.concrete_fields:
        setattr(target, f.attname, getattr(locked, f.attname))


# ----- creating and registering --------------------------------------------------------


def create_tournament(
    *,
    organiser: Any,
    name: str,
    language: str,
    system: str,
    rounds: int,
    days_per_move: int,
    starts_at: datetime,
    rated: bool = True,
    dictionary_version: int | None = None,
    rating_body: str = "",
    bye_spread: int | None = None,
    forfeit_spread: int | None = None,
    king_of_the_hill: bool = False,
    gibsonize: bool = False,
    prize_places: int | None = 1,
    checkin_opens_at: datetime | None = None,
    auto_rounds: bool = False,
    round_hours: int | None = None,
    adjudication: str = "standing",
    prize_bands: Sequence[int] = (),
    no_forfeit_without_warning: bool = False,
    rules_preset: str = "wwf",
    challenge_rule: str = "void",
) -> Tournament:
    """A new tournament in registration, organised by ``organiser`` (who needs the
    organisers' permission to add tournaments). ``dictionary_version`` None: the version
    current when the tournament starts. ``rules_preset`` and ``challenge_rule``: the
    rules its games are played by (``engine.preset``; refused with ``bad_rules`` when
    the language has no tiles for them)."""
    if not organiser.has_perm("tournaments.add_tournament"):
        raise TournamentError("not_allowed_to_create")
    if language not in engine.LANGUAGES:
        raise TournamentError("bad_language")
    if system not in pairing.SYSTEMS:
        raise TournamentError("bad_system")
    if rounds < 1:
        raise TournamentError("bad_rounds")
    if days_per_move < 1:
        raise TournamentError("bad_days")
    if (king_of_the_hill or gibsonize) and system != pairing.SWISS:
        raise TournamentError("options_need_swiss")
    if checkin_opens_at is not None and checkin_opens_at >= starts_at:
        raise TournamentError("bad_checkin")
    adjudication = adjudication or Tournament.Adjudication.AS_THEY_STAND
    if adjudication not in Tournament.Adjudication.values:
        raise TournamentError("bad_adjudication")
    if round_hours is not None and round_hours < 1:
        raise TournamentError("bad_round_hours")
    rules_preset, challenge_rule = rules_preset or "wwf", challenge_rule or "void"
    try:
        rules_for(rules_preset, language, challenge_rule)
    except GameError:
        raise TournamentError("bad_rules") from None
    prize_places = 1 if prize_places is None else prize_places
    if prize_places < 1:
        raise TournamentError("bad_prize_places")
    if dictionary_version is not None and dictionary_version > (current := current_version(language)):
        raise TournamentError("bad_dictionary_version", version=dictionary_version, current=current)
    with transaction.atomic():
        tournament = Tournament.objects.create(
            name=name.strip(),
            language=language,
            system=system,
            rounds=rounds,
            days_per_move=days_per_move,
            starts_at=starts_at,
            rated=rated,
            dictionary_version=dictionary_version,
            rating_body=rating_body,
            bye_spread=settings.TOURNAMENT_BYE_SPREAD if bye_spread is None else bye_spread,
            forfeit_spread=settings.TOURNAMENT_FORFEIT_SPREAD if forfeit_spread is None else forfeit_spread,
            king_of_the_hill=king_of_the_hill,
            gibsonize=gibsonize,
            prize_places=prize_places,
            checkin_opens_at=checkin_opens_at,
            auto_rounds=auto_rounds,
            round_hours=round_hours,
            adjudication=adjudication,
            prize_bands=sorted({int(c) for c in prize_bands}, reverse=True),
            no_forfeit_without_warning=no_forfeit_without_warning,
            created_by=organiser,
            rules_preset=rules_preset,
            challenge_rule=challenge_rule,
        )
        _log(tournament, Kind.CREATED, actor=organiser, data=settings_data(tournament))
    return tournament


def settings_data(tournament: Tournament) -> dict[str, Any]:
    return {
        "name": tournament.name,
        "language": tournament.language,
        "system": tournament.system,
        "rounds": tournament.rounds,
        "days_per_move": tournament.days_per_move,
        "rated": tournament.rated,
        "starts_at": tournament.starts_at.isoformat(),
        "rating_body": tournament.rating_body,
        "bye_spread": tournament.bye_spread,
        "forfeit_spread": tournament.forfeit_spread,
        "dictionary_version": tournament.dictionary_version,
        "king_of_the_hill": tournament.king_of_the_hill,
        "gibsonize": tournament.gibsonize,
        "prize_places": tournament.prize_places,
        "checkin_opens_at": tournament.checkin_opens_at.isoformat() if tournament.checkin_opens_at else None,
        "auto_rounds": tournament.auto_rounds,
        "round_hours": tournament.round_hours,
        "adjudication": tournament.adjudication,
        "rules_preset": tournament.rules_preset,
        "challenge_rule": tournament.challenge_rule,
        "prize_bands": tournament.prize_bands,
        "no_forfeit_without_warning": tournament.no_forfeit_without_warning,
    }


def registration_open(tournament: Tournament, now: datetime | None = None) -> bool:
    """Players may register themselves until the tournament starts (its start time, or
    the organiser pairing the first round, whichever comes first)."""
    now = now or timezone.now()
    if tournament.status != Tournament.Status.REGISTRATION or now >= tournament.starts_at:
        return False
    # An event with divisions is open while all of its divisions are.
    return not tournament.divisions.exclude(status=Tournament.Status.REGISTRATION).exists()


#: What a late entrant gets for each round already paired (TSH's convention).
MISSED_BYE = "bye"
MISSED_LOSS = "loss"


def register_player(
    *, tournament: Tournament, user: Any, by: Any, reason: str = "", missed: str = MISSED_LOSS
) -> Registration:
    """Register ``user``: themselves while registration is open, or by the organiser at
    any time before the end. A late entrant (after the first pairing) is numbered at
    once, gets a bye or a loss (``missed``) for every round already paired, and plays
    from the next one: in a Swiss as paired then, in a round robin by the rounds not
    yet played, regenerated now to include them. A player who had withdrawn is
    reinstated instead."""
    if missed not in (MISSED_BYE, MISSED_LOSS):
        raise TournamentError("bad_missed")
    if tournament.divisions.exists():
        # An event with divisions: the player goes to the division for their rating.
        if Registration.objects.filter(tournament__event=tournament, user=user).exists():
            raise TournamentError("already_registered")
        if by.pk == user.pk and not registration_open(tournament):
            raise TournamentError("registration_closed")
        tournament = division_for(tournament, user)
    elif (
        tournament.event_id is not None
        and Registration.objects.filter(tournament__event_id=tournament.event_id, user=user)
        .exclude(tournament=tournament)
        .exists()
    ):
        raise TournamentError("already_registered")
    with transaction.atomic():
        locked = _locked(tournament)
        if by.pk != user.pk:
            _require_organiser(locked, by)
        elif not registration_open(locked):
            raise TournamentError("registration_closed")
        if locked.status == Tournament.Status.FINISHED:
            raise TournamentError("tournament_finished")
        existing = locked.registrations.filter(user=user).first()
        if existing is not None:
            if existing.is_active:
                raise TournamentError("already_registered")
            return _reinstate(locked, existing, by=by, reason=reason)
        number = _late_number(locked, late_entry=True)
        registration = Registration.objects.create(tournament=locked, user=user, number=number)
        data: dict[str, Any] = {"registration": registration.pk, "name": registration.name, "number": number}
        if number is not None:
            data.update(_enter_late(locked, registration, missed=missed))
        _log(locked, Kind.REGISTERED, actor=by, data=data, reason=reason)
        realtime.tournament_changed(locked.pk)
    return registration


def _enter_late(tournament: Tournament, registration: Registration, *, missed: str) -> dict[str, Any]:
    """A late entrant's missed rounds (a table of their own with a bye, or a forfeit
    for a loss) and, in a round robin, the rounds still to play regenerated with them;
    returns what the ``registered`` event records of it (call with the row locked)."""
    assert registration.number is not None
    if tournament.round_set.filter(status=Round.Status.PAIRED).exists():
        # Its tables are fixed; the entrant would miss it with nothing to show for it.
        raise TournamentError("late_entry_paired_round")
    tables = []
    for round_ in tournament.round_set.order_by("number"):
        table = (round_.pairings.aggregate(last=Max("table"))["last"] or 0) + 1
        loss = missed == MISSED_LOSS
        Pairing.objects.create(
            round=round_,
            table=table,
            first=registration,
            override=Pairing.Override.FORFEIT if loss else Pairing.Override.NONE,
            absent=Pairing.Absent.FIRST if loss else Pairing.Absent.NONE,
        )
        tables.append([round_.number, table])
    data: dict[str, Any] = {"missed": missed, "missed_tables": tables}
    if tournament.is_round_robin:
        players = list(
            tournament.registrations.filter(status=Registration.Status.ACTIVE, number__isnull=False)
            .order_by("number")
            .values_list("number", flat=True)
        )
        left = tournament.rounds - tournament.current_round
        regenerated = pairing.regenerate_round_robin(
            [int(n) for n in players if n is not None], past_rounds(tournament), left
        )
        tournament.schedule = [
            [tournament.current_round + i, [[p.first, p.second] for p in round_]]
            for i, round_ in enumerate(regenerated, start=1)
        ]
        tournament.save(update_fields=["schedule", "updated_at"])
        data["schedule"] = tournament.schedule
    return data


def _late_number(tournament: Tournament, *, late_entry: bool = False) -> int | None:
    """The number a player joining now gets: none before the start (numbers are given
    in seed order then), the next one once it runs. A round robin takes a late entry
    (its rounds are regenerated) but not a return of someone who withdrew before the
    start, whose missed rounds nobody chose."""
    if tournament.status == Tournament.Status.REGISTRATION:
        return None
    if tournament.is_round_robin and not late_entry:
        raise TournamentError("round_robin_closed")
    last = tournament.registrations.aggregate(last=Max("number"))["last"] or 0
    return int(last) + 1


def checkin_open(tournament: Tournament, now: datetime | None = None) -> bool:
    """Players may check in from ``checkin_opens_at`` until the first round is paired
    (which may be after the start time: the organiser pairs when the room is ready)."""
    now = now or timezone.now()
    return (
        tournament.checkin_opens_at is not None
        and tournament.status == Tournament.Status.REGISTRATION
        and now >= tournament.checkin_opens_at
    )


def check_in(*, tournament: Tournament, registration: Registration, by: Any) -> None:
    """A registered player says they are here: themselves while check-in is open, or the
    organiser for them at any time before the first round is paired."""
    with transaction.atomic():
        locked = _locked(tournament)
        registration = locked.registrations.select_related("user").get(pk=registration.pk)
        if locked.checkin_opens_at is None:
            raise TournamentError("no_checkin")
        if by.pk != registration.user_id or not checkin_open(locked):
            if not locked.run_by(by):
                raise TournamentError("checkin_closed" if by.pk == registration.user_id else "not_organiser")
            if locked.status != Tournament.Status.REGISTRATION:
                raise TournamentError("checkin_closed")
        if not registration.is_active:
            raise TournamentError("already_withdrawn")
        if registration.checked_in_at is not None:
            raise TournamentError("already_checked_in")
        registration.checked_in_at = timezone.now()
        registration.save(update_fields=["checked_in_at"])
        _log(
            locked,
            Kind.CHECKED_IN,
            actor=by,
            data={"registration": registration.pk, "name": registration.name},
        )
        realtime.tournament_changed(locked.pk)


def _withdraw_absent(tournament: Tournament) -> None:
    """At the first pairing of a tournament with check-in, withdraw every player who did
    not check in (the site acts: no actor); each event names the player so their page
    tells them why, and each of them gets a message (the notification path, in this
    transaction)."""
    if tournament.checkin_opens_at is None:
        return
    absent = tournament.registrations.filter(
        status=Registration.Status.ACTIVE, checked_in_at__isnull=True
    ).select_related("user")
    notes = []
    for registration in absent:
        registration.status = Registration.Status.WITHDRAWN
        registration.save(update_fields=["status"])
        _log(
            tournament,
            Kind.WITHDRAWN,
            actor=None,
            data={"registration": registration.pk, "name": registration.name, "not_checked_in": True},
        )
        notes.append(_note(tournament, registration, variant="withdrawn"))
    notify_each(n for n in notes if n is not None)


def _title(tournament: Tournament) -> str:
    """The tournament's name as its players know it (a division's with its event's)."""
    if tournament.event_id is not None and tournament.event is not None:
        return f"{tournament.event.name} – {tournament.name}"
    return tournament.name


def _note(
    tournament: Tournament,
    registration: Registration,
    *,
    variant: str,
    game: Game | None = None,
    opponent: Registration | None = None,
) -> Note | None:
    """A player's message about their pairing (``variant``: "first" or "second" to move
    in ``game`` against ``opponent``, "bye", or "withdrawn" for not checking in); None
    for a bot, whom nothing reaches. Plain values only: the text is rendered later, in
    the recipient's language and time zone (``notifications.texts``)."""
    if getattr(registration.user, "is_bot", False):
        return None
    params: dict[str, Any] = {
        "tournament": _title(tournament),
        "tournament_id": tournament.pk,
        "round": tournament.current_round,
        "variant": variant,
    }
    path = reverse("tournaments:detail", args=[tournament.pk])
    if game is not None and opponent is not None:
        params.update(game=game.pk, who=player_name(opponent.user))
        if variant == "first" and game.turn_deadline is not None:
            params["deadline"] = game.turn_deadline.isoformat()
        path = game_path(game)
    return Note(recipient_id=registration.user_id, kind=NoteKind.TOURNAMENT_ROUND, params=params, path=path)


def withdraw_player(*, tournament: Tournament, registration: Registration, by: Any, reason: str = "") -> None:
    """Withdraw a player: themselves before the start, or by the organiser. A withdrawn
    player keeps their results and is not paired again (in a round robin their
    scheduled opponents get byes)."""
    with transaction.atomic():
        locked = _locked(tournament)
        registration = locked.registrations.select_related("user").get(pk=registration.pk)
        if by.pk == registration.user_id and not locked.run_by(by):
            if locked.status != Tournament.Status.REGISTRATION:
                raise TournamentError("started_withdraw")
        else:
            _require_organiser(locked, by)
        if locked.status == Tournament.Status.FINISHED:
            raise TournamentError("tournament_finished")
        if not registration.is_active:
            raise TournamentError("already_withdrawn")
        registration.status = Registration.Status.WITHDRAWN
        registration.save(update_fields=["status"])
        _log(
            locked,
            Kind.WITHDRAWN,
            actor=by,
            data={"registration": registration.pk, "name": registration.name},
            reason=reason,
        )
        realtime.tournament_changed(locked.pk)


def reinstate_player(
    *, tournament: Tournament, registration: Registration, by: Any, reason: str = ""
) -> None:
    """The organiser brings a withdrawn player back (paired again from the next round)."""
    with transaction.atomic():
        locked = _locked(tournament)
        _require_organiser(locked, by)
        registration = locked.registrations.select_related("user").get(pk=registration.pk)
        if locked.status == Tournament.Status.FINISHED:
            raise TournamentError("tournament_finished")
        if registration.is_active:
            raise TournamentError("not_withdrawn")
        _reinstate(locked, registration, by=by, reason=reason)


def _reinstate(tournament: Tournament, registration: Registration, *, by: Any, reason: str) -> Registration:
    number = registration.number
    if number is None:
        # Withdrew before the start: joins now as a late entrant would.
        number = _late_number(tournament)
    registration.status = Registration.Status.ACTIVE
    registration.number = number
    registration.save(update_fields=["status", "number"])
    _log(
        tournament,
        Kind.REINSTATED,
        actor=by,
        data={"registration": registration.pk, "name": registration.name, "number": number},
        reason=reason,
    )
    realtime.tournament_changed(tournament.pk)
    return registration


def set_registration_rating(
    *,
    tournament: Tournament,
    registration: Registration,
    by: Any,
    member_number: str,
    rating: int | None,
    reason: str = "",
) -> None:
    """The organiser sets a player's member number and rating for this tournament
    (blank: the player's own membership with the tournament's rating body)."""
    with transaction.atomic():
        locked = _locked(tournament)
        _require_organiser(locked, by)
        registration = locked.registrations.select_related("user").get(pk=registration.pk)
        registration.member_number = member_number.strip()
        registration.rating = rating
        registration.save(update_fields=["member_number", "rating"])
        _log(
            locked,
            Kind.RATING_SET,
            actor=by,
            data={
                "registration": registration.pk,
                "name": registration.name,
                "member_number": registration.member_number,
                "rating": rating,
            },
            reason=reason,
        )
        realtime.tournament_changed(locked.pk)


# ----- divisions -----------------------------------------------------------------------

DIVISION_CODES = "abcdefghijklmnopqrstuvwxyz"


def add_division(
    *,
    event: Tournament,
    by: Any,
    name: str,
    rating_min: int | None = None,
    rating_max: int | None = None,
) -> Tournament:
    """Add a division to ``event`` before it starts: a tournament of its own with the
    event's settings, its own players, pairings, standings, log and files, named in TSH
    by the next letter. Players registering for the event go to the division whose
    rating band holds their rating; the organiser may move them by hand."""
    with transaction.atomic():
        locked = _locked(event)
        _require_organiser(locked, by)
        if locked.event_id is not None:
            raise TournamentError("division_of_division")
        if locked.status != Tournament.Status.REGISTRATION:
            raise TournamentError("registration_closed")
        if locked.registrations.exists():
            raise TournamentError("event_has_players")
        if rating_min is not None and rating_max is not None and rating_min > rating_max:
            raise TournamentError("bad_band")
        count = locked.divisions.count()
        if count >= len(DIVISION_CODES):
            raise TournamentError("too_many_divisions")
        fields = {f.attname: getattr(locked, f.attname) for f in Tournament._meta.concrete_fields}
        for drop in ("id", "created_at", "updated_at", "event_id", "schedule"):
            fields.pop(drop, None)
        fields.update(
            name=name.strip() or DIVISION_CODES[count].upper(),
            event_id=locked.pk,
            division_code=DIVISION_CODES[count],
            rating_min=rating_min,
            rating_max=rating_max,
        )
        division = Tournament.objects.create(**fields)
        _log(
            division,
            Kind.CREATED,
            actor=by,
            data={**settings_data(division), "event": locked.pk, "division": division.division_code},
        )
        _log(
            locked,
            Kind.DIVISION_ADDED,
            actor=by,
            data={
                "division": division.pk,
                "code": division.division_code,
                "name": division.name,
                "rating_min": rating_min,
                "rating_max": rating_max,
            },
        )
        realtime.tournament_changed(locked.pk)
    return division


def division_for(event: Tournament, user: Any) -> Tournament:
    """The division of ``event`` a registering player goes to: the first whose band
    holds their rating with the event's rating body (unrated: 0), else the last."""
    divisions = list(event.divisions.order_by("division_code"))
    membership = (
        PlayerMembership.objects.filter(user=user, body=event.rating_body).first()
        if event.rating_body
        else None
    )
    rating = (membership.rating if membership else None) or 0
    return next((d for d in divisions if d.takes_rating(rating)), divisions[-1])


def move_to_division(*, registration: Registration, division: Tournament, by: Any, reason: str = "") -> None:
    """The organiser moves a player to another division of the same event before
    either starts. The registration row moves; both logs say so (``moved`` on the
    source, ``registered`` with ``moved_from`` on the target), so each replays alone."""
    source = registration.tournament
    if source.event_id is None or source.event_id != division.event_id:
        raise TournamentError("not_same_event")
    if source.pk == division.pk:
        raise TournamentError("same_division")
    with transaction.atomic():
        # Lock both divisions in id order, so two moves never wait on each other.
        locked = {
            t.pk: t
            for t in Tournament.objects.select_for_update()
            .filter(pk__in=[source.pk, division.pk])
            .order_by("pk")
        }
        source, target = locked[source.pk], locked[division.pk]
        _require_organiser(target, by)
        if (
            Tournament.Status.REGISTRATION not in (source.status, target.status)
            or source.status != target.status
        ):
            raise TournamentError("registration_closed")
        registration = source.registrations.select_related("user").get(pk=registration.pk)
        registration.tournament = target
        registration.save(update_fields=["tournament"])
        _log(
            source,
            Kind.MOVED,
            actor=by,
            data={"registration": registration.pk, "name": registration.name, "to": target.division_code},
            reason=reason,
        )
        _log(
            target,
            Kind.REGISTERED,
            actor=by,
            data={
                "registration": registration.pk,
                "name": registration.name,
                "number": None,
                "moved_from": source.division_code,
            },
            reason=reason,
        )
        realtime.tournament_changed(source.pk)
        realtime.tournament_changed(target.pk)


def set_prize_bands(*, tournament: Tournament, by: Any, caps: Sequence[int], reason: str = "") -> None:
    """The organiser sets the rating caps of the prizes by band (empty: none), at any
    time: the results summary reads them."""
    if any(c <= 0 for c in caps):
        raise TournamentError("bad_prize_bands")
    with transaction.atomic():
        locked = _locked(tournament)
        _require_organiser(locked, by)
        locked.prize_bands = sorted(set(caps), reverse=True)
        locked.save(update_fields=["prize_bands", "updated_at"])
        _log(locked, Kind.PRIZES_SET, actor=by, data={"prize_bands": locked.prize_bands}, reason=reason)
        realtime.tournament_changed(locked.pk)
    _refresh(tournament, locked)


def clean_real_name(value: str) -> str:
    """A real name as rating bodies list players: "Last, First" (both parts, one comma),
    spaces tidied; "" stays "" (back to the player's own)."""
    value = " ".join(value.split())
    if not value:
        return ""
    last, comma, first = value.partition(",")
    if not comma or not last.strip() or not first.strip() or "," in first:
        raise TournamentError("bad_real_name")
    return f"{last.strip()}, {first.strip()}"


def set_real_name(
    *, tournament: Tournament, registration: Registration, by: Any, real_name: str, reason: str = ""
) -> None:
    """The organiser sets a player's real name for this tournament ("Last, First"; blank:
    the one the player gave in their settings). The files use it."""
    real_name = clean_real_name(real_name)
    with transaction.atomic():
        locked = _locked(tournament)
        _require_organiser(locked, by)
        registration = locked.registrations.select_related("user").get(pk=registration.pk)
        registration.real_name = real_name
        registration.save(update_fields=["real_name"])
        _log(
            locked,
            Kind.NAME_SET,
            actor=by,
            data={"registration": registration.pk, "name": registration.name, "real_name": real_name},
            reason=reason,
        )
        realtime.tournament_changed(locked.pk)


# ----- organisers and memberships ------------------------------------------------------

ORGANISERS_GROUP = "Organisers"
#: What the "Organisers" group holds (its migration, 0002, grants the same).
ORGANISER_PERMISSIONS = (
    ("tournament", "view_tournament"),
    ("tournament", "add_tournament"),
    ("tournament", "change_tournament"),
    ("registration", "view_registration"),
    ("round", "view_round"),
    ("pairing", "view_pairing"),
    ("tournamentevent", "view_tournamentevent"),
)


def ensure_organisers_group() -> Group:
    """The "Organisers" group with its permissions (the migration creates it; this puts
    it back if it was deleted, for the demo and the simulations)."""
    group, _ = Group.objects.get_or_create(name=ORGANISERS_GROUP)
    group.permissions.add(
        *(
            Permission.objects.get(
                content_type__app_label="tournaments", content_type__model=model, codename=code
            )
            for model, code in ORGANISER_PERMISSIONS
        )
    )
    return group


@dataclass(frozen=True, slots=True)
class Membership:
    body: str
    body_name: str
    number: str
    rating: int | None


def player_memberships(*, user: Any) -> list[Membership]:
    """A player's rating-body member numbers and ratings, for their profile page."""
    return [
        Membership(m.body, m.get_body_display(), m.number, m.rating)
        for m in PlayerMembership.objects.filter(user=user).order_by("body")
    ]


def set_membership(*, user: Any, body: str, number: str, rating: int | None) -> PlayerMembership | None:
    """Record (or, with neither number nor rating, forget) ``user``'s membership of
    ``body``."""
    if body not in RatingBody.values:
        raise TournamentError("bad_override")
    number = number.strip()
    if not number and rating is None:
        PlayerMembership.objects.filter(user=user, body=body).delete()
        return None
    membership, _ = PlayerMembership.objects.update_or_create(
        user=user, body=body, defaults={"number": number, "rating": rating}
    )
    return membership


@dataclass(frozen=True, slots=True)
class RatingInfo:
    member_number: str
    rating: int | None


def rating_info(tournament: Tournament, registrations: Iterable[Registration]) -> dict[int, RatingInfo]:
    """Each registration's member number and rating for the tournament's rating body:
    the organiser's override where set, else the player's membership (one query)."""
    regs = list(registrations)
    memberships: dict[int, PlayerMembership] = {}
    if tournament.rating_body:
        memberships = {
            m.user_id: m
            for m in PlayerMembership.objects.filter(
                body=tournament.rating_body, user_id__in=[r.user_id for r in regs]
            )
        }
    info = {}
    for reg in regs:
        own = memberships.get(reg.user_id)
        info[reg.pk] = RatingInfo(
            reg.member_number or (own.number if own else ""),
            reg.rating if reg.rating is not None else (own.rating if own else None),
        )
    return info


# ----- rounds --------------------------------------------------------------------------


def past_rounds(tournament: Tournament, before: int | None = None) -> list[list[pairing.Pair]]:
    """The earlier rounds as ``pairing.Pair`` lists, by player number."""
    rounds: dict[int, list[pairing.Pair]] = {}
    pairings = Pairing.objects.filter(round__tournament=tournament).select_related("round", "first", "second")
    if before is not None:
        pairings = pairings.filter(round__number__lt=before)
    for p in pairings.order_by("round__number", "table"):
        assert p.first.number is not None
        round_ = rounds.setdefault(p.round.number, [])
        if p.second is None and p.override == Pairing.Override.FORFEIT:
            continue  # a late entrant's missed round as a loss: neither a game nor a bye
        second = p.second.number if p.second is not None else None
        round_.append(pairing.Pair(p.first.number, second))
    return [rounds[n] for n in sorted(rounds)]


def _seed_order(tournament: Tournament, registrations: Sequence[Registration]) -> list[Registration]:
    """Seeds: highest rating first (the tournament's rating body), then who registered
    first."""
    info = rating_info(tournament, registrations)
    return sorted(registrations, key=lambda r: (-(info[r.pk].rating or 0), r.registered_at, r.pk))


def _start(tournament: Tournament, by: Any) -> None:
    _withdraw_absent(tournament)
    active = list(tournament.registrations.filter(status=Registration.Status.ACTIVE).select_related("user"))
    if len(active) < 2:
        raise TournamentError("not_enough_players")
    if tournament.is_round_robin:
        length = pairing.round_robin_length(
            len(active), double=tournament.system == Tournament.System.DOUBLE_ROUND_ROBIN
        )
        if tournament.rounds > length:
            raise TournamentError("too_many_rounds", players=len(active), length=length)
    if tournament.dictionary_version is None:
        tournament.dictionary_version = current_version(tournament.language)
    numbers = []
    for number, registration in enumerate(_seed_order(tournament, active), start=1):
        registration.number = number
        registration.save(update_fields=["number"])
        numbers.append([registration.pk, number])
    tournament.status = Tournament.Status.RUNNING
    tournament.save(update_fields=["dictionary_version", "status", "updated_at"])
    _log(
        tournament,
        Kind.STARTED,
        actor=by,
        data={"dictionary_version": tournament.dictionary_version, "numbers": numbers},
    )


def pair_round(*, tournament: Tournament, by: Any) -> Round:
    """Pair the next round (the first one starts the tournament: registration closes,
    the dictionary version is frozen and players are numbered in seed order). The
    pairings are shown at once and may be overridden until :func:`start_round`."""
    with transaction.atomic():
        locked = _locked(tournament)
        _require_organiser(locked, by)
        round_ = _pair_next(locked, by)
    _refresh(tournament, locked)
    return round_


def _pair_next(locked: Tournament, by: Any) -> Round:
    """Pair the next round of ``locked`` (its row locked; ``by`` None: the site, for a
    tournament that runs its own rounds)."""
    if locked.status == Tournament.Status.FINISHED:
        raise TournamentError("tournament_finished")
    if locked.divisions.exists():
        raise TournamentError("pair_each_division")
    if locked.status == Tournament.Status.REGISTRATION:
        _start(locked, by)
    else:
        current = locked.round_set.filter(number=locked.current_round).first()
        if locked.current_round >= locked.rounds:
            raise TournamentError("no_more_rounds")
        if current is not None and current.status != Round.Status.STARTED:
            raise TournamentError("round_not_started")
        if current is not None and not all(
            o.is_done() for o in outcomes(locked, round_number=current.number)
        ):
            raise TournamentError("round_not_finished")
    pairs = _next_pairs(locked)
    number = locked.current_round + 1
    round_ = Round.objects.create(tournament=locked, number=number)
    by_number = {r.number: r for r in locked.registrations.filter(number__isnull=False)}
    tables = []
    for table, pair in enumerate(pairs, start=1):
        Pairing.objects.create(
            round=round_,
            table=table,
            first=by_number[pair.first],
            second=by_number[pair.second] if pair.second is not None else None,
        )
        tables.append([table, pair.first, pair.second])
    locked.current_round = number
    locked.save(update_fields=["current_round", "updated_at"])
    # A Swiss says where it could not avoid a rematch (the log and the page show it).
    rematches = [[p.first, p.second] for p in pairing.repeats(pairs, past_rounds(locked, before=number))]
    _log(
        locked,
        Kind.ROUND_PAIRED,
        actor=by,
        data={"round": number, "tables": tables, "repeats": rematches},
    )
    realtime.tournament_changed(locked.pk)
    return round_


def _next_pairs(tournament: Tournament) -> list[pairing.Pair]:
    registrations = list(tournament.registrations.filter(number__isnull=False))
    active = {r.number for r in registrations if r.is_active}
    seeds = sorted(r.number for r in registrations if r.number is not None)
    table = current_standings(tournament)
    active_count = len(active)
    if active_count < 2:
        raise TournamentError("not_enough_players")
    try:
        return pairing.next_round(
            tournament.system,
            seeds=seeds,
            ranked=[s.player for s in table],
            points={s.player: s.half_points for s in table},
            past=past_rounds(tournament),
            active=lambda p: p in active,
            options=tournament.pairing_options(),
            schedule=tournament.regenerated_rounds(),
        )
    except ValueError:
        length = pairing.round_robin_length(
            len(seeds), double=tournament.system == Tournament.System.DOUBLE_ROUND_ROBIN
        )
        raise TournamentError("too_many_rounds", players=len(seeds), length=length) from None


def override_pairing(
    *, tournament: Tournament, by: Any, table: int, first: int, second: int | None, reason: str
) -> None:
    """Before the round starts, make ``table`` of the current round ``first`` (moving
    first) against ``second`` (None: give ``first`` the round's bye). Players are moved
    by swapping places, so everyone stays at exactly one table: whoever sat where
    ``first`` and ``second`` go takes their old places."""
    _require_reason(reason)
    with transaction.atomic():
        locked = _locked(tournament)
        _require_organiser(locked, by)
        round_ = locked.round_set.filter(number=locked.current_round).first()
        if round_ is None:
            raise TournamentError("no_paired_round")
        if round_.status != Round.Status.PAIRED:
            raise TournamentError("round_already_started")
        if first == second:
            raise TournamentError("same_player")
        rows = list(round_.pairings.select_related("first", "second").order_by("table"))
        slots: dict[tuple[int, int], int | None] = {}
        for p in rows:
            slots[(p.table, 0)] = p.first.number
            slots[(p.table, 1)] = p.second.number if p.second is not None else None
        if table not in {p.table for p in rows}:
            raise TournamentError("unknown_table")
        _move(slots, first, (table, 0))
        _move(slots, second, (table, 1))
        by_number = {r.number: r for r in locked.registrations.filter(number__isnull=False)}
        tables = []
        for p in rows:
            a, b = slots[(p.table, 0)], slots[(p.table, 1)]
            if a is None:  # a bye written second: keep the player first
                a, b = b, None
            assert a is not None
            p.first, p.second = by_number[a], by_number[b] if b is not None else None
            p.save(update_fields=["first", "second"])
            tables.append([p.table, a, b])
        _log(
            locked,
            Kind.PAIRING_OVERRIDDEN,
            actor=by,
            data={"round": round_.number, "table": table, "first": first, "second": second, "tables": tables},
            reason=reason,
        )
        realtime.tournament_changed(locked.pk)


def _move(slots: dict[tuple[int, int], int | None], player: int | None, target: tuple[int, int]) -> None:
    """Swap ``player`` (None: the bye's empty place) into ``target``."""
    where = next((slot for slot, occupant in slots.items() if occupant == player), None)
    if where is None:
        raise TournamentError("not_in_round" if player is not None else "no_bye_in_round")
    slots[where], slots[target] = slots[target], slots[where]


def start_round(*, tournament: Tournament, by: Any, seed: int | None = None) -> Round:
    """Create the current round's games (each player's lobby shows theirs at once),
    pinned to the tournament's dictionary version, with its days per move. A player
    withdrawn since the pairing leaves their opponent a bye. ``seed`` makes every deal
    reproducible (simulations)."""
    with transaction.atomic():
        locked = _locked(tournament)
        _require_organiser(locked, by)
        round_ = _start_current(locked, by, seed=seed)
    _refresh(tournament, locked)
    return round_


def _start_current(locked: Tournament, by: Any, *, seed: int | None = None) -> Round:
    """Start the current round of ``locked`` (its row locked; ``by`` None: the site).
    With a time limit per round, the round's deadline is set and the task that closes
    it is enqueued in this transaction (the task table is in the same database, so it
    commits or rolls back with the round)."""
    round_ = locked.round_set.filter(number=locked.current_round).first()
    if round_ is None or round_.status != Round.Status.PAIRED:
        raise TournamentError("no_paired_round")
    tables, games = [], []
    notes: list[Note | None] = []
    for p in round_.pairings.select_related("first__user", "second__user").order_by("table"):
        players = [r for r in (p.first, p.second) if r is not None and r.is_active]
        if not players:
            p.delete()
            continue
        if len(players) == 1:
            p.first, p.second = players[0], None
            p.save(update_fields=["first", "second"])
            notes.append(_note(locked, p.first, variant="bye"))
        else:
            assert p.second is not None
            p.game = start_paired_game(
                first=p.first.user,
                second=p.second.user,
                language=locked.language,
                inactivity_days=locked.days_per_move,
                dictionary_version=locked.dictionary_version,
                rated=locked.rated,
                preset=locked.rules_preset,
                challenge=locked.challenge_rule,
                seed=None
                if seed is None
                else random.Random(f"{seed}:{round_.number}:{p.table}").getrandbits(63),
                warn_before_timeout=locked.no_forfeit_without_warning,
                # Each player hears of the pairing below, the first mover's "your turn" with it.
                told=True,
            )
            p.save(update_fields=["game"])
            games.append([p.table, p.game.pk])
            notes.append(_note(locked, p.first, variant="first", game=p.game, opponent=p.second))
            notes.append(_note(locked, p.second, variant="second", game=p.game, opponent=p.first))
        assert p.first.number is not None
        tables.append([p.table, p.first.number, p.second.number if p.second is not None else None])
    round_.status = Round.Status.STARTED
    round_.started_at = timezone.now()
    if locked.round_hours:
        round_.deadline = round_.started_at + timedelta(hours=locked.round_hours)
    round_.save(update_fields=["status", "started_at", "deadline"])
    data: dict[str, Any] = {"round": round_.number, "tables": tables, "games": games}
    if round_.deadline is not None:
        data["deadline"] = round_.deadline.isoformat()
        schedule_round_close(locked.pk, round_.number, round_.deadline)
    _log(locked, Kind.ROUND_STARTED, actor=by, data=data)
    # Every paired player hears of their game or bye: one INSERT and one task for the round.
    notify_each(n for n in notes if n is not None)
    _finish_if_done(locked, actor=by)
    realtime.tournament_changed(locked.pk)
    return round_


# ----- rounds that run themselves ------------------------------------------------------


def _run_next_round(tournament: Tournament) -> bool:
    """For a tournament that runs its own rounds (row locked): when every table of the
    current round has a result, pair and start the next one, as the site. Called by
    every finished game and by the round's time limit; the row lock makes the second of
    two games ending at the same moment find the next round already made."""
    if not tournament.auto_rounds or tournament.status != Tournament.Status.RUNNING:
        return False
    if tournament.current_round >= tournament.rounds:
        return False
    current = tournament.round_set.filter(number=tournament.current_round).first()
    if current is None or current.status != Round.Status.STARTED:
        return False
    if not all(o.is_done() for o in outcomes(tournament, round_number=current.number)):
        return False
    _pair_next(tournament, None)
    _start_current(tournament, None)
    return True


def close_round(*, tournament_id: int, round_number: int, now: datetime | None = None) -> int:
    """The round's time is up: every table still without a result is adjudicated by the
    tournament's rule (the scores as they stand, or a forfeit by both), logged as the
    site's result override, and a tournament that runs its own rounds goes on. Does
    nothing when the round is no longer the current one or its time is not up (a task
    run twice or early). Returns how many tables were adjudicated."""
    now = now or timezone.now()
    with transaction.atomic():
        locked = Tournament.objects.select_for_update().get(pk=tournament_id)
        round_ = locked.round_set.filter(number=round_number).first()
        if (
            round_ is None
            or locked.status != Tournament.Status.RUNNING
            or round_.status != Round.Status.STARTED
            or round_.deadline is None
            or round_.deadline > now
        ):
            return 0
        pending = {o.table for o in outcomes(locked, round_number=round_number) if not o.is_done()}
        rows = (
            round_.pairings.filter(table__in=pending).select_related("game").prefetch_related("game__seats")
        )
        for row in rows:
            if locked.adjudication == Tournament.Adjudication.AS_THEY_STAND and row.game is not None:
                scores = [s.score for s in row.game.seat_list()]
                row.override, row.first_score, row.second_score, row.absent = (
                    "scores",
                    scores[0],
                    scores[1],
                    "",
                )
            else:
                row.override, row.first_score, row.second_score, row.absent = "forfeit", None, None, "both"
            row.save(update_fields=["override", "first_score", "second_score", "absent"])
            _log(
                locked,
                Kind.RESULT_OVERRIDDEN,
                actor=None,
                data={
                    "round": round_number,
                    "table": row.table,
                    "override": row.override,
                    "first_score": row.first_score,
                    "second_score": row.second_score,
                    "absent": row.absent,
                    "adjudicated": True,
                },
                reason="adjudicated when the round's time was up",
            )
        if not _finish_if_done(locked, actor=None):
            _run_next_round(locked)
        realtime.tournament_changed(locked.pk)
    return len(pending)


# ----- results -------------------------------------------------------------------------


def override_result(
    *,
    tournament: Tournament,
    by: Any,
    round_number: int,
    table: int,
    override: str,
    reason: str,
    first_score: int | None = None,
    second_score: int | None = None,
    absent: str = "",
) -> None:
    """Replace what a table's game says: ``scores`` (both scores), ``forfeit`` (who was
    absent: ``first``, ``second`` or ``both``), or ``""`` to go back to the game's own
    result. Allowed once the round has started, also after the tournament ended (a
    correction); the last round's results completing ends the tournament."""
    _require_reason(reason)
    if override not in ("", Pairing.Override.SCORES, Pairing.Override.FORFEIT):
        raise TournamentError("bad_override")
    if override == Pairing.Override.SCORES and (
        first_score is None or second_score is None or first_score < 0 or second_score < 0
    ):
        raise TournamentError("bad_scores")
    if override == Pairing.Override.FORFEIT and absent not in ("first", "second", "both"):
        raise TournamentError("bad_absent")
    if override != Pairing.Override.SCORES:
        first_score = second_score = None
    if override != Pairing.Override.FORFEIT:
        absent = ""
    with transaction.atomic():
        locked = _locked(tournament)
        _require_organiser(locked, by)
        row = Pairing.objects.filter(
            round__tournament=locked, round__number=round_number, table=table
        ).first()
        if row is None:
            raise TournamentError("unknown_table")
        if row.round.status != Round.Status.STARTED:
            raise TournamentError("round_not_started")
        if row.is_bye:
            raise TournamentError("bye_table")
        row.override, row.first_score, row.second_score, row.absent = (
            override,
            first_score,
            second_score,
            absent,
        )
        row.save(update_fields=["override", "first_score", "second_score", "absent"])
        _log(
            locked,
            Kind.RESULT_OVERRIDDEN,
            actor=by,
            data={
                "round": round_number,
                "table": table,
                "override": override,
                "first_score": first_score,
                "second_score": second_score,
                "absent": absent,
            },
            reason=reason,
        )
        _finish_if_done(locked, actor=by)
        realtime.tournament_changed(locked.pk)


def _finish_if_done(tournament: Tournament, *, actor: Any) -> bool:
    """End the tournament when its last round has started and every table has a result
    (call with the row locked)."""
    if tournament.status != Tournament.Status.RUNNING or tournament.current_round < tournament.rounds:
        return False
    last = tournament.round_set.filter(number=tournament.current_round).first()
    if last is None or last.status != Round.Status.STARTED:
        return False
    if not all(o.is_done() for o in outcomes(tournament, round_number=last.number)):
        return False
    tournament.status = Tournament.Status.FINISHED
    tournament.save(update_fields=["status", "updated_at"])
    _log(tournament, Kind.FINISHED, actor=actor, data={})
    return True


def on_game_committed(transition: Transition) -> None:
    """``games``' after-commit hook (registered in ``TournamentsConfig.ready``): when a
    tournament game finishes, the standings change and the last one ends the
    tournament. One indexed query for any other change of any game."""
    if transition.status != Game.Status.FINISHED:
        return
    row = Pairing.objects.filter(game_id=transition.game_id).select_related("round").first()
    if row is None:
        return
    with transaction.atomic():
        locked = Tournament.objects.select_for_update().get(pk=row.round.tournament_id)
        if not _finish_if_done(locked, actor=None):
            _run_next_round(locked)
        realtime.tournament_changed(locked.pk)


# ----- reading -------------------------------------------------------------------------


def game_facts(game: Game) -> GameFacts:
    """What a finished (or unfinished) game says, with seat 0 (who moved first) first."""
    finished = game.status == Game.Status.FINISHED and game.final_scores is not None
    scores = list(game.final_scores or []) if finished else [None, None]
    winner = {0: "first", 1: "second"}.get(game.winner_seat, "") if finished else ""  # type: ignore[arg-type]
    return GameFacts(finished, scores[0], scores[1], winner, game.end_reason)  # type: ignore[arg-type]


def outcomes(tournament: Tournament, *, round_number: int | None = None) -> list[Outcome]:
    """Every table's outcome, from the rows the services keep (or one round's)."""
    rows = Pairing.objects.filter(round__tournament=tournament).select_related(
        "round", "first", "second", "game"
    )
    if round_number is not None:
        rows = rows.filter(round__number=round_number)
    result = []
    for p in rows.order_by("round__number", "table"):
        assert p.first.number is not None
        result.append(
            table_outcome(
                round=p.round.number,
                table=p.table,
                first=p.first.number,
                second=p.second.number if p.second is not None else None,
                override=p.override,
                first_score=p.first_score,
                second_score=p.second_score,
                absent=p.absent,  # type: ignore[arg-type]
                game=game_facts(p.game) if p.game is not None else None,
            )
        )
    return result


def rules_of(tournament: Tournament) -> Rules:
    return Rules(bye_spread=tournament.bye_spread, forfeit_spread=tournament.forfeit_spread)


def current_standings(tournament: Tournament) -> list[Standing]:
    """The standings from the rows the services keep and the games."""
    numbers = tournament.registrations.filter(number__isnull=False).values_list("number", flat=True)
    return standings(
        sorted(int(n) for n in numbers if n is not None), outcomes(tournament), rules_of(tournament)
    )


def rebuild(tournament: Tournament) -> Snapshot:
    """The tournament as its event log alone tells it."""
    return replay((e.kind, e.data) for e in tournament.events.order_by("sequence"))


def standings_from_events(tournament: Tournament) -> list[Standing]:
    """The standings rebuilt from the event log and the games alone."""
    snapshot = rebuild(tournament)
    games = {g.pk: game_facts(g) for g in Game.objects.filter(pk__in=snapshot.games())}
    return snapshot.standings(games)


_LOBBY_RESULTS = {"win": "won", "loss": "lost", "draw": "draw"}


def lobby_notes(game_ids: Sequence[int], user: Any) -> dict[int, GameNote]:
    """For the games lobby (registered with ``games.hooks``): which of ``game_ids`` are
    tournament games, and the viewer's result where the organiser overrode the game's."""
    notes: dict[int, GameNote] = {}
    rows = Pairing.objects.filter(game_id__in=game_ids).select_related("round__tournament", "first", "second")
    for p in rows:
        tournament = p.round.tournament
        result = None
        if p.override and p.first.number is not None:
            outcome = table_outcome(
                round=p.round.number,
                table=p.table,
                first=p.first.number,
                second=p.second.number if p.second is not None else None,
                override=p.override,
                first_score=p.first_score,
                second_score=p.second_score,
                absent=p.absent,  # type: ignore[arg-type]
            )
            position = "first" if p.first.user_id == getattr(user, "pk", None) else "second"
            mine = [r for r in player_results(outcome, rules_of(tournament)) if r.position == position]
            result = _LOBBY_RESULTS.get(mine[0].result) if mine else None
        assert p.game_id is not None
        notes[p.game_id] = GameNote(
            label=gettext("%(name)s, round %(round)s") % {"name": tournament.name, "round": p.round.number},
            url=reverse("tournaments:detail", args=[tournament.pk]),
            result=result,
        )
    return notes
