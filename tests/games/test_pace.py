"""A pace for every game (issue 28, point 1): correspondence days a move or a live clock,
chosen in the new-game form, an invitation, a rematch and the API, stored on the game,
shown on the game page and in the lobby; a correspondence turn's deadline follows it."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games import services
from games.models import Game
from games.pace import Pace
from tests.factories import PASSWORD
from tests.games.helpers import CAT_AT_CENTRE, make_game, set_racks


def client_for(user: Any) -> Client:
    client = Client()
    assert client.login(username=user.username, password=PASSWORD)
    return client


def test_pace_codes_parse_and_unknown_ones_are_refused() -> None:
    assert Pace.parse("3d") == Pace("correspondence", days=3)
    live = Pace.parse("10+5")
    assert (live.is_live, live.minutes, live.increment, live.overtime) == (True, 10, 5, 10)
    assert Pace.parse("5+0", sudden_death=True).sudden_death
    for bad in ("4d", "0d", "10+11", "11+0", "10", "d3", "10+-1", ""):
        with pytest.raises(ValueError):
            Pace.parse(bad)


def test_live_pace_from_the_form_is_stored_on_the_game(ana: Any) -> None:
    response = client_for(ana).post(
        reverse("games:new"),
        {"mode": "computer", "level": "easy", "language": "en", "pace": "10+0", "increment": "5"},
    )
    assert response.status_code == 302
    game = Game.objects.get(created_by=ana)
    assert (game.speed, game.clock_seconds, game.increment_seconds, game.overtime_minutes) == (
        "live",
        600,
        5,
        10,
    )
    assert game.pace.code == "10+5"


def test_sudden_death_and_correspondence_days_from_the_form(ana: Any, ben: Any) -> None:
    client = client_for(ana)
    client.post(
        reverse("games:new"),
        {"mode": "friend", "opponent": "ben", "language": "en", "pace": "5+0", "sudden_death": "on"},
    )
    live = Game.objects.get(created_by=ana)
    assert live.is_live
    assert live.overtime_minutes == 0
    assert live.status == Game.Status.INVITED
    live.decline(ana, version=live.version)
    client.post(reverse("games:new"), {"mode": "friend", "opponent": "ben", "language": "en", "pace": "2d"})
    game = Game.objects.filter(created_by=ana, status=Game.Status.INVITED).get()
    assert (game.speed, game.inactivity_days) == ("correspondence", 2)


def test_an_unknown_pace_is_refused_with_a_message_and_makes_nothing(ana: Any) -> None:
    response = client_for(ana).post(
        reverse("games:new"), {"mode": "computer", "level": "easy", "language": "en", "pace": "9d"}
    )
    assert response.status_code == 200
    assert not Game.objects.filter(created_by=ana).exists()
    response = client_for(ana).post(
        reverse("games:new"),
        {"mode": "computer", "level": "easy", "language": "en", "pace": "10+0", "increment": "11"},
    )
    assert not Game.objects.filter(created_by=ana).exists()


def test_the_correspondence_deadline_follows_the_pace(ana: Any, ben: Any) -> None:
    game = services.start_game(
        creator=ana, mode=Game.Mode.FRIEND, language="en", opponent=ben, first=0, pace=Pace.parse("2d")
    )
    before = timezone.now()
    game.accept(ben, version=game.version)
    game.refresh_from_db()
    assert game.turn_deadline is not None
    assert before + timedelta(days=2) <= game.turn_deadline <= timezone.now() + timedelta(days=2)


def test_without_a_pace_the_usual_days_stay(ana: Any, ben: Any, settings: Any) -> None:
    game = make_game(ana, ben)
    assert (game.speed, game.inactivity_days) == ("correspondence", settings.INACTIVITY_DAYS_FRIEND)


def test_a_rematch_keeps_the_pace(ana: Any, ben: Any) -> None:
    game = services.start_game(
        creator=ana, mode=Game.Mode.FRIEND, language="en", opponent=ben, first=0, pace=Pace.parse("7d")
    )
    game.accept(ben, version=game.version)
    game.resign(ben, version=game.version)
    new = services.rematch(game=game, user=ana)
    assert new.pace == Pace("correspondence", days=7)


def test_random_seeks_match_only_the_same_pace(ana: Any, ben: Any, cleo: Any) -> None:
    live = services.start_game(creator=ana, mode=Game.Mode.RANDOM, language="en", pace=Pace.parse("5+0"))
    slow = services.start_game(creator=ben, mode=Game.Mode.RANDOM, language="en", pace=Pace.parse("3d"))
    assert live.status == slow.status == Game.Status.OPEN
    joined = services.start_game(creator=cleo, mode=Game.Mode.RANDOM, language="en", pace=Pace.parse("3d"))
    assert joined.pk == slow.pk
    assert joined.status == Game.Status.ACTIVE


def test_the_pace_is_shown_on_the_invitation_the_game_page_and_the_lobby(ana: Any, ben: Any) -> None:
    game = services.start_game(
        creator=ana, mode=Game.Mode.FRIEND, language="en", opponent=ben, first=0, pace=Pace.parse("15+5")
    )
    label = "Live 15 min + 5 s, overtime up to 10 min (10 points a minute)"
    assert label in client_for(ben).get(reverse("games:lobby")).content.decode()
    game.accept(ben, version=game.version)
    assert label in client_for(ana).get(reverse("games:detail", args=[game.pk])).content.decode()
    set_racks(game, ("CATSEOD", "JQXZKVW"))
    game.play(ana, CAT_AT_CENTRE, version=game.version)
    assert label in client_for(ben).get(reverse("games:lobby")).content.decode()
