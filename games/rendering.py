"""Games as HTML: the template context of a game's view, and its partials.

``games.gameview`` decides what a viewer may see (a frozen, typed ``GameView``); this
module only turns a view into the context its templates read and renders the partials
(STYLE.md 3.6), so a fragment looks the same whether a page, an answer or a push produced
it (``games.live``). It applies no privacy of its own: it shows what the view holds.
Also the lobby, the replay and the analysis pages.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import TYPE_CHECKING, NotRequired, TypedDict, TypeVar, overload

from django.conf import settings
from django.http import HttpRequest
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext, ngettext, pgettext

import engine
from dictionaries.models import language_name
from engine.board import square_name
from games import extras, hooks
from games.gameview import (
    ChatLine,
    GameView,
    MoveView,
    extensions_of,
    load_game,
    log_lines,
    log_notes,
    move_views,
    replay_racks,
    versus,
)
from games.messages import error_message
from games.models import Game

if TYPE_CHECKING:
    from accounts.models import User

#: A template context (Django's templates read any value).
Context = dict[str, object]
T = TypeVar("T")

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
    "seeks": "games/_seeks.html",
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


def premium_names() -> dict[str, tuple[str, str]]:
    """Premium code -> (short label on the square, name read by screen readers)."""
    return {
        "TW": (pgettext("premium square", "TW"), gettext("triple word")),
        "DW": (pgettext("premium square", "DW"), gettext("double word")),
        "TL": (pgettext("premium square", "TL"), gettext("triple letter")),
        "DL": (pgettext("premium square", "DL"), gettext("double letter")),
    }


class Lazy(Sequence[T]):
    """A list built on first use: a context holds the board's squares, the move log and
    the chat this way, so a push that renders only a few partials (a delta) never builds
    or queries what it does not show. ``length``, when known, answers ``len`` without
    building the list."""

    def __init__(self, make: Callable[[], Iterable[T]], *, length: int | None = None) -> None:
        self._make = make
        self._items: list[T] | None = None
        self._length = length

    def _list(self) -> list[T]:
        if self._items is None:
            self._items = list(self._make())
        return self._items

    @overload
    def __getitem__(self, index: int) -> T: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[T]: ...
    def __getitem__(self, index: int | slice) -> T | Sequence[T]:
        return self._list()[index]

    def __len__(self) -> int:
        return self._length if self._length is not None and self._items is None else len(self._list())

    def __iter__(self) -> Iterator[T]:
        return iter(self._list())

    def __repr__(self) -> str:
        return repr(self._list())


def squares(
    board: Sequence[str], *, language: str, layout_name: str = "wwf", last: Iterable[tuple[int, int]] = ()
) -> list[list[Square]]:
    """The board as rows of squares."""
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
) -> Square:
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


class Square(TypedDict):
    """One square of the board as ``_square.html`` draws it."""

    row: int
    col: int
    label: str
    name: str
    premium: str | None
    premium_label: str
    is_center: bool
    letter: str
    value: int | None
    is_blank: bool
    is_last_move: bool
    aria_label: str


class RackTile(TypedDict):
    index: int
    letter: str
    value: int
    is_blank: bool


def rack_tiles(rack: str, language: str) -> list[RackTile]:
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


class PreviewItem(TypedDict):
    """The free word-value preview line (with word strength when bought)."""

    valid: bool
    score: int
    bingo: bool
    bingo_bonus: int
    words: list[dict[str, object]]
    error: str
    strength: extras.Strength | None


@dataclass(frozen=True)
class Frame:
    """What one render adds to a view (not part of the game): out-of-band swaps, the
    version a delta applies to, a refusal and the pending tiles to echo, a preview, the
    move panel's fresh action id, and the request (for the CSRF token in forms)."""

    oob: bool = False
    base_version: int | None = None
    form_errors: tuple[str, ...] = ()
    pending: str = ""
    preview: PreviewItem | None = None
    action_id: str = field(default_factory=lambda: uuid.uuid4().hex)
    request: HttpRequest | None = None
    unknown_words: tuple[str, ...] = ()  # a play refused for them: offered to suggest


