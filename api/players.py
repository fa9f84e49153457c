"""What an app needs beside playing: a game's chat and rematch, invitations, friends,
blocks and reports, players' profiles and ratings, the archive with its filters and a
cursor, and the study list.

Every change goes through the same services as the pages (``accounts.services``,
``games.services``, ``Game.post_chat``); what a game shows comes from its typed view
(``games.gameview``), which alone decides privacy. Refusals are the usual
``{"error", "message"}`` with the pages' sentences.
"""

from __future__ import annotations

from datetime import date
from typing import Annotated, Any, Literal

from django.contrib.auth import get_user_model
from django.db.models.functions import Lower
from django.http import HttpRequest
from ninja import Query, Router, Schema, Status
from pydantic import Field

import engine
from accounts import hooks
from accounts.models import Block, Friendship, Rating, Report
from accounts.services import (
    AccountError,
    accept_friend,
    block_user,
    end_friendship,
    friends_of,
    friendship_status,
    report_user,
    request_friend,
    unblock_user,
)
from api import representation
from api.auth import signed_in
from api.errors import ApiError
from api.games import REFUSALS, visible
from api.ratelimit import LOOKUP, WRITE
from api.schemas import Body, GameOut, GameSummaryOut, Text
from games import archive, services, study
from games.archive import ArchiveError, Filters
from games.gameview import brief_for, view_for
from games.models import Game

router = Router()


def example(value: dict[str, Any]) -> Any:
    """A schema's example for the OpenAPI document."""
    return {"json_schema_extra": {"examples": [value]}}


def player(username: str) -> Any:
    """The active player ``username`` (any case); 404 ``unknown_player`` otherwise."""
    found = get_user_model().objects.filter(username__iexact=username, is_active=True).first()
    if found is None:
        raise ApiError("unknown_player")
    return found


def refused(exc: AccountError) -> ApiError:
    return ApiError(exc.code, message=exc.message)


# ----- a game's chat and rematch ------------------------------------------------------------


class ChatLineOut(Schema):
    model_config = example(
        {
            "author": "ben",
            "text": "Nice bingo!",
            "created_at": "2026-11-27T08:00:00Z",
            "mine": False,
            "hidden": False,
            "bot": False,
        }
    )
    author: str
    text: str = Field(description='"" for a line a moderator hid.')
    created_at: Any
    mine: bool
    hidden: bool
    bot: bool = Field(description="Whether the author's account is a bot's.")


class ChatIn(Body):
    model_config = {**Body.model_config, **example({"text": "Good game!"})}
    text: Annotated[Text, Field(min_length=1, max_length=500)]


@router.get(
    "/games/{int:game_id}/chat",
    response={200: list[ChatLineOut], **REFUSALS},
    throttle=LOOKUP,
    tags=["chat"],
    summary="A game's chat",
)
def chat(request: HttpRequest, game_id: int) -> Any:
    """The chat of a game you play in (nothing for anyone else, nor with your chat off),
    without the lines of players you blocked."""
    view = view_for(visible(request, game_id), request.user)
    if not view.is_player:
        raise ApiError("not_a_player")
    return [
        {
            "author": c.author,
            "text": c.text,
            "created_at": c.created_at,
            "mine": c.is_mine,
            "hidden": c.hidden,
            "bot": c.author_is_bot,
        }
        for c in view.chat
    ]


@router.post(
    "/games/{int:game_id}/chat",
    response={201: list[ChatLineOut], **REFUSALS},
    throttle=WRITE,
    tags=["chat"],
    summary="Write in a game's chat",
)
def send_chat(request: HttpRequest, game_id: int, body: ChatIn) -> Any:
    """Refused (403) when your chat is off, you are muted, or one of you blocked the other."""
    game = visible(request, game_id)
    game.post_chat(game.pov(request.user), body.text.strip())
    return Status(201, chat(request, game_id))


@router.post(
    "/games/{int:game_id}/rematch",
    response={201: GameOut, **REFUSALS},
    throttle=WRITE,
    tags=["games"],
    summary="Ask for a rematch",
)
def rematch(request: HttpRequest, game_id: int) -> Any:
    """Once the game is over: a new game with the same players (an invitation to the
    other player, or at once against the computer). Asked twice, the same game."""
    game = visible(request, game_id)
    new = services.rematch(game=game, user=game.pov(request.user))
    return Status(201, representation.full(view_for(visible(request, new.pk), request.user)))


# ----- invitations --------------------------------------------------------------------------


