"""A game at one version as one viewer may see it: the only code that applies privacy.

:func:`view_of` turns what was read of a game (:class:`Loaded`: nothing in it is private
to anyone) and who the viewer is (``games.pov.Pov``) into a frozen, typed
:class:`GameView`. The pages (``games.rendering`` turns it into HTML), the live deltas
(``games.live``), the API's JSON (``api.representation``) and the event stream all read
it; none of them decides privacy again:

- a rack only to its owner (``GameView.rack``), and the final racks once the game is over;
- racks in the move list only once the game is over (``MoveView.rack_before``);
- the viewer's own paid extras and what they show (``GameView.extras``), while which aids
  either player bought is public (``GameView.aids``);
- the chat only to the players (``GameView.chat``);
- what the viewer may do now, from the rule table ``Game.act`` checks (``allowed``).

Lazy parts stay lazy: the move list and the chat are built when first read
(``functools.cached_property``), so a delta that shows neither never builds them.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from functools import cached_property, partial
from typing import Any, TypeVar, cast

from django.conf import settings
from django.db.models import Count, IntegerField, OuterRef, Subquery
from django.db.models.functions import Coalesce
from django.utils import timezone, translation
from django.utils.translation import gettext, ngettext, pgettext

import engine
from accounts.services import blocked_ids, on_vacation_now
from engine.board import square_name
from games import analysis, extras, rules
from games.actions import Extend
from games.clocks import ClockView, clock_views
from games.models import ChatMessage, ExtraPurchase, Game, GameAction, Move, Seat
from games.pace import Pace
from games.pov import Pov

T = TypeVar("T")


def versus(names: Sequence[str]) -> str:
    """Player names joined by the interface language's "vs" (e.g. "ana vs ben")."""
    # Not inside the f-string: xgettext does not look into f-strings.
    separator = pgettext("between player names", "vs")
    return f" {separator} ".join(names)


def load_game(game_id: int) -> Game:
    """The game with its creator and its seats' users (two queries)."""
    return Game.objects.select_related("created_by").with_seats().get(pk=game_id)


@dataclass(frozen=True, slots=True)
class Extension:
    """A lapsed deadline the system moved on (``Extend``), as recorded: the version it
    made, how many moves had been played then, and whose turn it was."""

    version: int
    after: int
    seat: int | None
    at: datetime


def extensions_of(game: Game) -> tuple[Extension, ...]:
    """The deadlines ``game`` moved on because no warning reached the player (one query,
    two when there is one; none for a game that never extends, such as a tournament's
    without the organiser's switch)."""
    if not game.warn_before_timeout:
        return ()
    # Most games never extend: a plain query finds that; the moves before each are
    # counted only when there is one.
    if not GameAction.objects.filter(game=game, kind=Extend.kind).exists():
        return ()
    moved = (
        GameAction.objects.filter(game=OuterRef("game"), version__lt=OuterRef("version"), move__isnull=False)
        .order_by()
        .values("game")
        .annotate(n=Count("pk"))
        .values("n")
    )
    rows = (
        GameAction.objects.filter(game=game, kind=Extend.kind)
        .annotate(after=Coalesce(Subquery(moved, output_field=IntegerField()), 0))
        .order_by("version")
        .values_list("version", "after", "seat", "created_at")
    )
    return tuple(Extension(version, after, seat, at) for version, after, seat, at in rows)


def away_of(game: Game) -> dict[int, datetime]:
    """The players of ``game`` (going on) who are on vacation now, and until when:
    opponents see it, it pauses the clock. One query; none once the game is over."""
    if game.status != Game.Status.ACTIVE:
        return {}
    users = [s.user for s in game.seat_list() if s.user is not None]
    return {p.user_id: p.effective_end for p in on_vacation_now(users)}


