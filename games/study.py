"""Storing a game's analysis, and the study list of words a player missed (STYLE.md 3.4:
a workflow over several models).

``store_analysis`` runs in the ``analyse_game`` task when a game ends. The study list
collects, per player and game language, every missed bingo and every play that left
``STUDY_MIN_POINTS_LEFT`` points or more on the table; the quiz shows an item's letters
and remembers the answers; the list exports as CSV and as a text file Anki imports.
"""

from __future__ import annotations

import csv
import io
import time

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import F, QuerySet
from django.utils import timezone

import engine
from accounts.models import User
from dictionaries.definitions import meanings
from games import analysis, moderation, realtime
from games.models import Game, GameAnalysis, Move, StudyItem


def played_moves(moves: list[Move]) -> list[analysis.PlayedMove]:
    return [
        analysis.PlayedMove(
            number=m.number,
            seat=m.seat,
            kind=m.kind,
            rack_before=m.rack_before,
            tiles=tuple(m.tiles),
            score=m.score,
            bingo=m.bingo,
            words=tuple(w["word"] for w in m.words),
            phony=bool(m.invalid_words),
        )
        for m in moves
    ]


def analyse(game: Game) -> tuple[list[analysis.Entry], list[analysis.Entry], float]:
    """The analysis of ``game`` (entries, totals, seconds taken); stores nothing."""
    started = time.perf_counter()
    entries = analysis.analyse_moves(
        played_moves(list(game.moves.order_by("number"))),
        language=game.tileset().language,
        layout_name=str(game.state.get("layout", "wwf")),
        lexicon=game.lexicon(),
    )
    return entries, analysis.totals(entries), time.perf_counter() - started


def store_analysis(game_id: int) -> bool:
    """Analyse a finished game once, store it with its players' study items, and tell
    the screens watching it. Returns False when there is nothing to do."""
    game = (
        Game.objects.filter(pk=game_id, status=Game.Status.FINISHED).prefetch_related("seats__user").first()
    )
    if game is None or GameAnalysis.objects.filter(game=game).exists():
        return False
    entries, seat_totals, seconds = analyse(game)
    users = {s.index: s.user for s in game.seat_list() if s.user is not None}
    candidates = analysis.study_candidates(entries, min_points_left=settings.STUDY_MIN_POINTS_LEFT)
    try:
        with transaction.atomic():
            GameAnalysis.objects.create(game=game, moves=entries, totals=seat_totals, seconds=seconds)
            StudyItem.objects.bulk_create(
                [
                    StudyItem(
                        user=users[c["seat"]],
                        language=game.language,
                        word=c["word"],
                        kind=c["kind"],
                        rack=c["rack"],
                        board_letters=c["board_letters"],
                        score=c["score"],
                        game=game,
                        move_number=c["number"],
                    )
                    for c in candidates
                    if c["seat"] in users
                ]
            )
            reviewed = moderation.record_fair_play(game, entries)
            realtime.analysis_ready(game.pk)
    except IntegrityError:  # analysed meanwhile by a duplicate task
        return False
    # Each player's fair-play figures with this game in them: a report for the
    # moderators when they are above the thresholds (after the commit: the rows are in).
    for row in reviewed:
        moderation.review_fair_play(row.user, row.language)
    return True


def study_list(user: User, language: str) -> QuerySet[StudyItem]:
    return StudyItem.objects.filter(user=user, language=language).order_by("-created_at", "word")


def next_item(user: User, language: str) -> StudyItem | None:
    """The item to ask next: never answered first, then the most often wrong, then the
    one answered longest ago."""
    return (
        StudyItem.objects.filter(user=user, language=language)
        .order_by(F("last_answered_at").asc(nulls_first=True), (F("right") - F("wrong")).asc(), "pk")
        .first()
    )


def check_answer(item: StudyItem, answer: str) -> bool:
    """Whether ``answer`` is the item's word (normalised for its language), remembered."""
    right = engine.normalize_word(item.language, answer.strip()) == item.word
    field = "right" if right else "wrong"
    StudyItem.objects.filter(pk=item.pk).update(**{field: F(field) + 1, "last_answered_at": timezone.now()})
    item.refresh_from_db()
    return right


def meanings_for(language: str, words: list[str]) -> dict[str, list[str]]:
    """The first two meanings of each of ``words`` (``dictionaries.definitions``: WordNet
    for English, FreeDict's translations for the others), for the study list."""
    return {w: meanings(language, w)[:2] for w in set(words)}


def export_csv(items: QuerySet[StudyItem], meanings: dict[str, list[str]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(
        ["word", "kind", "rack", "board_letters", "score", "game", "move", "right", "wrong", "meaning"]
    )
    for item in items:
        writer.writerow(
            [
                item.word,
                item.kind,
                item.rack,
                item.board_letters,
                item.score,
                item.game_id or "",
                item.move_number,
                item.right,
                item.wrong,
                "; ".join(meanings.get(item.word, [])),
            ]
        )
    return out.getvalue()


def export_anki(items: QuerySet[StudyItem], meanings: dict[str, list[str]]) -> str:
    """Anki's plain-text import: a header naming the separator, then one note per line,
    front (the rack, and the board letters used) TAB back (the word and its meaning)."""
    lines = ["#separator:tab", "#html:false", "#columns:Front\tBack"]
    for item in items:
        front = item.rack + (f" + {item.board_letters}" if item.board_letters else "")
        meaning = "; ".join(meanings.get(item.word, []))
        back = f"{item.word} ({item.score})" + (f" — {meaning}" if meaning else "")
        lines.append(f"{front}\t{back}".replace("\n", " "))
    return "\n".join(lines) + "\n"


def add_word(*, user: User, game: Game, number: int, word: str) -> StudyItem | None:
    """Learner mode: put a word played in move ``number`` of ``game`` on ``user``'s study
    list (once per word and language; the quiz asks it from its letters). None when that
    move formed no such word."""
    move = Move.objects.filter(game=game, number=number, kind=Move.Kind.PLAY).first()
    played = {w["word"]: int(w["score"]) for w in move.words} if move is not None else {}
    if word not in played:
        return None
    found = StudyItem.objects.filter(user=user, language=game.language, word=word).first()
    if found is not None:
        return found
    # Not tied to the game: the unique (user, game, move) is the analysis's missed play.
    return StudyItem.objects.create(
        user=user,
        language=game.language,
        word=word,
        kind=StudyItem.Kind.WORD,
        rack="".join(sorted(word))[:16],
        score=played[word],
        game=None,
        move_number=number,
    )
