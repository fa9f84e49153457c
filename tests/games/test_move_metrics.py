"""The operators' figures of a move (``/metrics``): the POST's latency, the moves
counted, the push to the opponent timed from the commit, the sockets open."""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.test import Client
from django.urls import reverse
from prometheus_client.parser import text_string_to_metric_families

from games.models import Game
from tests.games.helpers import CAT_AT_CENTRE, at_version, make_game, tiles
from tests.games.test_game_consumer import connect

TOKEN = "scrape-token-of-the-test"


def scrape(client: Client) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    response = client.get("/metrics", headers={"Authorization": f"Bearer {TOKEN}"})
    assert response.status_code == 200
    found = {}
    for family in text_string_to_metric_families(response.text):
        for sample in family.samples:
            found[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return found


@pytest.mark.django_db
def test_scrape_after_a_move_shows_the_post_and_the_move_counted(
    client: Client, ana: Any, game_ana_ben: Game, settings: Any, django_capture_on_commit_callbacks: Any
) -> None:
    settings.METRICS_TOKEN = TOKEN
    before = scrape(client)
    client.force_login(ana)
    # The move is counted once committed (the test's own transaction never commits).
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            reverse("games:play", args=[game_ana_ben.pk]),
            at_version(game_ana_ben, tiles=tiles((7, 7, "C"), (7, 8, "A"), (7, 9, "T"))),
            headers={"HX-Request": "true"},
        )
    assert response.status_code == 200
    client.logout()
    after = scrape(client)

    def moved(name: str, **labels: str) -> float:
        key = (name, tuple(sorted(labels.items())))
        return after.get(key, 0.0) - before.get(key, 0.0)

    assert moved("wordgame_game_actions_total", kind="play") == 1
    assert moved("wordgame_move_post_seconds_count", view="page:play") == 1
    assert 0 < moved("wordgame_move_post_seconds_sum", view="page:play") < 10
    # A refused move is timed too, and counts no move.
    client.force_login(ana)
    client.post(reverse("games:play", args=[game_ana_ben.pk]), {"tiles": "nonsense", "version": 1})
    client.logout()
    again = scrape(client)
    assert (
        again[("wordgame_move_post_seconds_count", (("view", "page:play"),))]
        == before.get(("wordgame_move_post_seconds_count", (("view", "page:play"),)), 0) + 2
    )
    assert (
        again[("wordgame_game_actions_total", (("kind", "play"),))]
        == after[("wordgame_game_actions_total", (("kind", "play"),))]
    )


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("close_db_connection")
async def test_push_to_the_opponent_is_timed_from_the_commit_and_sockets_counted(
    ana: Any, ben: Any, cleo: Any, settings: Any
) -> None:
    settings.METRICS_TOKEN = TOKEN
    client = Client()
    game = await sync_to_async(make_game)(ana, ben, racks=("CATSEOD", "JQXZKVW"))
    before = await sync_to_async(scrape)(client)
    sockets = {}
    try:
        for name, user in {"ben": ben, "cleo": cleo, "ana": ana}.items():
            sockets[name], connected = await connect(f"/ws/games/{game.pk}/", user)
            assert connected
            await sockets[name].receive_from(timeout=3)  # the snapshot
        during = await sync_to_async(scrape)(client)
        games_sockets = ("wordgame_open_sockets", (("route", "games"),))
        assert during[games_sockets] == before.get(games_sockets, 0) + 3

        await sync_to_async(game.play)(ana, CAT_AT_CENTRE, version=game.version)
        for communicator in sockets.values():
            await communicator.receive_from(timeout=3)
        after = await sync_to_async(scrape)(client)
    finally:
        for communicator in sockets.values():
            await communicator.disconnect()

    for viewer in ("opponent", "spectator", "mover"):
        key = ("wordgame_push_seconds_count", (("viewer", viewer),))
        assert after[key] == before.get(key, 0) + 1, viewer
    took = after[("wordgame_push_seconds_sum", (("viewer", "opponent"),))] - before.get(
        ("wordgame_push_seconds_sum", (("viewer", "opponent"),)), 0
    )
    assert 0 < took < 3
    closed = await sync_to_async(scrape)(client)
    assert closed[("wordgame_open_sockets", (("route", "games"),))] == before.get(
        ("wordgame_open_sockets", (("route", "games"),)), 0
    )
