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

Games alternate who moves first; the bag is shuffled by each game's random seed, so the
figures vary a little from run to run.

Run: ``.venv/bin/python bench/push_bytes.py [--games 5] [--interface-language en]``
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


async def measure_game(number: int, users: dict[str, Any], language: str) -> dict[str, Any]:
    """One game from the first move to the end; bytes per socket per move."""
    from asgiref.sync import sync_to_async
    from channels.testing import WebsocketCommunicator

    from games.models import Game
    from games.services import start_game
    from wordgame.asgi import application

    def make() -> Game:
        game = start_game(
            creator=users["ana"],
            mode=Game.Mode.FRIEND,
            language="en",
            opponent=users["ben"],
            first=number % 2,
        )
        game.accept(users["ben"], version=game.version)
        game.refresh_from_db()
        return game

    game = await sync_to_async(make)()
    sockets: dict[str, WebsocketCommunicator] = {}
    for name, user in users.items():
        headers = await sync_to_async(session_headers)(user, language)
        communicator = WebsocketCommunicator(application, f"/ws/games/{game.pk}/", headers=headers)
        connected, _ = await communicator.connect()
        assert connected, name
        sockets[name] = communicator
    result: dict[str, Any] = {
        "snapshot": {name: len((await c.receive_from(timeout=10)).encode()) for name, c in sockets.items()},
        "per_move": {"mover": [], "opponent": [], "spectator": []},
        "last": {},
        "moves": 0,
    }
    try:
        while True:
            await sync_to_async(game.refresh_from_db)()
            if game.status != Game.Status.ACTIVE:
                break
            assert game.turn_seat is not None
            mover = (await sync_to_async(game.seat_user)(game.turn_seat)).username
            await sync_to_async(best_or_pass)(game)
            result["moves"] += 1
            await sync_to_async(game.refresh_from_db)()
            sizes = {name: len((await c.receive_from(timeout=10)).encode()) for name, c in sockets.items()}
            roles = {
                name: ("spectator" if name == "cleo" else "mover" if name == mover else "opponent")
                for name in sizes
            }
            if game.status != Game.Status.ACTIVE:
                result["last"] = {roles[name]: size for name, size in sizes.items()}
                break
            for name, size in sizes.items():
                result["per_move"][roles[name]].append(size)
    finally:
        for communicator in sockets.values():
            await communicator.disconnect()
    return result


async def measure(games: int, language: str) -> list[dict[str, Any]]:
    from asgiref.sync import sync_to_async

    from tests.factories import make_user

    def make_users() -> dict[str, Any]:
        return {name: make_user(name) for name in ("ana", "ben", "cleo")}

    users = await sync_to_async(make_users)()
    return [await measure_game(number, users, language) for number in range(games)]


def machine() -> str:
    model = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{model or platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--games", type=int, default=5, help="games to play (default 5)")
    parser.add_argument("--interface-language", default="en", help="the viewers' interface language")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="push-bytes-") as var_dir:
        setup_django(var_dir)
        results = asyncio.run(measure(args.games, args.interface_language))
    moves = sum(r["moves"] for r in results)
    print(f"# {machine()}")
    print(f"# {args.games} games, {moves} moves, interface language {args.interface_language}")
    print("bytes of text per WebSocket frame, UTF-8, uncompressed")
    print(f"{'what':<26} {'frames':>6} {'median':>7} {'mean':>7} {'worst':>7}")

    def line(label: str, sizes: list[int]) -> None:
        print(
            f"{label:<26} {len(sizes):>6} {int(statistics.median(sizes)):>7} "
            f"{int(statistics.fmean(sizes)):>7} {max(sizes):>7}"
        )

    snapshots = [size for r in results for size in r["snapshot"].values()]
    line("snapshot on connect", snapshots)
    for role in ("mover", "opponent", "spectator"):
        line(f"move: {role}", [size for r in results for size in r["per_move"][role]])
    line("move: any viewer", [size for r in results for sizes in r["per_move"].values() for size in sizes])
    line("last move (game over)", [size for r in results for size in r["last"].values()])


if __name__ == "__main__":
    main()
