"""After a Redis restart the game page is live again by itself (issue 24, point 4): the
server closes its socket with 4012 (its subscriptions were lost with Redis), the page
reconnects (``static/js/ws-restart.js``), gets a fresh snapshot, and the next move shows
without a reload."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from typing import Any

import pytest

from games.models import Game
from tests.browser.conftest import daphne_server, in_thread
from tests.browser.test_play_in_browser import expect_my_turn
from tests.conftest import service_unavailable
from tests.games.helpers import make_game
from tests.production.conftest import RedisServer, Visitor, free_port, fresh_action_id, session_of

pytestmark = [pytest.mark.browser]


@pytest.fixture(scope="module")
def private_redis(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisServer]:
    if shutil.which("redis-server") is None:
        service_unavailable("redis-server is not installed")
    server = RedisServer(free_port(), tmp_path_factory.mktemp("redis"))
    server.start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def server_url(django_db_setup: None, django_db_blocker: Any, private_redis: RedisServer) -> Iterator[str]:
    """Daphne on a Redis of this module's own, which the test restarts."""
    from django.db import connection

    with django_db_blocker.unblock():
        db_name = str(connection.settings_dict["NAME"])
    with daphne_server(db_name, "server-redis-restart.log", REDIS_URL=private_redis.url) as url:
        yield url


@pytest.mark.django_db(transaction=True)
def test_the_game_page_is_live_again_after_a_redis_restart(
    open_page: Any, server_url: str, private_redis: RedisServer, ana: Any, ben: Any
) -> None:
    game = in_thread(make_game, ana, ben)  # ana to move
    page = open_page(ben, f"/games/{game.pk}/")
    expect_my_turn(page, False)

    private_redis.stop()
    private_redis.start()

    # ana passes (over HTTP, on the same server): ben's page shows his turn, no reload. Its
    # old socket can no longer hear of it (that membership went with Redis): only the
    # reconnected one can, or its snapshot.
    port = int(server_url.rsplit(":", 1)[1])
    ana_browser = Visitor("127.0.0.1", port, in_thread(session_of, ana))
    version = in_thread(lambda: Game.objects.get(pk=game.pk).version)
    answer = ana_browser.post(f"/games/{game.pk}/pass/", {"version": version, "action_id": fresh_action_id()})
    assert answer.status == 200, answer.text[-1000:]
    expect_my_turn(page, True)
