"""Wordgame's rules engine: pure Python, standard library only.

No Django, no I/O beyond its own data files, no clock and no global random state: the
caller passes the ``random.Random`` and decides about time. See ``docs/engine-api.md``.
"""

from __future__ import annotations

from engine.board import EMPTY, Board, Layout, empty_board, layout
from engine.errors import IllegalMove
from engine.gcg import GameRecord, export_gcg, import_gcg
from engine.lexicon import Lexicon, OverlayLexicon, WordGraph, WordListLexicon
from engine.moves import (
    Evaluation,
    MoveRecord,
    Placement,
    Played,
    accept,
    challenge,
    evaluate,
    exchange,
    overtime_penalty,
    pass_turn,
    penalize,
    play,
    resign,
    timeout,
)
from engine.normalize import normalize_word
from engine.scoring import WordScore
from engine.state import EndOfGame, GameState, Pending, Rules, new_game, preset
from engine.tiles import BLANK, LANGUAGES, TileSet, tileset

__all__ = [
    "BLANK",
    "EMPTY",
    "LANGUAGES",
    "Board",
    "EndOfGame",
    "Evaluation",
    "GameRecord",
    "GameState",
    "IllegalMove",
    "Layout",
    "Lexicon",
    "MoveRecord",
    "OverlayLexicon",
    "Pending",
    "Placement",
    "Played",
    "Rules",
    "TileSet",
    "WordGraph",
    "WordListLexicon",
    "WordScore",
    "accept",
    "challenge",
    "empty_board",
    "evaluate",
    "exchange",
    "export_gcg",
    "import_gcg",
    "layout",
    "new_game",
    "normalize_word",
    "overtime_penalty",
    "pass_turn",
    "penalize",
    "play",
    "preset",
    "resign",
    "tileset",
    "timeout",
]