@dataclass(frozen=True, slots=True)
class Loaded:
    """What every viewer's view of a game at one version is built from: the game (with
    its creator, seats and their users), its moves, the extras bought in it and its
    players' vacations. Nothing in it is private to a viewer until :func:`view_of`
    picks from it."""

    game: Game
    moves: tuple[Move, ...]
    purchases: tuple[ExtraPurchase, ...]
    away: dict[int, datetime]  # user id -> end of the vacation they are on now
    at: float  # time.monotonic() when it was read
    extensions: tuple[Extension, ...] = ()  # deadlines moved on (the log says why)
    # What every viewer's view of this version shares, built once for all of them (the
    # parsed state, the move list in each interface language; ``games.live`` keeps the
    # delta's squares and new log lines here too): no viewer's own data goes in.
    shared: dict[object, Any] = field(default_factory=dict, compare=False, repr=False)

    def share(self, key: object, build: Callable[[], T]) -> T:
        """``build()``, once for every view of this version (renders on several threads
        may build it twice at worst: the same value)."""
        try:
            return cast(T, self.shared[key])
        except KeyError:
            value = self.shared[key] = build()
            return value

    @classmethod
    def of(cls, game: Game) -> Loaded:
        moves = game.moves.defer("engine_record")  # the record is for replays
        if game.state:
            # Only the moves of the game's version: one made since this copy was read
            # (the computer's reply, a resignation) belongs to the next version.
            moves = moves.filter(number__lte=game.state["moves_played"])
        return cls(
            game=game,
            moves=tuple(moves),
            purchases=tuple(ExtraPurchase.objects.filter(game=game).order_by("period", "pk")),
            away=away_of(game),
            at=time.monotonic(),
            extensions=tuple(e for e in extensions_of(game) if e.version <= game.version),
        )

    def as_of(self, earlier: Game) -> Loaded:
        """What was read, for ``earlier``: a copy of this game as it was before one or
        more engine actions (plays, exchanges, passes, resignations). Those add moves,
        which ``earlier`` had not seen, and no extras bought (a refund marks a purchase,
        it adds or removes none), so its moves are the first ``moves_played`` of these
        and its purchases the same. Nothing is read."""
        played = earlier.state["moves_played"] if earlier.state else 0
        moves = tuple(m for m in self.moves if m.number <= played)
        return Loaded(
            game=earlier,
            moves=moves,
            purchases=self.purchases,
            away=self.away,
            at=self.at,
            extensions=tuple(e for e in self.extensions if e.version <= earlier.version),
        )


def initials(name: str) -> str:
    """Avatar letters: the first letter of the first two words ("Computer (Easy)" -> "CE")."""
    words = re.findall(r"[^\W_]+", name)
    return "".join(word[0] for word in words[:2]).upper() or name[:2].upper()


@dataclass(frozen=True, slots=True)
class SeatView:
    """A seat as every viewer sees it (its rack only as a count, until the end)."""

    index: int
    name: str  # what the pages show: the username, or "Computer (Easy)"
    username: str | None
    is_bot: bool  # a bot's account (its name says so: "wordbot (bot)")
    computer_level: str
    level: str  # the computer level's label ("" for a person)
    score: int
    is_turn: bool
    is_viewer: bool
    rack_count: int
    is_winner: bool
    final_rack: str  # the rack left at the end (public then), "" before
    adjustment: int  # what the end moved to or from the score
    vacation_until: datetime | None
    player_gone: bool  # the account was deleted (no rematch against it)
    avatar_index: int | None  # the player's own avatar colour, as on every other page
    # A live game's clock (games.clocks) at the moment the view was made; None otherwise.
    clock: ClockView | None = None
    # A live game's player whose game page is not open (notifications.presence).
    away: bool = False

    @property
    def is_computer(self) -> bool:
        return self.username is None

    @property
    def name_words(self) -> list[str]:
        return self.name.split()

    @property
    def initials(self) -> str:
        return initials(self.name)


@dataclass(frozen=True, slots=True)
class WordScore:
    word: str
    score: int


