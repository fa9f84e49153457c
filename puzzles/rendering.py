"""The puzzle pages' template contexts (HTML only). The board and the rack are the game
page's own partials (``games/_board.html``, ``games/_rack.html``), fed the same way."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.urls import reverse

import engine
from accounts.models import User
from dictionaries.models import LANGUAGE_CHOICES, language_name
from games import rendering as game_rendering
from puzzles import services
from puzzles.models import Attempt, Duel, Puzzle

Context = dict[str, Any]


def board_context(puzzle: Puzzle | Duel, attempt: Attempt | None) -> Context:
    """The board (with the player's answer on it once given) and the rack."""
    return position_context(puzzle, attempt.tiles if attempt is not None else [])


def position_context(puzzle: Puzzle | Duel, answer: list[list[Any]]) -> Context:
    """A position's board, with the tiles of ``answer`` on it, and its rack."""
    board = list(puzzle.board_obj())
    last: list[tuple[int, int]] = []
    if answer:
        for r, c, ch in answer:
            board[r] = board[r][:c] + ch + board[r][c + 1 :]
            last.append((r, c))
    tiles = puzzle.tileset()
    return {
        "squares": game_rendering.squares(
            board, language=puzzle.language, layout_name=puzzle.layout, last=last
        ),
        "column_labels": [chr(ord("A") + c) for c in range(len(board))],
        "row_labels": [str(r + 1) for r in range(len(board))],
        "rack": game_rendering.rack_tiles(puzzle.rack, puzzle.language),
        "blank_letters": [letter for letter in tiles.alphabet if letter in tiles.blank_letters],
        "tile_values": dict(tiles.values),
        "version": 0,
        "status": "active",
        "oob": False,
    }


def page_context(puzzle: Puzzle, user: User, *, now: datetime | None = None, **extra: Any) -> Context:
    attempt = Attempt.objects.filter(puzzle=puzzle, user=user).select_related("user").first()
    current = services.today(now)
    return {
        "puzzle": puzzle,
        "language": puzzle.language,
        "language_name": language_name(puzzle.language),
        "languages": [(code, name) for code, name in LANGUAGE_CHOICES],
        "is_today": puzzle.day == current,
        "attempt": attempt,
        "result": services.result(puzzle, attempt, now=now) if attempt is not None else None,
        "streak": services.streak(user, puzzle.language, now=now),
        "preview": None,
        "pending": "",
        "form_errors": [],
        "submit_url": reverse("puzzles:submit", args=[puzzle.language, puzzle.day.isoformat()]),
        "preview_url": reverse("puzzles:preview", args=[puzzle.language, puzzle.day.isoformat()]),
        "result_template": "puzzles/_result.html",
        **board_context(puzzle, attempt),
        **extra,
    }


def preview_item(evaluation: engine.Evaluation | None = None, error: str = "") -> game_rendering.PreviewItem:
    return game_rendering.preview_item(evaluation, error=error)


def duel_context(duel: Duel, user: User, **extra: Any) -> Context:
    """A duel's page: the friend plays it; the challenger waits; once played, both see
    the scores and the best plays (never before)."""
    answered = duel.answered_at is not None
    to_play = not answered and user.pk == duel.opponent_id
    return {
        "duel": duel,
        "language": duel.language,
        "language_name": language_name(duel.language),
        "answered": answered,
        "is_challenger": user.pk == duel.challenger_id,
        # Truthy while the viewer cannot play: the side panel shows the duel's state.
        "result": None if to_play else {"answered": answered},
        "result_template": "puzzles/_duel_result.html",
        "top": [
            {
                **p,
                "words": [
                    {"word": w, "score": s, "meanings": services.word_meanings(duel.language, w)}
                    for w, s in p["words"]
                ],
            }
            for p in duel.top
        ]
        if answered
        else [],
        "share": services.share_of(duel.score or 0, duel.best_score) if answered else None,
        "challenger_share": services.share_of(duel.challenger_score, duel.best_score),
        "preview": None,
        "pending": "",
        "form_errors": [],
        "submit_url": reverse("puzzles:duel-answer", args=[duel.pk]),
        "preview_url": reverse("puzzles:duel-preview", args=[duel.pk]),
        **position_context(duel, duel.tiles if answered else []),
        **extra,
    }
