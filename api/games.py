"""``/api/v1/games``: start, list, watch and play games.

Every change goes through ``Game.act`` with the engine's and the site's action values,
exactly as the pages do (``games.views``): the rule table, the version check, the
idempotent ``action_id`` and the broadcast all happen there, not here. This module only
reads the request into those values and answers with what the caller may see.
"""

from __future__ import annotations

import unicodedata
from datetime import datetime
from typing import Any, Literal

from django.contrib.auth import get_user_model
from django.http import HttpRequest, HttpResponse
from django.utils import timezone
from ninja import Query, Router, Schema, Status
from pydantic import Field

import engine
from api import representation
from api.errors import ApiError
from api.ratelimit import LOOKUP, WRITE
from api.schemas import (
    ActionIn,
    ErrorOut,
    ExchangeIn,
    ExtraIn,
    GameOut,
    GameSummaryOut,
    HindsightOut,
    NewGameIn,
    PlayIn,
    PreviewIn,
    PreviewOut,
    StrengthOut,
    TileBagOut,
    TilePlacement,
    WordStrengthOut,
)
from games import extras, seeks, services
from games.actions import Accept, AcceptPlay, Action, Challenge, Decline, Exchange, Pass, Play, Resign
from games.gameview import ExtraView, brief_for, seen, view_for
from games.models import Game
from games.pace import Pace
from games.records import gcg_text

router = Router(tags=["games"])

REFUSALS: dict[int | str, Any] = {
    400: ErrorOut,
    401: ErrorOut,
    403: ErrorOut,
    404: ErrorOut,
    409: ErrorOut,
    429: ErrorOut,
}


def placements(tiles: list[TilePlacement]) -> list[engine.Placement]:
    """``[[row, col, letter], ...]`` as placements, read like ``python -m engine score``
    reads a move: ``?`` a blank with no letter chosen (the engine refuses it with
    ``blank_needs_letter``), a lowercase letter a blank standing for that letter.
    Letters of another alphabet are left to the engine (``letter_not_in_language``);
    what is not a single letter at all is ``bad_tiles``."""
    result = []
    for row, col, raw in tiles:
        letter = unicodedata.normalize("NFC", raw)
        if letter == engine.BLANK:
            result.append(engine.Placement(row, col, engine.BLANK, blank=True))
            continue
        # One letter, and one letter upper-cased too ("ß" would become "SS").
        if len(letter) != 1 or not letter.isalpha() or len(letter.upper()) != 1:
            raise ApiError("bad_tiles")
        upper = letter.upper()
        result.append(engine.Placement(row, col, upper, blank=letter != upper))
    return result


def exchanged(tiles: str) -> str:
    """The rack tiles to swap, as the exchange form reads them (letter by letter)."""
    letters = "".join(unicodedata.normalize("NFC", tiles).split())
    if any(len(tile.upper()) != 1 for tile in letters):
        raise ApiError("bad_tiles")
    return letters.upper()


def visible(request: HttpRequest, game_id: int) -> Game:
    """The game if the caller may watch it; 404 otherwise, whether or not it exists."""
    game = (
        Game.objects.watchable_by(request.user)
        .select_related("created_by")
        .with_seats()
        .filter(pk=game_id)
        .first()
    )
    if game is None:
        raise ApiError("not_found")
    return game


def act(request: HttpRequest, game_id: int, action: Action, body: ActionIn) -> dict[str, object]:
    """Apply ``action`` through the game's one path, and answer with the game as it now is."""
    game = visible(request, game_id)
    record = game.act(request.user, action, version=body.version, action_id=body.action_id)
    assert record.pov is not None  # ``Game.act`` sets it on every record it returns
    return representation.full(seen(game, record.pov))  # ``game`` followed the action


class GameFilter(Schema):
    status: Literal["invited", "open", "active", "finished", "declined", "aborted"] | None = None
    limit: int = Field(default=50, ge=1, le=200)


@router.get("", response={200: list[GameSummaryOut], **REFUSALS}, throttle=LOOKUP, summary="My games")
def list_games(request: HttpRequest, filters: Query[GameFilter]) -> Any:
    """Your games, the most recently changed first: those you play in (invitations
    included) and your open seeks for a random opponent."""
    games = Game.objects.mine(request.user).order_by("-updated_at", "-pk")
    if filters.status:
        games = games.filter(status=filters.status)
    return [representation.summary(brief_for(game, request.user)) for game in games[: filters.limit]]


