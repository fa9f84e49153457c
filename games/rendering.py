"""The one place that builds template context for games, and renders their partials.

Views and consumers both call :func:`game_context` and :func:`fragments`, so a fragment
looks the same whichever path produced it (STYLE.md 3.6). Privacy lives here: a rack
is put in the context only for its owner, and racks in move records only once the game
is over. The names and types are the contract in ``docs/games-ui-contract.md``.
"""

from __future__ import annotations

import copy
import re
import threading
import time
import uuid
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from django.http import HttpRequest
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext, ngettext, pgettext

import engine
from accounts.services import blocked_ids, on_vacation_now
from dictionaries.models import language_name
from engine.board import square_name
from games import analysis, extras, hooks
from games.actions import ENGINE_ACTION_KINDS, Action
from games.models import ChatMessage, ExtraPurchase, Game, Move, Seat

PARTIALS: dict[str, str] = {
    "game_sync": "games/_game_sync.html",
    "board": "games/_board.html",
    "square": "games/_square.html",
    "rack": "games/_rack.html",
    "rack_tiles": "games/_rack_tiles.html",
    "scoreboard": "games/_scoreboard.html",
    "move_panel": "games/_move_panel.html",
    "move_log": "games/_move_log.html",
    "move_list": "games/_move_list.html",
    "chat": "games/_chat.html",
    "game_over": "games/_game_over.html",
    "lobby_games": "games/_lobby_games.html",
    "new_game_form": "games/_new_game_form.html",
    "replay": "games/_replay.html",
    "aids": "games/_aids.html",
    "extras": "games/_extras.html",
}

# The partials of a game snapshot, in the order they are sent. ``game_sync`` comes first:
# it tells the page which version the rest of the frame shows.
SNAPSHOT = (
    "game_sync",
    "board",
    "rack",
    "scoreboard",
    "move_panel",
    "move_log",
    "aids",
    "extras",
    "chat",
    "game_over",
)


def versus(names: Sequence[str]) -> str:
    """Player names joined by the interface language's "vs" (e.g. "ana vs ben")."""
    # Not inside the f-string: xgettext does not look into f-strings.
    separator = pgettext("between player names", "vs")
    return f" {separator} ".join(names)


def premium_names() -> dict[str, tuple[str, str]]:
    """Premium code -> (short label on the square, name read by screen readers)."""
    return {
        "TW": (pgettext("premium square", "TW"), gettext("triple word")),
        "DW": (pgettext("premium square", "DW"), gettext("double word")),
        "TL": (pgettext("premium square", "TL"), gettext("triple letter")),
        "DL": (pgettext("premium square", "DL"), gettext("double letter")),
    }


def load_game(game_id: int) -> Game:
    """The game with its creator and its seats' users (two queries)."""
    return Game.objects.select_related("created_by").with_seats().get(pk=game_id)


class Lazy(Sequence[Any]):
    """A list built on first use: a context holds the board's squares, the move log and
    the chat this way, so a push that renders only a few partials (a delta) never builds
    or queries what it does not show. ``length``, when known, answers ``len`` without
    building the list."""

    def __init__(self, make: Callable[[], Iterable[Any]], *, length: int | None = None) -> None:
        self._make = make
        self._items: list[Any] | None = None
        self._length = length

    def _list(self) -> list[Any]:
        if self._items is None:
            self._items = list(self._make())
        return self._items

    def __getitem__(self, index: Any) -> Any:
        return self._list()[index]

    def __len__(self) -> int:
        return self._length if self._length is not None and self._items is None else len(self._list())

    def __iter__(self) -> Iterator[Any]:
        return iter(self._list())

    def __repr__(self) -> str:
        return repr(self._list())


def squares(
    board: Sequence[str], *, language: str, layout_name: str = "wwf", last: Iterable[tuple[int, int]] = ()
) -> list[list[dict[str, Any]]]:
    """The board as rows of square dicts (see the contract)."""
    highlighted = set(last)
    names = premium_names()
    return [
        [
            square_item(
                board, r, c, language=language, layout_name=layout_name, last=highlighted, names=names
            )
            for c in range(len(line))
        ]
        for r, line in enumerate(board)
    ]


def square_item(
    board: Sequence[str],
    r: int,
    c: int,
    *,
    language: str,
    layout_name: str = "wwf",
    last: set[tuple[int, int]] | frozenset[tuple[int, int]] = frozenset(),
    names: dict[str, tuple[str, str]] | None = None,
) -> dict[str, Any]:
    """One square of :func:`squares` (a delta sends single squares)."""
    geometry = engine.layout(layout_name)
    names = names or premium_names()
    char = board[r][c]
    premium = geometry.premium(r, c)
    label = square_name(r, c)
    is_center = (r, c) == geometry.center
    empty = char == engine.EMPTY
    letter = "" if empty else char.upper()
    is_blank = not empty and char != letter
    value = None if empty else (0 if is_blank else engine.tileset(language).values.get(letter, 0))
    parts = [label]
    if is_center:
        parts.append(gettext("centre star"))
    elif premium:
        parts.append(names[premium][1])
    name = ", ".join(parts)
    if empty:
        parts.append(gettext("empty"))
    elif is_blank:
        parts.append(gettext("blank as %(letter)s") % {"letter": letter})
    else:
        parts.append(
            ngettext("tile %(letter)s, %(value)s point", "tile %(letter)s, %(value)s points", value or 0)
            % {"letter": letter, "value": value}
        )
    return {
        "row": r,
        "col": c,
        "label": label,
        "name": name,
        "premium": premium,
        "premium_label": names[premium][0] if premium else "",
        "is_center": is_center,
        "letter": letter,
        "value": value,
        "is_blank": is_blank,
        "is_last_move": (r, c) in last,
        "aria_label": ", ".join(parts),
    }


