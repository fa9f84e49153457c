"""The only place that builds a tournament page's template context, for the views and
for the consumer alike, so a partial looks the same whichever path rendered it."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext

from dictionaries.models import language_name
from games import rendering as games_rendering
from games.models import Game
from tournaments import services
from tournaments.exports import points_text
from tournaments.models import Pairing, Registration, Round, Tournament, TournamentEvent
from tournaments.standings import PENDING, Outcome

#: What a page pushes over its WebSocket, each as an out-of-band swap by id.
PARTIALS = {
    "tournament_status": "tournaments/_tournament_status.html",
    "standings": "tournaments/_standings.html",
    "pairings": "tournaments/_pairings.html",
    "log": "tournaments/_log.html",
    "notices": "tournaments/_notices.html",
}


def load(tournament_id: int) -> Tournament:
    return Tournament.objects.select_related("created_by").get(pk=tournament_id)


def result_text(outcome: Outcome, first: str, second: str) -> str:
    """The result of a table in words, for the pairings list."""
    if outcome.second is None:
        return gettext("missed: loss") if outcome.kind == "forfeit" else gettext("bye")
    if outcome.kind == PENDING:
        return ""
    if outcome.kind == "forfeit":
        names = {"first": first, "second": second}
        if outcome.absent == "both":
            return gettext("both forfeited")
        return gettext("%(name)s forfeited") % {"name": names.get(outcome.absent, "")}
    return f"{outcome.first_score}–{outcome.second_score}"


def event_text(event: TournamentEvent, names: dict[int, str], *, by_themselves: bool = False) -> str:
    """One log entry in words (``names``: player number to name). ``by_themselves``: the
    player the entry is about made it, and the log already names them as its author."""
    d = event.data

    def name(number: Any) -> str:
        return names.get(number, str(number)) if number is not None else ""

    kind = event.kind
    if kind == TournamentEvent.Kind.CREATED:
        return gettext("Created the tournament.")
    if kind == TournamentEvent.Kind.REGISTERED:
        if by_themselves:
            return gettext("Entered.")
        return gettext("%(name)s entered.") % {"name": d.get("name", "")}
    if kind == TournamentEvent.Kind.PRIZES_SET:
        caps = ", ".join(str(c) for c in d.get("prize_bands") or []) or "–"
        return gettext("Prizes by rating band: below %(caps)s.") % {"caps": caps}
    if kind == TournamentEvent.Kind.NAME_SET:
        return gettext("Real name set: %(name)s.") % {"name": d.get("name", "")}
    if kind == TournamentEvent.Kind.CHECKED_IN:
        return gettext("%(name)s checked in.") % {"name": d.get("name", "")}
    if kind == TournamentEvent.Kind.WITHDRAWN:
        if d.get("not_checked_in"):
            return gettext("%(name)s was withdrawn for not checking in.") % {"name": d.get("name", "")}
        if by_themselves:
            return gettext("Withdrew.")
        return gettext("%(name)s withdrew.") % {"name": d.get("name", "")}
    if kind == TournamentEvent.Kind.REINSTATED:
        return gettext("%(name)s was reinstated.") % {"name": d.get("name", "")}
    if kind == TournamentEvent.Kind.RATING_SET:
        return gettext("%(name)s: member number %(number)s, rating %(rating)s.") % {
            "name": d.get("name", ""),
            "number": d.get("member_number") or "–",
            "rating": d.get("rating") if d.get("rating") is not None else "–",
        }
    if kind == TournamentEvent.Kind.STARTED:
        return gettext("The tournament started; its games use dictionary version %(version)s.") % {
            "version": d.get("dictionary_version")
        }
    if kind == TournamentEvent.Kind.ROUND_PAIRED:
        text = gettext("Round %(round)s paired.") % {"round": d.get("round")}
        rematches = d.get("repeats") or []
        if rematches:
            text += " " + gettext("No pairing without a rematch was possible: %(pairs)s.") % {
                "pairs": ", ".join(f"{name(a)}–{name(b)}" for a, b in rematches)
            }
        return text
    if kind == TournamentEvent.Kind.PAIRING_OVERRIDDEN:
        if d.get("second") is None:
            return gettext("Round %(round)s: %(first)s given the bye.") % {
                "round": d.get("round"),
                "first": name(d.get("first")),
            }
        return gettext("Round %(round)s, table %(table)s: %(first)s (first) against %(second)s.") % {
            "round": d.get("round"),
            "table": d.get("table"),
            "first": name(d.get("first")),
            "second": name(d.get("second")),
        }
    if kind == TournamentEvent.Kind.ROUND_STARTED:
        return gettext("Round %(round)s started: its games are on.") % {"round": d.get("round")}
    if kind == TournamentEvent.Kind.RESULT_OVERRIDDEN:
        where = {"round": d.get("round"), "table": d.get("table")}
        if d.get("override") == Pairing.Override.SCORES:
            return gettext("Round %(round)s, table %(table)s: result set to %(first)s–%(second)s.") % {
                **where,
                "first": d.get("first_score"),
                "second": d.get("second_score"),
            }
        if d.get("override") == Pairing.Override.FORFEIT:
            who = Pairing.Absent(d.get("absent") or "both").label
            return gettext("Round %(round)s, table %(table)s: forfeit by %(who)s.") % {**where, "who": who}
        return gettext("Round %(round)s, table %(table)s: back to the game's own result.") % where
    if kind == TournamentEvent.Kind.FINISHED:
        return gettext("The tournament is over.")
    return str(event.get_kind_display())


def _standing_rows(tournament: Tournament, registrations: list[Registration]) -> list[dict[str, Any]]:
    by_number = {r.number: r for r in registrations if r.number is not None}
    rows = []
    for s in services.current_standings(tournament):
        reg = by_number.get(s.player)
        rows.append(
            {
                "rank": s.rank,
                "number": s.player,
                "name": reg.shown_name if reg else str(s.player),
                "withdrawn": reg is not None and not reg.is_active,
                "wins": points_text(s.half_points),
                "losses": s.losses,
                "draws": s.draws,
                "spread": s.spread,
                "total_score": s.total_score,
                "played": s.played + s.byes + s.forfeits,
            }
        )
    return rows


def _rounds(tournament: Tournament) -> list[dict[str, Any]]:
    outcomes = {(o.round, o.table): o for o in services.outcomes(tournament)}
    rounds: dict[int, dict[str, Any]] = {}
    pairings = (
        Pairing.objects.filter(round__tournament=tournament)
        .select_related("round", "first__user", "second__user", "game")
        .prefetch_related("game__seats")
        .order_by("-round__number", "table")
    )
    for p in pairings:
        entry = rounds.setdefault(
            p.round.number,
            {"number": p.round.number, "started": p.round.status == Round.Status.STARTED, "tables": []},
        )
        outcome = outcomes[(p.round.number, p.table)]
        first, second = p.first.shown_name, p.second.shown_name if p.second is not None else ""
        game = p.game
        live = None
        if game is not None and game.status == Game.Status.ACTIVE:
            live = [s.score for s in game.seat_list()]
        entry["tables"].append(
            {
                "table": p.table,
                "first": first,
                "first_number": p.first.number,
                "second": second,
                "second_number": p.second.number if p.second is not None else None,
                "url": reverse("games:detail", args=[game.pk]) if game is not None else "",
                "done": outcome.is_done(),
                "result": result_text(outcome, first, second),
                "live_scores": live,
                "overridden": bool(p.override),
            }
        )
    ordered = [rounds[n] for n in sorted(rounds, reverse=True)]
    for r in ordered:
        r["finished_count"] = sum(1 for t in r["tables"] if t["done"])
    return ordered


def _log(tournament: Tournament, registrations: list[Registration]) -> list[dict[str, Any]]:
    names = {r.number: r.name for r in registrations if r.number is not None}
    players = {r.pk: r.user_id for r in registrations}
    return [
        {
            "sequence": e.sequence,
            "when": e.created_at,
            "who": e.actor.username if e.actor is not None else "Wordgame",
            "what": event_text(
                e,
                names,
                by_themselves=e.actor_id is not None
                and e.actor_id == players.get(e.data.get("registration")),
            ),
            "why": e.reason,
        }
        for e in tournament.events.select_related("actor").order_by("-sequence")
    ]


def player_notices(
    tournament: Tournament, mine: Registration | None, current: dict[str, Any] | None
) -> list[str]:
    """What the tournament has to tell this player, read from the log and the current
    round: withdrawn for not checking in; their pairing in the current round. (Pushed
    and mailed messages wait for the notification centre; the page is where they show.)"""
    if mine is None:
        return []
    notices = []
    if not mine.is_active:
        missed = tournament.events.filter(
            kind=TournamentEvent.Kind.WITHDRAWN, data__registration=mine.pk, data__not_checked_in=True
        ).exists()
        if missed:
            notices.append(
                gettext("You were withdrawn: you had not checked in when the first round was paired.")
            )
        return notices
    if current is None or mine.number is None:
        return notices
    for t in current["tables"]:
        # Told until the table has its result.
        if mine.number not in (t["first_number"], t["second_number"]) or (t["done"] and t["second_number"]):
            continue
        if t["second_number"] is None:
            notices.append(
                gettext("Round %(round)s is paired: you have the bye.") % {"round": current["number"]}
            )
        elif t["first_number"] == mine.number:
            notices.append(
                gettext("Round %(round)s is paired: you play %(name)s at table %(table)s and go first.")
                % {"round": current["number"], "name": t["second"], "table": t["table"]}
            )
        else:
            notices.append(
                gettext("Round %(round)s is paired: you play %(name)s at table %(table)s and go second.")
                % {"round": current["number"], "name": t["first"], "table": t["table"]}
            )
    return notices


def status_label(tournament: Tournament, now: datetime | None = None, *, started: bool | None = None) -> str:
    """The tournament's state as the page says it. Pairing round 1 makes it "running",
    but nothing is played until the organiser starts a round: until then it is not yet
    in progress, whatever its start time. Registration is closed once the start time is
    past, even before round 1 is paired."""
    now = now or timezone.now()
    if tournament.status == Tournament.Status.RUNNING:
        if started is None:
            started = tournament.round_set.filter(status=Round.Status.STARTED).exists()
        if not started:
            return gettext("Round 1 paired, not started yet")
    elif tournament.status == Tournament.Status.REGISTRATION and now >= tournament.starts_at:
        return gettext("Registration closed, waiting for round 1")
    return tournament.get_status_display()


def tournament_context(
    tournament: Tournament, viewer: Any, *, oob: bool = False, **extra: Any
) -> dict[str, Any]:
    """Everything the tournament page and its partials show to ``viewer``."""
    registrations = list(tournament.registrations.select_related("user"))
    mine = next((r for r in registrations if r.user_id == getattr(viewer, "pk", None)), None)
    rounds = _rounds(tournament)
    context: dict[str, Any] = {
        "tournament": tournament,
        "language_name": language_name(tournament.language),
        "rules_label": games_rendering.rules_label(tournament.rules_preset, tournament.challenge_rule),
        "is_organiser": tournament.run_by(viewer),
        "registration": mine,
        "registration_open": services.registration_open(tournament),
        "checkin_open": services.checkin_open(tournament),
        "divisions": list(tournament.divisions.order_by("division_code")),
        # On an event's page: the division where the viewer plays.
        "my_division": Tournament.objects.filter(event=tournament, registrations__user_id=viewer.pk).first()
        if getattr(viewer, "is_authenticated", False)
        else None,
        "event": tournament.event,
        "siblings": list(
            Tournament.objects.filter(event_id=tournament.event_id)
            .exclude(pk=tournament.pk)
            .order_by("division_code")
        )
        if tournament.event_id
        else [],
        "notices": player_notices(tournament, mine, rounds[0] if rounds else None),
        "status_label": status_label(tournament),
        "players": [r for r in registrations if r.number is not None or r.is_active],
        "standings": _standing_rows(tournament, registrations),
        "rounds": rounds,
        "current": rounds[0] if rounds else None,
        "log": _log(tournament, registrations),
        "ws_url": f"/ws/tournaments/{tournament.pk}/",
        "oob": oob,
    }
    context.update(extra)
    return context


def render_partials(context: dict[str, Any], names: tuple[str, ...] = tuple(PARTIALS)) -> str:
    return "".join(render_to_string(PARTIALS[name], context) for name in names)


def fragments_for(tournament_id: int, viewer: Any) -> str:
    """Re-read the tournament and render every pushed partial for ``viewer`` (the
    consumer's snapshot)."""
    return render_partials(tournament_context(load(tournament_id), viewer, oob=True))


def screen_panel(tournament: Tournament, *, oob: bool = False) -> dict[str, Any]:
    """One division's slide on the screen for the room: its standings and its current
    round's tables (the same rows the page shows)."""
    registrations = list(tournament.registrations.select_related("user"))
    rounds = _rounds(tournament)
    return {
        "division": tournament,
        "standings": _standing_rows(tournament, registrations),
        "current": rounds[0] if rounds else None,
        "oob": oob,
    }


def screen_divisions(tournament: Tournament) -> list[Tournament]:
    """What the screen cycles through: an event's divisions, else the tournament."""
    return list(tournament.divisions.order_by("division_code")) or [tournament]


def screen_fragment(tournament_id: int) -> str:
    """The pushed slide of one division (the screen's socket, one per division)."""
    return render_to_string("tournaments/_screen_panel.html", screen_panel(load(tournament_id), oob=True))


def tournament_list(viewer: Any) -> dict[str, list[Tournament]]:
    """The tournaments page: open for registration, in progress, finished."""
    all_ = list(Tournament.objects.select_related("created_by").order_by("-starts_at", "-pk")[:200])
    started = set(
        Round.objects.filter(tournament__in=all_, status=Round.Status.STARTED).values_list(
            "tournament_id", flat=True
        )
    )
    now = timezone.now()
    for t in all_:
        # Each row says what its section heading may not: paired but not started yet,
        # or registration closed before round 1.
        label = status_label(t, now, started=t.pk in started)
        t.status_note = label if label != t.get_status_display() else ""  # type: ignore[attr-defined]
    return {
        "open": [t for t in all_ if t.status == Tournament.Status.REGISTRATION],
        "running": [t for t in all_ if t.status == Tournament.Status.RUNNING],
        "finished": [t for t in all_ if t.status == Tournament.Status.FINISHED],
    }
