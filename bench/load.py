"""Load test of the live site (issue 14, point 5): many concurrent games with spectators.

Starts ``--workers`` Daphne processes (``wordgame.asgi``) on free ports of 127.0.0.1,
on PostgreSQL (``DATABASE_URL``) and the Redis channel layer (``REDIS_URL``), creates
the games and users it needs in that database, then holds ``--connections`` WebSocket
connections (each game: two players and ``--spectators`` spectators, the sockets of a
game on one worker, as deploy/nginx hashes the game's id, or with ``--spread socket`` spread
over the workers so moves cross between processes through Redis). For
``--seconds`` every game makes a move (the player to move POSTs the best play the move
generator finds, or a pass) after a random think time, and one action in ten is a chat
line instead. ``--think`` is the mean of that time: 30 s by default, a casual live game's
pace and the one docs/scaling.md sizes for. On the 2-core machine of docs/benchmarks.md's
last load section the latency target held up to a move every 20 s per game, not at 15.

The servers run with the settings as deployed (``wordgame.settings``: the PostgreSQL
connection pool, the channel layer's 30 s Redis read timeout, the garbage-collector
thresholds), DEBUG off.

It reports the time from a move's POST to its arrival on the opponent's socket (and on
the spectators' sockets, and to the POST's own answer), p50/p95/p99; moves per second; errors (HTTP answers other
than 200, failed connects, moves that never arrived); dropped sockets (closed by the
server during the run); bytes per push; and each Daphne process's CPU (seconds of CPU
per second of the run, from /proc), resident memory and its garbage collections of 10 ms
or more during the run (how many, the longest: from the servers' logs), with the load
average; beside them the noise a run had: the whole machine's CPU (busy, and stolen by the
hypervisor), PostgreSQL's and Redis's, the generator's own CPU and how late its event loop
woke (a late loop stamps arrivals late; the generator chooses its first move and freezes
its start-up objects before the measured window).

``--live`` makes every game a live one with clocks (10 minutes a player, sudden death off:
issue 28): the server charges each move to the mover's clock, defers the flag on the
``clocks`` queue and renders both clocks into every push; ``--think`` is then 4 s by
default (moves every few seconds, as live games go).

``--one-game N`` instead runs a single game with N spectators, its moves one after the
other with ``--think`` seconds between them.

Bounded: at most 2,000 connections and 300 seconds, 127.0.0.1 only; the script raises
its own open-files limit (``resource.setrlimit``). The Daphne processes it started are
stopped at the end; the games it created are left finished (resigned).

Run (PostgreSQL and Redis on 127.0.0.1; a database of your own):
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/wg_bench REDIS_URL=redis://127.0.0.1:6379/10 \
        .venv/bin/python bench/load.py --connections 1000 --workers 2
    ... bench/load.py --one-game 200 --workers 1
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import platform
import random
import re
import resource
import secrets
import socket
import statistics
import subprocess
import sys
import time
import urllib.parse
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

MAX_CONNECTIONS = 2000
MAX_SECONDS = 300
VERSION = re.compile(r'data-version="(\d+)"')
SECRET = os.environ.get("SECRET_KEY") or "bench-load-" + secrets.token_hex(16)
SERVER_ENV = {
    "DEBUG": "0",
    "SECRET_KEY": SECRET,
    "ALLOWED_HOSTS": "127.0.0.1",
    "SECURE_COOKIES": "0",
}


def local_only(url: str, name: str) -> None:
    host = urllib.parse.urlsplit(url).hostname
    if host not in ("127.0.0.1", "localhost"):
        raise SystemExit(f"{name} must point at 127.0.0.1, not {host!r}")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def raise_open_files(wanted: int) -> int:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = min(hard, max(soft, wanted))
    resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    return target


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(p / 100 * (len(ordered) - 1))))
    return ordered[index]


# ----- the server side -------------------------------------------------------------


def proc_cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / ticks  # utime + stime


def machine_cpu() -> tuple[float, float]:
    """The machine's CPU seconds so far (all cores): busy (neither idle nor waiting on
    I/O) and stolen by the hypervisor (a virtual machine's neighbours), from /proc/stat."""
    fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    ticks = os.sysconf("SC_CLK_TCK")
    user, nice, system, _idle, _iowait, irq, softirq, steal = (fields + [0] * 8)[:8]
    return (user + nice + system + irq + softirq) / ticks, steal / ticks


def services_cpu() -> dict[str, dict[int, float]]:
    """CPU seconds so far of every PostgreSQL and Redis process on the machine (that this
    process can see in /proc), by process id."""
    found: dict[str, dict[int, float]] = {"postgres": {}, "redis-server": {}}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        with contextlib.suppress(OSError, IndexError, ValueError):
            comm = (entry / "comm").read_text().strip()
            if comm in found:
                found[comm][int(entry.name)] = proc_cpu_seconds(int(entry.name))
    return found


def cpu_during(before: dict[int, float], after: dict[int, float]) -> float:
    """The CPU the processes spent between two looks: each process still there at the
    end counts from its first look (or from 0, started meanwhile). A backend that exited
    in between is left out rather than subtracted (once it drove the figure below 0)."""
    return sum(max(0.0, seconds - before.get(pid, 0.0)) for pid, seconds in after.items())


def proc_rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def start_daphne(port: int, log: Path) -> subprocess.Popen[bytes]:
    env = {
        **os.environ,
        **SERVER_ENV,
        "DJANGO_SETTINGS_MODULE": "wordgame.settings",
        "PYTHONPATH": str(ROOT),
    }
    with log.open("wb") as out:
        return subprocess.Popen(
            [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "wordgame.asgi:application"],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_NOFILE, (4096, 4096)),
        )


