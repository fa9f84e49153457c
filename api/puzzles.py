"""The daily puzzle (``puzzles``): today's puzzle in a game language, a past day's,
the calendar, the free preview and the answer. The same services as the pages; the
answer (the best plays) is in the response only once the caller has answered."""

from __future__ import annotations

from datetime import date
from typing import Annotated, Any, Literal

from django.http import HttpRequest
from ninja import Router, Schema
from pydantic import Field

import engine
from api import representation
from api.auth import signed_in
from api.errors import ApiError
from api.games import REFUSALS, placements
from api.ratelimit import LOOKUP, WRITE
from api.schemas import Body, PreviewIn, PreviewOut, Text
from games.messages import error_message as play_message
from games.models import Game
from puzzles import duels, services, solo
from puzzles.messages import error_message
from puzzles.models import Attempt, Duel, Puzzle, SoloChallenge

router = Router(tags=["puzzles"])

DUEL_STATUS = {"unknown_player": 404, "duel_self": 400}
STATUS = {"unknown_language": 404, "no_puzzle": 404, "future_day": 404, "bad_day": 400, "bad_kind": 400}


def example(value: dict[str, Any]) -> Any:
    return {"json_schema_extra": {"examples": [value]}}


class WordMeaningOut(Schema):
    word: str
    score: int
    meanings: list[str]


class TopPlayOut(Schema):
    score: int
    tiles: list[tuple[int, int, str]] = Field(
        description="[row, col, letter]; a lowercase letter is a blank."
    )
    words: list[WordMeaningOut]
    yours: bool


class PuzzleResultOut(Schema):
    score: int
    best: int
    share: int = Field(description="Your score as a percentage of the best.")
    rank: int = Field(description="1 + the number of legal plays scoring more than yours.")
    plays: int = Field(description="How many legal plays the rack allowed.")
    rated: bool = Field(description="Answered on the puzzle's day (counts for the streak).")
    streak: int
    share_text: str = Field(description="The result to share: no letter of the puzzle.")
    top: list[TopPlayOut]


class PuzzleOut(Schema):
    model_config = example(
        {
            "language": "en",
            "day": "2026-11-27",
            "board": ["..............."] * 15,
            "rack": "AEINRST",
            "layout": "wwf",
            "streak": 3,
            "answered": False,
            "result": None,
        }
    )
    language: str
    day: date
    board: list[str] = Field(description="15 rows; '.' an empty square, a lowercase letter a blank.")
    rack: str = Field(description="'?' is a blank.")
    layout: str
    streak: int
    answered: bool
    result: PuzzleResultOut | None = Field(
        description="Only once you have answered: your score and the answer."
    )


class PuzzleAnswerIn(PreviewIn):
    model_config = example({"tiles": [[7, 7, "C"], [7, 8, "A"], [7, 9, "T"]]})


class CalendarDayOut(Schema):
    day: date
    score: int | None
    best: int | None = Field(description="Shown once you have answered that day's puzzle.")
    rated: bool | None


def refused(exc: services.PuzzleError) -> ApiError:
    return ApiError(exc.code, status=STATUS.get(exc.code, 400), message=error_message(exc.code))


def find(language: str, day: str | None) -> Puzzle:
    try:
        when = None
        if day is not None:
            try:
                when = date.fromisoformat(day)
            except ValueError:
                raise services.PuzzleError("bad_day") from None
        return services.puzzle_for(services.check_language(language), when)
    except services.PuzzleError as exc:
        raise refused(exc) from None


def shown(request: HttpRequest, puzzle: Puzzle) -> dict[str, Any]:
    user = signed_in(request)
    attempt = Attempt.objects.filter(puzzle=puzzle, user=user).select_related("user").first()
    result = services.result(puzzle, attempt) if attempt is not None else None
    return {
        "language": puzzle.language,
        "day": puzzle.day,
        "board": list(puzzle.board),
        "rack": puzzle.rack,
        "layout": puzzle.layout,
        "streak": services.streak(user, puzzle.language),
        "answered": attempt is not None,
        "result": None
        if result is None
        else {
            "score": result.score,
            "best": result.best,
            "share": result.share,
            "rank": result.rank,
            "plays": result.plays,
            "rated": result.rated,
            "streak": result.streak,
            "share_text": result.share_text,
            "top": [
                {"score": p.score, "tiles": [tuple(t) for t in p.tiles], "words": p.words, "yours": p.yours}
                for p in result.top
            ],
        },
    }