@dataclass(frozen=True, slots=True)
class MoveView:
    """One line of the move list, its words in the language active when it was built.
    ``rack_before``/``rack_after`` are "" until the game is over (then they are the
    record)."""

    number: int
    seat: int
    player: str
    kind: str
    kind_label: str
    words: tuple[WordScore, ...]
    tiles: tuple[tuple[int, int, str], ...]  # a play's tiles, a blank as its letter in lower case
    position: str  # a play's position, e.g. "H8 across"
    score: int
    total: int
    bingo: bool
    exchanged_count: int
    created_at: datetime
    rack_before: str
    rack_after: str
    announce: str  # what a screen reader hears when it arrives live
    # A challenge rule's: a play challenged off afterwards; a challenge's target and the
    # words it found not in the dictionary (none: the play stood).
    withdrawn: bool = False
    challenged_seat: int | None = None
    challenged_player: str = ""
    invalid_words: tuple[str, ...] = ()
    is_note = False  # a move, not a note of the log (LogNote)

    @property
    def main_word(self) -> str:
        return self.words[0].word if self.words else ""


def announcement(
    kind: str,
    player: str,
    word: str,
    position: str,
    score: int,
    exchanged: int,
    label: str,
    invalid: tuple[str, ...] = (),
) -> str:
    """The sentence a screen reader hears when a move arrives live, e.g. "ben played QUIZ
    at H8 across for 34." """
    if kind == Move.Kind.CHALLENGE:
        return challenge_sentence(player, invalid, score)
    if kind == Move.Kind.PLAY and word:
        values = {"player": player, "word": word, "position": position, "score": score}
        return gettext("%(player)s played %(word)s at %(position)s for %(score)s.") % values
    if kind == Move.Kind.EXCHANGE:
        return ngettext("%(player)s swapped %(n)s tile.", "%(player)s swapped %(n)s tiles.", exchanged) % {
            "player": player,
            "n": exchanged,
        }
    return f"{player}: {label}."


def challenge_sentence(player: str, invalid: Sequence[str], score: int) -> str:
    """What a challenge did, for the move log: a phony taken back, or a play that stood
    (and the bonus it earned under the five-point rule)."""
    if invalid:
        return gettext("%(player)s challenged: %(words)s not in the dictionary, the play is taken back.") % {
            "player": player,
            "words": ", ".join(invalid),
        }
    if score:
        return gettext("%(player)s challenged: the play stands and earns %(score)s points.") % {
            "player": player,
            "score": score,
        }
    return gettext("%(player)s challenged: the play stands.") % {"player": player}


@dataclass(frozen=True, slots=True)
class LogNote:
    """A line of the game's log that is not a move: the system moved ``player``'s lapsed
    deadline on by ``hours`` because no warning reached them (``Extend``), after ``after``
    moves. Shown between the moves on the game page and the replay, and in the API's list."""

    after: int
    seat: int | None
    player: str
    kind: str
    hours: int
    created_at: datetime
    is_note = True  # what the templates tell it from a MoveView by

    @property
    def text(self) -> str:
        values = {"player": self.player, "hours": self.hours}
        if self.player:
            return (
                gettext("%(player)s's deadline extended by %(hours)s h: no warning could be delivered.")
                % values
            )
        return gettext("Deadline extended by %(hours)s h: no warning could be delivered.") % values

    @property
    def announce(self) -> str:
        return self.text


def log_notes(extensions: Sequence[Extension], names: dict[int, str]) -> tuple[LogNote, ...]:
    hours = settings.DEADLINE_EXTENSION_HOURS
    return tuple(
        LogNote(
            after=e.after,
            seat=e.seat,
            player=names.get(e.seat, "") if e.seat is not None else "",
            kind=Extend.kind,
            hours=hours,
            created_at=e.at,
        )
        for e in extensions
    )