def wait_up(port: int, proc: subprocess.Popen[bytes], log: Path) -> None:
    import urllib.request

    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"daphne exited:\n{log.read_text()[-2000:]}")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2):
                return
        except OSError:
            time.sleep(0.3)
    raise SystemExit(f"daphne did not start:\n{log.read_text()[-2000:]}")


# ----- set-up in the database ---------------------------------------------------------


def setup_django() -> None:
    for key, value in SERVER_ENV.items():
        os.environ.setdefault(key, value)
    os.environ["SECRET_KEY"] = SECRET
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "wordgame.settings")
    import django

    django.setup()


def session_cookie(user: Any) -> str:
    from django.test import Client

    client = Client()
    client.force_login(user)
    return str(client.cookies["sessionid"].value)


def make_games(
    count: int, spectator_users: int, *, live: bool = False
) -> tuple[list[dict[str, Any]], list[str]]:
    """``count`` active friend games between fresh pairs of users (live with clocks with
    ``live``), and sessions for ``spectator_users`` watchers."""
    from accounts.models import User
    from games.models import Game
    from games.pace import Pace
    from games.services import start_game

    pace = Pace.parse("10+0") if live else None

    run = secrets.token_hex(3)
    games = []
    for i in range(count):
        a = User.objects.create_user(f"lb{run}a{i}", password=None)
        b = User.objects.create_user(f"lb{run}b{i}", password=None)
        game = start_game(creator=a, mode=Game.Mode.FRIEND, language="en", opponent=b, first=0, pace=pace)
        game.accept(b, version=game.version)
        games.append({"id": game.pk, "sessions": [session_cookie(a), session_cookie(b)]})
    watchers = [
        session_cookie(User.objects.create_user(f"lb{run}w{i}", password=None))
        for i in range(spectator_users)
    ]
    return games, watchers


def choose_action(game_id: int) -> dict[str, Any] | None:
    """What the player to move sends: the best play, or a pass; None when the game is over."""
    import engine
    from engine import movegen
    from games.models import Game

    game = Game.objects.get(pk=game_id)
    if game.status != Game.Status.ACTIVE:
        return None
    state = game.state_obj()
    found = movegen.best(
        state.board,
        state.racks[state.turn],
        tileset=state.tileset,
        layout=engine.layout(state.layout),
        lexicon=game.lexicon(),
        k=1,
    )
    data: dict[str, Any] = {"seat": state.turn, "version": game.version, "action_id": secrets.token_hex(16)}
    if found:
        data["path"] = "play"
        data["tiles"] = ";".join(
            f"{p.row},{p.col},{p.letter},{'b' if p.blank else 'n'}" for p in found[0].placements
        )
    else:
        data["path"] = "pass"
    return data