def game_context(view: GameView, frame: Frame | None = None) -> Context:
    """What the game's templates read: the view (``game`` in templates; its fields under
    the names the partials use) and the frame."""
    frame = frame or Frame()
    tiles = engine.tileset(view.tiles)  # the game's rules' tile set (a classic one too)
    allowed = view.allowed
    title = versus([s.name for s in view.seats]) if view.seats else gettext("Waiting for an opponent")
    if view.is_my_turn and view.is_active:
        title = gettext("Your turn · %(players)s") % {"players": title}
    return {
        **view_names(view),
        "oob": frame.oob,
        "title": title,
        "ws_url": f"/ws/games/{view.pk}/",
        "language_name": language_name(view.language),
        "is_my_turn": view.is_active and view.is_my_turn,
        # From the rule table Game.act checks: the page offers exactly what would be accepted.
        "can_act": "play" in allowed,
        "can_resign": "resign" in allowed,
        "can_accept": "accept" in allowed,
        # A challenge rule's: the play before this turn may be challenged (or, the last
        # play of the game, accepted).
        "can_challenge": "challenge" in allowed,
        "can_accept_play": "accept_play" in allowed,
        "challenge_rule": view.challenge_rule,
        "challenge_rule_label": challenge_label(view.challenge_rule),
        "rules_label": rules_label(view.rules_preset, view.challenge_rule),
        "bingo_bonus": view.bingo_bonus,
        "pending_final": view.pending_final,
        "can_chat": view.can_chat,
        "can_rematch": view.is_over and view.is_player and not any(s.player_gone for s in view.seats),
        # Built only when a template shows them (a delta sends single squares).
        "squares": Lazy(
            lambda: squares(view.board, language=view.tiles, layout_name=view.layout, last=view.last)
        ),
        "column_labels": [chr(ord("A") + c) for c in range(len(view.board))],
        "row_labels": [str(r + 1) for r in range(len(view.board))],
        "rack": rack_tiles(view.rack, view.tiles),
        "rack_size": tiles.rack_size,
        "blank_letters": [letter for letter in tiles.alphabet if letter in tiles.blank_letters],
        "tile_values": dict(tiles.values),
        "moves": Lazy(lambda: view.moves, length=view.moves_count),
        # The moves with the notes between them (a deadline moved on): the whole log.
        "log": Lazy(lambda: view.log, length=view.moves_count + len(view.notes)),
        "chat": Lazy(lambda: view.chat),
        "result_text": result_text(view) if view.is_over else "",
        "base_version": frame.base_version,
        "form_errors": list(frame.form_errors),
        "pending": frame.pending,
        "preview": frame.preview,
        "action_id": frame.action_id,
        "unknown_words": frame.unknown_words,
        "notice": gettext("The computer is thinking…")
        if view.computer_thinking
        else (error_message("aborted") if view.status == Game.Status.ABORTED else ""),
    }


def challenge_label(rule: str) -> str:
    """The challenge rule's name, for players."""
    return str(dict(Game.ChallengeRule.choices).get(rule, rule))


def rules_label(preset: str, challenge: str) -> str:
    """The rules a game is played by, for players: "Classic rules · Double challenge"
    ("" for this game's own rules without challenges, which need no saying)."""
    if preset == Game.Preset.WWF and challenge == Game.ChallengeRule.VOID:
        return ""
    parts = [str(dict(Game.Preset.choices).get(preset, preset))]
    if challenge != Game.ChallengeRule.VOID:
        parts.append(challenge_label(challenge))
    return " · ".join(parts)


def view_names(view: GameView) -> Context:
    """The view's own fields under the names the partials read."""
    return {
        "game": view,
        "version": view.version,
        "language": view.language,
        "status": view.status,
        "viewer_seat": view.viewer_seat,
        "is_player": view.is_player,
        "is_spectator": not view.is_player,
        "can_cancel": view.can_cancel,
        "gcg_available": view.is_over,
        "seats": view.seats,
        "turn_seat": view.turn_seat,
        "bag_count": view.bag_count,
        "last_squares": view.last,
        "is_over": view.is_over,
        "end_reason": view.end_reason,
        "end_reason_label": view.end_reason_label,
        "winner": view.winner,
        "deadline": view.deadline,
        "deadline_extended": view.deadline_extended,
        "computer_thinking": view.computer_thinking,
        "pace": view.pace,
        "pace_label": view.pace.label(),
        "aids": view.aids,
        "extras": view.extras,
        "extras_allowed": view.extras_allowed,
    }


