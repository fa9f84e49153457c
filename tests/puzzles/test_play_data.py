"""The game page and a daily puzzle lay tiles with the same app.js: both carry its data
(``games/_play_data.html``): the strings every board needs, and the game page its own."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from puzzles import services
from tests.games.helpers import make_game

pytestmark = pytest.mark.django_db

SHARED = {
    "hint", "checking", "play", "pending_label", "pending_blank_label", "no_tile", "placed_blank",
    "dir_across", "dir_down", "cannot_play", "blank_prompt", "request_failed",
}  # fmt: skip
GAME_ONLY = {"tiles_returned", "swap_count", "your_turn", "reconnected", "your_turn_sentence", "last_move"}


def strings_of(html: str) -> dict[str, str]:
    found = re.search(r'<script type="application/json" id="game-strings">(.*?)</script>', html, re.S)
    assert found is not None
    strings: dict[str, str] = json.loads(found.group(1))
    assert 'id="blank-picker"' in html
    assert 'id="live-announcer"' in html
    return strings


def test_the_game_page_and_a_puzzle_carry_the_boards_strings(ana: Any, ben: Any) -> None:
    client = Client()
    client.force_login(ana)
    game_strings = strings_of(
        client.get(reverse("games:detail", args=[make_game(ana, ben).pk])).content.decode()
    )
    assert set(game_strings) == SHARED | GAME_ONLY
    assert game_strings["play"] == "Play"
    puzzle = services.daily_puzzle(services.today(), "en")
    page = client.get(reverse("puzzles:day", args=["en", puzzle.day.isoformat()])).content.decode()
    assert set(strings_of(page)) == SHARED
