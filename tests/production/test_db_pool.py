"""PostgreSQL connections per Daphne process stay bounded under load (psycopg's pool):
pages and WebSocket viewers coming and going.

The finding: with ``CONN_MAX_AGE=60`` every request thread under ASGI kept its own
connection, 48-85 per process after 10-15 s of load, until PostgreSQL refused new ones
and pages answered 500. With the pool a process holds at most ``DB_POOL_MAX_SIZE``.
"""

from __future__ import annotations

import threading
import time
import uuid
from collections import Counter
from typing import Any

import pytest
from django.db import connection
from websockets.exceptions import WebSocketException

from tests.games.helpers import make_game
from tests.production.conftest import Daphne

pytestmark = [pytest.mark.services]

POOL_SIZE = 4
CLIENTS = 24
SOCKETS = 4
SECONDS = 8.0


def connections_named(name: str) -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE application_name = %s", [name])
        row = cursor.fetchone()
    assert row is not None
    return int(row[0])


def test_connections_per_process_stay_bounded_under_load(
    postgres: None, start_daphne: Any, ana: Any, ben: Any
) -> None:
    game = make_game(ana, ben)
    app_name = f"wg-pool-{uuid.uuid4().hex[:8]}"
    server: Daphne = start_daphne(
        "daphne-pool",
        # libpq reads PGAPPNAME: this process's connections carry its name in pg_stat_activity.
        env={"PGAPPNAME": app_name, "DB_POOL_MIN_SIZE": "1", "DB_POOL_MAX_SIZE": str(POOL_SIZE)},
    )
    visitor = server.visitor(ana)
    statuses: Counter[int] = Counter()
    lock = threading.Lock()
    handshakes_dropped = [0]
    stop_at = time.monotonic() + SECONDS

    def load() -> None:
        paths = (f"/games/{game.pk}/", "/games/", "/healthz", f"/games/{game.pk}/fragments/")
        n = 0
        while time.monotonic() < stop_at:
            status = visitor.get(paths[n % len(paths)]).status
            n += 1
            with lock:
                statuses[status] += 1

    def watch() -> None:
        # Viewers coming and going: each consumer reads the game for its snapshot. A
        # handshake Daphne gave up on (its 5 s connect timeout, on a machine this test
        # saturates) is counted apart and the viewer comes again, as a page's socket does.
        # Before the handshakes' reads ran on socket threads (accounts.livesocket.off_thread)
        # they queued on Channels' one thread behind each other's pool waits: in CI every
        # handshake of this test timed out.
        while time.monotonic() < stop_at:
            try:
                with visitor.websocket(f"/ws/games/{game.pk}/") as socket:
                    socket.recv(timeout=20)
            except (WebSocketException, OSError, TimeoutError):
                with lock:
                    handshakes_dropped[0] += 1
                continue
            with lock:
                statuses[101] += 1

    threads = [threading.Thread(target=load) for _ in range(CLIENTS)]
    threads += [threading.Thread(target=watch) for _ in range(SOCKETS)]
    for thread in threads:
        thread.start()
    held = []
    while any(t.is_alive() for t in threads):
        held.append(connections_named(app_name))
        time.sleep(0.25)
    for thread in threads:
        thread.join()
    time.sleep(0.5)
    held.append(connections_named(app_name))
    print(
        f"requests by status: {dict(statuses)}; handshakes dropped: {handshakes_dropped[0]};"
        f" connections held (max, last): {max(held)}, {held[-1]}"
    )
    assert sum(statuses.values()) >= CLIENTS, statuses
    assert set(statuses) == {200, 101}, statuses  # 101: a WebSocket opened and its snapshot read
    assert 1 <= max(held) <= POOL_SIZE, held
    assert held[-1] <= POOL_SIZE