def rack_tiles(rack: str, language: str) -> list[dict[str, Any]]:
    values = engine.tileset(language).values
    return [
        {
            "index": i,
            "letter": t,
            "value": 0 if t == engine.BLANK else values.get(t, 0),
            "is_blank": t == engine.BLANK,
        }
        for i, t in enumerate(rack)
    ]


def move_items(moves: Sequence[Move], seats: Sequence[Seat], *, show_racks: bool) -> list[dict[str, Any]]:
    names = {s.index: s.display_name for s in seats}
    kinds = dict(Move.Kind.choices)
    totals: dict[int, int] = {}
    items = []
    for move in moves:
        totals[move.seat] = totals.get(move.seat, 0) + move.score
        words = [{"word": w["word"], "score": w["score"]} for w in move.words]
        position = ""
        if move.kind == Move.Kind.PLAY and move.words:
            start = move.words[0]["start"]
            direction = gettext("across") if move.words[0]["direction"] == "across" else gettext("down")
            position = f"{square_name(start[0], start[1])} {direction}"
        player = names.get(move.seat, "")
        items.append(
            {
                "number": move.number,
                "seat": move.seat,
                "player": player,
                "kind": move.kind,
                "kind_label": str(kinds.get(move.kind, move.kind)),
                "words": words,
                "main_word": words[0]["word"] if words else "",
                "position": position,
                "score": move.score,
                "total": totals[move.seat],
                "bingo": move.bingo,
                "exchanged_count": len(move.exchanged),
                "created_at": move.created_at,
                # Racks are private until the game is over (then they are the record).
                "rack_before": move.rack_before if show_racks else "",
                "rack_after": move.rack_after if show_racks else "",
                "announce": announcement(move, player, words, position, str(kinds.get(move.kind, move.kind))),
            }
        )
    return items


def announcement(move: Move, player: str, words: Sequence[dict[str, Any]], position: str, kind: str) -> str:
    """The sentence a screen reader hears when this move arrives live, e.g. "ben played
    QUIZ at H8 across for 34." """
    if move.kind == Move.Kind.PLAY and words:
        return gettext("%(player)s played %(word)s at %(position)s for %(score)s.") % {
            "player": player,
            "word": words[0]["word"],
            "position": position,
            "score": move.score,
        }
    if move.kind == Move.Kind.EXCHANGE:
        count = len(move.exchanged)
        return ngettext("%(player)s swapped %(n)s tile.", "%(player)s swapped %(n)s tiles.", count) % {
            "player": player,
            "n": count,
        }
    return f"{player}: {kind}."


def last_move_squares(moves: Sequence[Move]) -> list[tuple[int, int]]:
    for move in reversed(moves):
        if move.kind == Move.Kind.PLAY:
            return [(t["row"], t["col"]) for t in move.tiles]
        if move.kind in (Move.Kind.EXCHANGE, Move.Kind.PASS):
            return []
    return []


def initials(name: str) -> str:
    """Avatar letters: the first letter of the first two words ("Computer (Easy)" -> "CE")."""
    words = re.findall(r"[^\W_]+", name)
    return "".join(word[0] for word in words[:2]).upper() or name[:2].upper()


@dataclass(frozen=True, slots=True)
class Loaded:
    """What every viewer's context of a game at one version is built from: the game
    (with its creator, seats and their users), its moves, the extras bought in it and
    its players' vacations. Nothing in it is private to a viewer (racks are in the
    game's state, and only :func:`game_context` picks the viewer's own)."""

    game: Game
    moves: tuple[Move, ...]
    purchases: tuple[ExtraPurchase, ...]
    away: dict[int, Any]  # user id -> end of the vacation they are on now
    at: float  # time.monotonic() when it was read

    @classmethod
    def of(cls, game: Game) -> Loaded:
        seats = game.seat_list()
        active = game.status == Game.Status.ACTIVE
        moves = game.moves.defer("engine_record")  # the record is for replays
        if game.state:
            # Only the moves of the game's version: one made since this copy was read
            # (the computer's reply, a resignation) belongs to the next version.
            moves = moves.filter(number__lte=game.state["moves_played"])
        return cls(
            game=game,
            moves=tuple(moves),
            purchases=tuple(ExtraPurchase.objects.filter(game=game).order_by("period", "pk")),
            # Opponents see a vacation (it pauses the clock): until when. One query.
            away=vacation_until([s.user for s in seats if s.user is not None]) if active else {},
            at=time.monotonic(),
        )

    def as_of(self, earlier: Game) -> Loaded:
        """What was read, for ``earlier``: a copy of this game as it was before one or
        more engine actions (plays, exchanges, passes, resignations). Those add moves,
        which ``earlier`` had not seen, and no extras bought (a refund marks a purchase,
        it adds or removes none), so its moves are the first ``moves_played`` of these
        and its purchases the same. Nothing is read."""
        played = earlier.state["moves_played"] if earlier.state else 0
        return Loaded(
            game=earlier,
            moves=tuple(m for m in self.moves if m.number <= played),
            purchases=self.purchases,
            away=self.away,
            at=self.at,
        )