@router.post("", response={201: GameOut, **REFUSALS}, throttle=WRITE, summary="Start a game")
def create_game(request: HttpRequest, body: NewGameIn) -> Any:
    """Against the computer (``{"opponent": "computer", "level": "easy"}``: it starts at
    once), a random opponent (``"random"``: joins the oldest open seek in the language,
    or opens one, status ``open``) or a player by username (an invitation, status
    ``invited``, which they accept or decline)."""
    user: Any = request.user
    opponent = None
    level = None
    try:
        pace = Pace.parse(body.pace, sudden_death=body.sudden_death) if body.pace is not None else None
    except ValueError:
        raise ApiError("bad_pace") from None
    if body.opponent == "computer":
        mode = Game.Mode.COMPUTER
        if body.level is None:
            raise ApiError("bad_level")
        level = body.level
    elif body.opponent == "random":
        mode = Game.Mode.RANDOM
    else:
        mode = Game.Mode.FRIEND
        opponent = get_user_model().objects.named(body.opponent).filter(is_active=True).first()
        if opponent is None:
            raise ApiError("unknown_opponent")
        if opponent.pk == user.pk:
            raise ApiError("bad_opponent")
    game = services.start_game(
        creator=user,
        mode=mode,
        language=body.language,
        opponent=opponent,
        level=level,
        public=body.public,
        rated=body.rated and mode != Game.Mode.COMPUTER,
        extras=body.extras,
        pace=pace,
        preset=body.rules,
        challenge=body.challenge,
    )
    return Status(201, representation.full(view_for(visible(request, game.pk), user)))


class SeekOut(Schema):
    id: int = Field(description="The request's game id (status open).")
    player: str
    bot: bool = Field(description="Whether the request's player is a bot.")
    language: str
    pace: str = Field(description='The pace, as a new game takes it: "3d" or "10+5".')
    pace_label: str
    live: bool
    rated: bool
    rating: int = Field(description="The player's rating in the language at the pace's speed.")
    low: int = Field(description="The lowest rating the request meets now (its window widens with the wait).")
    high: int
    created_at: datetime
    mine: bool
    can_accept: bool = Field(description="Whether you may take it up now (within its window).")
    computer_offered: bool = Field(
        description="Your live request waited long enough to play the computer instead."
    )
    rules: str = Field(description='The rules preset the game will be played by: "wwf" or "classic".')
    challenge: str = Field(description="The challenge rule: void, single, double or five.")


@router.get("/seeks", response={200: list[SeekOut], **REFUSALS}, throttle=LOOKUP, summary="Open requests")
def seeks_list(request: HttpRequest) -> Any:
    """Every open random request you may be paired with, and your own: language, pace,
    rated or not, and the rating window it accepts now (±200, 100 wider for each minute a
    live request waited, each hour a correspondence one). Blocked players never show."""
    user: Any = request.user
    return [
        {
            "id": i.id,
            "player": i.player,
            "bot": i.player_bot,
            "language": i.language,
            "pace": i.pace_code,
            "pace_label": i.pace_label,
            "live": i.is_live,
            "rated": i.rated,
            "rating": i.rating,
            "low": i.low,
            "high": i.high,
            "created_at": i.created_at,
            "mine": i.is_mine,
            "can_accept": i.can_accept,
            "computer_offered": i.computer_offered,
            "rules": i.rules_preset,
            "challenge": i.challenge_rule,
        }
        for i in seeks.items_for(user, timezone.now())
    ]


@router.post(
    "/seeks/{int:game_id}/accept",
    response={201: GameOut, **REFUSALS},
    throttle=WRITE,
    summary="Take up a request",
)
def seek_accept(request: HttpRequest, game_id: int) -> Any:
    """Play the open request ``game_id`` (within its rating window, neither of you blocked):
    the game starts at once."""
    user: Any = request.user
    game = services.accept_seek(user=user, game_id=game_id)
    return Status(201, representation.full(view_for(visible(request, game.pk), user)))


