"""A player's finished games, searched: the archive (``/players/<name>/games/``, "my
games") and the API's ``/players/<name>/games`` read the same functions.

- :func:`games_of` is the one query of the set: the finished games ``player`` sat in that
  ``viewer`` may see (a private game only by its players), with every filter of
  :class:`Filters` combined (AND). Each filter is a column condition or an ``EXISTS``, so
  the number of queries never depends on the filters or on the page.
- :func:`page` pages it by keyset on ``(finished_at, id)``, newest first: the cursor
  names the last game shown, so the 10,000th game costs what the first does, and a game
  that finishes while someone pages sorts before the first page, never into a later one.
- :func:`head_to_head`: the record against one opponent, in four queries.
- :func:`ndjson_lines` and :func:`gcg_zip_chunks` stream the whole filtered set in
  batches (``DOWNLOAD_BATCH`` games, three queries each).

What a game shows comes from the typed view (``games.gameview.view_of``), as everywhere.
"""

from __future__ import annotations

import base64
import binascii
import io
import json
import zipfile
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from typing import Any

from django.db.models import Avg, Count, Exists, F, OuterRef, Q, QuerySet
from django.utils import timezone

import engine
from accounts.models import User
from games.gameview import Loaded, SeatView, view_of
from games.models import ExtraPurchase, Game, Move, Seat, seats_with_users
from games.records import gcg_text

#: Games per page of the archive (the API may ask for fewer).
PAGE_SIZE = 50
#: Games read at once by the downloads.
DOWNLOAD_BATCH = 200
RESULTS = ("win", "loss", "draw")
#: The opponent filter's value for games against the computer.
COMPUTER = "computer"


class ArchiveError(ValueError):
    """A filter or a cursor that cannot be read. ``code`` keys ``games.messages``."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


@dataclass(frozen=True, slots=True)
class Filters:
    """What to keep of a player's finished games; ``None``/"" keeps everything."""

    opponent: str = ""  # a username (any case), or COMPUTER
    language: str = ""
    result: str = ""  # win, loss or draw, for the archive's player
    mode: str = ""
    pace: str = ""  # live or correspondence (``games.pace.SPEEDS``)
    rated: bool | None = None
    tournament: bool | None = None  # played in a tournament, or not
    since: date | None = None  # finished on or after this day
    until: date | None = None  # finished on or before this day
    end_reason: str = ""
    word: str = ""  # a word either side formed, in any case, blanks included


# ----- tournaments, without importing them --------------------------------------------------

_tournament_games: list[Callable[[], QuerySet[Any]]] = []


def register_tournament_games(games: Callable[[], QuerySet[Any]]) -> None:
    """Install ``games() -> queryset of game ids`` (``tournaments`` does, from its
    ``AppConfig.ready``: games never imports tournaments)."""
    _tournament_games[:] = [games]


def tournament_game_ids() -> QuerySet[Any] | None:
    return _tournament_games[0]() if _tournament_games else None


# ----- the set -------------------------------------------------------------------------------


def word_forms(word: str, language: str = "") -> list[str]:
    """How ``word`` may stand in ``Move.words_text`` (upper case, normalised per game
    language: a blank's letter is stored like any other): one form per language it
    can be spelt in, or the one language asked for."""
    languages = [language] if language else list(engine.LANGUAGES)
    forms = {engine.normalize_word(lang, word) for lang in languages if lang in engine.LANGUAGES}
    return sorted(f for f in forms if f)


def games_of(player: User, viewer: User, filters: Filters) -> QuerySet[Game]:
    """``player``'s finished games that ``viewer`` may see, filtered (one query when
    evaluated; the seats are for :func:`items`)."""
    mine = Seat.objects.filter(game=OuterRef("pk"), user=player)
    games = Game.objects.filter(Exists(mine), status=Game.Status.FINISHED, finished_at__isnull=False)
    if getattr(viewer, "pk", None) != player.pk:
        # A private game is found only by its players.
        if getattr(viewer, "is_authenticated", False):
            viewer_seat = Seat.objects.filter(game=OuterRef("pk"), user=viewer)
            games = games.filter(Q(is_public=True) | Exists(viewer_seat))
        else:
            games = games.filter(is_public=True)
    return narrowed(games, player, filters)