@router.get(
    "/invitations",
    response={200: list[GameSummaryOut], **REFUSALS},
    throttle=LOOKUP,
    tags=["invitations"],
    summary="My invitations",
)
def invitations(request: HttpRequest, direction: Literal["received", "sent", "all"] = "all") -> Any:
    """Invitations waiting for an answer: received (accept or decline them with
    ``POST /games/ID/accept|decline``) and sent (withdraw with ``decline``). Send one
    with ``POST /games`` and a username as ``opponent``."""
    user: Any = request.user
    games = Game.objects.mine(user).filter(status=Game.Status.INVITED).order_by("-created_at", "-pk")
    if direction == "received":
        games = games.exclude(created_by=user)
    elif direction == "sent":
        games = games.filter(created_by=user)
    return [representation.summary(brief_for(game, user)) for game in games[:200]]


# ----- friends, blocks, reports -------------------------------------------------------------


class FriendOut(Schema):
    model_config = example({"username": "ben", "bot": False, "status": "friends"})
    username: str
    bot: bool = Field(description="Whether the player's account is a bot's.")
    status: str = Field(description="friends, requested (you asked) or asked (they asked you)")


@router.get(
    "/friends",
    response={200: list[FriendOut], **REFUSALS},
    throttle=LOOKUP,
    tags=["friends"],
    summary="My friends",
)
def friends(request: HttpRequest) -> Any:
    """Your friends and the requests either way."""
    user: Any = request.user
    rows = [{"username": f.username, "bot": f.is_bot, "status": "friends"} for f in friends_of(user)]
    pending = Friendship.objects.filter(status=Friendship.Status.PENDING).select_related(
        "from_user", "to_user"
    )
    rows += [
        {"username": f.to_user.username, "bot": f.to_user.is_bot, "status": "requested"}
        for f in pending.filter(from_user=user, to_user__is_active=True)
    ]
    rows += [
        {"username": f.from_user.username, "bot": f.from_user.is_bot, "status": "asked"}
        for f in pending.filter(to_user=user, from_user__is_active=True)
    ]
    return rows


@router.put(
    "/friends/{username}",
    response={200: FriendOut, **REFUSALS},
    throttle=WRITE,
    tags=["friends"],
    summary="Add a friend, or accept their request",
)
def add_friend(request: HttpRequest, username: str) -> Any:
    user: Any = request.user
    other = player(username)
    try:
        if friendship_status(user, other) == "received":
            accept_friend(user=user, other=other)
        else:
            request_friend(user=user, other=other)
    except AccountError as exc:
        raise refused(exc) from exc
    state = friendship_status(user, other)
    return {
        "username": other.username,
        "bot": other.is_bot,
        "status": "friends" if state == "friends" else "requested",
    }


@router.delete(
    "/friends/{username}",
    response={204: None, **REFUSALS},
    throttle=WRITE,
    tags=["friends"],
    summary="Remove a friend, or decline or withdraw a request",
)
def remove_friend(request: HttpRequest, username: str) -> Any:
    end_friendship(user=request.user, other=player(username))  # type: ignore[arg-type]
    return Status(204, None)


class BlockedOut(Schema):
    model_config = example({"username": "ben", "bot": False, "since": "2026-11-27T08:00:00Z"})
    username: str
    bot: bool = Field(description="Whether the player's account is a bot's.")
    since: Any


@router.get(
    "/blocks",
    response={200: list[BlockedOut], **REFUSALS},
    throttle=LOOKUP,
    tags=["friends"],
    summary="Blocked",
)
def blocks(request: HttpRequest) -> Any:
    rows = Block.objects.filter(blocker_id=request.user.pk, blocked__is_active=True).select_related("blocked")
    return [
        {"username": b.blocked.username, "bot": b.blocked.is_bot, "since": b.created_at}
        for b in rows.order_by(Lower("blocked__username"))
    ]


@router.put(
    "/blocks/{username}", response={204: None, **REFUSALS}, throttle=WRITE, tags=["friends"], summary="Block"
)
def block(request: HttpRequest, username: str) -> Any:
    """Neither of you sees the other's chat, invites the other or is paired with them."""
    try:
        block_user(blocker=request.user, blocked=player(username))  # type: ignore[arg-type]
    except AccountError as exc:
        raise refused(exc) from exc
    return Status(204, None)


@router.delete(
    "/blocks/{username}",
    response={204: None, **REFUSALS},
    throttle=WRITE,
    tags=["friends"],
    summary="Unblock",
)
def unblock(request: HttpRequest, username: str) -> Any:
    unblock_user(blocker=request.user, blocked=player(username))  # type: ignore[arg-type]
    return Status(204, None)


class ReportIn(Body):
    model_config = {
        **Body.model_config,
        **example({"reason": "abuse", "details": "Insults in chat", "game": 42}),
    }
    reason: Literal["cheating", "abuse", "name", "stalling", "other"]
    details: Annotated[Text, Field(max_length=2000)] = ""
    game: Annotated[int, Field(ge=1)] | None = None


