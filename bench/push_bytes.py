"""How many bytes the live game page pushes to each viewer per move (issue 9).

A whole game between two players, ana and ben, is played with the real English lexicon
(each side plays the best move the move generator finds, or passes), while three
WebSocket clients watch it through the site's ASGI application (``wordgame.asgi``, with
its session authentication): ana, ben and a spectator, cleo. For every move the script
records the size of the text frames each socket receives, in bytes of UTF-8 as sent
(uncompressed), split by viewer: the player who moved, the opponent and the spectator.
The first frame (the snapshot on connect) and the frames of the last move (the game's
end) are reported on their own lines.

Everything runs in one process on a throwaway SQLite database and the in-memory channel
layer, so the figures are the consumer's output, not network overhead.

Run: ``.venv/bin/python bench/push_bytes.py [--moves N] [--interface-language en]``
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def setup_django(var_dir: str) -> None:
    os.environ["DJANGO_SETTINGS_MODULE"] = "wordgame.settings"
    os.environ["VAR_DIR"] = var_dir
    os.environ.pop("DATABASE_URL", None)
    os.environ.pop("REDIS_URL", None)
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    call_command("migrate", verbosity=0, interactive=False)


def session_headers(user: Any, language: str) -> list[tuple[bytes, bytes]]:
    from django.test import Client

    client = Client()
    client.force_login(user)
    cookie = f"sessionid={client.cookies['sessionid'].value}; django_language={language}"
    return [(b"origin", b"http://testserver"), (b"cookie", cookie.encode())]


def best_or_pass(game: Any) -> None:
    """The player to move plays the best play on the board, or passes without one."""
    import engine
    from engine import movegen

    state = game.state_obj()
    user = game.seat_user(state.turn)
    found = movegen.best(
        state.board,
        state.racks[state.turn],
        tileset=state.tileset,
        layout=engine.layout(state.layout),
        lexicon=game.lexicon(),
        k=1,
    )
    if found:
        game.play(user, list(found[0].placements), version=game.version)
    else:
        game.pass_turn(user, version=game.version)


async def measure(moves: int, language: str) -> dict[str, Any]:
    from asgiref.sync import sync_to_async
    from channels.testing import WebsocketCommunicator

    from games.models import Game
    from games.services import start_game
    from tests.factories import make_user
    from wordgame.asgi import application

    def make() -> tuple[Game, dict[str, Any]]:
        users = {name: make_user(name) for name in ("ana", "ben", "cleo")}
        game = start_game(creator=users["ana"], mode=Game.Mode.FRIEND, language="en", opponent=users["ben"])
        game.accept(users["ben"])
        game.refresh_from_db()
        return game, users

    game, users = await sync_to_async(make)()
    sockets: dict[str, WebsocketCommunicator] = {}
    for name, user in users.items():
        headers = await sync_to_async(session_headers)(user, language)
        communicator = WebsocketCommunicator(application, f"/ws/games/{game.pk}/", headers=headers)
        connected, _ = await communicator.connect()
        assert connected, name
        sockets[name] = communicator
    snapshot = {name: len((await c.receive_from(timeout=10)).encode()) for name, c in sockets.items()}
    per_move: dict[str, list[int]] = {"mover": [], "opponent": [], "spectator": []}
    last: dict[str, int] = {}
    played = 0
    try:
        while played < moves:
            await sync_to_async(game.refresh_from_db)()
            if game.status != Game.Status.ACTIVE:
                break
            mover = "ana" if game.turn_seat == 0 else "ben"
            await sync_to_async(best_or_pass)(game)
            played += 1
            await sync_to_async(game.refresh_from_db)()
            sizes = {name: len((await c.receive_from(timeout=10)).encode()) for name, c in sockets.items()}
            roles = {
                mover: "mover",
                ("ben" if mover == "ana" else "ana"): "opponent",
                "cleo": "spectator",
            }
            if game.status != Game.Status.ACTIVE:
                last = {roles[name]: size for name, size in sizes.items()}
                break
            for name, size in sizes.items():
                per_move[roles[name]].append(size)
    finally:
        for communicator in sockets.values():
            await communicator.disconnect()
    return {"snapshot": snapshot, "per_move": per_move, "last": last, "moves": played}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--moves", type=int, default=200, help="stop after this many moves (default: the game)"
    )
    parser.add_argument("--interface-language", default="en", help="the viewers' interface language")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="push-bytes-") as var_dir:
        setup_django(var_dir)
        result = asyncio.run(measure(args.moves, args.interface_language))
    print(f"# {platform.processor() or platform.machine()}, Python {platform.python_version()}")
    print(f"# {result['moves']} moves of one game, interface language {args.interface_language}")
    print("snapshot on connect (bytes): " + ", ".join(f"{k} {v}" for k, v in result["snapshot"].items()))
    print(f"{'viewer':<10} {'frames':>6} {'median':>7} {'mean':>7} {'max':>7}  (bytes per move)")
    for role, sizes in result["per_move"].items():
        if sizes:
            print(
                f"{role:<10} {len(sizes):>6} {int(statistics.median(sizes)):>7} "
                f"{int(statistics.fmean(sizes)):>7} {max(sizes):>7}"
            )
    if result["last"]:
        print("the last move (game over): " + ", ".join(f"{k} {v}" for k, v in result["last"].items()))


if __name__ == "__main__":
    main()
