"""What the site survives (issue 14, point 4), tried on real Daphne workers, PostgreSQL
and a private Redis: Redis restarted mid-game, a database connection dropped during a
move, a Daphne worker killed mid-move, a task worker killed mid-thought, and a client
offline for several moves."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Coroutine
from typing import Any

import psycopg
import pytest
from django.db import connection

from games.models import Game, Move
from tests.faults.conftest import Daphne, Player, PrivateRedis
from tests.games import test_task_worker
from tests.games.helpers import make_game

pytestmark = pytest.mark.django_db(transaction=True)

CAT = "7,7,C,n;7,8,A,n;7,9,T,n"  # CAT across the centre
S_AFTER_CAT = "7,10,S,n"  # CATS


def run(scenario: Callable[[], Coroutine[Any, Any, None]]) -> None:
    asyncio.run(scenario())


def game_row(game_id: int) -> tuple[int, int, list[tuple[int, str, int]]]:
    """Version, number of moves and (number, kind, seat) of each move, as saved."""
    game = Game.objects.get(pk=game_id)
    moves = list(
        Move.objects.filter(game_id=game_id).order_by("number").values_list("number", "kind", "seat")
    )
    return game.version, len(moves), moves


def move(version: int, action_id: str, tiles: str = "") -> dict[str, Any]:
    data: dict[str, Any] = {"version": version, "action_id": action_id}
    if tiles:
        data["tiles"] = tiles
    return data


def saved(game_id: int) -> tuple[int, int]:
    """Version and number of moves, read on a connection of its own (from a coroutine)."""
    s = connection.settings_dict
    with psycopg.connect(
        dbname=s["NAME"],
        user=s["USER"],
        password=s["PASSWORD"] or None,
        host=s["HOST"],
        port=s["PORT"] or None,
    ) as conn:
        version = conn.execute("SELECT version FROM games_game WHERE id = %s", (game_id,)).fetchone()
        moves = conn.execute("SELECT count(*) FROM games_move WHERE game_id = %s", (game_id,)).fetchone()
    assert version is not None
    assert moves is not None
    return int(version[0]), int(moves[0])


class RowLock:
    """The game's row locked from another connection, so that a move posted meanwhile
    waits inside its transaction, where it can be cut off."""

    def __init__(self, game_id: int) -> None:
        s = connection.settings_dict
        self.db = s["NAME"]
        self.conn = psycopg.connect(
            dbname=s["NAME"],
            user=s["USER"],
            password=s["PASSWORD"] or None,
            host=s["HOST"],
            port=s["PORT"] or None,
        )
        self.conn.execute("SELECT 1 FROM games_game WHERE id = %s FOR UPDATE", (game_id,))

    def waiting_backends(self) -> list[int]:
        # Statistics are a snapshot per transaction, and this one stays open.
        self.conn.execute("SELECT pg_stat_clear_snapshot()")
        rows = self.conn.execute(
            "SELECT pid FROM pg_stat_activity WHERE datname = %s AND wait_event_type = 'Lock' "
            "AND pid <> pg_backend_pid()",
            (self.db,),
        ).fetchall()
        return [pid for (pid,) in rows]

    async def a_move_waits(self, timeout: float = 15) -> list[int]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if pids := await asyncio.to_thread(self.waiting_backends):
                return pids
            await asyncio.sleep(0.05)
        raise AssertionError("no move waited on the game's row")

    def terminate(self, pids: list[int]) -> None:
        for pid in pids:
            self.conn.execute("SELECT pg_terminate_backend(%s)", (pid,))

    def release(self) -> None:
        self.conn.rollback()
        self.conn.close()


def test_redis_restarted_mid_game_costs_a_reconnect_and_loses_no_move(
    daphnes: list[Daphne], private_redis: PrivateRedis, ana: Any, ben: Any
) -> None:
    game = make_game(ana, ben, racks=("CATSEOD", "SJQXZKV"))
    start = game.version
    a, b = Player(ana, game.pk), Player(ben, game.pk)
    one, two = daphnes

    async def scenario() -> None:
        a.watch([one, two])
        b.watch([two, one])
        try:
            assert await a.sees(start)
            assert await b.sees(start)
            answer = await a.post(one, "play", move(start, "m1", CAT))
            assert answer.status_code == 200
            assert await b.sees(start + 1)  # through Redis, from worker one to two
            # ben has loaded a page today (the daily coin bonus is a broadcast of its own:
            # see the next test).
            assert (await b.get(two, f"/games/{game.pk}/")).status_code == 200

            private_redis.kill()
            # A move while Redis is down is saved and answered normally.
            answer = await b.post(two, "play", move(start + 1, "m2", S_AFTER_CAT))
            assert answer.status_code == 200
            private_redis.start()

            # Each page reconnects and its snapshot shows the move it missed.
            assert await a.sees(start + 2, timeout=30), a.frames[-1:]
            assert a.reconnects >= 1
            # And live updates flow again, both ways, through both workers.
            answer = await a.post(two, "pass", move(start + 2, "m3"))
            assert answer.status_code == 200
            assert await b.sees(start + 3, timeout=30)
            answer = await b.post(one, "pass", move(start + 3, "m4"))
            assert answer.status_code == 200
            assert await a.sees(start + 4, timeout=30)
        finally:
            await a.offline()
            await b.offline()

    run(scenario)
    version, count, moves = game_row(game.pk)
    assert version == start + 4
    assert moves == [
        (1, "play", 0),
        (2, "play", 1),
        (3, "pass", 0),
        (4, "pass", 1),
    ]  # none lost, none doubled
    assert count == 4


def test_first_request_of_the_day_while_redis_is_down_is_answered_normally(
    daphnes: list[Daphne], private_redis: PrivateRedis, ana: Any, ben: Any
) -> None:
    game = make_game(ana, ben, racks=("CATSEOD", "SJQXZKV"))
    a = Player(ana, game.pk)
    one, _two = daphnes

    async def scenario() -> None:
        private_redis.kill()
        answer = await a.post(one, "play", move(game.version, "d1", CAT))
        private_redis.start()
        assert answer.status_code == 200

    run(scenario)


def test_database_connection_dropped_during_a_move_is_a_clean_error_with_nothing_saved(
    daphnes: list[Daphne], ana: Any, ben: Any
) -> None:
    game = make_game(ana, ben, racks=("CATSEOD", "SJQXZKV"))
    start = game.version
    racks = game.state["racks"]
    a = Player(ana, game.pk)
    one, _two = daphnes

    async def scenario() -> None:
        lock = await asyncio.to_thread(RowLock, game.pk)
        try:
            posted = asyncio.create_task(a.post(one, "play", move(start, "cut", CAT)))
            try:
                pids = await lock.a_move_waits()
            except AssertionError:
                done = await posted
                raise AssertionError(f"{done.status_code} {done.text[:300]}") from None
            await asyncio.to_thread(lock.terminate, pids)
            answer = await posted
        finally:
            await asyncio.to_thread(lock.release)
        assert answer.status_code >= 500
        assert "Traceback" not in answer.text
        assert "psycopg" not in answer.text
        # The same action again, on the same worker: it gets a fresh connection and the
        # move is applied, once.
        again = await a.post(one, "play", move(start, "cut", CAT))
        assert again.status_code == 200, again.text[:500]

    version_before, count_before, _ = game_row(game.pk)
    assert (version_before, count_before) == (start, 0)
    run(scenario)
    version, count, moves = game_row(game.pk)
    assert (version, count) == (start + 1, 1)
    assert moves == [(1, "play", 0)]
    reloaded = Game.objects.get(pk=game.pk)
    assert reloaded.state["racks"][1] == racks[1]
    assert reloaded.actions.filter(action_id="cut").count() == 1


def test_daphne_worker_killed_mid_move_leaves_the_game_intact(
    daphnes: list[Daphne], ana: Any, ben: Any
) -> None:
    game = make_game(ana, ben, racks=("CATSEOD", "SJQXZKV"))
    start = game.version
    a, b = Player(ana, game.pk), Player(ben, game.pk)
    one, two = daphnes

    async def scenario() -> None:
        b.watch([one, two])  # ben's page is on the worker that dies; it moves to the other
        assert await b.sees(start)
        lock = await asyncio.to_thread(RowLock, game.pk)
        try:
            posted = asyncio.create_task(a.post(one, "play", move(start, "k1", CAT)))
            await lock.a_move_waits()
            await asyncio.to_thread(one.kill)
            outcome = await asyncio.gather(posted, return_exceptions=True)
            assert isinstance(outcome[0], Exception), outcome  # the request died with the worker
            await asyncio.sleep(0.5)  # PostgreSQL notices the lost client and rolls back
        finally:
            await asyncio.to_thread(lock.release)
        assert await asyncio.to_thread(saved, game.pk) == (start, 0)
        # ana's retry (same action id) goes to the surviving worker: applied once.
        again = await a.post(two, "play", move(start, "k1", CAT))
        assert again.status_code == 200
        retried = await a.post(two, "play", move(start, "k1", CAT))
        assert retried.status_code == 200  # a double submission is answered, not applied twice
        assert await b.sees(start + 1, timeout=30)
        await b.offline()

    run(scenario)
    assert game_row(game.pk) == (start + 1, 1, [(1, "play", 0)])


def test_task_worker_killed_mid_thought_on_postgresql(postgres: None, ana: Any, settings: Any) -> None:
    """The computer's turn completes exactly once (the task-queue test, on PostgreSQL)."""
    test_task_worker.test_worker_killed_mid_thought_another_plays_the_turn_exactly_once(ana, settings)


def test_client_offline_for_several_moves_catches_up_on_reconnect(
    daphnes: list[Daphne], ana: Any, ben: Any
) -> None:
    game = make_game(ana, ben, racks=("CATSEOD", "SJQXZKV"))
    start = game.version
    a, b = Player(ana, game.pk), Player(ben, game.pk)
    one, two = daphnes

    async def scenario() -> None:
        b.watch([two])
        assert await b.sees(start)
        await b.offline()
        seen = len(b.frames)
        # Four moves while ben's page is away (he plays his from another device).
        for version, (player, action, tiles) in enumerate(
            [(a, "play", CAT), (b, "play", S_AFTER_CAT), (a, "pass", ""), (b, "pass", "")], start=start
        ):
            answer = await player.post(one, action, move(version, f"o{version}", tiles))
            assert answer.status_code == 200
        assert b.version == start
        b.watch([two])
        try:
            assert await b.sees(start + 4)
        finally:
            await b.offline()
        snapshot = b.frames[seen]
        assert 'id="board"' in snapshot  # a full snapshot, not a delta it could not apply
        assert "CATS" in snapshot
        assert snapshot.count('<li class="move"') == 4

    run(scenario)
    assert game_row(game.pk)[:2] == (start + 4, 4)
