"""The "how to play" page: the rules of ``/work/shared/rules/RULES.md`` in the interface
language, with the board and the tiles of the chosen game language drawn from the
engine's data (so the page cannot drift from what the game really does)."""

from __future__ import annotations

from collections import Counter

from django import forms
from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_GET

import engine
from dictionaries.models import LANGUAGE_CHOICES, language_name
from games.rendering import premium_names, squares

#: Letters of the Latin alphabet, to say which ones a game language has no tile for.
LATIN = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


class HowToPlayForm(forms.Form):
    language = forms.ChoiceField(label=_("Game language"), choices=LANGUAGE_CHOICES)


def tile_rows(language: str) -> list[dict[str, object]]:
    tiles = engine.tileset(language)
    rows: list[dict[str, object]] = [
        {"letter": letter, "value": tiles.values[letter], "count": tiles.counts[letter]}
        for letter in tiles.alphabet
    ]
    rows.append({"letter": "", "value": 0, "count": tiles.blanks, "is_blank": True})
    return rows


def board_context(language: str) -> dict[str, object]:
    """The empty board of ``language``'s layout, as the game's board partial draws it."""
    layout_name = engine.tileset(language).board
    geometry = engine.layout(layout_name)
    board = geometry.empty_board()
    counts = Counter(geometry.premiums.values())
    names = premium_names()
    return {
        "squares": squares(board, language=language, layout_name=layout_name),
        "column_labels": [chr(ord("A") + c) for c in range(len(board))],
        "row_labels": [str(r + 1) for r in range(len(board))],
        "readonly": True,
        "board_size": len(board),
        "legend": [
            {"code": code.lower(), "label": names[code][0], "name": names[code][1], "count": counts[code]}
            for code in ("TW", "DW", "TL", "DL")
        ],
        "labels": {code.lower(): names[code][0] for code in names},
    }


@require_GET
def how_to_play(request: HttpRequest) -> HttpResponse:
    form = HowToPlayForm(request.GET or None)
    preferred = getattr(request.user, "game_language", "")
    language = preferred if preferred in engine.LANGUAGES else "en"
    if form.is_valid():
        language = form.cleaned_data["language"]
    tiles = engine.tileset(language)
    context = {
        "form": form,
        "language": language,
        "language_name": language_name(language),
        "tiles": tile_rows(language),
        "total_tiles": tiles.total_tiles,
        "blanks": tiles.blanks,
        "rack_size": tiles.rack_size,
        "bingo_bonus": tiles.bingo_bonus,
        "exchange_min_bag": tiles.exchange_min_bag,
        "absent": [letter for letter in LATIN if letter not in tiles.values],
        "inactivity_random": settings.INACTIVITY_DAYS_RANDOM,
        "inactivity_friend": settings.INACTIVITY_DAYS_FRIEND,
        **board_context(language),
    }
    return render(request, "games/how_to_play.html", context, status=400 if form.errors else 200)