def resign_all(game_ids: list[int]) -> None:
    import engine
    from games.models import Game, GameError

    for game in Game.objects.filter(pk__in=game_ids, status=Game.Status.ACTIVE):
        # A game that ended meanwhile refuses: nothing to do.
        with contextlib.suppress(GameError, engine.IllegalMove):
            game.resign(game.seat_user(game.turn_seat or 0), version=game.version)


# ----- the clients ----------------------------------------------------------------------


@dataclass
class Stats:
    opponent_ms: list[float] = field(default_factory=list)
    answer_ms: list[float] = field(default_factory=list)  # the move's POST, until its answer
    spectator_ms: list[float] = field(default_factory=list)
    moves: int = 0
    chats: int = 0
    errors: list[str] = field(default_factory=list)
    dropped: int = 0
    missing: int = 0
    push_bytes: list[int] = field(default_factory=list)
    measuring: bool = False
    loop_lag_ms: list[float] = field(default_factory=list)


async def loop_lag(stats: Stats) -> None:
    """Record how late a 10 ms timer fires on the generator's event loop."""
    while True:
        before = time.perf_counter()
        await asyncio.sleep(0.01)
        stats.loop_lag_ms.append((time.perf_counter() - before - 0.01) * 1000)


class Socket:
    """One held WebSocket; it records when each version arrived."""

    def __init__(self, url: str, cookie: str, origin: str, stats: Stats) -> None:
        self.url, self.cookie, self.origin, self.stats = url, cookie, origin, stats
        self.arrived: dict[int, float] = {}
        self.version = 0
        self.ws: Any = None
        self.task: asyncio.Task[None] | None = None
        self.closing = False

    async def open(self) -> None:
        import websockets

        self.ws = await websockets.connect(
            self.url,
            additional_headers={"Cookie": self.cookie, "Origin": self.origin},
            open_timeout=60,
            max_size=2**22,
            ping_interval=None,
        )
        first = await asyncio.wait_for(self.ws.recv(), 60)
        self.note(first)
        self.task = asyncio.create_task(self.listen())

    def note(self, message: str | bytes) -> None:
        text = message if isinstance(message, str) else message.decode()
        match = VERSION.search(text)
        if match:
            version = int(match.group(1))
            self.arrived.setdefault(version, time.perf_counter())
            self.version = max(self.version, version)
            if self.stats.measuring:
                self.stats.push_bytes.append(len(text.encode()))

    async def listen(self) -> None:
        import websockets

        try:
            async for message in self.ws:
                self.note(message)
        except websockets.ConnectionClosed:
            pass
        if not self.closing:
            self.stats.dropped += 1

    async def close(self) -> None:
        self.closing = True
        if self.ws is not None:
            await self.ws.close()
        if self.task is not None:
            await asyncio.gather(self.task, return_exceptions=True)


