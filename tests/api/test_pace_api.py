"""The API makes a game at a pace and shows it (issue 28, point 1)."""

from __future__ import annotations

from typing import Any

from games.models import Game


def test_the_api_makes_a_game_at_a_pace_and_refuses_an_unknown_one(ana: Any, ben: Any, api_as: Any) -> None:
    api = api_as(ana)
    made = api.post("/games", {"opponent": "ben", "language": "en", "pace": "3+2", "sudden_death": True})
    assert made.status_code == 201, made.content
    pace = made.json()["pace"]
    assert (pace["code"], pace["speed"], pace["overtime_minutes"]) == ("3+2", "live", 0)
    refused = api.post("/games", {"opponent": "computer", "level": "easy", "language": "en", "pace": "6d"})
    assert refused.status_code == 400
    assert refused.json()["error"] == "bad_pace"
    assert Game.objects.filter(created_by=ana).count() == 1
