"""Live updates through real Redis, across Daphne processes, as production runs them.

Findings this guards: every Daphne process closed an idle WebSocket with code 1011 about
every 5 seconds (redis-py 8's default 5 s socket timeout against channels-redis's 5 s
blocking read); after a Redis restart the first use of each stale pooled connection
failed, so a move answered with an error page.
"""

from __future__ import annotations

import time
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed

from games.models import Game
from tests.games.helpers import make_game
from tests.production.conftest import Daphne, RedisServer, fragment_ids, fresh_action_id

pytestmark = [pytest.mark.services]

IDLE_SECONDS = 60


def pass_turn(server: Daphne, user: Any, game: Game) -> int:
    version = Game.objects.get(pk=game.pk).version
    response = server.visitor(user).post(
        f"/games/{game.pk}/pass/", {"version": version, "action_id": fresh_action_id()}
    )
    assert response.status == 200, response.text[-2000:]
    assert Game.objects.get(pk=game.pk).version == version + 1
    return version + 1


def receive_push(socket: Any, timeout: float = 10) -> set[str]:
    """The fragment ids of the next pushed message."""
    return fragment_ids(socket.recv(timeout=timeout))


def test_an_idle_websocket_stays_open_for_a_minute(
    redis_url: str, start_daphne: Any, ana: Any, ben: Any
) -> None:
    game = make_game(ana, ben)
    server = start_daphne("daphne-idle", env={"REDIS_URL": redis_url})
    with server.visitor(ben).websocket(f"/ws/games/{game.pk}/") as socket:
        assert "board" in receive_push(socket)  # the snapshot on connect
        started = time.monotonic()
        try:
            message = socket.recv(timeout=IDLE_SECONDS)
        except TimeoutError:
            pass  # nothing happened for a minute, and the socket is still open
        except ConnectionClosed as closed:
            pytest.fail(f"the server closed an idle socket after {time.monotonic() - started:.1f}s: {closed}")
        else:
            pytest.fail(f"unexpected message on an idle game: {message[:200]!r}")
        # Still live: ana's move reaches ben.
        pass_turn(server, ana, game)
        assert "scoreboard" in receive_push(socket)


def test_a_redis_restart_costs_one_reconnect_and_no_error_page(
    private_redis: RedisServer, start_daphne: Any, ana: Any, ben: Any
) -> None:
    game = make_game(ana, ben)
    server = start_daphne("daphne-redis-restart", env={"REDIS_URL": private_redis.url})
    path = f"/ws/games/{game.pk}/"
    with server.visitor(ana).websocket(path) as ana_socket, server.visitor(ben).websocket(path) as ben_socket:
        for socket in (ana_socket, ben_socket):
            assert "board" in receive_push(socket)
        pass_turn(server, ana, game)  # the send connections are now pooled
        for socket in (ana_socket, ben_socket):  # a pass: the delta holds the scoreboard, no squares
            assert "scoreboard" in receive_push(socket)

        private_redis.stop()
        # The server drops both sockets (not only the one whose read failed): their
        # subscriptions lived in Redis, so each client must reconnect, once, and get a
        # fresh snapshot to be live again.
        for socket in (ana_socket, ben_socket):
            with pytest.raises(ConnectionClosed):
                socket.recv(timeout=15)
        private_redis.start()

    with server.visitor(ana).websocket(path) as ana_socket, server.visitor(ben).websocket(path) as ben_socket:
        for socket in (ana_socket, ben_socket):
            assert "board" in receive_push(socket)  # reconnected: a fresh snapshot
        # Every connection the server had pooled is stale now; moves still answer
        # normally and reach both players, and pages load.
        pass_turn(server, ben, game)
        pass_turn(server, ana, game)
        for socket in (ana_socket, ben_socket):
            assert "scoreboard" in receive_push(socket)
            assert "scoreboard" in receive_push(socket)
    for page in ("/", f"/games/{game.pk}/", "/games/", "/healthz"):
        assert server.visitor(ana).get(page).status == 200, page