async def play_game(
    game: dict[str, Any],
    players: list[Socket],
    spectators: list[Socket],
    clients: list[Any],
    stats: Stats,
    until: float,
    think: float,
    sequential: bool,
) -> None:
    import httpx
    from asgiref.sync import sync_to_async

    rng = random.Random(game["id"])
    while True:
        pause = think if sequential else rng.expovariate(1 / think)
        if time.perf_counter() + pause >= until:
            return
        await asyncio.sleep(pause)
        if not sequential and rng.random() < 0.1:
            seat = rng.randrange(2)
            try:
                answer = await clients[seat].post(
                    f"/games/{game['id']}/chat/", data={"text": "good luck"}, headers={"HX-Request": "true"}
                )
                if answer.status_code != 200:
                    stats.errors.append(f"chat {answer.status_code}")
                else:
                    stats.chats += 1
            except httpx.HTTPError as error:
                stats.errors.append(f"chat {type(error).__name__}")
            continue
        action = await sync_to_async(choose_action)(game["id"])
        if action is None:
            return
        seat = action.pop("seat")
        path = action.pop("path")
        version = action["version"] + 1
        started = time.perf_counter()
        try:
            answer = await clients[seat].post(
                f"/games/{game['id']}/{path}/", data=action, headers={"HX-Request": "true"}
            )
        except httpx.HTTPError as error:
            stats.errors.append(f"move {type(error).__name__}")
            continue
        if answer.status_code != 200:
            stats.errors.append(f"move {answer.status_code}")
            continue
        stats.answer_ms.append((time.perf_counter() - started) * 1000)
        stats.moves += 1
        # Wait (at most 10 s) for the move to reach the opponent and the spectators.
        watchers = [players[1 - seat], *spectators]
        deadline = time.perf_counter() + 10
        while time.perf_counter() < deadline and not all(version in s.arrived for s in watchers):
            await asyncio.sleep(0.005)
        for i, s in enumerate(watchers):
            if version in s.arrived:
                (stats.opponent_ms if i == 0 else stats.spectator_ms).append(
                    (s.arrived[version] - started) * 1000
                )
            else:
                stats.missing += 1


def long_collections(log: Path, offset: int) -> list[float]:
    """The pauses (ms) of the garbage collections of 10 ms or more a server logged after
    ``offset`` of its log (``wordgame.asgi.log_long_collections``)."""
    with log.open("rb") as f:
        f.seek(offset)
        lines = f.read().decode(errors="replace").splitlines()
    pauses = []
    for line in lines:
        if '"event":"gc"' in line:
            with contextlib.suppress(ValueError, KeyError):
                pauses.append(float(json.loads(line[line.index("{") :])["ms"]))
    return pauses


def cpu_snapshot(pids: list[int]) -> dict[int, float]:
    return {pid: proc_cpu_seconds(pid) for pid in pids}


def worker_port(ports: list[int], spread: str, game_id: int, n: int) -> int:
    """The worker the ``n``-th connection (a socket, or a player's HTTP client) of game
    ``game_id`` goes to: with ``spread="game"`` all of a game's to one worker, as
    deploy/nginx's hash on the game's id sends them; with ``"socket"`` round the workers,
    connection by connection (a game's sockets on different workers, as before the hash)."""
    return ports[game_id % len(ports)] if spread == "game" else ports[n % len(ports)]