def log_lines(moves: Sequence[MoveView], notes: Sequence[LogNote]) -> list[MoveView | LogNote]:
    """The moves with the notes between them, each note after the move it followed."""
    lines: list[MoveView | LogNote] = [n for n in notes if n.after == 0]
    for move in moves:
        lines.append(move)
        lines.extend(n for n in notes if n.after == move.number)
    return lines


def move_views(moves: Sequence[Move], names: dict[int, str], *, show_racks: bool) -> tuple[MoveView, ...]:
    """The move list; racks only with ``show_racks`` (the game is over). A challenge's
    points count for the player whose play it challenged."""
    totals: dict[int, int] = {}
    kinds = dict(Move.Kind.choices)
    items = []
    for move in moves:
        scored = move.scored_seat
        totals[scored] = totals.get(scored, 0) + move.score
        first = move.words[0] if move.kind == Move.Kind.PLAY and move.words else None
        position = ""
        if first is not None:
            direction = gettext("across") if first["direction"] == "across" else gettext("down")
            position = f"{square_name(first['start'][0], first['start'][1])} {direction}"
        player, label = names.get(move.seat, ""), str(kinds.get(move.kind, move.kind))
        words = tuple(WordScore(w["word"], w["score"]) for w in move.words)
        invalid = tuple(move.invalid_words.split())
        items.append(
            MoveView(
                number=move.number,
                seat=move.seat,
                player=player,
                kind=move.kind,
                kind_label=label,
                words=words,
                tiles=tuple(
                    (t["row"], t["col"], t["letter"].lower() if t["blank"] else t["letter"])
                    for t in (move.tiles if move.kind == Move.Kind.PLAY else ())
                ),
                position=position,
                score=move.score,
                total=totals[scored],
                bingo=move.bingo,
                exchanged_count=len(move.exchanged),
                created_at=move.created_at,
                # Racks are private until the game is over (then they are the record).
                rack_before=move.rack_before if show_racks else "",
                rack_after=move.rack_after if show_racks else "",
                announce=announcement(
                    move.kind,
                    player,
                    words[0].word if words else "",
                    position,
                    move.score,
                    len(move.exchanged),
                    label,
                    invalid,
                ),
                withdrawn=move.withdrawn,
                challenged_seat=move.challenged_seat,
                challenged_player=names.get(scored, "") if move.kind == Move.Kind.CHALLENGE else "",
                invalid_words=invalid,
            )
        )
    return tuple(items)


@dataclass(frozen=True, slots=True)
class AidView:
    """An extra bought by either player, for which move: shown to everyone (fair play)."""

    player: str
    seat: int
    extra: str
    move: int
    refunded: bool

    @property
    def label(self) -> str:
        return str(extras.LABELS[self.extra])


@dataclass(frozen=True)
class ExtraView:
    """One of the viewer's own paid extras: its price, whether the button is offered,
    whether it is bought for its period now, and what it shows (``hindsight`` is worked
    out when first read: a push that does not show the panel never searches)."""

    code: str
    price: int
    can_buy: bool
    bought: bool
    move: int | None
    tile_bag: extras.TileBag | None = None
    find_hindsight: Callable[[], Hindsight] | None = field(default=None, repr=False, compare=False)

    @property
    def label(self) -> str:
        return str(extras.LABELS[self.code])

    @property
    def description(self) -> str:
        return str(extras.DESCRIPTIONS[self.code])

    @cached_property
    def hindsight(self) -> Hindsight | None:
        return self.find_hindsight() if self.find_hindsight is not None else None


@dataclass(frozen=True, slots=True)
class MiniSquare:
    letter: str
    best: bool
    played: bool


@dataclass(frozen=True, slots=True)
class Hindsight:
    """The best play the rack of move ``number`` allowed on the board before it, beside
    what was played, with both on a small board."""

    number: int
    best: extras.Described | None
    played: extras.Described
    rack: str
    grid: tuple[tuple[MiniSquare, ...], ...]