class LoadedGames:
    """A process's recently read games, by (game id, version): the renders of one change
    for each kind of viewer (and the answer to the move's own POST) read the game once.
    A version never changes, except for what is not part of the game (a vacation, a
    player's name): an entry is used for ``SECONDS`` at most."""

    KEEP = 512
    SECONDS = 5.0

    def __init__(self) -> None:
        self.entries: OrderedDict[tuple[int, int], Loaded] = OrderedDict()
        self.reading: dict[tuple[int, int], threading.Event] = {}
        self.lock = threading.Lock()
        self.reads = 0  # games read from the database (what the tests look at)

    def get(self, game_id: int, version: int | None = None, *, game: Game | None = None) -> Loaded:
        """The game ``game_id``: its entry for ``version`` when there is a fresh one,
        else read now (at whatever version it is now; from ``game``, the game just read
        at ``version``, when given) and kept. Renders of one change and the answer to the
        move run at once on several threads: while one reads the game for ``version``,
        the others wait for it rather than read it too."""

        def read() -> Loaded:
            return Loaded.of(game if game is not None else load_game(game_id))

        if version is None:
            return self.keep(read())
        key = (game_id, version)
        with self.lock:
            hit = self._fresh(self.entries.get(key))
            reading = self.reading.get(key) if hit is None else None
            if hit is None and reading is None:
                reading = self.reading[key] = threading.Event()
                mine = True
            else:
                mine = False
        if hit is not None:
            return hit
        assert reading is not None
        if not mine:
            reading.wait(1.0)
            return self.cached(game_id, version) or self.keep(read())
        try:
            return self.keep(read())
        finally:
            with self.lock:
                self.reading.pop(key, None)
            reading.set()

    def of_game(self, game: Game) -> Loaded:
        """``game`` (just read, with its seats) with what was read for its version, when
        that is still here (its moves, extras and vacations: no query), else read now
        and kept. For views, which have read the game row anyway."""
        hit = self.cached(game.pk, game.version)
        if hit is None:
            # Not kept: ``game`` is the caller's, and ``Game.act`` may change it next.
            return Loaded.of(game)
        return Loaded(game, hit.moves, hit.purchases, hit.away, hit.at)

    def cached(self, game_id: int, version: int) -> Loaded | None:
        with self.lock:
            hit = self._fresh(self.entries.get((game_id, version)))
        # An entry whose game is no longer at its version (changed in place) is no hit.
        return hit if hit is not None and hit.game.version == version else None

    def _fresh(self, entry: Loaded | None) -> Loaded | None:
        return entry if entry is not None and time.monotonic() - entry.at < self.SECONDS else None

    def keep(self, data: Loaded) -> Loaded:
        """Keep ``data`` (the oldest entries go: those past their time, and beyond
        ``KEEP``; entries are in the order they were read)."""
        with self.lock:
            self.reads += 1
            self.entries[(data.game.pk, data.game.version)] = data
            self.entries.move_to_end((data.game.pk, data.game.version))
            while self.entries and (
                len(self.entries) > self.KEEP or self._fresh(next(iter(self.entries.values()))) is None
            ):
                self.entries.popitem(last=False)
        return data

    def clear(self) -> None:
        with self.lock:
            self.entries.clear()
            self.reading.clear()


loaded_games = LoadedGames()


