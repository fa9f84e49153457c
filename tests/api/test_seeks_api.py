"""Open seeks in the API (issue 28, point 5): the list with the rating window, taking
one up, and the computer offered to a waiting live seeker."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.contrib.auth import get_user_model

from accounts.models import Block
from games import services
from games.models import Game
from games.pace import Pace


def test_the_api_lists_and_takes_up_open_requests(ana: Any, ben: Any, cleo: Any, api_as: Any) -> None:
    request = services.start_game(creator=ana, mode=Game.Mode.RANDOM, language="en", pace=Pace.parse("10+2"))
    Block.objects.create(blocker=cleo, blocked=ana)
    listed = api_as(ben).get("/games/seeks").json()
    assert [(s["id"], s["pace"], s["live"], s["low"], s["high"], s["can_accept"]) for s in listed] == [
        (request.pk, "10+2", True, 1300, 1700, True)
    ]
    assert api_as(cleo).get("/games/seeks").json() == []  # blocked: never shown
    refused = api_as(cleo).post(f"/games/seeks/{request.pk}/accept")
    assert refused.status_code == 403
    taken = api_as(ben).post(f"/games/seeks/{request.pk}/accept")
    assert taken.status_code == 201
    assert taken.json()["status"] == "active"
    assert taken.json()["pace"]["code"] == "10+2"
    assert api_as(ben).post(f"/games/seeks/{request.pk}/accept").json()["error"] == "seek_gone"


def test_the_api_says_a_request_is_a_bots(ana: Any, ben: Any, api_as: Any) -> None:
    get_user_model().objects.filter(pk=ana.pk).update(is_bot=True)
    ana.refresh_from_db()
    request = services.start_game(creator=ana, mode=Game.Mode.RANDOM, language="en", pace=Pace.parse("10+2"))
    listed = api_as(ben).get("/games/seeks").json()
    assert [(s["id"], s["bot"], s["rules"], s["challenge"]) for s in listed] == [
        (request.pk, True, "wwf", "void")
    ]


def test_the_api_offers_the_computer_to_a_waiting_live_seeker(ana: Any, api_as: Any) -> None:
    request = services.start_game(creator=ana, mode=Game.Mode.RANDOM, language="en", pace=Pace.parse("5+0"))
    api = api_as(ana)
    assert api.post(f"/games/seeks/{request.pk}/computer").json()["error"] == "not_due"
    Game.objects.filter(pk=request.pk).update(created_at=request.created_at - timedelta(seconds=40))
    assert api.get("/games/seeks").json()[0]["computer_offered"] is True
    made = api.post(f"/games/seeks/{request.pk}/computer")
    assert made.status_code == 201
    assert (made.json()["mode"], made.json()["pace"]["code"]) == ("computer", "5+0")
