"""The puzzle pages' template contexts (HTML only). The board and the rack are the game
page's own partials (``games/_board.html``, ``games/_rack.html``), fed the same way."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import engine
from accounts.models import User
from dictionaries.models import LANGUAGE_CHOICES, language_name
from games import rendering as game_rendering
from puzzles import services
from puzzles.models import Attempt, Puzzle

Context = dict[str, Any]


def board_context(puzzle: Puzzle, attempt: Attempt | None) -> Context:
    """The board (with the player's answer on it once given) and the rack."""
    board = list(puzzle.board_obj())
    last: list[tuple[int, int]] = []
    if attempt is not None:
        for r, c, ch in attempt.tiles:
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
        **board_context(puzzle, attempt),
        **extra,
    }


def preview_item(evaluation: engine.Evaluation | None = None, error: str = "") -> game_rendering.PreviewItem:
    return game_rendering.preview_item(evaluation, error=error)