def game_context(game: Game | Loaded, viewer: Any, **extra: Any) -> dict[str, Any]:
    """Everything a game page or partial may show to ``viewer`` (see the contract), from
    a game (read here) or a game already read (:class:`Loaded`)."""
    data = game if isinstance(game, Loaded) else Loaded.of(game)
    game = data.game
    seats = game.seat_list()
    viewer_seat = game.seat_of(viewer)
    is_player = viewer_seat is not None
    active = game.status == Game.Status.ACTIVE
    over = game.status == Game.Status.FINISHED
    state = game.state_obj() if game.state else None
    moves = list(data.moves)
    end = state.end if state is not None else None
    is_my_turn = active and is_player and game.turn_seat == viewer_seat
    allowed = game.allowed_actions(viewer)
    names = [s.display_name for s in seats]
    away = data.away
    seat_items = []
    for seat in seats:
        i = seat.index
        seat_items.append(
            {
                "index": i,
                "name": seat.display_name,
                "name_words": seat.display_name.split(),
                "initials": initials(seat.display_name),
                "is_computer": seat.is_computer,
                # The player's own avatar colour, as on every other page.
                "avatar_index": seat.user.avatar_index if seat.user is not None else None,
                "level": seat.get_computer_level_display() if seat.is_computer else "",
                "score": state.scores[i] if state else seat.score,
                "is_turn": active and game.turn_seat == i,
                "is_viewer": viewer_seat == i,
                "rack_count": len(state.racks[i]) if state else 0,
                "is_winner": over and game.winner_seat == i,
                "final_rack": state.racks[i] if (over and state) else "",
                "adjustment": end.adjustments[i] if (over and end) else 0,
                # Opponents see a vacation (it pauses the clock): until when.
                "vacation_until": away.get(seat.user_id) if seat.user_id is not None else None,
            }
        )
    winner = next((s for s in seat_items if s["is_winner"]), None)
    language = game.language
    tiles = engine.tileset(language)
    board = state.board if state else engine.layout().empty_board()
    last = last_move_squares(moves)

    vs = versus(names) if names else gettext("Waiting for an opponent")
    title = (gettext("Your turn · %(players)s") % {"players": vs}) if is_my_turn else vs
    rack = rack_tiles(state.racks[viewer_seat], language) if (state and viewer_seat is not None) else []

    context: dict[str, Any] = {
        "game": game,
        "version": game.version,
        "oob": False,
        "title": title,
        "ws_url": f"/ws/games/{game.pk}/",
        "language": language,
        "language_name": language_name(language),
        "status": game.status,
        "viewer_seat": viewer_seat,
        "is_player": is_player,
        "is_spectator": not is_player,
        "is_my_turn": is_my_turn,
        # From the rule table Game.act checks: the page offers exactly what would be accepted.
        "can_act": "play" in allowed,
        "can_resign": "resign" in allowed,
        "can_accept": "accept" in allowed,
        "can_cancel": "decline" in allowed and getattr(viewer, "pk", None) == game.created_by_id,
        "can_chat": is_player,
        "can_rematch": over and is_player and not any(s.player_gone for s in seats),
        "gcg_available": over,
        "seats": seat_items,
        "turn_seat": game.turn_seat if active else None,
        "bag_count": len(state.bag) if state else tiles.total_tiles,
        # Built only when a template shows them (a delta sends single squares).
        "squares": Lazy(lambda: squares(board, language=language, last=last)),
        # What a delta is worked out against (see ``Shown``): the board as the engine
        # keeps it, the highlighted squares and the viewer's own rack.
        "board_rows": tuple(board),
        "last_squares": tuple(sorted(last)),
        "rack_letters": state.racks[viewer_seat] if (state and viewer_seat is not None) else "",
        "column_labels": [chr(ord("A") + c) for c in range(len(board))],
        "row_labels": [str(r + 1) for r in range(len(board))],
        "rack": rack,
        "rack_size": tiles.rack_size,
        "blank_letters": [letter for letter in tiles.alphabet if letter in tiles.blank_letters],
        "tile_values": dict(tiles.values),
        "moves": Lazy(lambda: move_items(moves, seats, show_racks=over), length=len(moves)),
        "chat": Lazy(lambda: chat_items(game, viewer)) if is_player else [],
        "is_over": over,
        "end_reason": game.end_reason,
        "end_reason_label": game.get_end_reason_display() if game.end_reason else "",
        "winner": winner,
        "result_text": result_text(seat_items, winner) if over else "",
        "deadline": game.turn_deadline if active else None,
        "base_version": None,
        "form_errors": [],
        "pending": "",
        "preview": None,
        "action_id": uuid.uuid4().hex,
        "notice": "",
        "computer_thinking": game.computer_seat_to_move() is not None,
    }
    purchases = data.purchases
    context["aids"] = aid_items(purchases, seats)
    context["extras"] = (
        extras_panel(game, viewer_seat, state, moves, purchases) if viewer_seat is not None else []
    )
    context["extras_allowed"] = game.extras_allowed
    if context["computer_thinking"]:
        context["notice"] = gettext("The computer is thinking…")
    context.update(extra)
    return context


def words_through(game: Game, row: str, col: str) -> list[str]:
    """The words (two letters or more) across and down through the square at ``row``,
    ``col`` of the board as it is (nothing for an empty square or bad coordinates)."""
    if not game.state or not row.isdigit() or not col.isdigit():
        return []
    board = game.state_obj().board
    r, c = int(row), int(col)
    if not (0 <= r < len(board) and 0 <= c < len(board[r])) or board[r][c] == engine.EMPTY:
        return []
    found = []
    for line, at in ((board[r], c), ("".join(b[c] for b in board), r)):
        start, end = at, at
        while start > 0 and line[start - 1] != engine.EMPTY:
            start -= 1
        while end + 1 < len(line) and line[end + 1] != engine.EMPTY:
            end += 1
        if end > start:
            found.append(line[start : end + 1].upper())
    return found


def vacation_until(users: Sequence[Any]) -> dict[int, Any]:
    """When each of ``users`` on vacation now comes back (user id -> end)."""
    return {p.user_id: p.effective_end for p in on_vacation_now(users)}


def aid_items(purchases: Sequence[ExtraPurchase], seats: Sequence[Seat]) -> list[dict[str, Any]]:
    """Which aids each player bought (``purchases``: the game's, in order), for which
    move: shown to everyone (fair play)."""
    names = {s.index: s.display_name for s in seats}
    return [
        {
            "player": names.get(p.seat, ""),
            "seat": p.seat,
            "extra": p.extra,
            "label": str(extras.LABELS[p.extra]),
            "move": p.period,
            "refunded": p.refund_id is not None,
        }
        for p in purchases
    ]