@router.post(
    "/players/{username}/report",
    response={204: None, **REFUSALS},
    throttle=WRITE,
    tags=["friends"],
    summary="Report a player to the moderators",
)
def report(request: HttpRequest, username: str, body: ReportIn) -> Any:
    """One open report per player (409 ``already_reported``)."""
    assert body.reason in Report.Reason.values
    try:
        report_user(
            reporter=request.user,  # type: ignore[arg-type]
            reported=player(username),
            reason=body.reason,
            details=body.details,
            game_id=body.game,
        )
    except AccountError as exc:
        raise refused(exc) from exc
    return Status(204, None)


# ----- profiles and ratings -----------------------------------------------------------------


class RatingOut(Schema):
    language: str
    speed: str = Field(description="correspondence or live: each is rated apart.")
    rating: float
    deviation: float
    games: int


class StatisticsOut(Schema):
    language: str
    games: int
    wins: int
    losses: int
    draws: int
    average_score: float
    highest_score: int
    best_word: str | None
    best_word_score: int | None
    bingos: int


class ProfileOut(Schema):
    model_config = example(
        {
            "username": "ben",
            "display_name": "Ben",
            "bot": False,
            "game_language": "en",
            "friendship": "friends",
            "blocked": False,
            "ratings": [
                {
                    "language": "en",
                    "speed": "correspondence",
                    "rating": 1612.4,
                    "deviation": 61.0,
                    "games": 31,
                }
            ],
            "statistics": [],
        }
    )
    username: str
    display_name: str
    bot: bool
    game_language: str
    friendship: str = Field(description='"", friends, sent or received ("" for yourself)')
    blocked: bool = Field(description="Whether you blocked them.")
    ratings: list[RatingOut]
    statistics: list[StatisticsOut]


@router.get(
    "/players/{username}",
    response={200: ProfileOut, **REFUSALS},
    throttle=LOOKUP,
    tags=["players"],
    summary="A player's profile and ratings",
)
def profile(request: HttpRequest, username: str) -> Any:
    me: Any = request.user
    other = player(username)
    return {
        "username": other.username,
        "display_name": other.display_name,
        "bot": other.is_bot,
        "game_language": other.game_language,
        "friendship": friendship_status(me, other) if other.pk != me.pk else "",
        "blocked": Block.objects.filter(blocker_id=me.pk, blocked=other).exists(),
        "ratings": [
            {
                "language": r.language,
                "speed": r.speed,
                "rating": round(r.rating, 1),
                "deviation": round(r.deviation, 1),
                "games": r.games,
            }
            for r in Rating.objects.filter(user=other).order_by("-games", "language", "speed")
        ],
        "statistics": [
            {
                "language": s.language,
                "games": s.games,
                "wins": s.wins,
                "losses": s.losses,
                "draws": s.draws,
                "average_score": s.average_score,
                "highest_score": s.highest_score,
                "best_word": s.best_play.word if s.best_play else None,
                "best_word_score": s.best_play.score if s.best_play else None,
                "bingos": s.bingos,
            }
            for s in hooks.statistics_for(other)
        ],
    }


# ----- the archive --------------------------------------------------------------------------


class ArchiveQuery(Schema):
    opponent: str = Field(default="", max_length=150, description='A username, or "computer".')
    language: str = Field(default="", max_length=8)
    result: Literal["", "win", "loss", "draw"] = ""
    mode: Literal["", "friend", "random", "computer"] = ""
    pace: Literal["", "correspondence", "live"] = Field(
        default="", description="Live games (with clocks) or correspondence games."
    )
    rated: bool | None = None
    tournament: bool | None = None
    since: date | None = Field(default=None, description="Finished on or after this day.")
    until: date | None = Field(default=None, description="Finished on or before this day.")
    end_reason: Literal["", "out", "scoreless", "resign", "timeout", "turns"] = ""
    word: str = Field(
        default="", max_length=32, description="A word either side formed (any case, blanks too)."
    )
    cursor: str = Field(default="", max_length=200, description="next_cursor of the previous page.")
    limit: int = Field(default=archive.PAGE_SIZE, ge=1, le=200)


class ArchiveGameOut(Schema):
    id: int
    language: str
    mode: str
    pace: str
    rated: bool
    public: bool
    end_reason: str
    finished_at: Any
    players: list[dict[str, Any]]
    result: str = Field(description="win, loss or draw, for the archive's player")


class HeadToHeadOut(Schema):
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


