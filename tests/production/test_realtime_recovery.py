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

import asyncio
import contextlib
import http.client
import queue
import threading
import time
from socket import create_connection
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed

from api.models import ApiToken
from games.models import Game
from tests.games.helpers import make_game
from tests.production.conftest import Daphne, RedisServer, Visitor, fragment_ids, fresh_action_id

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


def layer_on(redis: RedisServer) -> Any:
    from wordgame.channel_layer import RedisChannelLayer
    from wordgame.settings import redis_layer_host

    return RedisChannelLayer(hosts=[redis_layer_host(redis.url)], prefix="recovery")


def test_a_consumer_busy_when_redis_was_lost_is_ended_at_its_next_read(private_redis: RedisServer) -> None:
    """The consumer that is handling a message when Redis goes is not waiting in
    ``receive``: it must not find its next read answered by a Redis that has forgotten
    its groups (it would wait there for good)."""
    from redis.exceptions import ConnectionError as RedisConnectionError

    async def scenario() -> None:
        layer = layer_on(private_redis)
        waiting, busy = await layer.new_channel(), await layer.new_channel()
        await layer.group_add("game-1", waiting)
        await layer.group_add("game-1", busy)
        reading = asyncio.ensure_future(layer.receive(waiting))
        await asyncio.sleep(0.3)
        private_redis.stop()
        private_redis.start()
        with pytest.raises(RedisConnectionError):
            await asyncio.wait_for(reading, 10)
        # Redis is back, empty: the busy consumer's next read fails at once.
        with pytest.raises(RedisConnectionError):
            await asyncio.wait_for(layer.receive(busy), 2)
        # A consumer that joins afresh hears its group again.
        fresh = await layer.new_channel()
        await layer.group_add("game-1", fresh)
        await layer.group_send("game-1", {"type": "game.changed", "version": 2})
        assert (await asyncio.wait_for(layer.receive(fresh), 5))["version"] == 2
        await layer.flush()

    asyncio.run(scenario())


def test_a_redis_that_forgot_the_groups_without_dropping_the_connection_ends_the_reads(
    private_redis: RedisServer,
) -> None:
    """The blocking read's connection may come back by itself to a Redis that has lost
    every group (restarted between two reads, flushed, evicted): the canary finds it
    within one blocking read (5 s)."""
    from redis.exceptions import ConnectionError as RedisConnectionError

    async def scenario() -> None:
        layer = layer_on(private_redis)
        channel = await layer.new_channel()
        await layer.group_add("game-1", channel)
        reading = asyncio.ensure_future(layer.receive(channel))
        await asyncio.sleep(0.3)
        with create_connection(("127.0.0.1", private_redis.port), timeout=2) as raw:
            raw.sendall(b"FLUSHALL\r\n")
            assert raw.recv(16).startswith(b"+OK")
        with pytest.raises(RedisConnectionError):
            await asyncio.wait_for(reading, layer.brpop_timeout + 3)
        await layer.flush()

    asyncio.run(scenario())


def test_logging_out_on_one_process_closes_the_sessions_sockets_on_another(
    redis_url: str, start_daphne: Any, ana: Any, ben: Any
) -> None:
    from django.test import Client

    game = make_game(ana, ben)
    env = {"REDIS_URL": redis_url, "CHANNEL_LAYER_PREFIX": f"logout-{fresh_action_id()[:8]}"}
    first, second = start_daphne("daphne-logout-1", env=env), start_daphne("daphne-logout-2", env=env)
    client = Client()
    client.force_login(ana)
    session = str(client.cookies["sessionid"].value)
    browser = Visitor("127.0.0.1", first.port or 0, session)
    with browser.websocket(f"/ws/games/{game.pk}/") as game_socket, browser.websocket("/ws/user/") as header:
        for socket in (game_socket, header):
            socket.recv(timeout=10)
        same_browser = Visitor("127.0.0.1", second.port or 0, session, csrf=browser.csrf)
        assert same_browser.post("/accounts/logout/", {}, htmx=False).status == 302
        deadline = time.monotonic() + CREDENTIAL_BOUND
        assert heard_or_closed_only(game_socket, deadline) == "closed 4401"
        assert heard_or_closed_only(header, deadline) == "closed 4401"


def test_a_token_revoked_on_one_process_ends_its_stream_on_another(
    redis_url: str, start_daphne: Any, ana: Any
) -> None:
    env = {"REDIS_URL": redis_url, "CHANNEL_LAYER_PREFIX": f"revoke-{fresh_action_id()[:8]}"}
    first, second = start_daphne("daphne-revoke-1", env=env), start_daphne("daphne-revoke-2", env=env)
    token_row, token = ApiToken.issue(ana, "bot")
    stream = EventStream(first, token)
    try:
        assert stream.event_or_end(1) == "silent"  # subscribed; nothing to say yet
        page = second.visitor(ana)
        assert page.post(f"/accounts/tokens/{token_row.pk}/revoke/", {}, htmx=False).status == 302
        assert stream.event_or_end(CREDENTIAL_BOUND) == "ended"
    finally:
        stream.close()


def heard_or_closed_only(socket: Any, deadline: float) -> str:
    """Like :func:`heard_or_closed`, but messages (pushes) are read past: only a close
    counts."""
    while (outcome := heard_or_closed(socket, deadline)) == "heard":
        pass
    return outcome