def extras_panel(
    game: Game,
    seat: int,
    state: engine.GameState | None,
    moves: Sequence[Move],
    purchases: Sequence[ExtraPurchase],
) -> list[dict[str, Any]]:
    """The paid extras for ``viewer`` (a seated player): price, whether it can be bought
    now, and, once bought for the current period, what it shows (worked out when a
    template shows it). Only ever the viewer's own purchases and content."""
    if state is None:
        return []
    bought = {(p.extra, p.period): p for p in purchases if p.seat == seat}
    last = max(((m.number, m.kind) for m in moves if m.seat == seat), default=None)
    items = []
    for code in extras.EXTRAS:
        when = extras.period(code, seat=seat, state=state, last_move=last)
        purchase = bought.get((code, when)) if when is not None else None
        item: dict[str, Any] = {
            "code": code,
            "label": str(extras.LABELS[code]),
            "description": str(extras.DESCRIPTIONS[code]),
            "price": extras.price(code),
            # The button stays while the game is on (the rule table refuses it outside the
            # extra's period, with the reason): the panel changes only with a purchase, so
            # a move's push need not carry it.
            "can_buy": game.extras_allowed and purchase is None and not state.over,
            "bought": purchase is not None,
            "move": when,
        }
        if purchase is not None and code == extras.TILE_BAG:
            item["tile_bag"] = extras.tile_bag(state, seat)
        if purchase is not None and code == extras.HINDSIGHT and when is not None:
            # A template calls it (once: cached); a push that does not show the panel
            # does not search for the best play.
            item["hindsight"] = cache(lambda when=when: hindsight_item(game, moves, when, state))
        items.append(item)
    return items


def hindsight_item(game: Game, moves: Sequence[Move], number: int, state: engine.GameState) -> dict[str, Any]:
    """The best play the rack of move ``number`` allowed on the board before it, beside what
    was played, with both on a small board."""
    board = list(engine.layout(state.layout).empty_board())
    for m in moves:
        if m.number >= number:
            break
        if m.kind == Move.Kind.PLAY:
            analysis.apply_tiles(board, m.tiles)
    move = next(m for m in moves if m.number == number)
    found = extras.hindsight(
        number=number,
        board=tuple(board),
        rack=move.rack_before,
        played={"score": move.score, "word": move.words[0]["word"] if move.words else "", "kind": move.kind},
        language=game.language,
        lexicon=game.lexicon(),
    )
    best = {(r, c): ch for r, c, ch in found.best["tiles"]} if found.best else {}
    mine = {(t["row"], t["col"]) for t in move.tiles} if move.kind == Move.Kind.PLAY else set()
    grid = [
        [
            {
                "letter": (best.get((r, c)) or ch).upper()
                if (best.get((r, c)) or ch) != engine.EMPTY
                else "",
                "best": (r, c) in best,
                "played": (r, c) in mine,
            }
            for c, ch in enumerate(line)
        ]
        for r, line in enumerate(found.board)
    ]
    return {"number": number, "best": found.best, "played": found.played, "rack": found.rack, "grid": grid}


def result_text(seats: Sequence[dict[str, Any]], winner: dict[str, Any] | None) -> str:
    scores = "–".join(str(s["score"]) for s in seats)
    if winner is None:
        return gettext("Draw %(scores)s") % {"scores": scores}
    return gettext("%(name)s won %(scores)s") % {"name": winner["name"], "scores": scores}


def chat_items(game: Game, viewer: Any) -> list[dict[str, Any]]:
    messages = (
        ChatMessage.objects.filter(game=game)
        .exclude(author__in=blocked_ids(viewer))
        .select_related("author")
        .order_by("created_at", "pk")
    )
    return [
        {
            "author": str(m.author),
            "text": m.text,
            "created_at": m.created_at,
            "is_mine": m.author_id == viewer.pk,
        }
        for m in messages
    ]


def preview_item(
    evaluation: engine.Evaluation | None = None, error: str = "", strength: extras.Strength | None = None
) -> dict[str, Any]:
    """The free word-value preview; with ``strength`` (word strength, bought for this
    turn) also the play's rank among all legal plays and its share of the best score."""
    if evaluation is None:
        return {
            "valid": False,
            "score": 0,
            "bingo": False,
            "bingo_bonus": 0,
            "words": [],
            "error": error,
            "strength": None,
        }
    return {
        "valid": True,
        "score": evaluation.score,
        "bingo": evaluation.bingo,
        # Its own line beside the words, so that they add up to the score ("Play 63").
        "bingo_bonus": evaluation.score - sum(w.score for w in evaluation.words) if evaluation.bingo else 0,
        "words": [{"word": w.word, "score": w.score} for w in evaluation.words],
        "error": "",
        "strength": strength,
    }


def render_partials(
    names: Iterable[str], context: dict[str, Any], *, request: HttpRequest | None = None
) -> str:
    return "".join(render_to_string(PARTIALS[name], context, request=request) for name in names)


def snapshot_names(context: dict[str, Any]) -> list[str]:
    """The partials this viewer may receive: the rack only for a seated player, the
    chat only for players."""
    names = list(SNAPSHOT)
    if context["viewer_seat"] is None:
        names.remove("rack")
        names.remove("extras")
    if not context["can_chat"]:
        names.remove("chat")
    return names


def fragments(game: Game, viewer: Any, *, request: HttpRequest | None = None, **extra: Any) -> str:
    """The full snapshot for ``viewer``: every partial they may see, each as an
    out-of-band swap (``hx-swap-oob``)."""
    context = game_context(game, viewer, oob=True, **extra)
    return render_partials(snapshot_names(context), context, request=request)


