"""Tournament exports: standings CSV, results CSV, JSON, TSH's ``.t`` file, a zip of
every game's GCG record, and the organiser's bundle of all of them.

:func:`collect` reads a tournament once into plain values (:class:`ExportData`); every
row builder and writer below works on those alone, so the same functions serve the
organiser's page, the admin action and ``manage.py export_tournament``. Formats are a
registry keyed by name (:data:`FORMATS`). :func:`preflight` runs before any export:
problems that would make a file wrong (a player at two tables in a round, pairings that
are not reciprocal, first and second inconsistent) refuse it; what the organiser may
accept (unfinished games, players without a member number) is a warning.

TSH (John Chew's tournament software, https://www.poslarchive.com/tsh/doc/) keeps one
``.t`` file per division, one line per player, the line number being the player's
number::

    Name                 1500 2 0 3; 412 50 388; p12 1 0 2

the name, the rating (0 when unrated), the opponent in each round (0: a bye or a
forfeit, recorded as TSH's data entry does, against nobody, with the spread as the
score: +50 for a bye or the player present, -50 for the absent one), a semicolon, the
player's score in each round with a result, and after another semicolon the ``p12``
field: 1 went first, 2 went second, 0 neither. Scores stop at the first round still
being played, as in TSH's own files during a tournament.
"""

from __future__ import annotations

import csv
import io
import json
import zipfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import IO, Any

from django.utils.translation import gettext, gettext_lazy

from engine.gcg import GameRecord, export_gcg
from games.records import game_record
from tournaments import services
from tournaments.models import Pairing
from tournaments.standings import (
    BYE,
    FORFEIT,
    PENDING,
    PLAYED,
    Outcome,
    Rules,
    Standing,
    player_results,
    standings,
)

Row = tuple[object, ...]


@dataclass(frozen=True, slots=True)
class ExportPlayer:
    number: int
    name: str
    username: str
    member_number: str
    rating: int | None
    active: bool
    # Whether ``name`` is a real "Last, First" (else the username stands in for it).
    real_name: bool = True
    # A bot's account (the JSON says so beside the username; the names stay plain).
    bot: bool = False


@dataclass(frozen=True, slots=True)
class ExportGame:
    round: int
    table: int
    record: GameRecord


@dataclass(frozen=True)
class ExportData:
    """A tournament in plain values, as every export needs it."""

    name: str
    language: str
    system: str
    rounds: int
    rated: bool
    rating_body: str
    dictionary_version: int | None
    starts_at: str
    status: str
    rules: Rules
    players: tuple[ExportPlayer, ...]
    outcomes: tuple[Outcome, ...]
    games: tuple[ExportGame, ...] = ()
    standings: tuple[Standing, ...] = field(default=())
    # The rules the games were played by (``engine.preset``) and the challenge rule.
    rules_preset: str = "wwf"
    challenge_rule: str = "void"

    def ranked(self) -> list[Standing]:
        if self.standings:
            return list(self.standings)
        return standings([p.number for p in self.players], self.outcomes, self.rules)

    def player(self, number: int | None) -> ExportPlayer | None:
        return next((p for p in self.players if p.number == number), None)

    def played_rounds(self) -> int:
        return max((o.round for o in self.outcomes), default=0)


# ----- pre-flight ----------------------------------------------------------------------


@dataclass
class Preflight:
    errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.errors


