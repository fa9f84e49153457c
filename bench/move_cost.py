"""What one move costs the server, in process: the move's POST and the pushes it sets off.

Whole games between two players are played through Django's test client (each side
POSTs the best play the move generator finds, or a pass, as the page does, with
``HX-Request``), and after each move the pushes for the three kinds of viewer (each
seat and a spectator) are rendered as a consumer renders them
(``rendering.shared_push`` with the version the change announced). For the POST and
for the three pushes together it reports the wall time (median and worst), the SQL
queries (median and worst) and, for the POST, the bytes of its answer.

Nothing goes over the network but the database's own connection: this is the cost of
the Python and the queries, without Daphne, Redis or WebSockets (``bench/load.py``
measures those). On PostgreSQL (``DATABASE_URL``, a database of your own: games and
users are created in it) or, without it, a throwaway SQLite database.

Run: ``DATABASE_URL=postgres://postgres@127.0.0.1:5432/wg_bench .venv/bin/python bench/move_cost.py [--games 3]``
"""

from __future__ import annotations

import argparse
import inspect
import os
import platform
import secrets
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))


def setup_django(var_dir: str) -> str:
    os.environ["DJANGO_SETTINGS_MODULE"] = "wordgame.settings"
    os.environ.setdefault("SECRET_KEY", "bench-move-cost-" + secrets.token_hex(16))
    os.environ["ALLOWED_HOSTS"] = "testserver"
    os.environ["DEBUG"] = "0"
    os.environ.pop("REDIS_URL", None)  # in-memory channel layer: no consumer listens
    if not os.environ.get("DATABASE_URL"):
        os.environ["VAR_DIR"] = var_dir
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    from django.db import connection

    return str(connection.vendor)


def summary(values: list[float]) -> str:
    return f"median {statistics.median(values):.1f}, worst {max(values):.1f}"


def play_games(count: int) -> dict[str, list[float]]:
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext
    from django.utils import translation
    from load import choose_action

    from accounts.models import User
    from games.models import Game
    from games.services import start_game

    try:  # the live path in its own module, pushes for a point of view (since issue 23)
        from games import live

        povs: dict[tuple[int, int], Any] = {}

        def push(game_id: int, viewer: Any, since: Any, version: int | None = None) -> Any:
            # A socket resolves who its viewer is once, on connect: not timed per push.
            pov = povs.get((game_id, viewer.pk))
            if pov is None:
                pov = povs[(game_id, viewer.pk)] = Game.objects.get(pk=game_id).pov(viewer)
            pushed = live.shared_push(game_id, pov, since, version)
            return pushed.html, pushed.shown

    except ImportError:  # an older checkout (to compare)
        from games import rendering

        # A checkout from before 2026-11-25 renders a push without the version announced.
        with_version = "version" in inspect.signature(vars(rendering)["shared_push"]).parameters

        old_push: Any = vars(rendering)["shared_push"]

        def push(game_id: int, viewer: Any, since: Any, version: int | None = None) -> Any:
            if with_version:
                return old_push(game_id, viewer, since, version)
            return old_push(game_id, viewer, since)

    found: dict[str, list[float]] = {k: [] for k in ("post_ms", "post_q", "bytes", "push_ms", "push_q")}
    run = secrets.token_hex(3)
    watcher = User.objects.create_user(f"mc{run}w", password=None)
    for number in range(count):
        a = User.objects.create_user(f"mc{run}a{number}", password=None)
        b = User.objects.create_user(f"mc{run}b{number}", password=None)
        game = start_game(creator=a, mode=Game.Mode.FRIEND, language="en", opponent=b, first=number % 2)
        game.accept(b, version=game.version)
        clients = {}
        for user in (a, b):
            client = Client()
            client.force_login(user)
            clients[user.pk] = client
        viewers = (a, b, watcher)
        with translation.override("en"):
            shown = [push(game.pk, v, None)[1] for v in viewers]
        while True:
            game = Game.objects.prefetch_related("seats__user").get(pk=game.pk)
            data = choose_action(game.pk)  # what bench/load.py's players send
            if data is None:
                break
            seat, path = data.pop("seat"), data.pop("path")
            started = time.perf_counter()
            with CaptureQueriesContext(connection) as queries:
                answer = clients[game.seat_user(seat).pk].post(
                    f"/games/{game.pk}/{path}/", data, headers={"HX-Request": "true"}
                )
            found["post_ms"].append((time.perf_counter() - started) * 1000)
            found["post_q"].append(len(queries))
            found["bytes"].append(len(answer.content))
            if answer.status_code != 200 or Game.objects.get(pk=game.pk).version != game.version + 1:
                raise SystemExit(f"the move was not made ({answer.status_code}): {answer.text[:600]}")
            started = time.perf_counter()
            with CaptureQueriesContext(connection) as queries, translation.override("en"):
                shown = [
                    push(game.pk, v, before, game.version + 1)[1]
                    for v, before in zip(viewers, shown, strict=True)
                ]
            found["push_ms"].append((time.perf_counter() - started) * 1000)
            found["push_q"].append(len(queries))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as var_dir:
        vendor = setup_django(var_dir)
        found = play_games(args.games)
    print(f"{time.strftime('%Y-%m-%d %H:%M')} {platform.node()} {os.cpu_count()} cores, {vendor}")
    print(f"moves: {len(found['post_ms'])} in {args.games} games")
    print(f"move POST: ms {summary(found['post_ms'])}; queries {summary(found['post_q'])}")
    print(f"answer bytes: {summary(found['bytes'])}")
    print(f"pushes for 3 kinds of viewer: ms {summary(found['push_ms'])}; queries {summary(found['push_q'])}")


if __name__ == "__main__":
    main()
