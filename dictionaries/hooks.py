"""Hooks other apps fill in, so that ``dictionaries`` never imports them.

The games app knows which words were played in finished games; the moderators' admin
shows that count next to a proposed removal. ``games`` registers its counter in its
``AppConfig.ready()``::

    from dictionaries.hooks import register_word_usage_counter
    register_word_usage_counter(count_finished_games_with_word)

The counter takes ``(language, normalised word)`` and returns how many finished games
played that word (as a main or cross word).
"""

from __future__ import annotations

from collections.abc import Callable

WordUsageCounter = Callable[[str, str], int]

_word_usage_counter: WordUsageCounter | None = None


def register_word_usage_counter(counter: WordUsageCounter | None) -> None:
    """Install the function that counts finished games playing a word (``None`` removes it)."""
    global _word_usage_counter
    _word_usage_counter = counter


def word_usage_count(language: str, word: str) -> int | None:
    """Finished games in ``language`` that played ``word``, or ``None`` with no counter registered."""
    if _word_usage_counter is None:
        return None
    return _word_usage_counter(language, word)