def scorecards(data: ExportData) -> tuple[dict[int, dict[int, tuple[int, int]]], list[str]]:
    """Each player's (opponent or 0, p12) per round as TSH records them, and the
    players found at two tables of one round."""
    cards: dict[int, dict[int, tuple[int, int]]] = {p.number: {} for p in data.players}
    doubled: list[str] = []
    for o in sorted(data.outcomes, key=lambda o: (o.round, o.table)):
        if o.second is None:
            seats = [(o.first, 0, 0)]
        elif o.kind == FORFEIT:
            # TSH records a forfeit as each player against nobody (module docstring).
            seats = [(o.first, 0, 0), (o.second, 0, 0)]
        else:
            seats = [(o.first, o.second, 1), (o.second, o.first, 2)]
        for player, opponent, p12 in seats:
            card = cards.setdefault(player, {})
            if o.round in card:
                doubled.append(
                    gettext("Player %(number)s is at two tables in round %(round)s.")
                    % {"number": player, "round": o.round}
                )
            card[o.round] = (opponent, p12)
    return cards, doubled


def scorecard_errors(cards: dict[int, dict[int, tuple[int, int]]]) -> list[str]:
    """Pairings that are not reciprocal (A's opponent is B, B's is not A) and pairs
    without exactly one player going first."""
    errors = []
    for player, card in sorted(cards.items()):
        for round_, (opponent, p12) in sorted(card.items()):
            if opponent == 0:
                if p12 != 0:
                    errors.append(
                        gettext("Round %(round)s: player %(a)s has a bye but is marked first or second.")
                        % {"round": round_, "a": player}
                    )
                continue
            theirs = cards.get(opponent, {}).get(round_)
            if theirs is None or theirs[0] != player:
                errors.append(
                    gettext("Round %(round)s: player %(a)s is paired with %(b)s, but not %(b)s with %(a)s.")
                    % {"round": round_, "a": player, "b": opponent}
                )
            elif {p12, theirs[1]} != {1, 2}:
                errors.append(
                    gettext("Round %(round)s: players %(a)s and %(b)s do not have one first and one second.")
                    % {"round": round_, "a": player, "b": opponent}
                )
    return errors


def preflight(data: ExportData) -> Preflight:
    """What would make the files wrong (errors) and what the organiser may accept
    (warnings), in the active interface language."""
    report = Preflight()
    numbers = sorted(p.number for p in data.players)
    if numbers != list(range(1, len(numbers) + 1)):
        report.errors.append(
            gettext("Player numbers are not 1 to %(count)s in order.") % {"count": len(numbers)}
        )
    known = set(numbers)
    for o in data.outcomes:
        for player in (o.first, o.second):
            if player is not None and player not in known:
                report.errors.append(
                    gettext("Round %(round)s, table %(table)s: player %(number)s is not registered.")
                    % {"round": o.round, "table": o.table, "number": player}
                )
    cards, doubled = scorecards(data)
    report.errors += doubled + scorecard_errors(cards)
    for o in data.outcomes:
        if o.kind == PENDING:
            report.warnings.append(
                gettext(
                    "Round %(round)s, table %(table)s: the game is not finished, so it has no result yet."
                )
                % {"round": o.round, "table": o.table}
            )
    if not data.rating_body:
        report.warnings.append(
            gettext("No rating body is chosen: member numbers and ratings are only those set per player.")
        )
    for p in data.players:
        if not p.member_number:
            report.warnings.append(
                gettext("Player %(number)s (%(name)s) has no member number.")
                % {"number": p.number, "name": p.name}
            )
    for p in data.players:
        if not p.real_name:
            report.warnings.append(
                gettext(
                    'Player %(number)s (%(name)s) has no real name ("Last, First"): the files show the username.'
                )
                % {"number": p.number, "name": p.name}
            )
    return report


# ----- rows ----------------------------------------------------------------------------