@router.post(
    "/seeks/{int:game_id}/computer",
    response={201: GameOut, **REFUSALS},
    throttle=WRITE,
    summary="Play the computer instead",
)
def seek_computer(request: HttpRequest, game_id: int) -> Any:
    """Withdraw your live request that waited long enough and play the computer (medium)
    at the same pace instead."""
    user: Any = request.user
    game = services.computer_instead(user=user, game_id=game_id)
    return Status(201, representation.full(view_for(visible(request, game.pk), user)))


@router.get("/{int:game_id}", response={200: GameOut, **REFUSALS}, throttle=LOOKUP, summary="A game")
def get_game(request: HttpRequest, game_id: int) -> Any:
    """The game as you may see it: your own rack only (none if you are watching)."""
    return representation.full(view_for(visible(request, game_id), request.user))


@router.post("/{int:game_id}/play", response={200: GameOut, **REFUSALS}, throttle=WRITE, summary="Play tiles")
def play(request: HttpRequest, game_id: int, body: PlayIn) -> Any:
    """Put tiles on the board: ``[[row, col, letter], ...]`` (rows and columns from 0,
    a lowercase letter for a blank). An illegal play is refused with the engine's code."""
    return act(request, game_id, Play.of(placements(body.tiles)), body)


@router.post(
    "/{int:game_id}/exchange", response={200: GameOut, **REFUSALS}, throttle=WRITE, summary="Swap tiles"
)
def exchange(request: HttpRequest, game_id: int, body: ExchangeIn) -> Any:
    return act(request, game_id, Exchange.of(exchanged(body.tiles)), body)


@router.post("/{int:game_id}/pass", response={200: GameOut, **REFUSALS}, throttle=WRITE, summary="Pass")
def pass_turn(request: HttpRequest, game_id: int, body: ActionIn) -> Any:
    return act(request, game_id, Pass(), body)


@router.post("/{int:game_id}/resign", response={200: GameOut, **REFUSALS}, throttle=WRITE, summary="Resign")
def resign(request: HttpRequest, game_id: int, body: ActionIn) -> Any:
    return act(request, game_id, Resign(), body)


@router.post(
    "/{int:game_id}/challenge",
    response={200: GameOut, **REFUSALS},
    throttle=WRITE,
    summary="Challenge the play before your move",
)
def challenge(request: HttpRequest, game_id: int, body: ActionIn) -> Any:
    """Under a challenge rule, on your turn, before moving: the play just made is
    checked. A word not in the dictionary takes it back (its score too); a valid play
    stands, and by the rule costs you nothing (single), your turn (double) or gives its
    player 5 points (five). The move list says which."""
    return act(request, game_id, Challenge(), body)


@router.post(
    "/{int:game_id}/accept-play",
    response={200: GameOut, **REFUSALS},
    throttle=WRITE,
    summary="Accept the last play of the game",
)
def accept_play(request: HttpRequest, game_id: int, body: ActionIn) -> Any:
    """The last play of the game waits for you (``pending.final``): accept it without
    challenging, and the game ends as it is scored."""
    return act(request, game_id, AcceptPlay(), body)


@router.post(
    "/{int:game_id}/accept",
    response={200: GameOut, **REFUSALS},
    throttle=WRITE,
    summary="Accept an invitation",
)
def accept(request: HttpRequest, game_id: int, body: ActionIn) -> Any:
    return act(request, game_id, Accept(), body)


@router.post(
    "/{int:game_id}/decline",
    response={200: GameOut, **REFUSALS},
    throttle=WRITE,
    summary="Decline an invitation, or withdraw yours or your seek",
)
def decline(request: HttpRequest, game_id: int, body: ActionIn) -> Any:
    return act(request, game_id, Decline(), body)


@router.post(
    "/{int:game_id}/preview",
    response={200: PreviewOut, **REFUSALS},
    throttle=LOOKUP,
    summary="Check and score a play",
)
def preview(request: HttpRequest, game_id: int, body: PreviewIn) -> Any:
    """Check and score tiles for your rack on the current board, changing nothing (the
    pages' free preview). A play the rules refuse answers ``valid: false`` with the
    engine's code."""
    game = visible(request, game_id)
    return representation.preview(lambda: game.preview(game.pov(request.user), placements(body.tiles)))


