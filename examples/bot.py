"""A small Wordgame bot: it plays one whole game against the computer through the API.

Standard library only. It starts a game (``POST /api/v1/games``), then listens to the
event stream (``GET /api/v1/stream/events``, one JSON object per line) and, on each
``your_turn`` for its game, reads the game (``GET /api/v1/games/ID``), asks the rules
engine of this repository for its best play (``python -m engine moves --top 1``, run from
the repository root, which has the built word lists) and sends it
(``POST /api/v1/games/ID/play`` with the game's ``version`` and an ``action_id``). With
no play found (or one the server refuses) it swaps its tiles, or passes. It stops at
``game_over``.

    python examples/bot.py --url http://127.0.0.1:8000 --token wg_...
    python examples/bot.py --url http://127.0.0.1:8000 --username ana --password wordgame-demo

Exit status: 0 when the game is over, 1 on an error (the answer is printed).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

REPOSITORY = Path(__file__).resolve().parent.parent
#: The smallest bag an exchange needs (the rules engine refuses swaps below it).
EXCHANGE_MIN_BAG = 7
#: How many times the bot connects to the event stream again after it ended mid-game.
STREAM_RECONNECTS = 5


class ApiError(Exception):
    def __init__(self, status: int, body: dict[str, Any]) -> None:
        super().__init__(f"{status} {body.get('error')}: {body.get('message')}")
        self.status = status
        self.code = str(body.get("error", ""))


class Api:
    """JSON over HTTP with a personal token; waits and retries on 429 (Retry-After)."""

    def __init__(self, url: str, token: str = "") -> None:
        self.url = url.rstrip("/") + "/api/v1"
        self.token = token

    def request(self, method: str, path: str, body: Any = None) -> Any:
        data = json.dumps(body).encode() if body is not None else None
        headers = {"Accept": "application/json", "Content-Type": "application/json"}
        if self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        while True:
            req = urllib.request.Request(self.url + path, data=data, method=method, headers=headers)
            try:
                with urllib.request.urlopen(req, timeout=60) as response:
                    return json.loads(response.read() or b"null")
            except urllib.error.HTTPError as exc:
                raw = exc.read()
                try:
                    answer = json.loads(raw or b"{}")
                except ValueError:  # not the API answering (a proxy's error page)
                    answer = {"error": "http_error", "message": raw[:200].decode(errors="replace")}
                if exc.code == 429:
                    wait = float(exc.headers.get("Retry-After", "5"))
                    print(f"rate limited: waiting {wait:.0f} s", flush=True)
                    time.sleep(wait)
                    continue
                raise ApiError(exc.code, answer) from None

    def get(self, path: str) -> Any:
        return self.request("GET", path)

    def post(self, path: str, body: Any) -> Any:
        return self.request("POST", path, body)

    def events(self) -> Iterator[dict[str, Any]]:
        """The event stream, one event at a time (empty keep-alive lines skipped)."""
        req = urllib.request.Request(
            self.url + "/stream/events", headers={"Authorization": f"Bearer {self.token}"}
        )
        with urllib.request.urlopen(req, timeout=120) as stream:
            for raw in stream:
                if raw.strip():
                    yield json.loads(raw)


def best_play(game: dict[str, Any], engine: list[str]) -> list[list[Any]] | None:
    """The engine's best play for the bot's rack on the board, or None."""
    position = {"id": game["id"], "board": game["board"], "rack": game["rack"]}
    result = subprocess.run(
        [*engine, "moves", "--language", game["language"], "--top", "1"],
        input=json.dumps(position) + "\n",
        capture_output=True,
        text=True,
        check=True,
        cwd=REPOSITORY,
    )
    moves = json.loads(result.stdout.splitlines()[0]).get("moves") or []
    return moves[0]["tiles"] if moves else None


def take_turn(api: Api, game_id: int, engine: list[str]) -> dict[str, Any] | None:
    """Play, swap or pass once if it is the bot's turn; the game afterwards (None: not
    the bot's turn any more)."""
    game = api.get(f"/games/{game_id}")
    if not game["your_turn"]:
        return None
    version = game["version"]
    # One id per turn: a retry of the same turn can never be applied twice.
    base = {"version": version, "action_id": f"bot-{game_id}-{version}"}
    tiles = best_play(game, engine)
    try:
        if tiles:
            after = api.post(f"/games/{game_id}/play", {**base, "tiles": tiles})
            mine = after["moves"][len(game["moves"])]  # the computer's reply may follow it
            words = ", ".join(w["word"] for w in mine["words"])
            print(f"played {words} for {mine['score']} (total {mine['total']})", flush=True)
            return after
    except ApiError as exc:
        if exc.status != 400:
            raise
        print(f"play refused ({exc.code}): swapping or passing instead", flush=True)
    if game["bag"] >= EXCHANGE_MIN_BAG and game["rack"]:
        print(f"swapped {game['rack']}", flush=True)
        return api.post(f"/games/{game_id}/exchange", {**base, "tiles": game["rack"]})
    print("passed", flush=True)
    return api.post(f"/games/{game_id}/pass", base)


def play_game(api: Api, *, language: str, level: str, engine: list[str]) -> dict[str, Any]:
    game = api.post("/games", {"opponent": "computer", "level": level, "language": language})
    game_id = game["id"]
    print(f"game {game_id} against computer:{level} ({language})", flush=True)
    # The stream first says where things stand (a your_turn for this game if the bot
    # moves first), then each change: no polling. The server ends a stream whose live
    # updates were lost (a restart): connect again, and it says where things stand again.
    for _attempt in range(STREAM_RECONNECTS + 1):
        for event in api.events():
            if event["game"]["id"] != game_id:
                continue
            if event["type"] == "your_turn":
                try:
                    take_turn(api, game_id, engine)
                except ApiError as exc:
                    if exc.status != 409:  # 409: the game moved on meanwhile; the stream says what next
                        raise
            elif event["type"] == "game_over":
                return dict(api.get(f"/games/{game_id}"))
        time.sleep(1)
    raise RuntimeError("the event stream kept ending before the game did")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", default="http://127.0.0.1:8000")
    parser.add_argument("--token", default=os.environ.get("WORDGAME_TOKEN", ""))
    parser.add_argument("--username")
    parser.add_argument("--password")
    parser.add_argument("--language", default="en")
    parser.add_argument("--level", default="easy", choices=["easy", "medium", "hard"])
    parser.add_argument(
        "--engine",
        default=f"{sys.executable} -m engine",
        help="the command that finds plays (default: %(default)s)",
    )
    args = parser.parse_args(argv)
    api = Api(args.url, args.token)
    try:
        if not api.token:
            if not (args.username and args.password):
                parser.error("give --token (or WORDGAME_TOKEN), or --username and --password")
            api.token = api.post(
                "/token", {"username": args.username, "password": args.password, "name": "bot"}
            )["token"]
        final = play_game(api, language=args.language, level=args.level, engine=args.engine.split())
    except (ApiError, OSError, RuntimeError, subprocess.CalledProcessError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    scores = ", ".join(f"{name} {score}" for name, score in final["scores"].items())
    print(f"game over ({final['end_reason']}): {scores}; winner: {final['winner'] or 'none (a draw)'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
