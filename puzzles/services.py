"""The daily puzzle's workflow (STYLE.md 3.4): choosing and storing the puzzle of a day,
checking and scoring an answer, the streak, the calendar and the text to share.

The puzzle of a UTC day and game language is chosen by ``selection.choose`` from the
day's seed and the finished public games that ended before that day began, so choosing
it again (another process, after a restart) gives the same puzzle; the first choice is
stored and is what everyone sees from then on (one row per day and language, created
race-safe by the unique constraint).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

import engine
from accounts.models import User
from dictionaries.definitions import meanings
from engine import movegen
from games.models import Game, Move, lexicon_for, lexicon_version
from puzzles import selection
from puzzles.models import Attempt, Puzzle

#: Source games: the most recent this many finished public games of the language.
SOURCE_GAMES = 200
#: Fewer finished public games than this and the puzzle comes from the computer's games.
MIN_SOURCE_GAMES = 10
#: Days the calendar shows.
CALENDAR_DAYS = 30
#: Flags for the text to share (a language without letters).
FLAGS = {"en": "🇺🇸", "en-GB": "🇬🇧", "es": "🇪🇸", "it": "🇮🇹", "pt-BR": "🇧🇷", "de": "🇩🇪", "fr": "🇫🇷"}


class PuzzleError(Exception):
    """A request the puzzle refuses; ``code`` is translated by ``puzzles.messages``."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


def today(now: datetime | None = None) -> date:
    """The UTC day of ``now``."""
    return (now or timezone.now()).astimezone(UTC).date()


def check_language(language: str) -> str:
    if language not in engine.LANGUAGES:
        raise PuzzleError("unknown_language")
    return language


def _start_of(day: date) -> datetime:
    return datetime.combine(day, time.min, tzinfo=UTC)


def candidates(day: date, language: str) -> list[Callable[[], selection.Position]]:
    """Every play of the source games (finished, public, in ``language``, ended before
    ``day`` began), as functions building the position it was played from. An empty
    list while there are fewer than ``MIN_SOURCE_GAMES`` such games."""
    games = list(
        Game.objects.filter(
            language=language, status=Game.Status.FINISHED, is_public=True, finished_at__lt=_start_of(day)
        )
        .order_by("-finished_at", "-id")
        .values_list("id", flat=True)[:SOURCE_GAMES]
    )
    if len(games) < MIN_SOURCE_GAMES:
        return []
    plays = Move.objects.filter(game_id__in=games, kind=Move.Kind.PLAY).order_by("game_id", "number")
    return [
        functools.partial(position_before, game_id, number)
        for game_id, number in plays.values_list("game_id", "number")
    ]


def position_before(game_id: int, number: int) -> selection.Position:
    """The board and the mover's rack just before move ``number`` of a finished game."""
    game = Game.objects.get(pk=game_id)
    state = game.state_obj()
    moves = list(game.moves.filter(number__lte=number).order_by("number"))
    played = [
        [(t["row"], t["col"], t["letter"].lower() if t["blank"] else t["letter"]) for t in m.tiles]
        for m in moves
        if m.number < number
    ]
    board = selection.board_before(engine.layout(state.layout).empty_board(), played)
    return selection.Position(board, moves[-1].rack_before, state.layout, state.rules, (game_id, number))


def choose(day: date, language: str) -> Puzzle:
    """The puzzle of ``day`` worked out from its seed (not stored)."""
    seed = selection.seed_for(day, language)
    lexicon = lexicon_for(language)
    chosen = selection.choose(seed, language, lexicon, candidates(day, language))
    position = chosen.position
    return Puzzle(
        day=day,
        language=language,
        seed=seed,
        source=Puzzle.Source.SELF_PLAY if chosen.self_play else Puzzle.Source.GAME,
        game_id=None if chosen.self_play else position.origin[0],
        origin=list(position.origin),
        layout=position.layout,
        rules=position.rules.to_dict(),
        board=list(position.board),
        rack=position.rack,
        dictionary_version=lexicon_version(lexicon),
        best_score=chosen.best,
        second_score=chosen.second,
        plays=chosen.count,
        top=[
            {"tiles": [list(t) for t in p.tiles], "score": p.score, "words": [list(w) for w in p.words]}
            for p in chosen.top
        ],
    )


