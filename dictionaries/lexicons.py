"""``for_language()``: the engine ``Lexicon`` for a game language, live or pinned.

A lexicon is an ``OverlayLexicon``: the language's memory-mapped base graph (shared by
every process, see ``graphs.py``) plus the small overlay of approved ``WordChange`` rows
(added and removed words). It carries the dictionary ``version`` it represents, which
games record with every move they check.

Live lexicons (``version=None``) follow moderation without a restart: a process re-reads
``Dictionary.version`` (one indexed one-row query) at most every
``LIVE_CHECK_SECONDS`` and rebuilds the overlay when it moved. An approved change is thus
live in every process, whatever the number of workers, within that interval plus the
rebuild (milliseconds: the overlay holds only the moderated words); the process that
approved drops its cache on commit and sees it at once.

Pinned lexicons (``version=N``) hold the base graph plus the approved changes with
``version <= N``. Approved changes are never deleted or re-versioned, so a pinned
lexicon never changes and is cached for good.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache

from dictionaries import live
from dictionaries.graphs import base_graph, graph_path
from dictionaries.models import Dictionary, WordChange
from engine.lexicon import OverlayLexicon, WordGraph

#: How often a process checks for a new dictionary version (seconds).
LIVE_CHECK_SECONDS = 1.0


class VersionedLexicon(OverlayLexicon):
    """An ``OverlayLexicon`` that knows its language and dictionary version."""

    __slots__ = ("language", "version")

    def __init__(
        self, base: WordGraph, added: Iterable[str], removed: Iterable[str], *, language: str, version: int
    ) -> None:
        super().__init__(base, added, removed)
        self.language = language
        self.version = version

    def __repr__(self) -> str:
        return f"<VersionedLexicon {self.language} v{self.version}: +{len(self.added)} -{len(self.removed)}>"


@dataclass
class _Live:
    lexicon: VersionedLexicon
    stamp: datetime | None  # Dictionary.updated_at when the lexicon was built
    checked_at: float


def for_language(language: str, version: int | None = None) -> VersionedLexicon:
    """The lexicon of ``language``: live (``version=None``) or pinned to ``version``.

    Raises ``FileNotFoundError`` when the language's graph is not built, and
    ``ValueError`` for a pinned version the dictionary has not reached yet.
    """
    if version is not None:
        current, _ = _current(language)
        if version > current:
            raise ValueError(f"{language} dictionary is at version {current}, not {version} yet")
        # The decision time of the approval that produced ``version`` identifies it even
        # if a database is rolled back and the number reused (tests do that).
        stamp = (
            WordChange.objects.filter(
                dictionary__language=language, status=WordChange.Status.APPROVED, version=version
            )
            .values_list("decided_at", flat=True)
            .first()
        )
        return _pinned(language, version, str(graph_path(language)), stamp)
    now = time.monotonic()
    entry: _Live | None = live.get(language)
    if entry is not None and now - entry.checked_at < LIVE_CHECK_SECONDS:
        return entry.lexicon
    current, stamp = _current(language)
    if (
        entry is None
        or (entry.lexicon.version, entry.stamp) != (current, stamp)
        or entry.lexicon.base is not base_graph(language)
    ):
        entry = _Live(build(language, current), stamp, now)
    else:
        entry = _Live(entry.lexicon, stamp, now)
    live.put(language, entry)
    return entry.lexicon


def current_version(language: str) -> int:
    """``Dictionary.version`` of ``language`` (0 when no dictionary row exists yet)."""
    return _current(language)[0]


def _current(language: str) -> tuple[int, datetime | None]:
    # One query on the unique language index: the version and when the row last changed.
    row = Dictionary.objects.filter(language=language).values_list("version", "updated_at").first()
    return row if row is not None else (0, None)


def build(language: str, version: int) -> VersionedLexicon:
    """Base graph plus the approved changes up to ``version``: per word, the latest wins."""
    latest: dict[str, str] = {}
    changes = (
        WordChange.objects.filter(dictionary__language=language)
        .approved_up_to(version)
        .order_by("version", "pk")
        .values_list("normalized", "action")
    )
    for word, action in changes:
        latest[word] = action
    added = [w for w, action in latest.items() if action == WordChange.Action.ADD]
    removed = [w for w, action in latest.items() if action == WordChange.Action.REMOVE]
    return VersionedLexicon(base_graph(language), added, removed, language=language, version=version)


@lru_cache(maxsize=32)
def _pinned(language: str, version: int, path: str, stamp: datetime | None) -> VersionedLexicon:
    # ``path`` and ``stamp`` are only cache keys: another LEXICON_DIR, another database.
    return build(language, version)


def forget(language: str | None = None) -> None:
    """Drop this process's live lexicon of ``language`` (all, and the pinned ones, with
    ``None``); the next ``for_language`` call rebuilds it. An approval drops its
    language's live lexicon on commit through ``live.forget``."""
    live.forget(language)
    if language is None:
        _pinned.cache_clear()
