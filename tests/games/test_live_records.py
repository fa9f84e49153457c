"""Records of live games (issue 28, point 6): overtime penalties are written to the GCG
as time-penalty lines and read back by the import; the replay shows the clocks."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.test import Client
from django.urls import reverse

from engine.gcg import import_gcg
from games.actions import Play, Resign
from games.models import Move
from games.records import gcg_text
from tests.factories import PASSWORD
from tests.games.helpers import CAT_AT_CENTRE
from tests.games.test_live_clocks import live_game, started


def overtime_game(ana: Any, ben: Any) -> Any:
    game = live_game(ana, ben, "5+0")
    at = started(game) + timedelta(minutes=6, seconds=30)  # 1 min 30 s into overtime: 20 points
    game.act(ana, Play.of(CAT_AT_CENTRE), version=game.version, now=at)
    game.act(ben, Resign(), version=game.version, now=at + timedelta(seconds=4))
    return game


def test_overtime_penalties_are_time_penalty_lines_read_back_by_the_import(ana: Any, ben: Any) -> None:
    game = overtime_game(ana, ben)
    text = gcg_text(game)
    assert "(time) -20" in text
    record = import_gcg(text)
    penalties = [(m.seat, m.score) for m in record.moves if m.kind == "penalty"]
    penalties += [(e.seat, e.points) for e in record.events if e.kind == "time"]
    assert penalties == [(0, -20)]
    assert list(record.scores()) == game.final_scores
    assert Move.objects.get(game=game, kind="penalty").score == -20


def test_the_replay_shows_the_clocks(ana: Any, ben: Any) -> None:
    game = overtime_game(ana, ben)
    client = Client()
    client.login(username="ana", password=PASSWORD)
    page = client.get(reverse("games:replay", args=[game.pk])).content.decode()
    assert "-1:30" in page  # ana's clock after her move, in overtime
    assert ">4:56<" in page  # ben's, charged the four seconds before he resigned
    first = client.get(reverse("games:replay", args=[game.pk]), {"move": 0}).content.decode()
    assert first.count(">5:00<") == 2  # both clocks full before the first move