def hindsight_of(game: Game, moves: Sequence[Move], number: int, state: engine.GameState) -> Hindsight:
    """:class:`Hindsight` for move ``number`` of ``game`` (``moves``: its moves so far)."""
    board = list(engine.layout(state.layout).empty_board())
    for m in moves:
        if m.number >= number:
            break
        analysis.apply_move(board, m.kind, m.tiles, bool(m.invalid_words))
    move = next(m for m in moves if m.number == number)
    found = extras.hindsight(
        number=number,
        board=tuple(board),
        rack=move.rack_before,
        played={"score": move.score, "word": move.words[0]["word"] if move.words else "", "kind": move.kind},
        language=state.tileset.language,
        lexicon=game.lexicon(),
        layout_name=state.layout,
    )
    best = {(r, c): ch for r, c, ch in found.best["tiles"]} if found.best else {}
    mine = {(t["row"], t["col"]) for t in move.tiles} if move.kind == Move.Kind.PLAY else set()
    grid = tuple(
        tuple(
            MiniSquare(
                letter=(best.get((r, c)) or ch).upper() if (best.get((r, c)) or ch) != engine.EMPTY else "",
                best=(r, c) in best,
                played=(r, c) in mine,
            )
            for c, ch in enumerate(line)
        )
        for r, line in enumerate(found.board)
    )
    return Hindsight(number=number, best=found.best, played=found.played, rack=found.rack, grid=grid)


@dataclass(frozen=True, slots=True)
class ReplaySeat:
    index: int
    name: str
    score: int
    rack: str  # "" until the game is over
    clock: str = ""  # a live game's clock after the step ("m:ss"), "" otherwise


def replay_racks(game: Game, moves: Sequence[Move], step: int) -> tuple[list[str], tuple[ReplaySeat, ...]]:
    """The board and the seats after ``step`` of ``moves`` (the replay): each seat's
    score, and its rack at that point only once the game is over."""
    seats = game.seat_list()
    board = list(engine.layout(game.state.get("layout", "wwf") if game.state else "wwf").empty_board())
    scores = [0] * max(len(seats), 2)
    for move in moves[:step]:
        analysis.apply_move(board, move.kind, move.tiles, bool(move.invalid_words))
        scores[move.scored_seat] += move.score
        end = move.engine_record.get("end")
        # A time penalty after the end carries the end again: its adjustments count once.
        if end and move.kind != Move.Kind.PENALTY:
            scores = [s + a for s, a in zip(scores, end["adjustments"], strict=False)]
    over = game.status == Game.Status.FINISHED
    clocks_then: list[int] | None = None
    if game.is_live:
        clocks_then = next(
            (m.clock_ms for m in reversed(moves[:step]) if m.clock_ms),
            [game.clock_seconds * 1000] * len(seats),
        )

    def clock(index: int) -> str:
        if not clocks_then or index >= len(clocks_then):
            return ""
        return ClockView(index, clocks_then[index], running=False, overtime_ms=0).text

    def rack(index: int) -> str:
        later = next((m for m in moves[step:] if m.seat == index), None)
        earlier = next((m for m in reversed(moves[:step]) if m.seat == index), None)
        return later.rack_before if later else (earlier.rack_after if earlier else "")

    return board, tuple(
        ReplaySeat(
            seat.index,
            seat.display_name,
            scores[seat.index],
            rack(seat.index) if over else "",
            clock(seat.index),
        )
        for seat in seats
    )


@dataclass(frozen=True, slots=True)
class ChatLine:
    author: str
    text: str  # "" for a line a moderator hid
    created_at: datetime
    is_mine: bool
    hidden: bool = False
    author_is_bot: bool = False