def answer(
    game: Game,
    viewer: Any,
    before: Shown | Game | None,
    *,
    request: HttpRequest | None = None,
    **extra: Any,
) -> str:
    """The answer to ``viewer``'s own action on ``game`` (as the action left it): the
    delta from ``before`` (what their page showed when they acted, see
    :func:`before_action`) when the game is now exactly one version on and nothing is to
    be said about it (``form_errors``), else the full snapshot. What is read for it is
    kept for the pushes of the same change (:class:`LoadedGames`)."""
    # Shared with the pushes of this change (which start when it commits, before this
    # answer): one read in this process. Nothing changes ``game`` after its answer.
    data = loaded_games.get(game.pk, game.version, game=game)
    context = game_context(data, viewer, oob=True, **extra)
    now = Shown.of(context)
    if isinstance(before, Game):
        # Worked out only when a delta may follow: the game one version on, from
        # ``before`` by the viewer's own action.
        moved_on = game.version == before.version + 1 and not context["form_errors"]
        before = Shown.of(game_context(data.as_of(before), viewer)) if moved_on else None
    if before is not None and not context["form_errors"] and before.followed_by(now):
        return delta(context, before, now, request=request)
    return render_partials(snapshot_names(context), context, request=request)


def before_action(game: Game, viewer: Any, action: Action) -> Shown | Game:
    """What ``viewer``'s page of ``game`` (as read for their ``action``, at the version
    the page showed) shows, for :func:`answer`. For an engine action, a copy of the game,
    worked out into what it showed only after the action, from what the answer reads
    (:meth:`Loaded.as_of`): nothing is read before the action, so the opponent's push,
    which goes out when the action commits, does not wait for it. For the others (an
    extra bought adds to what the answer reads) what it shows, worked out now."""
    if action.kind not in ENGINE_ACTION_KINDS:
        return shown(game, viewer)
    earlier = copy.copy(game)
    # ``Game.act`` refreshes ``game`` in place, its prefetched seats included.
    earlier._prefetched_objects_cache = dict(getattr(game, "_prefetched_objects_cache", {}))
    return earlier


def shown(game: Game, viewer: Any) -> Shown:
    """What a page of ``game`` at its version shows ``viewer`` (nothing rendered; the
    game as read for the last push of that version when there was one)."""
    return Shown.of(game_context(loaded_games.of_game(game), viewer))


# ----- live pushes: a snapshot, or only what changed ------------------------------


@dataclass(frozen=True, slots=True)
class Shown:
    """What a viewer's live page shows after a push: its version, and the parts a delta
    to the next version is worked out against. A consumer keeps one per connection."""

    version: int
    status: str
    board: tuple[str, ...]
    last: frozenset[tuple[int, int]]
    moves: int
    rack: str  # the viewer's own rack ("" for spectators)
    aids: int = 0  # extras bought so far, by either player
    extras: str = ""  # the viewer's own extras: which are bought for their period now

    @classmethod
    def of(cls, context: dict[str, Any]) -> Shown:
        return cls(
            version=context["version"],
            status=context["status"],
            board=context["board_rows"],
            last=frozenset(context["last_squares"]),
            moves=len(context["moves"]),
            rack=context["rack_letters"],
            aids=len(context["aids"]),
            extras=",".join(f"{x['code']}:{x['bought']}:{x['can_buy']}" for x in context["extras"]),
        )

    def followed_by(self, now: Shown) -> bool:
        """Whether ``now`` is the very next version of the same game in play, so that a
        delta from this one is enough. Anything else (a missed version, the start of a
        game, a board of another size) gets the full snapshot."""
        return (
            now.version == self.version + 1
            and self.status == Game.Status.ACTIVE
            and now.status in (Game.Status.ACTIVE, Game.Status.FINISHED)
            and now.moves >= self.moves
            and len(now.board) == len(self.board)
        )


def changed_squares(before: Shown, now: Shown) -> list[tuple[int, int]]:
    """The squares a delta sends: new tiles, and any square gaining the last-move
    highlight. Squares that only lose it are not sent: the version marker lists the
    highlighted squares (``data-last``) and app.js clears the others."""
    return [
        (r, c)
        for r, (old, new) in enumerate(zip(before.board, now.board, strict=True))
        for c in range(len(new))
        if old[c] != new[c] or ((r, c) in now.last and (r, c) not in before.last)
    ]


def delta(context: dict[str, Any], before: Shown, now: Shown, *, request: HttpRequest | None = None) -> str:
    """The partials that changed from ``before`` to ``now`` (one version later), as
    out-of-band swaps: the version marker, the changed squares, the scoreboard (scores,
    turn, bag), the move panel, the new move-log line, the viewer's rack when it
    changed, and the game-over banner when the game ended. The rack only ever comes
    from the context, which holds the viewer's own rack and nobody else's."""
    parts = [render_partials(["game_sync"], {**context, "base_version": before.version}, request=request)]
    names_of_premiums = premium_names()
    for r, c in changed_squares(before, now):
        square = square_item(
            now.board, r, c, language=context["language"], last=now.last, names=names_of_premiums
        )
        parts.append(render_to_string(PARTIALS["square"], {"sq": square, "square_oob": True}))
    names = ["scoreboard", "move_panel"]
    ended = now.status != before.status
    if before.moves == 0 and now.moves:
        # The first line replaces "No moves yet". (At the end the racks of every line are
        # public, but a reload or the replay shows them: resending the whole log would
        # make the last push of a game the largest of all.)
        names.append("move_log")
    if now.aids != before.aids:
        names.append("aids")
    if context["viewer_seat"] is not None:
        if now.extras != before.extras:
            names.append("extras")
        if ended:
            names.append("rack")
        elif now.rack != before.rack:
            names.append("rack_tiles")
    if ended:
        names.append("game_over")
    parts.append(render_partials(names, context, request=request))
    if 0 < before.moves < now.moves:
        parts.append(
            render_to_string(
                PARTIALS["move_list"],
                {"items": context["moves"][before.moves :], "append": True, "game": context["game"]},
            )
        )
    return "".join(parts)