class SoloChallengeOut(Schema):
    model_config = example(
        {
            "game": 42,
            "kind": "daily",
            "day": "2026-11-27",
            "language": "en",
            "turns": 5,
            "target": 131,
            "score": None,
            "stars": None,
        }
    )
    game: int = Field(
        description="The game to play it in: the games endpoints (GET /games/ID, POST /games/ID/play)."
    )
    kind: str
    day: date | None
    language: str
    turns: int
    target: int = Field(
        description="What the engine's best play each turn scores from the same deal (three stars)."
    )
    score: int | None = Field(description="Once the game is over.")
    stars: int | None


class SoloBestOut(Schema):
    username: str
    score: int


class SoloOut(Schema):
    mine: list[SoloChallengeOut]
    today_best: list[SoloBestOut]


class SoloStartIn(Body):
    model_config = example({"kind": "daily"})
    kind: Literal["daily", "practice"]


def challenge_out(c: SoloChallenge) -> dict[str, Any]:
    return {
        "game": c.game_id,
        "kind": c.kind,
        "day": c.day,
        "language": c.language,
        "turns": c.turns,
        "target": c.greedy_total,
        "score": c.score,
        "stars": c.stars,
    }


@router.get(
    "/solo/{language}", response={200: SoloOut, **REFUSALS}, throttle=LOOKUP, summary="Solo challenges"
)
def solo_challenges(request: HttpRequest, language: str) -> Any:
    """Your latest solo challenges in ``language`` and today's best scores."""
    try:
        services.check_language(language)
    except services.PuzzleError as exc:
        raise refused(exc) from None
    return {
        "mine": [challenge_out(c) for c in solo.mine(signed_in(request), language)],
        "today_best": [
            {"username": c.user.username, "score": c.score}
            for c in solo.day_table(language, services.today())
        ],
    }


@router.post(
    "/solo/{language}",
    response={200: SoloChallengeOut, **REFUSALS},
    throttle=WRITE,
    summary="Start a solo challenge",
)
def solo_start(request: HttpRequest, language: str, body: SoloStartIn) -> Any:
    """Today's challenge (the same deal for everyone; the one you started, if any) or a
    practice one (the one under way, else a new deal). Play it as any game."""
    try:
        return challenge_out(solo.start(user=signed_in(request), language=language, kind=body.kind))
    except services.PuzzleError as exc:
        raise refused(exc) from None


class DuelIn(Body):
    model_config = example({"game": 42, "move": 7, "opponent": "ben"})
    game: int = Field(description="A finished game of yours.")
    move: int = Field(description="One of your own moves in it (its number).")
    opponent: Annotated[Text, Field(min_length=1, max_length=150)] = Field(description="A friend's username.")


class DuelOut(Schema):
    model_config = example(
        {
            "id": 3,
            "challenger": "ana",
            "opponent": "ben",
            "language": "en",
            "board": ["..............."] * 15,
            "rack": "AEINRST",
            "answered": False,
            "result": None,
        }
    )
    id: int
    challenger: str
    opponent: str
    language: str
    board: list[str]
    rack: str
    answered: bool
    result: dict[str, Any] | None = Field(
        description="Once the friend has played: both scores and ranks, the best score, the best plays."
    )


def duel_out(duel: Duel) -> dict[str, Any]:
    answered = duel.answered_at is not None
    return {
        "id": duel.pk,
        "challenger": duel.challenger.username,
        "opponent": duel.opponent.username,
        "language": duel.language,
        "board": list(duel.board),
        "rack": duel.rack,
        "answered": answered,
        "result": {
            "challenger_score": duel.challenger_score,
            "challenger_rank": duel.challenger_rank,
            "challenger_words": duel.challenger_words,
            "score": duel.score,
            "rank": duel.rank,
            "words": duel.words,
            "best": duel.best_score,
            "plays": duel.plays,
            "top": duel.top,
        }
        if answered
        else None,
    }


def found_duel(request: HttpRequest, duel_id: int) -> Duel:
    try:
        return duels.visible(duel_id, signed_in(request))
    except services.PuzzleError as exc:
        raise ApiError("not_found") from exc


@router.post(
    "/duels", response={200: DuelOut, **REFUSALS}, throttle=WRITE, summary="Challenge a friend to a move"
)
def duel_new(request: HttpRequest, body: DuelIn) -> Any:
    """Put one of your own moves of a finished game to a friend: the board before it and
    your rack then. The friend is notified and plays it once."""
    user = signed_in(request)
    game = Game.objects.watchable_by(user).filter(pk=body.game).first()
    if game is None:
        raise ApiError("not_found")
    try:
        return duel_out(
            duels.challenge(challenger=user, game=game, number=body.move, opponent_name=body.opponent)
        )
    except services.PuzzleError as exc:
        raise ApiError(
            exc.code, status=DUEL_STATUS.get(exc.code, 403), message=error_message(exc.code)
        ) from None