def daily_puzzle(day: date, language: str, *, create: bool = True) -> Puzzle:
    """The stored puzzle of ``day``; chosen and stored now if it is not yet (the nightly
    task normally did). Two processes choosing at once choose the same one; the unique
    row keeps the first. ``create=False``: ``PuzzleError("no_puzzle")`` instead."""
    check_language(language)
    found = Puzzle.objects.filter(day=day, language=language).first()
    if found is not None:
        return found
    if not create:
        raise PuzzleError("no_puzzle")
    made = choose(day, language)
    fields = {
        f.attname: getattr(made, f.attname)
        for f in Puzzle._meta.concrete_fields
        if f.name not in ("id", "day", "language")
    }
    try:
        with transaction.atomic():
            puzzle, _created = Puzzle.objects.get_or_create(day=day, language=language, defaults=fields)
    except IntegrityError:
        puzzle = Puzzle.objects.get(day=day, language=language)
    return puzzle


def puzzle_for(language: str, day: date | None, *, now: datetime | None = None) -> Puzzle:
    """Today's puzzle (made if needed), or a past day's stored one. A future day, or a
    past day with no puzzle, is refused."""
    current = today(now)
    if day is None or day == current:
        return daily_puzzle(current, language)
    if day > current:
        raise PuzzleError("future_day")
    return daily_puzzle(day, language, create=False)


def lexicon_of(puzzle: Puzzle) -> engine.Lexicon:
    return lexicon_for(puzzle.language, puzzle.dictionary_version)


def evaluate(puzzle: Puzzle, placements: Sequence[engine.Placement]) -> engine.Evaluation:
    """Check and score ``placements`` on the puzzle's board from its rack (changes
    nothing). Raises ``engine.IllegalMove``."""
    return engine.evaluate(
        puzzle.board_obj(),
        placements,
        tileset=puzzle.tileset(),
        layout=engine.layout(puzzle.layout),
        lexicon=lexicon_of(puzzle),
        rack=puzzle.rack,
    )


def rank_of(puzzle: Puzzle, score: int) -> int:
    """1 + the number of legal plays scoring more than ``score``."""
    counted = movegen.count(
        puzzle.board_obj(),
        puzzle.rack,
        tileset=puzzle.tileset(),
        layout=engine.layout(puzzle.layout),
        lexicon=lexicon_of(puzzle),
        better_than=score,
    )
    return 1 + counted.better


def submit(
    *, puzzle: Puzzle, user: User, placements: Sequence[engine.Placement], now: datetime | None = None
) -> tuple[Attempt, bool]:
    """Record ``user``'s answer; the first legal one counts. Returns the attempt and
    whether it was recorded now (False: the player had answered before, and this one
    changed nothing). Raises ``engine.IllegalMove`` for an illegal play (nothing
    recorded, so the player may try again)."""
    earlier = Attempt.objects.filter(puzzle=puzzle, user=user).first()
    if earlier is not None:
        return earlier, False
    evaluation = evaluate(puzzle, placements)
    try:
        with transaction.atomic():
            attempt = Attempt.objects.create(
                puzzle=puzzle,
                user=user,
                tiles=[[p.row, p.col, p.board_char] for p in placements],
                words=[[w.word, w.score] for w in evaluation.words],
                score=evaluation.score,
                rank=rank_of(puzzle, evaluation.score),
                rated=today(now) == puzzle.day,
            )
    except IntegrityError:
        # Two answers at once: the one stored first counts.
        return Attempt.objects.get(puzzle=puzzle, user=user), False
    return attempt, True


def streak(user: User, language: str, *, now: datetime | None = None) -> int:
    """Days in a row up to today (or up to yesterday, while today's is still open) on
    which ``user`` answered the day's puzzle in ``language`` on its day. A missed day
    ends a streak."""
    current = today(now)
    days = set(
        Attempt.objects.filter(
            user=user, rated=True, puzzle__language=language, puzzle__day__gte=current - timedelta(days=400)
        ).values_list("puzzle__day", flat=True)
    )
    return days_in_a_row(days, current if current in days else current - timedelta(days=1))


def days_in_a_row(days: set[date], last: date) -> int:
    """How many days of ``days`` run back without a gap from ``last``."""
    count = 0
    while last - timedelta(days=count) in days:
        count += 1
    return count