class ArchiveOut(Schema):
    model_config = example(
        {
            "games": [
                {
                    "id": 42,
                    "language": "en",
                    "mode": "friend",
                    "pace": "3d",
                    "rated": True,
                    "public": True,
                    "end_reason": "out",
                    "finished_at": "2026-11-27T08:00:00Z",
                    "players": [
                        {"seat": 0, "name": "ana", "score": 412},
                        {"seat": 1, "name": "ben", "score": 380},
                    ],
                    "result": "win",
                }
            ],
            "next_cursor": "MjAyNi0xMS0yN1QwODowMDowMCswMDowMHw0Mg",
            "head_to_head": None,
        }
    )
    games: list[ArchiveGameOut]
    next_cursor: str = Field(description='"" on the last page.')
    head_to_head: HeadToHeadOut | None = Field(
        description="With an opponent filter: the record against them."
    )


@router.get(
    "/players/{username}/games",
    response={200: ArchiveOut, **REFUSALS},
    throttle=LOOKUP,
    tags=["players"],
    summary="A player's finished games (the archive)",
)
def player_games(request: HttpRequest, username: str, query: Query[ArchiveQuery]) -> Any:
    """The finished games of ``username`` you may see (a private game only if you played
    in it), newest first, every filter combined, a page at a time: pass ``next_cursor``
    back as ``cursor``. Games finishing meanwhile never shift a later page."""
    owner = player(username)
    if query.language and query.language not in engine.LANGUAGES:
        raise ApiError("unknown_language")
    filters = Filters(
        opponent=query.opponent.strip(),
        language=query.language,
        result=query.result,
        mode=query.mode,
        pace=query.pace,
        rated=query.rated,
        tournament=query.tournament,
        since=query.since,
        until=query.until,
        end_reason=query.end_reason,
        word=query.word.strip(),
    )
    try:
        found = archive.page(owner, signed_in(request), filters, cursor=query.cursor, size=query.limit)
    except ArchiveError as exc:
        raise ApiError(exc.code) from exc
    opponent = (
        get_user_model().objects.filter(username__iexact=filters.opponent).first()
        if filters.opponent
        else None
    )
    return {
        "games": [
            {
                "id": item.game_id,
                "language": item.language,
                "mode": item.mode,
                "pace": item.pace,
                "rated": item.rated,
                "public": item.is_public,
                "end_reason": item.end_reason,
                "finished_at": item.finished_at,
                "players": [{"seat": s.index, "name": s.name, "score": s.score} for s in item.seats],
                "result": item.result,
            }
            for item in found.items
        ],
        "next_cursor": found.next_cursor,
        "head_to_head": vars_of(archive.head_to_head(owner, signed_in(request), opponent, filters))
        if opponent
        else None,
    }


def vars_of(value: Any) -> dict[str, Any]:
    return {name: getattr(value, name) for name in value.__slots__}


# ----- the study list -----------------------------------------------------------------------


class StudyItemOut(Schema):
    model_config = example(
        {
            "word": "QUIXOTIC",
            "kind": "bingo",
            "rack": "QUIXOTC",
            "board_letters": "I",
            "score": 90,
            "game": 42,
            "move": 7,
            "right": 1,
            "wrong": 0,
        }
    )
    word: str
    kind: str
    rack: str
    board_letters: str
    score: int
    game: int | None
    move: int
    right: int
    wrong: int


@router.get(
    "/study/{language}",
    response={200: list[StudyItemOut], **REFUSALS},
    throttle=LOOKUP,
    tags=["study"],
    summary="My study list",
)
def study_list(request: HttpRequest, language: str) -> Any:
    """The words you could have played, from your analysed games in ``language``."""
    if language not in engine.LANGUAGES:
        raise ApiError("unknown_language")
    return [
        {
            "word": i.word,
            "kind": i.kind,
            "rack": i.rack,
            "board_letters": i.board_letters,
            "score": i.score,
            "game": i.game_id,
            "move": i.move_number,
            "right": i.right,
            "wrong": i.wrong,
        }
        for i in study.study_list(signed_in(request), language)
    ]


class StudyWordIn(Body):
    model_config = example({"move": 7, "word": "QUIXOTIC"})
    move: int = Field(description="The move's number in the game.")
    word: Annotated[Text, Field(min_length=1, max_length=32)] = Field(description="A word that move formed.")


@router.post(
    "/games/{int:game_id}/study-word",
    response={201: StudyItemOut, **REFUSALS},
    throttle=WRITE,
    tags=["study"],
    summary="Add a game's word to my study list",
)
def study_word(request: HttpRequest, game_id: int, body: StudyWordIn) -> Any:
    """Learner mode: a word played in a game you may see goes on your study list (once)."""
    game = visible(request, game_id)
    item = study.add_word(user=signed_in(request), game=game, number=body.move, word=body.word)
    if item is None:
        raise ApiError("bad_study_word", status=400)
    return Status(
        201,
        {
            "word": item.word,
            "kind": item.kind,
            "rack": item.rack,
            "board_letters": item.board_letters,
            "score": item.score,
            "game": item.game_id,
            "move": item.move_number,
            "right": item.right,
            "wrong": item.wrong,
        },
    )
