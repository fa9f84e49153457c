"""After a Redis restart no socket and no event stream stays open and silent (issue 24,
point 4); credentials end what they opened, across Daphne processes (point 5).

Finding this guards: on a Daphne process that had served the API's event stream, a Redis
restart left every WebSocket open and silent for good. The stream's generator raised when
its subscription was lost after its response had started; Daphne then tried to answer
that request with a 500 page, which raised in its ``application_checker`` (the response
had started), and that once-a-second loop never ran again: no application that ended
after that (each WebSocket whose subscription was gone) had its close frame sent, and the
stream itself was left open with no keep-alive.
"""

from __future__ import annotations

import contextlib
import http.client
import queue
import threading
import time
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed

from api.models import ApiToken
from games.models import Game
from tests.games.helpers import make_game
from tests.production.conftest import Daphne, RedisServer, fragment_ids, fresh_action_id

pytestmark = [pytest.mark.services]

#: Every socket hears the update or is closed within this many seconds of the move.
BOUND = 10.0
#: Logging out, or a revoked credential, ends what it opened within this many seconds.
CREDENTIAL_BOUND = 5.0


class EventStream:
    """``GET /api/v1/stream/events`` held open as a bot does, its lines read on a thread:
    ``next_line`` returns a line, or None once the server ended the stream."""

    def __init__(self, server: Daphne, token: str) -> None:
        assert server.port is not None
        self.connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=120)
        self.connection.request(
            "GET",
            "/api/v1/stream/events",
            headers={"Authorization": f"Bearer {token}", "Host": f"127.0.0.1:{server.port}"},
        )
        self.response = self.connection.getresponse()
        assert self.response.status == 200, self.response.read()[:500]
        self.lines: queue.Queue[bytes | None] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        try:
            while line := self.response.readline():
                self.lines.put(line)
        except (OSError, http.client.HTTPException, ValueError):
            pass
        self.lines.put(None)

    def next_line(self, timeout: float) -> bytes | None:
        return self.lines.get(timeout=timeout)

    def event_or_end(self, within: float) -> str:
        """``"event"`` when an event line comes within ``within`` seconds (keep-alives
        skipped), ``"ended"`` when the stream ends first, ``"silent"`` otherwise."""
        deadline = time.monotonic() + within
        while (left := deadline - time.monotonic()) > 0:
            try:
                line = self.next_line(left)
            except queue.Empty:
                break
            if line is None:
                return "ended"
            if line.strip():
                return "event"
        return "silent"

    def close(self) -> None:
        self.connection.close()


def pass_turn(server: Daphne, user: Any, game: Game) -> None:
    version = Game.objects.get(pk=game.pk).version
    response = server.visitor(user).post(
        f"/games/{game.pk}/pass/", {"version": version, "action_id": fresh_action_id()}
    )
    assert response.status == 200, response.text[-2000:]


def heard_or_closed(socket: Any, deadline: float) -> str:
    """``"heard"``: a message came before ``deadline`` (``time.monotonic()``); ``"closed
    <code>"``: the server closed the socket first; ``"silent"``: neither."""
    try:
        socket.recv(timeout=max(0.0, deadline - time.monotonic()))
    except TimeoutError:
        return "silent"
    except ConnectionClosed as closed:
        code = closed.rcvd.code if closed.rcvd is not None else None
        return f"closed {code}"
    return "heard"


def test_after_a_redis_restart_no_socket_or_stream_stays_silent(
    private_redis: RedisServer, start_daphne: Any, ana: Any, ben: Any
) -> None:
    game = make_game(ana, ben)
    token = ApiToken.issue(ben, "bot")[1]
    server = start_daphne("daphne-redis-recovery", env={"REDIS_URL": private_redis.url})
    # The stream first: it is the application whose failure stopped the server's reaping.
    stream = EventStream(server, token)
    try:
        assert stream.event_or_end(10) == "event"  # where things stand: the game is on
        with contextlib.ExitStack() as opened:
            sockets = {
                name: opened.enter_context(server.visitor(user).websocket(path))
                for name, user, path in (
                    ("ana game", ana, f"/ws/games/{game.pk}/"),
                    ("ben game", ben, f"/ws/games/{game.pk}/"),
                    ("ana lobby", ana, "/ws/lobby/"),
                    ("ben lobby", ben, "/ws/lobby/"),
                )
            }
            for socket in sockets.values():
                socket.recv(timeout=10)  # the snapshot on connect

            private_redis.stop()
            private_redis.start()
            time.sleep(0.5)
            pass_turn(server, ana, game)  # ben's turn: his lobby, his stream, both game pages

            deadline = time.monotonic() + BOUND
            outcomes = {name: heard_or_closed(socket, deadline) for name, socket in sockets.items()}
            outcomes["stream"] = stream.event_or_end(max(0.0, deadline - time.monotonic()))
            # Closed with 4012, the code the page reconnects on (static/js/ws-restart.js).
            assert set(outcomes.values()) <= {"heard", "closed 4012", "event", "ended"}, outcomes
    finally:
        stream.close()

    # And the site is live again: fresh connections hear the next move.
    with server.visitor(ben).websocket(f"/ws/games/{game.pk}/") as socket:
        assert "board" in fragment_ids(socket.recv(timeout=10))
        pass_turn(server, ben, game)
        assert "scoreboard" in fragment_ids(socket.recv(timeout=10))