def streaks_to_remind(day: date) -> list[tuple[int, str, int]]:
    """(player id, language, streak) for each player whose streak in a language is still
    open on ``day``: they answered the day before's puzzle on its day and not yet
    ``day``'s. One query, whatever the number of players."""
    answered: dict[tuple[int, str], set[date]] = {}
    for user_id, language, answered_day in Attempt.objects.filter(
        rated=True, puzzle__day__gte=day - timedelta(days=400), puzzle__day__lte=day
    ).values_list("user_id", "puzzle__language", "puzzle__day"):
        answered.setdefault((user_id, language), set()).add(answered_day)
    open_streaks = []
    for (user_id, language), days in sorted(answered.items()):
        if day in days or day - timedelta(days=1) not in days:
            continue
        open_streaks.append((user_id, language, days_in_a_row(days, day - timedelta(days=1))))
    return open_streaks


def share_of(score: int, best: int) -> int:
    """The score as a whole percentage of the best."""
    return 100 if best <= 0 else round(100 * score / best)


def share_text(puzzle: Puzzle, attempt: Attempt, streak_days: int) -> str:
    """The result to share: no letter at all (digits, symbols and emoji), so nothing of
    the position or the answer is given away."""
    share = share_of(attempt.score, puzzle.best_score)
    if attempt.score >= puzzle.best_score:
        bar = "🟩" * 10 + " 🏆"
    else:
        filled = min(9, share // 10)
        bar = "🟨" * filled + "⬜" * (10 - filled)
    flag = FLAGS.get(puzzle.language, "🏳️")
    lines = [f"🧩 {puzzle.day.isoformat()} {flag}", f"{bar} {share}%", f"#{attempt.rank}/{puzzle.plays}"]
    if attempt.rated and streak_days:
        lines[-1] += f" · 🔥{streak_days}"
    if not attempt.rated:
        lines[-1] += " · 🕰️"
    return "\n".join(lines)


@dataclass(frozen=True, slots=True)
class TopPlayView:
    score: int
    words: list[dict[str, Any]]  # {"word", "score", "meanings"}
    tiles: list[list[Any]]
    yours: bool


@dataclass(frozen=True, slots=True)
class Result:
    """What a player sees once they have answered."""

    score: int
    best: int
    share: int
    rank: int
    plays: int
    words: list[list[Any]]
    top: list[TopPlayView]
    rated: bool
    streak: int
    share_text: str


def word_meanings(language: str, word: str, limit: int = 2) -> list[str]:
    try:
        return meanings(language, word)[:limit]
    except KeyError:
        return []


def result(puzzle: Puzzle, attempt: Attempt, *, now: datetime | None = None) -> Result:
    days = streak(attempt.user, puzzle.language, now=now)
    mine = sorted(tuple(t) for t in attempt.tiles)
    return Result(
        score=attempt.score,
        best=puzzle.best_score,
        share=share_of(attempt.score, puzzle.best_score),
        rank=attempt.rank,
        plays=puzzle.plays,
        words=list(attempt.words),
        top=[
            TopPlayView(
                score=p["score"],
                words=[
                    {"word": w, "score": s, "meanings": word_meanings(puzzle.language, w)}
                    for w, s in p["words"]
                ],
                tiles=p["tiles"],
                yours=sorted(tuple(t) for t in p["tiles"]) == mine,
            )
            for p in puzzle.top
        ],
        rated=attempt.rated,
        streak=days,
        share_text=share_text(puzzle, attempt, days),
    )


@dataclass(frozen=True, slots=True)
class CalendarDay:
    day: date
    puzzle: Puzzle
    attempt: Attempt | None


def calendar(user: User, language: str, *, now: datetime | None = None) -> list[CalendarDay]:
    """The stored puzzles of the last ``CALENDAR_DAYS`` days, newest first, with the
    player's answer to each."""
    current = today(now)
    puzzles = list(
        Puzzle.objects.filter(
            language=language, day__lte=current, day__gt=current - timedelta(days=CALENDAR_DAYS)
        ).order_by("-day")
    )
    answers = {a.puzzle_id: a for a in Attempt.objects.filter(user=user, puzzle__in=puzzles)}
    return [CalendarDay(p.day, p, answers.get(p.pk)) for p in puzzles]