def chat_lines(game_id: int, pov: Pov) -> tuple[ChatLine, ...]:
    """The chat of a game for a seated player who has chat on (nothing for anyone
    else, not even a pushed line), without the lines of players they blocked; a line a
    moderator hid shows only that it was hidden."""
    if not pov.is_player or pov.user is None or not pov.user.chat_enabled:
        return ()
    messages = (
        ChatMessage.objects.filter(game_id=game_id)
        .exclude(author__in=blocked_ids(pov.user))
        .select_related("author")
        .order_by("created_at", "pk")
    )
    return tuple(
        ChatLine(
            author=m.author.shown_name if m.author.is_bot else str(m.author),
            text="" if m.hidden_at else m.text,
            created_at=m.created_at,
            is_mine=m.author_id == pov.user_id,
            hidden=m.hidden_at is not None,
            author_is_bot=m.author.is_bot,
        )
        for m in messages
    )


def last_move_squares(moves: Sequence[Move]) -> tuple[tuple[int, int], ...]:
    for move in reversed(moves):
        if move.kind == Move.Kind.CHALLENGE and move.invalid_words:
            return ()  # the phony left the board
        if move.kind == Move.Kind.PLAY:
            return tuple(sorted((t["row"], t["col"]) for t in move.tiles))
        if move.kind in (Move.Kind.EXCHANGE, Move.Kind.PASS):
            return ()
    return ()


@dataclass(frozen=True)
class GameView:
    """A game at one version as ``pov`` may see it (see the module's docstring)."""

    pov: Pov
    pk: int
    version: int
    language: str
    mode: str
    status: str
    is_public: bool
    rated: bool
    extras_allowed: bool
    created_by_id: int
    updated_at: datetime
    seats: tuple[SeatView, ...]
    board: tuple[str, ...]
    last: tuple[tuple[int, int], ...]  # the squares of the last play
    rack: str  # the viewer's own rack; "" for anyone not seated
    bag_count: int
    allowed: frozenset[str]
    aids: tuple[AidView, ...]
    extras: tuple[ExtraView, ...]  # the viewer's own; none for anyone not seated
    moves_count: int
    withdrawn_count: int  # plays challenged off (a delta then resends the move log)
    end_reason: str
    end_reason_label: str
    deadline: datetime | None
    # The turn's deadline was moved on once because no warning reached the player.
    deadline_extended: bool
    computer_thinking: bool
    pace: Pace
    # The rules (``Game.rules``): the tile set the tiles' values come from, the board
    # layout, the preset and the challenge rule.
    tiles: str
    layout: str
    rules_preset: str
    challenge_rule: str
    bingo_bonus: int
    # The play the player to move may still challenge (a challenge rule's): whose it is,
    # and whether it is the last of the game (its window holds the end).
    pending_seat: int | None
    pending_final: bool
    make_moves: Callable[[], tuple[MoveView, ...]] = field(repr=False, compare=False)
    creator_name: Callable[[], str] = field(repr=False, compare=False)
    # Lines of the log that are not moves (a deadline moved on, and why).
    notes: tuple[LogNote, ...] = ()

    @cached_property
    def created_by(self) -> str:
        """The creator's username (read only when shown: the pages never show it)."""
        return self.creator_name()

    @cached_property
    def moves(self) -> tuple[MoveView, ...]:
        return self.make_moves()

    @cached_property
    def log(self) -> list[MoveView | LogNote]:
        """The move list with the notes between the moves (the page's and the API's log)."""
        return log_lines(self.moves, self.notes)

    @cached_property
    def chat(self) -> tuple[ChatLine, ...]:
        return chat_lines(self.pk, self.pov)

    @property
    def viewer_seat(self) -> int | None:
        return self.pov.seat if self.pov.is_player else None

    @property
    def is_player(self) -> bool:
        return self.pov.is_player

    @property
    def is_over(self) -> bool:
        return self.status == Game.Status.FINISHED

    @property
    def is_active(self) -> bool:
        return self.status == Game.Status.ACTIVE

    @property
    def turn_seat(self) -> int | None:
        return next((s.index for s in self.seats if s.is_turn), None)

    @property
    def is_my_turn(self) -> bool:
        return self.viewer_seat is not None and self.turn_seat == self.viewer_seat

    @property
    def winner(self) -> SeatView | None:
        return next((s for s in self.seats if s.is_winner), None)

    @property
    def can_chat(self) -> bool:
        """A player who has not turned chat off."""
        return self.pov.is_player and self.pov.user is not None and self.pov.user.chat_enabled

    @property
    def can_cancel(self) -> bool:
        """The creator may withdraw an invitation or a seek not yet answered."""
        return "decline" in self.allowed and self.pov.user_id == self.created_by_id


