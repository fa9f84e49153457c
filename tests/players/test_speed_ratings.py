"""Ratings per language and speed (issue 28, point 4): a live game changes the live
rating only, a correspondence game the correspondence one; the profile, the leaderboard
and the API show both; ratings from before live games are correspondence ratings."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import Rating, RatingChange
from api.models import ApiToken
from games.models import Game
from games.outcomes import on_game_finished
from tests.factories import PASSWORD
from tests.players.helpers import make_finished_game

pytestmark = pytest.mark.django_db


def finished(ana: Any, ben: Any, speed: str, *, winner: int) -> Game:
    game = make_finished_game(ana, ben, winner=winner)
    Game.objects.filter(pk=game.pk).update(speed=speed)
    game.refresh_from_db()
    on_game_finished(game)
    return game


def test_live_and_correspondence_games_are_rated_apart(ana: Any, ben: Any) -> None:
    finished(ana, ben, "live", winner=0)
    live = {r.user_id: r for r in Rating.objects.filter(speed="live")}
    assert live[ana.pk].rating > 1500 > live[ben.pk].rating
    assert not Rating.objects.filter(speed="correspondence").exists()
    finished(ana, ben, "correspondence", winner=1)
    slow = {r.user_id: r for r in Rating.objects.filter(speed="correspondence")}
    assert slow[ben.pk].rating > 1500 > slow[ana.pk].rating
    assert Rating.objects.get(user=ana, speed="live").games == 1
    assert set(RatingChange.objects.values_list("speed", flat=True)) == {"live", "correspondence"}


def table(page: str) -> str:
    return page[page.index("leaderboard-table") :]


def test_the_profile_leaderboard_and_api_show_both(ana: Any, ben: Any) -> None:
    finished(ana, ben, "live", winner=0)
    finished(ana, ben, "correspondence", winner=1)
    client = Client()
    client.login(username="ana", password=PASSWORD)
    profile = client.get(reverse("players:profile", args=["ana"])).content.decode()
    assert "English (US) · Live" in profile
    assert "English (US) · Correspondence" in profile
    live_board = table(
        client.get(reverse("leaderboard"), {"language": "en", "speed": "live"}).content.decode()
    )
    slow_board = table(client.get(reverse("leaderboard"), {"language": "en"}).content.decode())
    assert live_board.index(">ana<") < live_board.index(">ben<")
    assert slow_board.index(">ben<") < slow_board.index(">ana<")
    token = ApiToken.issue(ana, "test")[1]
    headers = {"Authorization": f"Bearer {token}"}
    board = client.get("/api/v1/leaderboard/en?speed=live", headers=headers).json()
    assert [row["username"] for row in board] == ["ana", "ben"]
    me = client.get("/api/v1/account", headers=headers).json()
    assert me["live_ratings"]["en"]["rating"] > 1500 > me["ratings"]["en"]["rating"]
    player = client.get("/api/v1/players/ben", headers=headers).json()
    assert {(r["language"], r["speed"]) for r in player["ratings"]} == {
        ("en", "live"),
        ("en", "correspondence"),
    }