def narrowed(games: QuerySet[Game], player: User, filters: Filters) -> QuerySet[Game]:
    others = Seat.objects.filter(game=OuterRef("pk")).exclude(user=player)
    if filters.opponent == COMPUTER:
        games = games.filter(Exists(others.filter(user__isnull=True)))
    elif filters.opponent:
        games = games.filter(Exists(others.filter(user__username__iexact=filters.opponent)))
    if filters.language:
        games = games.filter(language=filters.language)
    if filters.mode:
        games = games.filter(mode=filters.mode)
    if filters.pace:
        games = games.filter(speed=filters.pace)
    if filters.rated is not None:
        games = games.filter(rated=filters.rated)
    if filters.end_reason:
        games = games.filter(end_reason=filters.end_reason)
    if filters.since is not None:
        games = games.filter(finished_at__gte=day_start(filters.since))
    if filters.until is not None:
        games = games.filter(finished_at__lt=day_start(filters.until + timedelta(days=1)))
    if filters.result:
        own = Seat.objects.filter(game=OuterRef("pk"), user=player)
        if filters.result == "draw":
            games = games.filter(winner_seat__isnull=True)
        elif filters.result == "win":
            games = games.filter(Exists(own.filter(index=OuterRef("winner_seat"))))
        else:
            games = games.filter(winner_seat__isnull=False).exclude(
                Exists(own.filter(index=OuterRef("winner_seat")))
            )
    if filters.tournament is not None:
        in_tournaments = tournament_game_ids()
        if in_tournaments is not None:
            # EXISTS rather than IN: SQLite plans NOT IN over a subquery badly.
            played = Exists(in_tournaments.filter(game_id=OuterRef("pk")))
            games = games.filter(played) if filters.tournament else games.exclude(played)
        elif filters.tournament:
            games = games.none()
    if filters.word:
        forms = word_forms(filters.word, filters.language)
        if not forms:
            return games.none()
        spelt = Q()
        for form in forms:
            spelt |= Q(words_text__contains=f" {form} ")
        games = games.filter(Exists(Move.objects.filter(spelt, game=OuterRef("pk"))))
    return games


def day_start(day: date) -> datetime:
    return timezone.make_aware(datetime.combine(day, time.min))


# ----- pages ---------------------------------------------------------------------------------


def encode_cursor(game: Game) -> str:
    assert game.finished_at is not None
    raw = f"{game.finished_at.isoformat()}|{game.pk}"
    return base64.urlsafe_b64encode(raw.encode()).decode().rstrip("=")


def decode_cursor(cursor: str) -> tuple[datetime, int]:
    """The ``(finished_at, id)`` a cursor names; :class:`ArchiveError` ``bad_cursor``
    for anything else."""
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode()
        when, pk = raw.split("|")
        at = datetime.fromisoformat(when)
        if at.tzinfo is None:
            raise ValueError(when)
        return at, int(pk)
    except (ValueError, UnicodeDecodeError, binascii.Error) as exc:
        raise ArchiveError("bad_cursor") from exc


@dataclass(frozen=True, slots=True)
class Item:
    """One finished game of the archive, for ``player`` (the archive's owner)."""

    game_id: int
    language: str
    mode: str
    pace: str  # the pace's code ("3d", "10+5")
    pace_label: str
    rated: bool
    is_public: bool
    end_reason: str
    end_reason_label: str
    finished_at: datetime
    seats: tuple[SeatView, ...]
    player_seat: int
    result: str  # win, loss, draw (for the archive's player)

    @property
    def me(self) -> SeatView:
        return self.seats[self.player_seat]

    @property
    def opponent(self) -> SeatView | None:
        return next((s for s in self.seats if s.index != self.player_seat), None)