def result_text(view: GameView) -> str:
    if len(view.seats) == 1:  # a solo challenge: nobody to win against
        return gettext("Final score %(score)s") % {"score": view.seats[0].score}
    scores = "–".join(str(s.score) for s in view.seats)
    winner = view.winner
    if winner is None:
        return gettext("Draw %(scores)s") % {"scores": scores}
    return gettext("%(name)s won %(scores)s") % {"name": winner.name, "scores": scores}


def render_partials(names: Iterable[str], context: Context, *, request: HttpRequest | None = None) -> str:
    return "".join(render_to_string(PARTIALS[name], context, request=request) for name in names)


def render(names: Iterable[str], view: GameView, frame: Frame) -> str:
    """The partials ``names`` of ``view``, with ``frame``."""
    return render_partials(names, game_context(view, frame), request=frame.request)


def snapshot_names(view: GameView) -> list[str]:
    """The partials this viewer may receive: the rack, the extras and the chat only for
    a seated player."""
    names = list(SNAPSHOT)
    if not view.is_player:
        names = [name for name in names if name not in ("rack", "extras", "chat")]
    return names


def move_lines(view: GameView, items: Sequence[MoveView]) -> str:
    """New lines of the move log, appended to the list the page has."""
    return render_to_string(PARTIALS["move_list"], {"items": items, "append": True, "game": view})


def chat_html(lines: Sequence[ChatLine], version: int, **extra: object) -> str:
    """The chat lines (``_chat.html``), pushed or answered."""
    return render_to_string(PARTIALS["chat"], {"chat": lines, "version": version, "oob": True, **extra})


def preview_item(
    evaluation: engine.Evaluation | None = None, error: str = "", strength: extras.Strength | None = None
) -> PreviewItem:
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


# ----- lobby ---------------------------------------------------------------------


class LobbyItem(TypedDict):
    """A game in the lobby's lists (and among the public games to watch)."""

    id: int
    version: int
    url: str
    opponent: str
    opponent_words: list[str]
    players: list[str]
    language: str
    language_name: str
    mode: str
    status: str
    my_score: int | None
    their_score: int | None
    is_my_turn: bool
    result: str
    updated_at: datetime
    deadline: datetime | None
    pace_label: str
    is_live: bool
    rules: str  # the rules when they are not this game's own without challenges
    tournament: NotRequired[hooks.GameNote | None]  # filled by hooks.annotate_lobby


def lobby_item(game: Game, user: User) -> LobbyItem:
    seats = game.seat_list()
    mine = next((s for s in seats if s.user_id == user.pk), None)
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
        "pace_label": game.pace.label(),
        "is_live": game.is_live,
        "rules": rules_label(game.rules_preset, game.challenge_rule),
    }


class LobbyContext(TypedDict):
    your_turn: list[LobbyItem]
    their_turn: list[LobbyItem]
    finished: list[LobbyItem]
    invitations_received: list[LobbyItem]
    invitations_sent: list[LobbyItem]
    open_seeks: list[LobbyItem]
    active_count: int
    max_active: int
    ws_url: str
    oob: bool


def annotate(items: list[LobbyItem], user: User) -> None:
    """What other apps know of these games (``games.hooks``): a tournament game's label and
    link, and the result an organiser's override gave it."""
    notes = hooks.lobby_notes([item["id"] for item in items], user)
    for item in items:
        note = item["tournament"] = notes.get(item["id"])
        if note is not None and note.result is not None and item["status"] == "finished":
            item["result"] = note.result


