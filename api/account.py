"""The rest of a player's own pages as endpoints: the coin statement, settings,
vacation, "download my data", notices; finding players, the leaderboard, public games
to watch, a finished game's analysis, the study quiz and suggesting a word.

The same services and forms as the pages (``accounts``, ``games.study``); refusals
are the usual ``{"error", "message"}``.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from django.core.exceptions import ValidationError
from django.db.models import Q
from django.db.models.functions import Lower
from django.http import HttpRequest
from ninja import Router, Schema, Status
from pydantic import Field

import engine
from accounts import notices, services
from accounts.forms import PreferencesForm
from accounts.models import User
from accounts.services import AccountError
from accounts.statement import statement
from api import representation
from api.auth import signed_in
from api.errors import ApiError
from api.games import REFUSALS, visible
from api.players import example, refused
from api.ratelimit import LOOKUP, WRITE
from api.schemas import Body, GameSummaryOut, Text
from dictionaries.services import suggest_word
from games import study
from games.gameview import brief_for
from games.models import Game, GameAnalysis, StudyItem

router = Router()


class CoinEntryOut(Schema):
    at: Any
    kind: str
    amount: int
    balance_after: int
    reason: str
    reference: str


class CoinsOut(Schema):
    model_config = example(
        {
            "balance": 120,
            "earned": 150,
            "spent": 30,
            "refunded": 0,
            "adjusted": 0,
            "entries": [
                {
                    "at": "2026-11-27T08:00:00Z",
                    "kind": "spent",
                    "amount": -30,
                    "balance_after": 120,
                    "reason": "extra:hindsight",
                    "reference": "game:42",
                }
            ],
        }
    )
    balance: int
    earned: int
    spent: int
    refunded: int
    adjusted: int
    entries: list[CoinEntryOut]


@router.get(
    "/account/coins",
    response={200: CoinsOut, **REFUSALS},
    throttle=LOOKUP,
    tags=["account"],
    summary="My coins",
)
def coins(request: HttpRequest, limit: Annotated[int, Field(ge=1, le=500)] = 100) -> Any:
    """The balance, totals by kind and the latest entries of the ledger, newest first."""
    user: Any = request.user
    summary = statement(user)
    return {
        "balance": summary.balance,
        "earned": summary.earned,
        "spent": summary.spent,
        "refunded": summary.refunded,
        "adjusted": summary.adjusted,
        "entries": [
            {
                "at": e.created_at,
                "kind": e.kind,
                "amount": e.amount,
                "balance_after": e.balance_after,
                "reason": e.reason,
                "reference": e.reference,
            }
            for e in summary.entries[:limit]
        ],
    }


class SettingsOut(Schema):
    model_config = example(
        {"display_name": "Ana", "game_language": "en", "interface_language": "fr", "chat_enabled": True}
    )
    display_name: str
    game_language: str
    interface_language: str
    chat_enabled: bool


class SettingsIn(Body):
    model_config = {**Body.model_config, **example({"chat_enabled": False})}
    display_name: Annotated[Text, Field(max_length=40)] | None = None
    game_language: Annotated[Text, Field(max_length=8)] | None = None
    interface_language: Annotated[Text, Field(max_length=8)] | None = None
    chat_enabled: bool | None = None


def settings_of(user: User) -> dict[str, Any]:
    return {
        "display_name": user.display_name,
        "game_language": user.game_language,
        "interface_language": user.interface_language,
        "chat_enabled": user.chat_enabled,
    }


@router.get(
    "/account/settings",
    response={200: SettingsOut, **REFUSALS},
    throttle=LOOKUP,
    tags=["account"],
    summary="My settings",
)
def get_settings(request: HttpRequest) -> Any:
    user: Any = request.user
    return settings_of(user)


@router.patch(
    "/account/settings",
    response={200: SettingsOut, **REFUSALS},
    throttle=WRITE,
    tags=["account"],
    summary="Change my settings",
)
def change_settings(request: HttpRequest, body: SettingsIn) -> Any:
    """The fields sent change, checked as on the settings page (400 ``bad_request``
    naming the field otherwise); the others stay."""
    user: Any = request.user
    data = {**settings_of(user), **body.dict(exclude_none=True)}
    form = PreferencesForm({**data, "chat_enabled": "on" if data["chat_enabled"] else ""}, instance=user)
    if not form.is_valid():
        details = [
            {"in": "body", "field": name, "msg": str(errors[0])} for name, errors in form.errors.items()
        ]
        raise ApiError("bad_request", details=details)
    form.save()
    return settings_of(user)


class VacationOut(Schema):
    model_config = example({"on_vacation": True, "until": "2026-12-04T08:00:00Z", "remaining_days": 12.5})
    on_vacation: bool
    until: Any
    remaining_days: float


def vacation_of(user: Any) -> dict[str, Any]:
    status = services.vacation_status(user)
    return {
        "on_vacation": status.on_vacation,
        "until": status.current.ends_by if status.current is not None else None,
        "remaining_days": round(status.remaining.total_seconds() / 86400, 2),
    }


@router.get(
    "/account/vacation",
    response={200: VacationOut, **REFUSALS},
    throttle=LOOKUP,
    tags=["account"],
    summary="My vacation",
)
def vacation(request: HttpRequest) -> Any:
    return vacation_of(request.user)


@router.put(
    "/account/vacation",
    response={200: VacationOut, **REFUSALS},
    throttle=WRITE,
    tags=["account"],
    summary="Go on vacation",
)
def start_vacation(request: HttpRequest) -> Any:
    """Your turn clocks pause (not in tournament games) until you come back or your
    yearly allowance runs out."""
    try:
        services.start_vacation(user=request.user)  # type: ignore[arg-type]
    except AccountError as exc:
        raise refused(exc) from exc
    return vacation_of(request.user)


@router.delete(
    "/account/vacation",
    response={200: VacationOut, **REFUSALS},
    throttle=WRITE,
    tags=["account"],
    summary="Come back from vacation",
)
def end_vacation(request: HttpRequest) -> Any:
    try:
        services.end_vacation(user=request.user)  # type: ignore[arg-type]
    except AccountError as exc:
        raise refused(exc) from exc
    return vacation_of(request.user)


@router.get(
    "/account/data",
    response={200: dict[str, Any], **REFUSALS},
    throttle=LOOKUP,
    tags=["account"],
    summary="Download my data",
)
def my_data(request: HttpRequest) -> Any:
    """Everything the site holds about you (the page's "download my data"): games,
    moves, chat, coin ledger, purchases, study list, token names, tournaments, settings."""
    return services.export_data(request.user)  # type: ignore[arg-type]


class NoticeOut(Schema):
    model_config = example(
        {
            "id": 7,
            "kind": "report_resolved",
            "text": "Your report was dealt with.",
            "at": "2026-11-27T08:00:00Z",
        }
    )
    id: int
    kind: str
    text: str
    at: Any


@router.get(
    "/notices",
    response={200: list[NoticeOut], **REFUSALS},
    throttle=LOOKUP,
    tags=["account"],
    summary="My notices",
)
def open_notices(request: HttpRequest) -> Any:
    """What happened while you were away, not yet marked read (oldest first)."""
    return [
        {"id": n.pk, "kind": n.kind, "text": notices.notice_text(n), "at": n.created_at}
        for n in notices.unread(request.user)
    ]


@router.post(
    "/notices/{int:notice_id}/read",
    response={204: None, **REFUSALS},
    throttle=WRITE,
    tags=["account"],
    summary="Mark a notice read",
)
def read_notice(request: HttpRequest, notice_id: int) -> Any:
    if not notices.acknowledge(user=request.user, notice_id=notice_id):
        raise ApiError("not_found")
    return Status(204, None)


# ----- finding players, the leaderboard, watching ------------------------------------------


class PlayerFoundOut(Schema):
    model_config = example({"username": "ben", "display_name": "Ben", "bot": False})
    username: str
    display_name: str
    bot: bool = Field(description="Whether the player's account is a bot's.")


@router.get(
    "/players",
    response={200: list[PlayerFoundOut], **REFUSALS},
    throttle=LOOKUP,
    tags=["players"],
    summary="Find players",
)
def search(request: HttpRequest, q: Annotated[str, Field(min_length=1, max_length=150)]) -> Any:
    """Players whose username or display name holds ``q`` (at most 30)."""
    # A NUL byte cannot be in a name, and PostgreSQL refuses it in a query: nobody matches.
    q = q.replace("\x00", "")
    found = (
        User.objects.filter(
            Q(username__icontains=q.strip()) | Q(display_name__icontains=q.strip()), is_active=True
        )
        .exclude(pk=getattr(request.user, "pk", 0))
        .order_by(Lower("username"))[:30]
    )
    return [{"username": u.username, "display_name": u.display_name, "bot": u.is_bot} for u in found]


class LeaderOut(Schema):
    model_config = example(
        {"rank": 1, "username": "ben", "bot": False, "rating": 1712.3, "deviation": 55.1, "games": 40}
    )
    rank: int
    username: str
    bot: bool = Field(description="Whether the player's account is a bot's.")
    rating: float
    deviation: float
    games: int


@router.get(
    "/leaderboard/{language}",
    response={200: list[LeaderOut], **REFUSALS},
    throttle=LOOKUP,
    tags=["players"],
    summary="The leaderboard",
)
def leaderboard(
    request: HttpRequest, language: str, speed: Literal["correspondence", "live"] = "correspondence"
) -> Any:
    """The top rated players of a game language at a speed (live and correspondence are
    rated apart) with a rated game in the last 30 days."""
    if language not in engine.LANGUAGES:
        raise ApiError("unknown_language")
    return [
        {
            "rank": rank,
            "username": r.user.username,
            "bot": r.user.is_bot,
            "rating": round(r.rating, 1),
            "deviation": round(r.deviation, 1),
            "games": r.games,
        }
        for rank, r in enumerate(services.leaderboard(language, speed=speed), start=1)
    ]


@router.get(
    "/watch",
    response={200: list[GameSummaryOut], **REFUSALS},
    throttle=LOOKUP,
    tags=["games"],
    summary="Games to watch",
)
def watch(request: HttpRequest) -> Any:
    """Public games under way, the most recently changed first (at most 50)."""
    games = (
        Game.objects.filter(is_public=True, status=Game.Status.ACTIVE)
        .select_related("created_by")
        .with_seats()
        .order_by("-updated_at")[:50]
    )
    return [representation.summary(brief_for(game, request.user)) for game in games]


class AnalysisOut(Schema):
    model_config = example(
        {"moves": [{"number": 3, "best_score": 74, "played_score": 24}], "totals": [{"seat": 0}]}
    )
    moves: list[dict[str, Any]]
    totals: list[Any]


@router.get(
    "/games/{int:game_id}/analysis",
    response={200: AnalysisOut, **REFUSALS},
    throttle=LOOKUP,
    tags=["games"],
    summary="A finished game's analysis",
)
def analysis(request: HttpRequest, game_id: int) -> Any:
    """Once the game is over and analysed: each rated move beside the best one, totals
    per seat (404 while the analysis is being computed)."""
    game = visible(request, game_id)
    if not game.is_over:
        raise ApiError("analysis_not_finished")
    found = GameAnalysis.objects.filter(game=game).first()
    if found is None:
        raise ApiError("not_found")
    return {"moves": found.moves, "totals": found.totals}


# ----- the study quiz ----------------------------------------------------------------------


class QuizOut(Schema):
    model_config = example(
        {"item": 12, "rack": "QUIXOTC", "board_letters": "I", "kind": "bingo", "score": 90}
    )
    item: int | None = Field(description="None: nothing to study in this language.")
    rack: str
    board_letters: str
    kind: str
    score: int


class AnswerIn(Body):
    model_config = {**Body.model_config, **example({"item": 12, "answer": "quixotic"})}
    item: int
    answer: Annotated[Text, Field(max_length=40)]


class AnswerOut(Schema):
    model_config = example({"right": True, "word": "QUIXOTIC"})
    right: bool
    word: str


def study_language(language: str) -> str:
    if language not in engine.LANGUAGES:
        raise ApiError("unknown_language")
    return language


@router.get(
    "/study/{language}/quiz",
    response={200: QuizOut, **REFUSALS},
    throttle=LOOKUP,
    tags=["study"],
    summary="The next quiz question",
)
def quiz(request: HttpRequest, language: str) -> Any:
    item = study.next_item(signed_in(request), study_language(language))
    if item is None:
        return {"item": None, "rack": "", "board_letters": "", "kind": "", "score": 0}
    return {
        "item": item.pk,
        "rack": item.rack,
        "board_letters": item.board_letters,
        "kind": item.kind,
        "score": item.score,
    }


@router.post(
    "/study/{language}/quiz",
    response={200: AnswerOut, **REFUSALS},
    throttle=WRITE,
    tags=["study"],
    summary="Answer a quiz question",
)
def answer(request: HttpRequest, language: str, body: AnswerIn) -> Any:
    item = StudyItem.objects.filter(
        pk=body.item, user_id=getattr(request.user, "pk", 0), language=study_language(language)
    ).first()
    if item is None:
        raise ApiError("not_found")
    return {"right": study.check_answer(item, body.answer), "word": item.word}


# ----- suggesting a word --------------------------------------------------------------------


class SuggestIn(Body):
    model_config = {**Body.model_config, **example({"game": 42})}
    game: Annotated[int, Field(ge=1)] | None = None


@router.post(
    "/words/{language}/{word}/suggest",
    response={204: None, **REFUSALS},
    throttle=WRITE,
    tags=["words"],
    summary="Suggest a word to add",
)
def suggest(request: HttpRequest, language: str, word: str, body: SuggestIn) -> Any:
    """The moderators decide; you get a notice of the decision. Refused (400
    ``bad_suggestion``, with the reason) for a word already valid, one you suggested,
    one the language cannot spell, or past the daily limit."""
    if language not in engine.LANGUAGES:
        raise ApiError("unknown_language")
    try:
        suggest_word(user=request.user, language=language, word=word[:64], game_id=body.game)
    except ValidationError as exc:
        raise ApiError("bad_suggestion", status=400, message=" ".join(exc.messages)) from exc
    return Status(204, None)
