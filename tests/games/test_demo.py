from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import authenticate

from games.demo import DEMO_PASSWORD, create_demo_data
from games.models import Game, Move


@pytest.mark.django_db
def test_demo_data_is_created_once(django_capture_on_commit_callbacks: Any) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        lines = create_demo_data()
    assert any("ana" in line for line in lines)
    assert authenticate(username="ana", password=DEMO_PASSWORD) is not None
    assert authenticate(username="ben", password=DEMO_PASSWORD) is not None
    friends = Game.objects.get(mode=Game.Mode.FRIEND)
    assert friends.status == Game.Status.ACTIVE
    assert Move.objects.filter(game=friends, kind="play").count() >= 2
    assert friends.turn_seat is not None
    assert friends.seat_user(friends.turn_seat).username == "ana"
    assert Game.objects.filter(mode=Game.Mode.COMPUTER, status=Game.Status.ACTIVE).count() == 1
    with django_capture_on_commit_callbacks(execute=True):
        assert create_demo_data() == []
    assert Game.objects.count() == 2