@dataclass(frozen=True, slots=True)
class Page:
    items: tuple[Item, ...]
    next_cursor: str  # "" on the last page


def page(player: User, viewer: User, filters: Filters, *, cursor: str = "", size: int = PAGE_SIZE) -> Page:
    """One page of :func:`games_of`, newest first, after ``cursor``: two queries (the
    games, their seats), whatever the filters and however deep the page."""
    games = games_of(player, viewer, filters)
    if cursor:
        at, pk = decode_cursor(cursor)
        games = games.filter(Q(finished_at__lt=at) | Q(finished_at=at, pk__lt=pk))
    found = list(
        games.select_related("created_by")
        .prefetch_related(seats_with_users())
        .order_by("-finished_at", "-pk")[: size + 1]
    )
    shown = found[:size]
    more = len(found) > size
    return Page(items=items(shown, player, viewer), next_cursor=encode_cursor(shown[-1]) if more else "")


def items(games: Iterable[Game], player: User, viewer: User) -> tuple[Item, ...]:
    result = []
    for game in games:
        view = view_of(Loaded(game=game, moves=(), purchases=(), away={}, at=0.0), game.pov(viewer))
        seat = next(s.index for s in game.seat_list() if s.user_id == player.pk)
        assert game.finished_at is not None
        result.append(
            Item(
                game_id=game.pk,
                language=view.language,
                mode=view.mode,
                pace=view.pace.code,
                pace_label=view.pace.label(),
                rated=view.rated,
                is_public=view.is_public,
                end_reason=view.end_reason,
                end_reason_label=view.end_reason_label,
                finished_at=game.finished_at,
                seats=view.seats,
                player_seat=seat,
                result=outcome(game.winner_seat, seat),
            )
        )
    return tuple(result)


def outcome(winner_seat: int | None, seat: int) -> str:
    if winner_seat is None:
        return "draw"
    return "win" if winner_seat == seat else "loss"


# ----- head to head --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class HeadToHead:
    opponent: str
    games: int
    wins: int
    losses: int
    draws: int
    average_score: float
    opponent_average_score: float
    best_word: str
    best_word_score: int
    opponent_best_word: str
    opponent_best_word_score: int


def head_to_head(player: User, viewer: User, opponent: User, filters: Filters) -> HeadToHead:
    """``player``'s record against ``opponent`` (a user) over the filtered set ``viewer``
    may see: games, wins, losses, draws, average final scores, each side's best word.
    Four queries."""
    chosen = Filters(**{**_as_dict(filters), "opponent": opponent.username})
    games = games_of(player, viewer, chosen)
    ids = games.values("pk")
    totals = Seat.objects.filter(game__in=ids, user=player).aggregate(
        games=Count("pk"),
        wins=Count("pk", filter=Q(game__winner_seat=F("index"))),
        draws=Count("pk", filter=Q(game__winner_seat__isnull=True)),
        mine=Avg("score"),
    )
    theirs = Seat.objects.filter(game__in=ids, user=opponent).aggregate(average=Avg("score"))["average"]
    plays = (
        Move.objects.filter(game__in=ids, kind=Move.Kind.PLAY, withdrawn=False)
        .exclude(words=[])
        .order_by("-score", "pk")
    )
    best = {who: plays.filter(user=who).values_list("words", "score").first() for who in (player, opponent)}
    count, wins, draws = totals["games"], totals["wins"], totals["draws"]

    def word(row: tuple[Any, int] | None) -> tuple[str, int]:
        return (str(row[0][0]["word"]), int(row[1])) if row else ("", 0)

    (best_word, best_score), (their_word, their_score) = word(best[player]), word(best[opponent])
    return HeadToHead(
        opponent=opponent.username,
        games=count,
        wins=wins,
        losses=count - wins - draws,
        draws=draws,
        average_score=float(totals["mine"] or 0),
        opponent_average_score=float(theirs or 0),
        best_word=best_word,
        best_word_score=best_score,
        opponent_best_word=their_word,
        opponent_best_word_score=their_score,
    )