async def run(args: argparse.Namespace) -> dict[str, Any]:
    import httpx
    import websockets
    from asgiref.sync import sync_to_async

    one_game = args.one_game is not None
    per_game = 2 + (args.one_game if one_game else args.spectators)
    games_count = 1 if one_game else max(1, args.connections // per_game)
    connections = games_count * per_game
    if connections > MAX_CONNECTIONS or args.seconds > MAX_SECONDS:
        raise SystemExit(f"bounded: at most {MAX_CONNECTIONS} connections and {MAX_SECONDS} s")
    raise_open_files(connections * 3 + 256)

    logs = ROOT / "var"
    logs.mkdir(exist_ok=True)
    ports = [free_port() for _ in range(args.workers)]
    servers = [start_daphne(port, logs / f"bench-daphne-{port}.log") for port in ports]
    stats = Stats()
    sockets: list[Socket] = []
    clients: list[Any] = []
    games: list[dict[str, Any]] = []
    try:
        for port, proc in zip(ports, servers, strict=True):
            wait_up(port, proc, logs / f"bench-daphne-{port}.log")
        spectator_users = min(50, max(1, per_game - 2)) if not one_game else args.one_game
        games, watchers = await sync_to_async(make_games)(games_count, spectator_users, live=args.live)
        limits = httpx.Limits(max_connections=4, max_keepalive_connections=4)
        plan = []  # (game, players, spectators, [client seat 0, client seat 1])
        n = 0
        for game in games:
            players, spectators, pair = [], [], []
            for seat in range(2):
                port = worker_port(ports, args.spread, game["id"], n)
                n += 1
                origin = f"http://127.0.0.1:{port}"
                csrf = secrets.token_hex(16)
                cookie = f"sessionid={game['sessions'][seat]}; csrftoken={csrf}"
                players.append(Socket(f"ws://127.0.0.1:{port}/ws/games/{game['id']}/", cookie, origin, stats))
                client = httpx.AsyncClient(
                    base_url=origin,
                    headers={
                        "Cookie": cookie,
                        "X-CSRFToken": csrf,
                        "Origin": origin,
                        "Referer": origin + "/",
                    },
                    limits=limits,
                    timeout=30,
                )
                clients.append(client)
                pair.append(client)
            for k in range(per_game - 2):
                port = worker_port(ports, args.spread, game["id"], n)
                n += 1
                cookie = f"sessionid={watchers[(k + game['id']) % len(watchers)]}"
                spectators.append(
                    Socket(
                        f"ws://127.0.0.1:{port}/ws/games/{game['id']}/",
                        cookie,
                        f"http://127.0.0.1:{port}",
                        stats,
                    )
                )
            plan.append((game, players, spectators, pair))
            sockets += players + spectators
        gate = asyncio.Semaphore(20)

        async def opened(s: Socket) -> None:
            async with gate:
                try:
                    await s.open()
                except (OSError, TimeoutError, websockets.WebSocketException) as error:
                    stats.errors.append(f"connect {type(error).__name__}")

        connect_start = time.perf_counter()
        await asyncio.gather(*(opened(s) for s in sockets))
        connect_seconds = time.perf_counter() - connect_start
        # The generator's own start-up out of the measured window: its first move chosen
        # (the first read and lexicon use in its thread), and what it built so far left
        # out of its garbage collections (a full collection of the heap of 1,000 sockets
        # would stall its loop and stamp arrivals late).
        warm_start = time.perf_counter()
        await sync_to_async(choose_action)(games[0]["id"])
        warm_ms = (time.perf_counter() - warm_start) * 1000
        gc.collect()
        gc.freeze()
        await asyncio.sleep(2)
        pids = [p.pid for p in servers]
        log_offsets = [(logs / f"bench-daphne-{port}.log").stat().st_size for port in ports]
        load_before = os.getloadavg()
        cpu_before = cpu_snapshot(pids)
        bench_before = proc_cpu_seconds(os.getpid())
        machine_before, services_before = machine_cpu(), services_cpu()
        stats.measuring = True
        lag_task = asyncio.create_task(loop_lag(stats))
        started = time.perf_counter()
        until = started + args.seconds
        await asyncio.gather(
            *(play_game(g, ps, ss, pair, stats, until, args.think, one_game) for g, ps, ss, pair in plan)
        )
        elapsed = time.perf_counter() - started
        stats.measuring = False
        lag_task.cancel()
        machine_after, services_after = machine_cpu(), services_cpu()
        cpu_after = cpu_snapshot(pids)
        pauses = [
            long_collections(logs / f"bench-daphne-{port}.log", offset)
            for port, offset in zip(ports, log_offsets, strict=True)
        ]
        bench_after = proc_cpu_seconds(os.getpid())
        # Sockets still open at the end: nothing dropped is missed.
        await asyncio.sleep(1)
        held = sum(1 for s in sockets if s.ws is not None and s.task is not None and not s.task.done())
        result = {
            "date": time.strftime("%Y-%m-%d %H:%M"),  # when the run ended
            "started": time.strftime("%H:%M:%S", time.localtime(time.time() - elapsed)),
            "machine": f"{platform.node()} {os.cpu_count()} cores {platform.machine()}",
            "workers": args.workers,
            "spread": args.spread,
            "live": args.live,
            "think_s": args.think,
            "games": games_count,
            "connections": connections,
            "held_at_end": held,
            "connect_seconds": round(connect_seconds, 1),
            "seconds": round(elapsed, 1),
            "moves": stats.moves,
            "moves_per_s": round(stats.moves / elapsed, 1),
            "chats": stats.chats,
            "opponent_ms": {p: round(percentile(stats.opponent_ms, p), 1) for p in (50, 95, 99)},
            "answer_ms": {p: round(percentile(stats.answer_ms, p), 1) for p in (50, 95, 99)},
            "spectator_ms": {p: round(percentile(stats.spectator_ms, p), 1) for p in (50, 95, 99)},
            "errors": len(stats.errors),
            "error_kinds": sorted(set(stats.errors))[:10],
            "missing": stats.missing,
            "dropped": stats.dropped,
            "push_bytes_median": int(statistics.median(stats.push_bytes)) if stats.push_bytes else 0,
            "daphne": [
                {
                    "cpu_per_s": round((cpu_after[pid] - cpu_before[pid]) / elapsed, 2),
                    "rss_mb": round(proc_rss_mb(pid)),
                    "gc_pauses_10ms": {"count": len(ms), "max_ms": max(ms, default=0.0)},
                }
                for pid, ms in zip(pids, pauses, strict=True)
            ],
            # All the servers' CPU over the moves made (chat lines and idle sockets included).
            "daphne_cpu_ms_per_move": round(
                sum(cpu_after[pid] - cpu_before[pid] for pid in pids) / max(1, stats.moves) * 1000, 1
            ),
            "bench_cpu_per_s": round((bench_after - bench_before) / elapsed, 2),
            # How late the load generator's own event loop woke (a 10 ms timer): a late
            # loop stamps arrivals late. p99 and max are over wake-ups; "stalled_ms_per_s"
            # is the time the loop was more than 5 ms late, per second of the run (an
            # arrival in such a stall is stamped up to its length late).
            "bench_loop_lag_ms": {
                "p99": round(percentile(stats.loop_lag_ms, 99), 1),
                "max": round(max(stats.loop_lag_ms, default=0.0), 1),
                "stalled_ms_per_s": round(sum(lag for lag in stats.loop_lag_ms if lag > 5) / elapsed, 1),
            },
            "bench_warm_up_ms": round(warm_ms, 1),
            "postgres_cpu_per_s": round(
                cpu_during(services_before["postgres"], services_after["postgres"]) / elapsed, 2
            ),
            "redis_cpu_per_s": round(
                cpu_during(services_before["redis-server"], services_after["redis-server"]) / elapsed, 2
            ),
            "machine_busy_cores": round((machine_after[0] - machine_before[0]) / elapsed, 2),
            "machine_steal_cores": round((machine_after[1] - machine_before[1]) / elapsed, 2),
            "load_before": [round(x, 2) for x in load_before],
            "load_after": [round(x, 2) for x in os.getloadavg()],
        }
        return result
    finally:
        await asyncio.gather(*(s.close() for s in sockets), return_exceptions=True)
        await asyncio.gather(*(c.aclose() for c in clients), return_exceptions=True)
        for proc in servers:
            proc.terminate()
        for proc in servers:
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                proc.kill()
        if games:
            await sync_to_async(resign_all)([g["id"] for g in games])


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--connections", type=int, default=100)
    parser.add_argument("--spectators", type=int, default=3, help="spectators per game (besides 2 players)")
    parser.add_argument("--one-game", type=int, default=None, metavar="N", help="one game with N spectators")
    parser.add_argument("--workers", type=int, default=1, choices=(1, 2, 3, 4))
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument(
        "--spread",
        choices=("game", "socket"),
        default="game",
        help="game: each game's sockets and POSTs on one worker (deploy/nginx hashes the game's id); "
        "socket: round the workers connection by connection",
    )
    parser.add_argument(
        "--think",
        type=float,
        default=None,
        help="mean seconds between a game's actions (default 30: the pace docs/scaling.md assumes; "
        "with --one-game, 1)",
    )
    parser.add_argument(
        "--live", action="store_true", help="live games with clocks (10 min a player); --think 4 by default"
    )
    args = parser.parse_args()
    if args.think is None:
        args.think = 1.0 if args.one_game is not None else (4.0 if args.live else 30.0)
    for name in ("DATABASE_URL", "REDIS_URL"):
        url = os.environ.get(name)
        if not url:
            raise SystemExit(f"{name} must be set (PostgreSQL and Redis on 127.0.0.1)")
        local_only(url, name)
    setup_django()
    print(json.dumps(asyncio.run(run(args)), indent=1))


if __name__ == "__main__":
    main()
