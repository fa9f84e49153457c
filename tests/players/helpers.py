"""Finished games made directly as rows, for statistics and ratings.

Rows rather than a played game so that these tests say exactly what the profile and the
ratings read (seats, final scores, winner, moves) and stay independent of how a game is
played; ``test_outcomes.py`` also plays one through the models."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from django.utils import timezone

from games.models import Game, Move, Seat

#: (seat, kind, word, score, bingo) per move.
MoveSpec = tuple[int, str, str, int, bool]


def make_finished_game(
    first: Any,
    second: Any,
    *,
    language: str = "en",
    rated: bool = True,
    scores: tuple[int, int] = (300, 250),
    winner: int | None = 0,
    moves: Sequence[MoveSpec] = ((0, "play", "CAT", 10, False), (1, "play", "DOG", 8, False)),
    end_reason: str = "out",
    finished_at: datetime | None = None,
    mode: str = Game.Mode.FRIEND,
) -> Game:
    game = Game.objects.create(
        language=language,
        mode=mode,
        status=Game.Status.FINISHED,
        created_by=first,
        seed=1,
        inactivity_days=11,
        rated=rated,
        winner_seat=winner,
        final_scores=list(scores),
        end_reason=end_reason,
        finished_at=finished_at or timezone.now(),
        version=len(moves) + 1,
    )
    Seat.objects.create(game=game, index=0, user=first, score=scores[0])
    if second is None:
        Seat.objects.create(game=game, index=1, computer_level="easy", score=scores[1])
    else:
        Seat.objects.create(game=game, index=1, user=second, score=scores[1])
    for number, (seat, kind, word, score, bingo) in enumerate(moves, start=1):
        Move.objects.create(
            game=game,
            number=number,
            seat=seat,
            user=(first, second)[seat],
            kind=kind,
            words=[{"word": word, "score": score, "start": [7, 7], "direction": "across"}] if word else [],
            words_text=f" {word} " if word else "",
            score=score,
            bingo=bingo,
            rack_before="ABCDEFG",
            engine_record={},
        )
    return game