def view_of(data: Loaded, pov: Pov) -> GameView:
    """``data`` as ``pov`` may see it (``pov`` resolved for this game)."""
    game = data.game
    assert pov.game_id == game.pk, "a point of view of another game"
    state = data.share("state", lambda: engine.GameState.from_dict(game.state) if game.state else None)
    over, active = game.status == Game.Status.FINISHED, game.status == Game.Status.ACTIVE
    own = pov.seat if pov.is_player else None
    seats = seat_views(game, state, own, data.away)
    now = timezone.now()
    if game.is_live:
        clocks = clock_views(
            game.clock_ms,
            game.turn_seat,
            game.turn_started_at,
            now,
            running=active,
            overtime_minutes=game.overtime_minutes,
        )
        users = {seat.index: seat.user_id for seat in game.seat_list()}
        seats = tuple(
            replace(s, clock=c, away=active and s.index != own and not present(users.get(s.index), game.pk))
            for s, c in zip(seats, clocks or (None,) * len(seats), strict=True)
        )
    names = {s.index: s.name for s in seats}
    moves = data.moves
    last = last_move_squares(moves)
    # Built when first read (the move list: the same for every viewer, racks only once the
    # game is over; its words are in the interface language), once per version and
    # language; and what the viewer may see of their own.
    language = translation.get_language()
    make_moves = partial(data.share, ("moves", language), partial(move_views, moves, names, show_racks=over))
    own_extras = extra_views(game, own, state, moves, data.purchases) if own is not None else ()
    game_rules = state.rules if state is not None else game.rules()
    tiles = game_rules.tileset_for(game.language)
    layout_name = state.layout if state is not None else (game_rules.board or "wwf")
    pending = state.pending if state is not None and active else None
    return GameView(
        pov=pov,
        pk=game.pk,
        version=game.version,
        language=game.language,
        mode=game.mode,
        status=game.status,
        is_public=game.is_public,
        rated=game.rated,
        extras_allowed=game.extras_allowed,
        created_by_id=game.created_by_id,
        updated_at=game.updated_at,
        seats=seats,
        board=tuple(state.board) if state else tuple(engine.layout(layout_name).empty_board()),
        last=last,
        rack=state.racks[own] if (state is not None and own is not None) else "",
        bag_count=len(state.bag) if state else tiles.total_tiles,
        allowed=rules.allowed_actions(game, pov, now),
        aids=tuple(
            AidView(names.get(p.seat, ""), p.seat, p.extra, p.period, p.refund_id is not None)
            for p in data.purchases
        ),
        extras=own_extras,
        moves_count=len(moves),
        withdrawn_count=sum(1 for m in moves if m.withdrawn),
        end_reason=game.end_reason,
        end_reason_label=str(Game.EndReason(game.end_reason).label) if game.end_reason else "",
        deadline=game.turn_deadline if active else None,
        deadline_extended=active and game.deadline_extended,
        computer_thinking=active and any(s.is_turn and s.is_computer for s in seats),
        pace=game.pace,
        tiles=tiles.language,
        layout=layout_name,
        rules_preset=game_rules.preset,
        challenge_rule=game_rules.challenge,
        bingo_bonus=tiles.bingo_bonus,
        pending_seat=pending.seat if pending is not None else None,
        pending_final=pending is not None and pending.final,
        make_moves=make_moves,
        creator_name=lambda: game.created_by.username,
        notes=log_notes(data.extensions, names),
    )


