"""A tournament rebuilt from its event log alone, pure.

``replay`` folds the events (kind and data, in order) into the players, the rounds and
their tables; with what each table's game says (``standings.GameFacts``, read from the
games) that gives the outcomes and the standings, without reading any of the rows the
services keep beside the log. The tests rebuild a tournament this way and compare it
with those rows, so the log really is the record.

Event data (written by ``tournaments.services``), by kind:

- ``created``: the settings (name, language, system, rounds, days_per_move, rated,
  starts_at, rating_body, bye_spread, forfeit_spread, dictionary_version, and the Swiss
  options king_of_the_hill, gibsonize, prize_places);
- ``registered``: ``registration`` (id), ``name``, ``number`` (a late entrant's, else
  None); for a late entrant also ``missed`` ("bye" or "loss"), ``missed_tables``
  ([round, table] of each round already paired) and, in a round robin, ``schedule``
  (the rounds still to play, regenerated: [[round, [[first, second or None], ...]]]);
- ``checked_in``: ``registration``, ``name``;
- ``prizes_set``: ``prize_bands`` (the rating caps of the prizes by band);
- ``name_set``: ``registration``, ``name`` (as the files show it now), ``real_name``
  (the organiser's "Last, First", "" for the player's own);
- ``withdrawn``: ``registration``, ``name``, ``not_checked_in`` (True when the site
  withdrew the player at the first pairing for not checking in);
- ``reinstated``: ``registration``, ``name``, ``number`` (when numbered on return);
- ``rating_set``: ``registration``, ``name``, ``member_number``, ``rating``;
- ``started``: ``dictionary_version``, ``numbers`` ([registration, number] pairs);
- ``round_paired``: ``round``, ``tables`` ([table, first, second or None], by number),
  ``repeats`` (the [first, second] rematches the pairing could not avoid);
- ``pairing_overridden``: ``round``, ``table``, ``first``, ``second`` and the round's
  ``tables`` after the change;
- ``round_started``: ``round``, ``tables`` as started (a player withdrawn since the
  pairing leaves a bye), ``games`` ([table, game id] pairs) and, with a time limit per
  round, its ``deadline``; the site (no actor) pairs and starts rounds that run
  themselves with the same events;
- ``result_overridden``: ``round``, ``table``, ``override`` ("", "scores", "forfeit"),
  ``first_score``, ``second_score``, ``absent``, and ``adjudicated`` when the site
  scored an unfinished game at the round's time limit;
- ``finished``: nothing;
- ``division_added`` (on an event): ``division`` (its tournament id), ``code``, ``name``,
  ``rating_min``, ``rating_max``; a division's own ``created`` adds ``event`` and
  ``division`` (its code);
- ``moved`` (on a division, before the start): ``registration``, ``name``, ``to`` (the
  target division's code); the target logs ``registered`` with ``moved_from``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from tournaments.standings import GameFacts, Outcome, Rules, Standing, standings, table_outcome


@dataclass
class PlayerState:
    registration: int
    name: str
    number: int | None = None
    active: bool = True
    member_number: str = ""
    rating: int | None = None
    checked_in: bool = False


@dataclass
class TableState:
    round: int
    table: int
    first: int
    second: int | None
    game: int | None = None
    override: str = ""
    first_score: int | None = None
    second_score: int | None = None
    absent: str = ""


@dataclass
class Snapshot:
    settings: dict[str, Any] = field(default_factory=dict)
    players: dict[int, PlayerState] = field(default_factory=dict)  # by registration id
    rounds: dict[int, dict[int, TableState]] = field(default_factory=dict)  # round -> table -> state
    started_rounds: set[int] = field(default_factory=set)
    status: str = "registration"
    dictionary_version: int | None = None
    schedule: list[Any] = field(default_factory=list)
    divisions: list[dict[str, Any]] = field(default_factory=list)

    def numbered(self) -> dict[int, PlayerState]:
        return {p.number: p for p in self.players.values() if p.number is not None}

    def tables(self) -> list[TableState]:
        return [t for r in sorted(self.rounds) for _, t in sorted(self.rounds[r].items())]

    def games(self) -> set[int]:
        return {t.game for t in self.tables() if t.game is not None}

    def outcomes(self, games: Mapping[int, GameFacts]) -> list[Outcome]:
        return [
            table_outcome(
                round=t.round,
                table=t.table,
                first=t.first,
                second=t.second,
                override=t.override,
                first_score=t.first_score,
                second_score=t.second_score,
                absent=t.absent,  # type: ignore[arg-type]
                game=games.get(t.game) if t.game is not None else None,
            )
            for t in self.tables()
        ]

    def rules(self) -> Rules:
        return Rules(
            bye_spread=int(self.settings.get("bye_spread", 50)),
            forfeit_spread=int(self.settings.get("forfeit_spread", 50)),
        )

    def standings(self, games: Mapping[int, GameFacts]) -> list[Standing]:
        return standings(sorted(self.numbered()), self.outcomes(games), self.rules())


def _tables(round_: int, rows: Iterable[list[Any]]) -> dict[int, TableState]:
    return {int(t): TableState(round_, int(t), int(a), None if b is None else int(b)) for t, a, b in rows}


def replay(events: Iterable[tuple[str, Mapping[str, Any]]]) -> Snapshot:
    """Fold ``events`` (kind, data), oldest first, into a :class:`Snapshot`."""
    snap = Snapshot()
    for kind, data in events:
        if kind == "created":
            snap.settings = dict(data)
            snap.dictionary_version = data.get("dictionary_version")
        elif kind == "registered":
            snap.players[data["registration"]] = PlayerState(
                data["registration"], data["name"], data.get("number")
            )
            loss = data.get("missed") == "loss"
            for round_, table in data.get("missed_tables", []):
                snap.rounds.setdefault(round_, {})[table] = TableState(
                    round_,
                    table,
                    data["number"],
                    None,
                    override="forfeit" if loss else "",
                    absent="first" if loss else "",
                )
            if "schedule" in data:
                snap.schedule = data["schedule"]
        elif kind == "prizes_set":
            snap.settings["prize_bands"] = list(data["prize_bands"])
        elif kind == "name_set":
            snap.players[data["registration"]].name = data["name"]
        elif kind == "checked_in":
            snap.players[data["registration"]].checked_in = True
        elif kind == "withdrawn":
            snap.players[data["registration"]].active = False
        elif kind == "reinstated":
            player = snap.players[data["registration"]]
            player.active = True
            if data.get("number") is not None:
                player.number = data["number"]
        elif kind == "rating_set":
            player = snap.players[data["registration"]]
            player.member_number, player.rating = data["member_number"], data["rating"]
        elif kind == "started":
            snap.status = "running"
            snap.dictionary_version = data["dictionary_version"]
            for registration, number in data["numbers"]:
                snap.players[registration].number = number
        elif kind in ("round_paired", "pairing_overridden"):
            # An override carries the whole round after it, so games stay with tables.
            snap.rounds[data["round"]] = _tables(data["round"], data["tables"])
        elif kind == "round_started":
            snap.started_rounds.add(data["round"])
            if "tables" in data:  # as started: a withdrawn player's opponent has a bye
                snap.rounds[data["round"]] = _tables(data["round"], data["tables"])
            for table, game in data["games"]:
                snap.rounds[data["round"]][int(table)].game = game
        elif kind == "result_overridden":
            state = snap.rounds[data["round"]][data["table"]]
            state.override = data["override"]
            state.first_score, state.second_score = data["first_score"], data["second_score"]
            state.absent = data["absent"]
        elif kind == "finished":
            snap.status = "finished"
        elif kind == "moved":
            # Moved to another division of the event before the start: gone from here.
            del snap.players[data["registration"]]
        elif kind == "division_added":
            snap.divisions.append(dict(data))
        else:
            raise ValueError(f"unknown tournament event {kind!r}")
    return snap
