"""Learner mode: ``{% learner_meaning game.language word as meaning %}`` is the word's
first meaning when the game's language is not the viewer's interface language (empty
otherwise), for the move log. The meanings are ``dictionaries.definitions``': WordNet for
English, the English glosses of FreeDict and Apertium for the others (no dictionary gives
them in another interface language yet, so English it is)."""

from __future__ import annotations

from django import template
from django.utils.translation import get_language

from dictionaries.definitions import meanings

register = template.Library()


def base_language(code: str) -> str:
    return code.replace("_", "-").split("-")[0].lower()


def is_learning(game_language: str, interface_language: str | None = None) -> bool:
    """Whether a game is in another language than the interface's (en-GB and en are one)."""
    return base_language(game_language) != base_language(interface_language or get_language() or "en")


@register.simple_tag
def learner_meaning(game_language: str, word: str) -> str:
    if not is_learning(game_language):
        return ""
    try:
        found = meanings(game_language, word)
    except KeyError:
        return ""
    return found[0] if found else ""