def _as_dict(filters: Filters) -> dict[str, Any]:
    return {name: getattr(filters, name) for name in Filters.__slots__}


# ----- downloads -----------------------------------------------------------------------------


def batches(player: User, viewer: User, filters: Filters) -> Iterator[list[Game]]:
    """The filtered set, newest first, ``DOWNLOAD_BATCH`` games at a time with their
    seats, moves and extras bought (keyset again: no batch is read twice)."""
    cursor = ""
    while True:
        games = games_of(player, viewer, filters)
        if cursor:
            at, pk = decode_cursor(cursor)
            games = games.filter(Q(finished_at__lt=at) | Q(finished_at=at, pk__lt=pk))
        batch = list(
            games.select_related("created_by")
            .prefetch_related(seats_with_users(), "moves", "purchases")
            .order_by("-finished_at", "-pk")[:DOWNLOAD_BATCH]
        )
        if not batch:
            return
        yield batch
        if len(batch) < DOWNLOAD_BATCH:
            return
        cursor = encode_cursor(batch[-1])


def record(game: Game, player: User, viewer: User) -> dict[str, Any]:
    """A finished game as one NDJSON line: from the view ``viewer`` has of it (a
    finished game's racks are its record)."""
    moves = tuple(game.moves.all())
    purchases: tuple[ExtraPurchase, ...] = tuple(game.purchases.all())
    view = view_of(Loaded(game=game, moves=moves, purchases=purchases, away={}, at=0.0), game.pov(viewer))
    seat = next(s.index for s in game.seat_list() if s.user_id == player.pk)
    return {
        "id": view.pk,
        "language": view.language,
        "mode": view.mode,
        "pace": view.pace.code,
        "rated": view.rated,
        "public": view.is_public,
        "finished_at": game.finished_at.isoformat() if game.finished_at else None,
        "end_reason": view.end_reason,
        "players": [{"seat": s.index, "name": s.name, "score": s.score} for s in view.seats],
        "player_seat": seat,
        "result": outcome(game.winner_seat, seat),
        "moves": [
            {
                "number": m.number,
                "seat": m.seat,
                "kind": m.kind,
                "words": [w.word for w in m.words],
                "position": m.position,
                "score": m.score,
                "rack": m.rack_before,
            }
            for m in view.moves
        ],
        "aids": [{"seat": a.seat, "extra": a.extra, "move": a.move} for a in view.aids],
    }


def ndjson_lines(player: User, viewer: User, filters: Filters) -> Iterator[bytes]:
    for batch in batches(player, viewer, filters):
        for game in batch:
            yield (json.dumps(record(game, player, viewer), ensure_ascii=False) + "\n").encode()


class _Sink(io.RawIOBase):
    """What ``zipfile`` writes into: the bytes so far, taken away chunk by chunk (a zip
    written to a stream that cannot seek uses data descriptors, so it streams)."""

    def __init__(self) -> None:
        self.chunks: list[bytes] = []

    def writable(self) -> bool:
        return True

    def write(self, data: Any) -> int:
        self.chunks.append(bytes(data))
        return len(data)

    def take(self) -> bytes:
        out, self.chunks = b"".join(self.chunks), []
        return out


def gcg_zip_chunks(player: User, viewer: User, filters: Filters) -> Iterator[bytes]:
    """The filtered set as a zip of GCG files (``wordgame-<id>.gcg``), streamed."""
    sink = _Sink()
    with zipfile.ZipFile(sink, mode="w", compression=zipfile.ZIP_DEFLATED) as archive:
        for batch in batches(player, viewer, filters):
            for game in batch:
                archive.writestr(f"wordgame-{game.pk}.gcg", gcg_text(game, purchases=game.purchases.all()))
                yield sink.take()
    yield sink.take()
