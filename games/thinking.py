"""The computer player's thinking, run in worker processes: engine only, no Django.

``think(job)`` is what ``games.computer`` submits to its process pool. Move generation
holds the GIL for up to a second or two, so it runs in another process, never in a
request thread or on the event loop. This module imports only the engine, so a
``spawn``-ed worker starts without setting Django up and never touches the database:
everything it needs (the state, the seat, the level, the RNG seed and where the
lexicon lives) comes in the job.
"""

from __future__ import annotations

import hashlib
import random
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from engine.analysis import LEVELS, ComputerChoice, computer_move
from engine.lexicon import Lexicon, OverlayLexicon, WordGraph
from engine.state import GameState

_CACHE_SIZE = 8
# Per worker process: lexicons by spec key, so a graph is loaded (memory-mapped) once.
_lexicons: OrderedDict[str, Lexicon] = OrderedDict()


@dataclass(frozen=True)
class LexiconSpec:
    """Where a worker finds a lexicon: the base graph's file (memory-mapped, shared with
    every process) or, for in-memory graphs such as tests' word lists, its bytes; plus
    the moderated overlay, which is small."""

    key: str
    base_path: str | None
    base_bytes: bytes | None
    added: tuple[str, ...]
    removed: tuple[str, ...]

    @classmethod
    def of(cls, lexicon: Lexicon) -> LexiconSpec:
        graphs = list(lexicon.graphs())
        base = graphs[0]
        path = getattr(base, "_file", None)
        data = None if isinstance(path, str) else base.to_bytes()
        added = tuple(sorted({word for graph in graphs[1:] for word in graph}))
        removed = tuple(sorted(lexicon.removed))
        digest = hashlib.sha1()
        digest.update((path or "").encode())
        if data is not None:
            digest.update(data)
        digest.update("\n".join(added).encode())
        digest.update(b"\0")
        digest.update("\n".join(removed).encode())
        return cls(digest.hexdigest(), path if isinstance(path, str) else None, data, added, removed)

    def load(self) -> Lexicon:
        if self.key in _lexicons:
            _lexicons.move_to_end(self.key)
            return _lexicons[self.key]
        if self.base_path is not None:
            base = WordGraph.load(self.base_path)
        else:
            assert self.base_bytes is not None
            base = WordGraph.from_bytes(self.base_bytes)
        lexicon = OverlayLexicon(base, self.added, self.removed)
        _lexicons[self.key] = lexicon
        while len(_lexicons) > _CACHE_SIZE:
            _lexicons.popitem(last=False)
        return lexicon


@dataclass(frozen=True)
class Job:
    """One computer turn to think about (picklable)."""

    game_id: int
    version: int
    state: dict[str, Any]
    seat: int
    level: str
    rng_seed: str
    lexicon: LexiconSpec


def think(job: Job) -> dict[str, Any]:
    """Choose the computer's action: ``{"kind": "play", "placements": [...]}``,
    ``{"kind": "exchange", "tiles": "AE?"}`` or ``{"kind": "pass"}``. Pure apart from
    the lexicon cache; the caller applies it through ``Game.play_computer``."""
    state = GameState.from_dict(job.state)
    level = next((lv for lv in LEVELS if lv == job.level), None)
    if level is None:
        raise ValueError(f"unknown computer level {job.level!r}")
    choice = computer_move(state, job.seat, job.lexicon.load(), level, random.Random(job.rng_seed))
    return decision_of(choice)


def decision_of(choice: ComputerChoice) -> dict[str, Any]:
    """A plain, JSON-able decision (it crosses the process boundary)."""
    if choice.kind == "play":
        return {"kind": "play", "placements": [p.to_dict() for p in choice.placements]}
    if choice.kind == "exchange":
        return {"kind": "exchange", "tiles": "".join(choice.tiles)}
    return {"kind": "pass"}
