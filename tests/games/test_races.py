"""Concurrent submissions on PostgreSQL (row locks): exactly one wins."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse

from games.models import Game, Move
from games.services import start_game
from tests.games.helpers import CAT_AT_CENTRE, make_game, tiles

HX = {"HX-Request": "true"}


def run_together(*calls: Callable[[], str]) -> list[str]:
    """Run ``calls`` in threads released at the same moment; each gets its own
    database connection, closed at the end."""
    barrier = threading.Barrier(len(calls))
    results: list[str] = [""] * len(calls)

    def worker(index: int, call: Callable[[], str]) -> None:
        try:
            barrier.wait()
            results[index] = call()
        finally:
            connection.close()

    threads = [threading.Thread(target=worker, args=(i, c)) for i, c in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    return results


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_two_racing_plays_apply_exactly_one(postgres: None, ana: Any, ben: Any) -> None:
    game = make_game(ana, ben, racks=("CATSEOD", "JQXZKVW"))
    version = game.version

    def submit(move: str, action_id: str) -> Callable[[], str]:
        def call() -> str:
            client = Client()
            client.force_login(ana)
            data = {"tiles": move, "version": version, "action_id": action_id}
            return client.post(reverse("games:play", args=[game.pk]), data, headers=HX).text

        return call

    cat = tiles((7, 7, "C"), (7, 8, "A"), (7, 9, "T"))
    do = tiles((6, 7, "D"), (7, 7, "O"))
    answers = run_together(submit(cat, "tab-1"), submit(do, "tab-2"))
    assert Move.objects.filter(game=game).count() == 1
    assert sum("The game moved on" in answer for answer in answers) == 1
    assert Game.objects.get(pk=game.pk).version == version + 1


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_same_action_posted_twice_at_once_is_applied_once(postgres: None, ana: Any, ben: Any) -> None:
    game = make_game(ana, ben, racks=("CATSEOD", "JQXZKVW"))
    version = game.version

    def submit() -> str:
        played = Game.objects.get(pk=game.pk).play(
            ana, CAT_AT_CENTRE, version=version, action_id="double-click"
        )
        return str(played.pk)

    answers = run_together(submit, submit)
    assert Move.objects.filter(game=game).count() == 1
    assert answers[0] == answers[1]


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_two_players_answering_one_seek_do_not_share_it(
    postgres: None, ana: Any, ben: Any, cleo: Any
) -> None:
    seek = start_game(creator=ana, mode="random", language="en")

    def join(user: Any) -> Callable[[], str]:
        return lambda: str(start_game(creator=user, mode="random", language="en").pk)

    results = run_together(join(ben), join(cleo))
    game = Game.objects.get(pk=seek.pk)
    assert game.status == Game.Status.ACTIVE
    assert str(seek.pk) in results
    seated = {s.user for s in game.seat_list()}
    assert len(seated) == 2
    assert ana in seated
    assert Game.objects.filter(status=Game.Status.OPEN).count() == 1  # the other one waits