def push(game_id: int, viewer: Any, since: Shown | None) -> tuple[str, Shown]:
    """What a consumer sends ``viewer`` after a change, given what it sent last
    (``since``; None on connect and on resync): nothing when the page already shows this
    version, a delta when the game moved on by exactly one version, else the snapshot."""
    html, now = shared_push(game_id, viewer, since)
    return with_action_id(html), now


#: Stands for the move panel's ``action_id`` in a push rendered once for several
#: sockets; each socket puts a fresh one in its own copy (``with_action_id``), so two
#: tabs of one player never share an action id.
ACTION_ID_MARK = "0" * 20 + "5ac7" + "0" * 8


def shared_push(
    game_id: int, viewer: Any, since: Shown | None, version: int | None = None
) -> tuple[str, Shown]:
    """:func:`push` for every viewer of the same kind (:func:`viewer_kind`) at once: the
    same fragments, with ``ACTION_ID_MARK`` where the action id goes. ``version``: the
    one the change announced (the game as read for it is shared by every kind of viewer
    in this process, see :class:`LoadedGames`); None reads the game as it is now."""
    data = loaded_games.get(game_id, version)
    context = game_context(data, viewer, oob=True, action_id=ACTION_ID_MARK)
    now = Shown.of(context)
    if since is not None and since.version == now.version:
        return "", since
    if since is None or not since.followed_by(now):
        return render_partials(snapshot_names(context), context), now
    return delta(context, since, now), now


def with_action_id(html: str) -> str:
    """One socket's copy of a shared push, with its own action id."""
    return html.replace(ACTION_ID_MARK, uuid.uuid4().hex) if ACTION_ID_MARK in html else html


SPECTATOR = "spectator"


def viewer_kind(game_id: int, viewer: Any) -> tuple[str, bool]:
    """Which viewers of the game see exactly the same fragments as ``viewer``: ``seat-N``
    for the player in seat N; ``spectator`` for anyone else (signed in or not: the
    page shows them no rack, no chat and no action), except the creator of a game not
    yet started, who may cancel it (``user-<id>``). The second value says whether this
    can still change (it cannot once the game has started: seats are then fixed)."""
    game = Game.objects.only("status", "created_by_id").get(pk=game_id)
    fixed = game.status in (Game.Status.ACTIVE, Game.Status.FINISHED, Game.Status.DECLINED)
    user_id = getattr(viewer, "pk", None) if getattr(viewer, "is_authenticated", False) else None
    if user_id is None:
        return SPECTATOR, fixed
    seat = Seat.objects.filter(game_id=game_id, user_id=user_id).values_list("index", flat=True).first()
    if seat is not None:
        return f"seat-{seat}", fixed
    if user_id == game.created_by_id:
        return f"user-{user_id}", fixed
    return SPECTATOR, fixed


def chat_context(game: Game, viewer: Any, **extra: Any) -> dict[str, Any]:
    """What ``_chat.html`` shows a seated player (the rest of the game is not read)."""
    return {"chat": chat_items(game, viewer), "version": game.version, "oob": True, **extra}


def chat_fragment(game_id: int, viewer: Any) -> str:
    """The chat lines, for a seated player only (nothing for anyone else)."""
    game = Game.objects.only("pk", "version").get(pk=game_id)
    if (
        not getattr(viewer, "is_authenticated", False)
        or not Seat.objects.filter(game_id=game_id, user=viewer).exists()
    ):
        return ""
    return render_partials(["chat"], chat_context(game, viewer))


# ----- lobby ---------------------------------------------------------------------


def lobby_item(game: Game, user: Any) -> dict[str, Any]:
    seats = game.seat_list()
    mine = next((s for s in seats if s.user_id == getattr(user, "pk", None)), None)
    other = next((s for s in seats if s is not mine), None)
    result = ""
    if game.status == Game.Status.FINISHED and mine is not None:
        result = "draw" if game.winner_seat is None else ("won" if game.winner_seat == mine.index else "lost")
    if other is not None:
        opponent = other.display_name
    elif game.status == Game.Status.OPEN:
        opponent = gettext("waiting for an opponent")
    else:
        opponent = versus([s.display_name for s in seats])
    return {
        "id": game.pk,
        "version": game.version,
        "url": reverse("games:detail", args=[game.pk]),
        "opponent": opponent,
        "opponent_words": opponent.split(),
        "players": [s.display_name for s in seats],
        "language": game.language,
        "language_name": language_name(game.language),
        "mode": game.mode,
        "status": game.status,
        "my_score": mine.score if mine else None,
        "their_score": other.score if other else None,
        "is_my_turn": game.status == Game.Status.ACTIVE and mine is not None and game.turn_seat == mine.index,
        "result": result,
        "updated_at": game.updated_at,
        "deadline": game.turn_deadline,
    }


