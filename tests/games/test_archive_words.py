"""The archive's "contains the word" through a game played on the one path: a word made
with a blank is found by its letters, in any case."""

from __future__ import annotations

from typing import Any

import pytest

import engine
from games import archive
from games.archive import Filters
from tests.games.helpers import make_game

pytestmark = pytest.mark.django_db


def test_contains_a_word_played_with_a_blank(ana: Any, ben: Any, cleo: Any) -> None:
    game = make_game(ana, ben, racks=("CA?SEOD", "JQXZKVW"))
    played = [
        engine.Placement(7, 7, "C"),
        engine.Placement(7, 8, "A"),
        engine.Placement(7, 9, "T", blank=True),
    ]
    game.play(ana, played, version=game.version)
    game.refresh_from_db()
    game.resign(ben, version=game.version)

    def found(player: Any, word: str, **more: Any) -> list[int]:
        return [item.game_id for item in archive.page(player, player, Filters(word=word, **more)).items]

    assert found(ana, "cat") == [game.pk]
    assert found(ben, "Cat", language="en") == [game.pk]
    assert found(ana, "cats") == []