def lobby_context(user: User, *, oob: bool = False) -> LobbyContext:
    own = Game.objects.for_player(user).prefetch_related("seats__user").order_by("-updated_at")
    live = list(own.filter(status__in=[Game.Status.ACTIVE, Game.Status.INVITED]))
    your_turn: list[LobbyItem] = []
    their_turn: list[LobbyItem] = []
    received: list[LobbyItem] = []
    sent: list[LobbyItem] = []
    for game in live:
        item = lobby_item(game, user)
        if game.status == Game.Status.INVITED:
            (sent if game.created_by_id == user.pk else received).append(item)
        elif item["is_my_turn"]:
            your_turn.append(item)
        else:
            their_turn.append(item)
    finished = [lobby_item(g, user) for g in own.filter(status=Game.Status.FINISHED)[:20]]
    annotate([*your_turn, *their_turn, *finished, *received, *sent], user)
    seeks = Game.objects.filter(created_by=user, status=Game.Status.OPEN).order_by("created_at")
    return {
        "your_turn": your_turn,
        "their_turn": their_turn,
        "finished": finished,
        "invitations_received": received,
        "invitations_sent": sent,
        "open_seeks": [lobby_item(g, user) for g in seeks],
        "active_count": Game.objects.active_for(user).count(),
        "max_active": settings.MAX_ACTIVE_GAMES,
        "ws_url": "/ws/lobby/",
        "oob": oob,
    }


def public_games(user: User, limit: int = 50) -> list[LobbyItem]:
    games = (
        Game.objects.filter(is_public=True, status=Game.Status.ACTIVE)
        .prefetch_related("seats__user")
        .order_by("-updated_at")[:limit]
    )
    return [lobby_item(g, user) for g in games]


def lobby_fragment(user: User) -> str:
    return render_partials(["lobby_games"], dict(lobby_context(user, oob=True)))


def seeks_context(user: User, *, oob: bool = False) -> Context:
    """The open requests ``user`` sees (``games.seeks``), for the seeks page and its pushes."""
    from django.utils import timezone

    from games.seeks import items_for

    items = [
        replace(i, rules=rules_label(i.rules_preset, i.challenge_rule))
        for i in items_for(user, timezone.now())
    ]
    return {"seeks": items, "ws_url": "/ws/lobby/?seeks=1", "oob": oob}


def seeks_fragment(user: User) -> str:
    return render_partials(["seeks"], seeks_context(user, oob=True))


# ----- replay ----------------------------------------------------------------------


def replay_context(game: Game, step: int | None) -> Context:
    """The position after ``step`` moves (0 = before the first); racks only once the
    game is over (``games.gameview.replay_racks``)."""
    moves = list(game.moves.all())
    seats = game.seat_list()
    step = len(moves) if step is None else max(0, min(step, len(moves)))
    board, racks = replay_racks(game, moves, step)
    over = game.status == Game.Status.FINISHED
    game_rules = game.rules()
    names = {s.index: s.display_name for s in seats}
    items = move_views(moves, names, show_racks=over)
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
            language=game_rules.tileset_for(game.language).language,
            layout_name=str(game.state.get("layout", "wwf")) if game.state else "wwf",
            last=[(t["row"], t["col"]) for t in current.tiles] if current and current.kind == "play" else (),
        ),
        "rules_label": rules_label(game_rules.preset, game_rules.challenge),
        "column_labels": [chr(ord("A") + c) for c in range(len(board))],
        "row_labels": [str(r + 1) for r in range(len(board))],
        "seats": racks,
        "racks_visible": over,
        "moves": items,
        # The list beside the board: the moves with the log's notes between them.
        "log": log_lines(items, log_notes(extensions_of(game), names)),
        "current_move": items[step - 1] if step > 0 else None,
        "is_over": over,
        "oob": False,
    }


# ----- analysis ----------------------------------------------------------------------


def analysis_context(game: Game, step: int | None = None) -> Context:
    """The analysis page: the stored analysis (or that it is not ready), each rated move
    with its player's name, the totals per player, and the board at ``step`` (as the
    replay steps it). Only for a finished game (racks are public then)."""
    from games.models import GameAnalysis

    names = {s.index: s.display_name for s in game.seat_list()}
    stored = GameAnalysis.objects.filter(game=game).first()
    moves = [{**m, "player": names.get(m["seat"], "")} for m in stored.moves] if stored else []
    totals = [{**t, "player": names.get(t["seat"], "")} for t in stored.totals] if stored else []
    replay = replay_context(game, step)
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


def analysis_fragment(game_id: int) -> str:
    """The pushed ``_analysis.html`` (used by the analysis consumer)."""
    context = analysis_context(load_game(game_id))
    return render_to_string("games/_analysis.html", {**context, "oob": True})