def points_text(half_points: int) -> str:
    """2.5, not 2.50 or 5/2: how wins are written in standings."""
    return str(half_points // 2) if half_points % 2 == 0 else f"{half_points / 2:.1f}"


def standings_rows(data: ExportData) -> Iterator[Row]:
    yield (
        "rank",
        "number",
        "player",
        "member_number",
        "rating",
        "wins",
        "losses",
        "draws",
        "spread",
        "total_score",
    )
    for s in data.ranked():
        p = data.player(s.player)
        yield (
            s.rank,
            s.player,
            p.name if p else "",
            p.member_number if p else "",
            p.rating if p and p.rating is not None else "",
            points_text(s.half_points),
            s.losses,
            s.draws,
            s.spread,
            s.total_score,
        )


RESULT_WORDS = {
    (PLAYED, "win"): "win",
    (PLAYED, "loss"): "loss",
    (PLAYED, "draw"): "draw",
    (BYE, "win"): "bye",
    (FORFEIT, "win"): "forfeit win",
    (FORFEIT, "loss"): "forfeit loss",
}


def results_rows(data: ExportData) -> Iterator[Row]:
    yield (
        "round",
        "table",
        "player",
        "opponent",
        "first_or_second",
        "score",
        "opponent_score",
        "result",
        "spread",
    )
    for o in sorted(data.outcomes, key=lambda o: (o.round, o.table)):
        for r in player_results(o, data.rules):
            me, them = data.player(r.player), data.player(r.opponent)
            pending = r.result == PENDING
            yield (
                r.round,
                r.table,
                me.name if me else r.player,
                (them.name if them else r.opponent) if r.opponent is not None else "",
                r.position,
                "" if r.score is None else r.score,
                "" if r.opponent_score is None else r.opponent_score,
                PENDING if pending else RESULT_WORDS[(r.kind, r.result)],
                "" if pending else r.spread,
            )


def tsh_lines(data: ExportData) -> Iterator[str]:
    """The ``.t`` file's lines, player 1 first (module docstring)."""
    cards, _doubled = scorecards(data)
    scores: dict[tuple[int, int], int | None] = {}
    for o in data.outcomes:
        for r in player_results(o, data.rules):
            value = r.score if r.kind == PLAYED else r.spread
            scores[(r.player, r.round)] = None if r.result == PENDING else value
    rounds = data.played_rounds()
    width = max((len(p.name) for p in data.players), default=0) + 1
    for p in sorted(data.players, key=lambda p: p.number):
        card = cards.get(p.number, {})
        opponents, p12s, points = [], [], []
        pending = False
        for round_ in range(1, rounds + 1):
            # A round the player sat out (withdrawn, or not entered yet) is written as
            # TSH writes an unpaired round: against nobody, scoring 0, neither first
            # nor second.
            opponent, p12 = card.get(round_, (0, 0))
            opponents.append(str(opponent))
            p12s.append(str(p12))
            score = scores.get((p.number, round_), 0)
            pending = pending or score is None
            if not pending:
                points.append(str(score))
        rating = p.rating or 0
        fields = [f"{p.name:<{width}}{rating:>4}" + "".join(f" {o}" for o in opponents)]
        fields.append("".join(f" {s}" for s in points))
        fields.append(" p12" + "".join(f" {x}" for x in p12s))
        yield ";".join(fields)


RULES_NOTES = {
    "wwf": "Wordgame's own board and tiles, 35 for a bingo, going out takes the other rack's value, "
    "three scoreless turns end the game",
    "classic": "the classic board and tiles, 50 for a bingo, going out scores twice the other rack, "
    "six scoreless turns in a row end the game",
}
CHALLENGE_NOTES = {
    "void": "no challenges: every word checked when it is played",
    "single": "single challenge: a phony challenged is taken back, a valid play challenged costs nothing",
    "double": "double challenge: a phony challenged is taken back, the challenger of a valid play loses the turn",
    "five": "five-point challenge: a phony challenged is taken back, a valid play challenged earns its player 5",
}


def rules_note(data: ExportData) -> str:
    """The rules the tournament's games were played by, in one line (a ``#`` comment in
    ``config.tsh``, the bundle's ``notes.txt``): the preset and the challenge rule."""
    preset = RULES_NOTES.get(data.rules_preset, data.rules_preset)
    challenge = CHALLENGE_NOTES.get(data.challenge_rule, data.challenge_rule)
    return f"rules {data.rules_preset} ({preset}); challenge {data.challenge_rule} ({challenge})"


def notes_text(data: ExportData) -> str:
    """The bundle's ``notes.txt``: what the files alone do not say (the rules)."""
    return f"{data.name}\nRules: {rules_note(data)}\n"


def tsh_config(data: ExportData) -> str:
    """A ``config.tsh`` that opens the bundle's ``a.t`` in TSH as division A (the rules,
    which TSH has no setting for, in a comment)."""
    return "\n".join(
        [
            f"# {data.name}",
            f"# {rules_note(data)}",
            "division a a.t",
            f"config max_rounds = {data.rounds}",
            "config track_firsts = 1",
            "",
        ]
    )


def event_tsh_config(name: str, divisions: list[tuple[str, ExportData]]) -> str:
    """The ``config.tsh`` of an event with divisions, as TSH's configuration manual
    describes it (https://www.poslarchive.com/tsh/doc/config.html): the first word of
    each line gives its kind; every division is declared (``division <name> <file>``,
    names unique regardless of case, one file each) before any line about it; the
    options every division shares are ``config <name> = <value>``."""
    rounds = max((data.rounds for _code, data in divisions), default=0)
    lines = [f"# {name}"]
    for code, data in divisions:
        lines.append(f"# {code.upper()}: {data.name}; {rules_note(data)}")
        lines.append(f"division {code} {code}.t")
    lines += [f"config max_rounds = {rounds}", "config track_firsts = 1", ""]
    return "\n".join(lines)


def event_preflight(divisions: list[tuple[str, ExportData]]) -> Preflight:
    """Every division's pre-flight, each problem named by its division."""
    report = Preflight()
    for code, data in divisions:
        own = preflight(data)
        report.errors += [f"{code.upper()}: {e}" for e in own.errors]
        report.warnings += [f"{code.upper()}: {w}" for w in own.warnings]
    return report


def write_event_tsh(name: str, divisions: list[tuple[str, ExportData]], out: IO[bytes]) -> None:
    """An event's bundle as a zip: at the top TSH's folder (``config.tsh`` naming every
    division and one ``.t`` file per division), and in ``<division>/`` each division's
    own bundle (every format, its pre-flight warnings)."""
    with zipfile.ZipFile(out, "w") as archive:
        _add(archive, "config.tsh", event_tsh_config(name, divisions))
        for code, data in divisions:
            _add(archive, f"{code}.t", text_of(write_tsh, data))
        for code, data in divisions:
            _bundle_into(archive, data, prefix=f"{code}/")


def collect_event(event: Any) -> list[tuple[str, ExportData]]:
    """Each division of ``event`` (a ``Tournament``) read for the files, by its code."""
    return [(d.division_code, collect(d)) for d in event.divisions.order_by("division_code")]


def json_document(data: ExportData) -> dict[str, Any]:
    rounds: dict[int, list[dict[str, Any]]] = {}
    for o in sorted(data.outcomes, key=lambda o: (o.round, o.table)):
        rounds.setdefault(o.round, []).append(
            {
                "table": o.table,
                "first": o.first,
                "second": o.second,
                "result": o.kind,
                "first_score": o.first_score,
                "second_score": o.second_score,
                "absent": o.absent or None,
            }
        )
    return {
        "format": "wordgame-tournament",
        "format_version": 1,
        "tournament": {
            "name": data.name,
            "language": data.language,
            "system": data.system,
            "rounds": data.rounds,
            "rated": data.rated,
            "rating_body": data.rating_body or None,
            "dictionary_version": data.dictionary_version,
            "starts_at": data.starts_at,
            "status": data.status,
            "bye_spread": data.rules.bye_spread,
            "forfeit_spread": data.rules.forfeit_spread,
            "rules_preset": data.rules_preset,
            "challenge_rule": data.challenge_rule,
        },
        "players": [
            {
                "number": p.number,
                "name": p.name,
                "username": p.username,
                "bot": p.bot,
                "member_number": p.member_number or None,
                "rating": p.rating,
                "active": p.active,
            }
            for p in sorted(data.players, key=lambda p: p.number)
        ],
        "rounds": [{"round": n, "tables": rounds[n]} for n in sorted(rounds)],
        "standings": [
            {
                "rank": s.rank,
                "number": s.player,
                "wins": s.points,
                "losses": s.losses,
                "draws": s.draws,
                "spread": s.spread,
                "total_score": s.total_score,
                "played": s.played,
                "byes": s.byes,
                "forfeits": s.forfeits,
            }
            for s in data.ranked()
        ],
    }


def gcg_name(game: ExportGame) -> str:
    return f"round-{game.round:02d}-table-{game.table:02d}.gcg"


# ----- writers -------------------------------------------------------------------------


def write_csv(rows: Iterator[Row], out: IO[str]) -> None:
    csv.writer(out, lineterminator="\n").writerows(rows)


def write_standings_csv(data: ExportData, out: IO[str]) -> None:
    write_csv(standings_rows(data), out)


def write_results_csv(data: ExportData, out: IO[str]) -> None:
    write_csv(results_rows(data), out)


def write_json(data: ExportData, out: IO[str]) -> None:
    json.dump(json_document(data), out, indent=2, ensure_ascii=False)
    out.write("\n")


def write_tsh(data: ExportData, out: IO[str]) -> None:
    for line in tsh_lines(data):
        out.write(line + "\n")


# Fixed member dates and modes make a zip's bytes depend on its contents alone.
ZIP_DATE = (1980, 1, 1, 0, 0, 0)


def _add(archive: zipfile.ZipFile, name: str, text: str) -> None:
    info = zipfile.ZipInfo(name, date_time=ZIP_DATE)
    info.compress_type = zipfile.ZIP_DEFLATED
    info.external_attr = 0o644 << 16
    archive.writestr(info, text.encode("utf-8"))


def write_gcg_zip(data: ExportData, out: IO[bytes]) -> None:
    with zipfile.ZipFile(out, "w") as archive:
        for game in sorted(data.games, key=lambda g: (g.round, g.table)):
            _add(archive, gcg_name(game), export_gcg(game.record))


def text_of(writer: Callable[[ExportData, IO[str]], None], data: ExportData) -> str:
    buffer = io.StringIO()
    writer(data, buffer)
    return buffer.getvalue()


def write_bundle(data: ExportData, out: IO[bytes]) -> None:
    """Everything an organiser hands over, in one zip: the files of every other format,
    a ``config.tsh`` to open ``a.t`` in TSH, and the pre-flight warnings."""
    with zipfile.ZipFile(out, "w") as archive:
        _bundle_into(archive, data)


def _bundle_into(archive: zipfile.ZipFile, data: ExportData, prefix: str = "") -> None:
    report = preflight(data)
    _add(archive, prefix + "standings.csv", text_of(write_standings_csv, data))
    _add(archive, prefix + "results.csv", text_of(write_results_csv, data))
    _add(archive, prefix + "tournament.json", text_of(write_json, data))
    _add(archive, prefix + "a.t", text_of(write_tsh, data))
    _add(archive, prefix + "config.tsh", tsh_config(data))
    for game in sorted(data.games, key=lambda g: (g.round, g.table)):
        _add(archive, prefix + "games/" + gcg_name(game), export_gcg(game.record))
    _add(archive, prefix + "warnings.txt", "".join(f"{w}\n" for w in report.warnings))
    _add(archive, prefix + "notes.txt", notes_text(data))


@dataclass(frozen=True)
class ExportFormat:
    name: str
    label: Any  # a lazy translation
    suffix: str
    content_type: str
    binary: bool
    write: Callable[[ExportData, Any], None]

    def filename(self, stem: str) -> str:
        return f"{stem}{self.suffix}"

    def render(self, data: ExportData) -> bytes:
        """The file's bytes (UTF-8 for text formats)."""
        if self.binary:
            buffer = io.BytesIO()
            self.write(data, buffer)
            return buffer.getvalue()
        return text_of(self.write, data).encode("utf-8")


FORMATS: dict[str, ExportFormat] = {
    f.name: f
    for f in (
        ExportFormat(
            "standings-csv",
            gettext_lazy("Standings (CSV)"),
            "-standings.csv",
            "text/csv",
            False,
            write_standings_csv,
        ),
        ExportFormat(
            "results-csv", gettext_lazy("Results (CSV)"), "-results.csv", "text/csv", False, write_results_csv
        ),
        ExportFormat(
            "json", gettext_lazy("Everything (JSON)"), ".json", "application/json", False, write_json
        ),
        ExportFormat("tsh", gettext_lazy("TSH file (.t)"), ".t", "text/plain", False, write_tsh),
        ExportFormat(
            "gcg-zip",
            gettext_lazy("Game records (GCG, zip)"),
            "-gcg.zip",
            "application/zip",
            True,
            write_gcg_zip,
        ),
        ExportFormat(
            "bundle",
            gettext_lazy("Organiser bundle (zip)"),
            "-bundle.zip",
            "application/zip",
            True,
            write_bundle,
        ),
    )
}


def file_stem(tournament_id: int) -> str:
    return f"tournament-{tournament_id}"


def collect(tournament: Any, *, with_games: bool = True) -> ExportData:
    """Read ``tournament`` (a ``Tournament``) once into :class:`ExportData`: its
    numbered players with their member numbers and ratings, every table's outcome, and
    (``with_games``) the record of every finished game (an unfinished one holds racks
    nobody may see). The pre-flight alone needs no game records."""
    registrations = list(tournament.registrations.filter(number__isnull=False).select_related("user"))
    info = services.rating_info(tournament, registrations)
    players = tuple(
        ExportPlayer(
            number=int(r.number),
            name=r.name,
            username=r.user.username,
            member_number=info[r.pk].member_number,
            rating=info[r.pk].rating,
            active=r.is_active,
            real_name=r.has_real_name,
            bot=r.user.is_bot,
        )
        for r in sorted(registrations, key=lambda r: r.number or 0)
    )
    games = []
    rows = (
        Pairing.objects.filter(round__tournament=tournament, game__status="finished")
        .select_related("round", "game")
        .prefetch_related("game__seats__user", "game__moves")
    )
    if not with_games:
        rows = rows.none()
    for p in rows:
        game = p.game
        assert game is not None
        record = game_record(game)
        games.append(ExportGame(p.round.number, p.table, record))
    return ExportData(
        name=tournament.name,
        language=tournament.language,
        system=tournament.system,
        rounds=tournament.rounds,
        rated=tournament.rated,
        rating_body=tournament.rating_body,
        dictionary_version=tournament.dictionary_version,
        starts_at=tournament.starts_at.isoformat(),
        status=tournament.status,
        rules=services.rules_of(tournament),
        players=players,
        outcomes=tuple(services.outcomes(tournament)),
        games=tuple(games),
        rules_preset=tournament.rules_preset,
        challenge_rule=tournament.challenge_rule,
    )


def export(data: ExportData, name: str) -> tuple[ExportFormat, bytes, Preflight]:
    """Run the pre-flight, then render format ``name``. Raises ``KeyError`` for an
    unknown format and ``ExportRefused`` when the pre-flight finds errors."""
    fmt = FORMATS[name]
    report = preflight(data)
    if not report.ok:
        raise ExportRefused(report)
    return fmt, fmt.render(data), report


class ExportRefused(Exception):
    """The pre-flight found errors: the files would be wrong."""

    def __init__(self, report: Preflight) -> None:
        super().__init__("; ".join(report.errors))
        self.report = report