def lobby_context(user: Any, **extra: Any) -> dict[str, Any]:
    from django.conf import settings

    own = Game.objects.for_player(user).prefetch_related("seats__user").order_by("-updated_at")
    live = list(own.filter(status__in=[Game.Status.ACTIVE, Game.Status.INVITED]))
    your_turn: list[dict[str, Any]] = []
    their_turn: list[dict[str, Any]] = []
    received: list[dict[str, Any]] = []
    sent: list[dict[str, Any]] = []
    for game in live:
        item = lobby_item(game, user)
        if game.status == Game.Status.INVITED:
            (sent if game.created_by_id == user.pk else received).append(item)
        elif item["is_my_turn"]:
            your_turn.append(item)
        else:
            their_turn.append(item)
    finished = [lobby_item(g, user) for g in own.filter(status=Game.Status.FINISHED)[:20]]
    seeks = Game.objects.filter(created_by=user, status=Game.Status.OPEN).order_by("created_at")
    hooks.annotate_lobby([*your_turn, *their_turn, *finished, *received, *sent], user)
    context: dict[str, Any] = {
        "your_turn": your_turn,
        "their_turn": their_turn,
        "finished": finished,
        "invitations_received": received,
        "invitations_sent": sent,
        "open_seeks": [lobby_item(g, user) for g in seeks],
        "active_count": Game.objects.active_for(user).count(),
        "max_active": settings.MAX_ACTIVE_GAMES,
        "ws_url": "/ws/lobby/",
        "oob": False,
    }
    context.update(extra)
    return context


def public_games(user: Any, limit: int = 50) -> list[dict[str, Any]]:
    games = (
        Game.objects.filter(is_public=True, status=Game.Status.ACTIVE)
        .prefetch_related("seats__user")
        .order_by("-updated_at")[:limit]
    )
    return [lobby_item(g, user) for g in games]


def lobby_fragment(user: Any) -> str:
    return render_partials(["lobby_games"], lobby_context(user, oob=True))


# ----- replay ----------------------------------------------------------------------


def replay_context(game: Game, viewer: Any, step: int | None) -> dict[str, Any]:
    """The position after ``step`` moves (0 = before the first); racks only once the
    game is over."""
    moves = list(game.moves.all())
    seats = game.seat_list()
    step = len(moves) if step is None else max(0, min(step, len(moves)))
    board = list(engine.layout().empty_board())
    scores = [0] * max(len(seats), 2)
    for move in moves[:step]:
        analysis.apply_tiles(board, move.tiles)
        scores[move.seat] += move.score
        end = move.engine_record.get("end")
        if end:
            scores = [s + a for s, a in zip(scores, end["adjustments"], strict=False)]
    over = game.status == Game.Status.FINISHED
    racks = []
    for seat in seats:
        rack = ""
        if over:
            later = next((m for m in moves[step:] if m.seat == seat.index), None)
            earlier = next((m for m in reversed(moves[:step]) if m.seat == seat.index), None)
            rack = later.rack_before if later else (earlier.rack_after if earlier else "")
        racks.append(
            {"index": seat.index, "name": seat.display_name, "score": scores[seat.index], "rack": rack}
        )
    items = move_items(moves, seats, show_racks=over)
    current = moves[step - 1] if step > 0 else None
    return {
        "game": game,
        "version": game.version,
        "language_name": language_name(game.language),
        # Where the step links go: the replay page, or the analysis page that embeds it.
        "step_url": reverse("games:replay", args=[game.pk]),
        "step": step,
        "steps": len(moves),
        "previous_step": step - 1 if step > 0 else None,
        "next_step": step + 1 if step < len(moves) else None,
        "squares": squares(
            board,
            language=game.language,
            last=[(t["row"], t["col"]) for t in current.tiles] if current else (),
        ),
        "column_labels": [chr(ord("A") + c) for c in range(len(board))],
        "row_labels": [str(r + 1) for r in range(len(board))],
        "seats": racks,
        "racks_visible": over,
        "moves": items,
        "current_move": items[step - 1] if step > 0 else None,
        "is_over": over,
        "oob": False,
    }


# ----- analysis ----------------------------------------------------------------------


def analysis_context(game: Game, viewer: Any, step: int | None = None) -> dict[str, Any]:
    """The analysis page: the stored analysis (or that it is not ready), each rated move
    with its player's name, the totals per player, and the board at ``step`` (as the
    replay steps it). Only for a finished game (racks are public then)."""
    from games.models import GameAnalysis

    names = {s.index: s.display_name for s in game.seat_list()}
    stored = GameAnalysis.objects.filter(game=game).first()
    moves = [{**m, "player": names.get(m["seat"], "")} for m in stored.moves] if stored else []
    totals = [{**t, "player": names.get(t["seat"], "")} for t in stored.totals] if stored else []
    replay = replay_context(game, viewer, step)
    replay["step_url"] = reverse("games:analysis", args=[game.pk])
    return {
        **replay,
        "ready": stored is not None,
        "analysis": stored,
        "analysed_moves": moves,
        "totals": totals,
        "ws_url": f"/ws/games/{game.pk}/analysis/",
        "oob": False,
    }


def analysis_fragment(game_id: int, viewer: Any) -> str:
    """The pushed ``_analysis.html`` (used by the analysis consumer)."""
    context = analysis_context(load_game(game_id), viewer)
    return render_to_string("games/_analysis.html", {**context, "oob": True})