@router.get("/duels/{duel_id}", response={200: DuelOut, **REFUSALS}, throttle=LOOKUP, summary="A rack duel")
def duel_get(request: HttpRequest, duel_id: int) -> Any:
    """A duel you sent or received; its result only once the friend has played."""
    return duel_out(found_duel(request, duel_id))


@router.post(
    "/duels/{duel_id}", response={200: DuelOut, **REFUSALS}, throttle=WRITE, summary="Play a rack duel"
)
def duel_answer(request: HttpRequest, duel_id: int, body: PuzzleAnswerIn) -> Any:
    """The friend's one play (the first legal one counts); the challenger is notified."""
    duel = found_duel(request, duel_id)
    try:
        return duel_out(duels.answer(duel=duel, user=signed_in(request), placements=placements(body.tiles)))
    except services.PuzzleError as exc:
        raise ApiError(exc.code, status=403, message=error_message(exc.code)) from None
    except engine.IllegalMove as exc:
        raise ApiError(
            exc.code, status=400, words=list(exc.words), message=play_message(exc.code, words=exc.words)
        ) from None


@router.post(
    "/duels/{duel_id}/preview",
    response={200: PreviewOut, **REFUSALS},
    throttle=LOOKUP,
    summary="Check a duel play",
)
def duel_preview(request: HttpRequest, duel_id: int, body: PreviewIn) -> Any:
    duel = found_duel(request, duel_id)
    return representation.preview(lambda: duels.evaluate(duel, placements(body.tiles)))


@router.get(
    "/daily/{language}", response={200: PuzzleOut, **REFUSALS}, throttle=LOOKUP, summary="Today's puzzle"
)
def daily(request: HttpRequest, language: str) -> Any:
    """Today's puzzle (UTC) in ``language``: the same board and rack for everyone. Its
    answer is in ``result`` once you have answered."""
    return shown(request, find(language, None))


@router.post(
    "/daily/{language}",
    response={200: PuzzleOut, **REFUSALS},
    throttle=WRITE,
    summary="Answer today's puzzle",
)
def answer_daily(request: HttpRequest, language: str, body: PuzzleAnswerIn) -> Any:
    """Your play for today's puzzle. The first legal play counts (a later one changes
    nothing and answers the first); an illegal one is refused with the engine's code
    and changes nothing."""
    return answer(request, find(language, None), body)


@router.get(
    "/{language}/days",
    response={200: list[CalendarDayOut], **REFUSALS},
    throttle=LOOKUP,
    summary="Past puzzles",
)
def days(request: HttpRequest, language: str) -> Any:
    """The puzzles of the last 30 days, newest first, with your score on each."""
    try:
        services.check_language(language)
    except services.PuzzleError as exc:
        raise refused(exc) from None
    return [
        {
            "day": d.day,
            "score": d.attempt.score if d.attempt else None,
            "best": d.puzzle.best_score if d.attempt else None,
            "rated": d.attempt.rated if d.attempt else None,
        }
        for d in services.calendar(signed_in(request), language)
    ]


@router.get(
    "/{language}/{day}", response={200: PuzzleOut, **REFUSALS}, throttle=LOOKUP, summary="A day's puzzle"
)
def on_day(request: HttpRequest, language: str, day: str) -> Any:
    """The puzzle of ``day`` (YYYY-MM-DD): today's, or a past one (played after its day,
    it does not count for the streak)."""
    return shown(request, find(language, day))


@router.post(
    "/{language}/{day}",
    response={200: PuzzleOut, **REFUSALS},
    throttle=WRITE,
    summary="Answer a day's puzzle",
)
def answer_day(request: HttpRequest, language: str, day: str, body: PuzzleAnswerIn) -> Any:
    return answer(request, find(language, day), body)


@router.post(
    "/{language}/{day}/preview",
    response={200: PreviewOut, **REFUSALS},
    throttle=LOOKUP,
    summary="Check and score a play on a puzzle",
)
def preview(request: HttpRequest, language: str, day: str, body: PreviewIn) -> Any:
    """Check and score tiles on the puzzle, changing nothing (the page's preview)."""
    puzzle = find(language, day)
    return representation.preview(lambda: services.evaluate(puzzle, placements(body.tiles)))


def answer(request: HttpRequest, puzzle: Puzzle, body: PuzzleAnswerIn) -> Any:
    try:
        services.submit(puzzle=puzzle, user=signed_in(request), placements=placements(body.tiles))
    except engine.IllegalMove as exc:
        raise ApiError(
            exc.code, status=400, words=list(exc.words), message=play_message(exc.code, words=exc.words)
        ) from None
    return shown(request, puzzle)
