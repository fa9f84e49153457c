"""The demo's finished tournament: generated once by a simulation, committed as a JSON
fixture (``tournaments/fixtures/demo_tournament.json``), loaded with the demo data.

The demo organiser is ana (the demo account, who joins the "Organisers" group), so a
newcomer logged in as ana can open the organiser's page of a finished tournament and
download its files. The players are accounts nobody can log in to.

Row ids in the fixture start at :data:`ID_OFFSET`, far above anything a fresh site has,
so loading it never overwrites a game or a tournament; users are referenced by
username. Ids inside the tournament's event log (registrations, games) are moved by the
same offset, so the log still rebuilds the tournament.

Regenerate (after a change to the models) on an empty database::

    DATABASE_URL=sqlite:////tmp/demo.sqlite3 python manage.py migrate
    DATABASE_URL=sqlite:////tmp/demo.sqlite3 python manage.py make_demo_tournament
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core import serializers
from django.core.management import call_command
from django.db import transaction
from django.db.models import Model

from games.demo import demo_user
from games.models import Game, GameAction, Move, Seat
from tournaments import services
from tournaments.models import Pairing, Registration, Round, Tournament, TournamentEvent
from tournaments.simulate import simulate_tournament

FIXTURE = Path(__file__).parent / "fixtures" / "demo_tournament.json"
ID_OFFSET = 900_000
DEMO_NAME = "Demo club round robin"
DEMO_PLAYERS = ("demo_cleo", "demo_dario", "demo_elif", "demo_femi")
DEMO_SEED = 12

#: The models whose ids the fixture moves, and the foreign keys pointing at them.
OFFSET_MODELS = (Game, Seat, Move, GameAction, Tournament, Registration, Round, Pairing, TournamentEvent)
OFFSET_MODELS_BY_LABEL: dict[str, type[Model]] = {m._meta.label_lower: m for m in OFFSET_MODELS}
OFFSET_LABELS = set(OFFSET_MODELS_BY_LABEL)


def generate(report: Any = print) -> Tournament:
    """Play the demo tournament (ana organising four players, a round robin of three
    rounds in English, pinned to the base dictionary) and return it."""
    ana, _ = demo_user("ana")
    ana.groups.add(services.ensure_organisers_group())
    organiser = type(ana).objects.get(pk=ana.pk)
    return simulate_tournament(
        players=len(DEMO_PLAYERS),
        rounds=3,
        system="roundrobin",
        language="en",
        seed=DEMO_SEED,
        organiser=organiser,
        usernames=DEMO_PLAYERS,
        name=DEMO_NAME,
        dictionary_version=0,
        report=report,
    )


def _objects(tournament: Tournament) -> list[Model]:
    games = list(Game.objects.filter(tournament_pairing__round__tournament=tournament).order_by("pk"))
    registrations = list(tournament.registrations.order_by("pk"))
    players = [r.user for r in registrations]
    rows: list[Model] = [*players, *games]
    rows += list(Seat.objects.filter(game__in=games).order_by("pk"))
    rows += list(Move.objects.filter(game__in=games).order_by("pk"))
    rows += list(GameAction.objects.filter(game__in=games).order_by("pk"))
    rows += [tournament, *registrations]
    rows += list(tournament.round_set.order_by("pk"))
    rows += list(Pairing.objects.filter(round__tournament=tournament).order_by("pk"))
    rows += list(tournament.events.order_by("sequence"))
    return rows


def _shift_event(data: dict[str, Any]) -> dict[str, Any]:
    shifted = dict(data)
    if "registration" in shifted:
        shifted["registration"] += ID_OFFSET
    if "numbers" in shifted:
        shifted["numbers"] = [[r + ID_OFFSET, n] for r, n in shifted["numbers"]]
    if "games" in shifted:
        shifted["games"] = [[t, g + ID_OFFSET] for t, g in shifted["games"]]
    return shifted


def fixture_records(tournament: Tournament) -> list[dict[str, Any]]:
    """The tournament, its games and its players as fixture records with moved ids."""
    records = serializers.serialize(
        "python", _objects(tournament), use_natural_foreign_keys=True, use_natural_primary_keys=True
    )
    for record in records:
        model = OFFSET_MODELS_BY_LABEL.get(record["model"])
        if model is None:
            continue  # a user: referenced by username
        record["pk"] += ID_OFFSET
        for field in model._meta.concrete_fields:
            target = getattr(field, "related_model", None)
            value = record["fields"].get(field.name)
            if target is not None and target._meta.label_lower in OFFSET_LABELS and isinstance(value, int):
                record["fields"][field.name] = value + ID_OFFSET
        if model is TournamentEvent:
            record["fields"]["data"] = _shift_event(record["fields"]["data"])
    return records


def write_fixture(tournament: Tournament, path: Path = FIXTURE) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(
        json.dumps(fixture_records(tournament), indent=1, ensure_ascii=False, default=str) + "\n",
        encoding="utf-8",
    )
    return path


def load_demo_tournament() -> list[str]:
    """Load the committed demo tournament unless it is there already; ana becomes an
    organiser (she organises it). Returns lines to report."""
    ana, _ = demo_user("ana")
    ana.groups.add(services.ensure_organisers_group())
    if Tournament.objects.filter(name=DEMO_NAME, created_by=ana).exists():
        return []
    with transaction.atomic():
        call_command("loaddata", str(FIXTURE), verbosity=0)
    tournament = Tournament.objects.get(name=DEMO_NAME, created_by=ana)
    return [f"demo tournament #{tournament.pk}: {DEMO_NAME}, finished, organised by ana"]