def present(user_id: int | None, game_id: int) -> bool:
    """Whether a seat's player has this game's page open (``notifications.presence``, kept
    fresh by the page's socket; the computer always is): a live game shows the opponent
    "away" otherwise, and their clock runs on."""
    from notifications import presence

    return user_id is None or presence.is_present(user_id, game_id)


def seat_views(
    game: Game, state: engine.GameState | None, own: int | None, away: dict[int, datetime]
) -> tuple[SeatView, ...]:
    over, active = game.status == Game.Status.FINISHED, game.status == Game.Status.ACTIVE
    end = state.end if state is not None else None

    def view(seat: Seat) -> SeatView:
        i = seat.index
        return SeatView(
            index=i,
            name=seat.display_name,
            username=seat.user.username if seat.user is not None else None,
            is_bot=seat.user is not None and seat.user.is_bot,
            computer_level=seat.computer_level,
            level=seat.get_computer_level_display() if seat.is_computer else "",
            score=state.scores[i] if state else seat.score,
            is_turn=active and game.turn_seat == i,
            is_viewer=own == i,
            rack_count=len(state.racks[i]) if state else 0,
            is_winner=over and game.winner_seat == i,
            final_rack=state.racks[i] if (over and state) else "",
            adjustment=end.adjustments[i] if (over and end) else 0,
            vacation_until=away.get(seat.user_id) if seat.user_id is not None else None,
            player_gone=seat.player_gone,
            avatar_index=seat.user.avatar_index if seat.user is not None else None,
        )

    return tuple(view(seat) for seat in game.seat_list())


def extra_views(
    game: Game,
    seat: int,
    state: engine.GameState | None,
    moves: Sequence[Move],
    purchases: Sequence[ExtraPurchase],
) -> tuple[ExtraView, ...]:
    """The paid extras of ``seat`` (the viewer's own): only its own purchases and content."""
    if state is None:
        return ()
    bought = {(p.extra, p.period): p for p in purchases if p.seat == seat}
    last = max(((m.number, m.kind) for m in moves if m.seat == seat), default=None)
    items = []
    for code in extras.EXTRAS:
        when = extras.period(code, seat=seat, state=state, last_move=last)
        purchase = bought.get((code, when)) if when is not None else None
        look_back = when if purchase is not None and code == extras.HINDSIGHT else None
        items.append(
            ExtraView(
                code=code,
                price=extras.price(code),
                # The button stays while the game is on (the rule table refuses it outside
                # the extra's period, with the reason): the panel changes only with a
                # purchase, so a move's push need not carry it.
                can_buy=game.extras_allowed and purchase is None and not state.over,
                bought=purchase is not None,
                move=when,
                tile_bag=extras.tile_bag(state, seat)
                if purchase is not None and code == extras.TILE_BAG
                else None,
                # Searched only when shown (``ExtraView.hindsight`` keeps the result).
                find_hindsight=None
                if look_back is None
                else partial(hindsight_of, game, moves, look_back, state),
            )
        )
    return tuple(items)


def brief_for(game: Game, actor: object) -> GameView:
    """``game`` (just read, with its seats) as ``actor`` may see it in a list: from the
    game row and its seats alone, nothing more read, so its moves, aids and extras are
    empty (the API's lists and the event stream show none of them)."""
    pov = actor if isinstance(actor, Pov) else game.pov(actor)
    return view_of(Loaded(game=game, moves=(), purchases=(), away={}, at=time.monotonic()), pov)


def seen(game: Game, pov: Pov) -> GameView:
    """``game`` (just read, with its seats) as ``pov`` may see it, read now."""
    return view_of(Loaded.of(game), pov)


def view_for(game: Game, actor: object) -> GameView:
    """``game`` (just read, with its seats) as ``actor`` (a user or a ``Pov``) may see it,
    read now."""
    pov = actor if isinstance(actor, Pov) else game.pov(actor)
    return view_of(Loaded.of(game), pov)
