"""This process's live lexicons, one per language, and how to drop one.

Kept apart from ``lexicons.py`` (which builds the lexicons from the models) so that
``models.py`` can drop a language's live lexicon when an approval commits without
importing ``lexicons``: the dependency runs ``lexicons -> models -> live``, never back.
The entries are opaque here; ``lexicons.py`` stores and reads them.
"""

from __future__ import annotations

import threading
from typing import Any

_lock = threading.Lock()
_entries: dict[str, Any] = {}


def get(language: str) -> Any:
    """The entry stored for ``language``, or None."""
    with _lock:
        return _entries.get(language)


def put(language: str, entry: Any) -> None:
    with _lock:
        _entries[language] = entry


def forget(language: str | None = None) -> None:
    """Drop the live entry of ``language`` (every language with ``None``): the next
    ``lexicons.for_language`` call in this process rebuilds it."""
    with _lock:
        if language is None:
            _entries.clear()
        else:
            _entries.pop(language, None)