@router.get(
    "/{int:game_id}/gcg",
    response={200: str, **REFUSALS},
    throttle=LOOKUP,
    summary="The game record (GCG), once the game is over",
    openapi_extra={"responses": {200: {"content": {"text/plain": {"schema": {"type": "string"}}}}}},
)
def gcg(request: HttpRequest, game_id: int) -> Any:
    game = visible(request, game_id)
    # The record holds every rack: nobody gets it while the game is on (as on the page).
    if not game.is_over:
        raise ApiError("not_finished")
    response = HttpResponse(gcg_text(game), content_type="text/plain; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="wordgame-{game.pk}.gcg"'
    return response


# ----- paid extras ---------------------------------------------------------------------


def buy(request: HttpRequest, game_id: int, extra: str, body: ExtraIn) -> ExtraView:
    """Buy ``extra`` for its period, or find the purchase already made in it (free), and
    what it shows the buyer (from the game's view: only the buyer's own extras)."""
    game = visible(request, game_id)
    pov = game.pov(request.user)
    version = game.version if body.version is None else body.version
    services.buy_extra(game=game, user=pov, extra=extra, version=version, action_id=body.action_id or "")
    bought = next(x for x in view_for(visible(request, game_id), pov).extras if x.code == extra)
    assert bought.bought, "a purchase that went through is shown"
    return bought


def coins_of(request: HttpRequest) -> int:
    user: Any = request.user
    user.refresh_from_db(fields=["coins"])
    return int(user.coins)


@router.post(
    "/{int:game_id}/extras/tile-bag",
    response={200: TileBagOut, **REFUSALS},
    throttle=WRITE,
    summary="Tile bag",
)
def tile_bag(request: HttpRequest, game_id: int, body: ExtraIn) -> Any:
    """On your turn: the tiles you have not seen (bag and opponent's rack together, never
    which is where) and how many are in the bag. Bought once per turn."""
    bag = buy(request, game_id, extras.TILE_BAG, body).tile_bag
    assert bag is not None, "a bought tile bag shows the tiles"
    return {"unseen": dict(bag.unseen), "in_bag": bag.in_bag, "coins": coins_of(request)}


@router.post(
    "/{int:game_id}/extras/hindsight",
    response={200: HindsightOut, **REFUSALS},
    throttle=WRITE,
    summary="Hindsight",
)
def hindsight(request: HttpRequest, game_id: int, body: ExtraIn) -> Any:
    """After your move, until your next one: the highest-scoring play that rack allowed."""
    found = buy(request, game_id, extras.HINDSIGHT, body).hindsight
    assert found is not None, "a bought hindsight shows the best play"
    best = found.best
    return {
        "turn": found.number,
        "best_score": best["score"] if best else 0,
        "best": {"tiles": best["tiles"], "words": best["words"]} if best else None,
        "played_score": found.played["score"],
        "coins": coins_of(request),
    }


@router.post(
    "/{int:game_id}/extras/word-strength",
    response={200: WordStrengthOut, **REFUSALS},
    throttle=WRITE,
    summary="Word strength",
)
def word_strength(request: HttpRequest, game_id: int, body: ExtraIn) -> Any:
    """On your turn: opens ``POST /games/ID/strength`` for this turn."""
    bought = buy(request, game_id, extras.WORD_STRENGTH, body)
    return {"turn": bought.move, "bought": True, "coins": coins_of(request)}


@router.post(
    "/{int:game_id}/strength",
    response={200: StrengthOut, **REFUSALS},
    throttle=LOOKUP,
    summary="Strength of a play",
)
def strength(request: HttpRequest, game_id: int, body: PreviewIn) -> Any:
    """How a tentative play ranks among every legal play now (word strength bought for
    this turn): rank, of, share of the best score, the best score; never the best play."""
    game = visible(request, game_id)
    _evaluation, found = services.preview(
        game=game, pov=game.pov(request.user), placements=placements(body.tiles)
    )
    if found is None:
        raise ApiError("strength_not_bought")
    return {"rank": found.rank, "of": found.of, "share": found.share, "best_score": found.best_score}
