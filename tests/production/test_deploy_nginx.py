"""deploy/ as production runs it: Debian's nginx with deploy/nginx/ in front of two Daphne
workers started as deploy/systemd/wordgame-daphne@.service starts them (DEBUG off,
collected and hashed static files, PostgreSQL or the SQLite test file, real Redis).

The configuration files are the committed ones; only their paths (sockets, static root,
include folder) are moved into a temporary folder and the TLS server is replaced by one
plain-HTTP server on a free loopback port. Clients on other loopback addresses
(127.0.0.2, 127.0.0.3) stand for other machines behind the proxy.

``DeploySite`` keeps what another test needs to add processes with the same environment
(a task worker: ``site.start_process("worker", [sys.executable, "manage.py", "db_worker"])``).
"""

from __future__ import annotations

import os
import random
import re
import shlex
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from websockets.exceptions import ConnectionClosed

from games.models import Game, Move
from tests.conftest import service_unavailable
from tests.games.helpers import make_computer_game, make_game
from tests.production.conftest import (
    ARTIFACTS,
    ROOT,
    Process,
    Visitor,
    fragment_ids,
    free_port,
    fresh_action_id,
    server_env,
    session_of,
    wait_for,
)

pytestmark = [pytest.mark.services]

DEPLOY = ROOT / "deploy"
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"


def daphne_command(instance: int, run_dir: Path) -> list[str]:
    """ExecStart of deploy/systemd/wordgame-daphne@.service for ``instance``, with this
    interpreter and the socket folder moved to ``run_dir``."""
    unit = (DEPLOY / "systemd" / "wordgame-daphne@.service").read_text()
    match = re.search(r"^ExecStart=(.+)$", unit, re.M)
    assert match is not None
    argv = shlex.split(match.group(1).replace("%i", str(instance)).replace("/run/wordgame/", f"{run_dir}/"))
    assert argv[0].endswith("/daphne")
    return [sys.executable, "-m", "daphne", *argv[1:]]


def nginx_config(tmp: Path, port: int, run_dir: Path, static_root: Path) -> Path:
    conf_dir = tmp / "nginx"
    conf_dir.mkdir()
    for path in (DEPLOY / "nginx").glob("wordgame-*.conf"):
        text = path.read_text()
        text = text.replace("/etc/nginx/wordgame/", f"{conf_dir}/")
        text = text.replace("/run/wordgame/", f"{run_dir}/")
        text = text.replace("/srv/wordgame/staticfiles/", f"{static_root}/")
        (conf_dir / path.name).write_text(text)
    temp = tmp / "nginx-temp"
    temp.mkdir()
    # As root, nginx's workers would run as "nobody", who may not enter the test folders.
    user = "user root;" if os.geteuid() == 0 else ""
    main = conf_dir / "nginx.conf"
    main.write_text(
        f"""{user}
worker_processes 1;
daemon off;
pid {tmp}/nginx.pid;
error_log {ARTIFACTS}/nginx-error.log info;
events {{ worker_connections 512; }}
http {{
    include /etc/nginx/mime.types;
    access_log {ARTIFACTS}/nginx-access.log;
    client_body_temp_path {temp}/body;
    proxy_temp_path {temp}/proxy;
    fastcgi_temp_path {temp}/fastcgi;
    uwsgi_temp_path {temp}/uwsgi;
    scgi_temp_path {temp}/scgi;
    include {conf_dir}/wordgame-upstream.conf;
    server {{
        listen 127.0.0.1:{port};
        server_name _;
        include {conf_dir}/wordgame-locations.conf;
    }}
}}
"""
    )
    return main


@dataclass
class DeploySite:
    port: int
    env: dict[str, str]
    run_dir: Path
    processes: list[Process] = field(default_factory=list)
    daphne_logs: list[Path] = field(default_factory=list)

    def start_process(self, name: str, argv: list[str]) -> Process:
        log = ARTIFACTS / f"deploy-{name}.log"
        with log.open("wb") as out:
            proc = subprocess.Popen(argv, cwd=ROOT, env=self.env, stdout=out, stderr=subprocess.STDOUT)
        process = Process(name, proc, log)
        self.processes.append(process)
        return process

    def visitor(self, user: Any = None, *, source: str = "127.0.0.1") -> Visitor:
        return Visitor("127.0.0.1", self.port, session_of(user) if user is not None else "", source=source)

    def ws_connects(self) -> list[int]:
        """How many WebSockets each Daphne worker has accepted so far (from its JSON log)."""
        return [log.read_text(errors="replace").count('"event":"ws_connect"') for log in self.daphne_logs]

    def requests_per_worker(self, game_id: int) -> list[int]:
        """How many requests and sockets about game ``game_id`` each Daphne worker has
        served so far (from its JSON log)."""
        about = re.compile(rf'"event":"(?:http|ws_connect)".*"path":"[^"]*/games/{game_id}[/"]')
        return [len(about.findall(log.read_text(errors="replace"))) for log in self.daphne_logs]

    def lines_about(self, game_id: int) -> list[list[str]]:
        """Each worker's log lines about game ``game_id`` (what a failed count saw)."""
        return [
            [line for line in log.read_text(errors="replace").splitlines() if f"/games/{game_id}" in line]
            for log in self.daphne_logs
        ]

    def stop(self) -> None:
        for process in reversed(self.processes):
            process.stop()


@pytest.fixture
def deploy_site(redis_url: str, transactional_db: None, tmp_path: Path) -> Iterator[DeploySite]:
    if not Path(NGINX).exists():
        service_unavailable("nginx is not installed (apt-get install nginx; .ci/run does it)")
    ARTIFACTS.mkdir(exist_ok=True)
    run_dir, static_root = tmp_path / "run", tmp_path / "static"
    run_dir.mkdir()
    env = server_env(
        DEBUG="0",
        # The sessions this process makes for the players must be valid there.
        SECRET_KEY=settings.SECRET_KEY,
        ALLOWED_HOSTS="127.0.0.1,localhost",
        SECURE_COOKIES="0",  # plain HTTP in this test; production sends secure cookies
        STATIC_ROOT=str(static_root),
        REDIS_URL=redis_url,
        SIGNUP_RATE_PER_HOUR="2",
        LOGIN_FAILURE_LIMIT="3",
    )
    collected = subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert collected.returncode == 0, collected.stderr
    site = DeploySite(free_port(), env, run_dir)
    try:
        for n in (1, 2):
            daphne = site.start_process(f"daphne-{n}", daphne_command(n, run_dir))
            site.daphne_logs.append(daphne.log)
            socket_file = run_dir / f"daphne-{n}.sock"
            wait_for(socket_file.exists, f"daphne-{n}'s socket", daphne)
        config = nginx_config(tmp_path, site.port, run_dir, static_root)
        nginx = site.start_process("nginx", [NGINX, "-c", str(config), "-p", str(tmp_path)])
        wait_for(lambda: site.visitor().get("/healthz").status == 200, "nginx in front of the workers", nginx)
        yield site
    finally:
        site.stop()


def test_a_move_through_one_worker_reaches_a_player_on_the_other(
    deploy_site: DeploySite, ana: Any, ben: Any
) -> None:
    site = deploy_site
    game = make_game(ana, ben)
    # A game's own sockets go to its worker (the next test); ben's lobby sockets are
    # spread over the workers: open them until each worker holds at least one.
    sockets: list[Any] = []
    with ExitStack() as open_sockets:
        while min(site.ws_connects()) == 0:
            assert len(sockets) < 8, f"nginx sent every lobby socket to one worker: {site.ws_connects()}"
            socket = open_sockets.enter_context(site.visitor(ben).websocket("/ws/lobby/"))
            socket.recv(timeout=10)  # the snapshot
            sockets.append(socket)
        version = Game.objects.get(pk=game.pk).version
        response = site.visitor(ana).post(
            f"/games/{game.pk}/pass/", {"version": version, "action_id": fresh_action_id()}
        )
        assert response.status == 200, response.text[-2000:]
        # Whichever worker took the move, ben's lobby on the other worker hears of it:
        # his turn now.
        for socket in sockets:
            assert f"/games/{game.pk}/" in socket.recv(timeout=10)


def test_everything_of_one_game_goes_to_one_worker(deploy_site: DeploySite, ana: Any, ben: Any) -> None:
    """nginx hashes a game's id (deploy/nginx: ``wordgame_games``): its page, its
    actions, its API calls and every viewer's socket reach the same worker, so that one
    render serves every viewer of a kind; other games go to the other worker."""
    site = deploy_site
    games = [make_game(ana, ben) for _ in range(8)]
    workers_of: dict[int, set[int]] = {}
    for game in games:
        before = site.requests_per_worker(game.pk)
        with ExitStack() as open_sockets:
            for user in (ana, ben, ana, ben):
                socket = open_sockets.enter_context(site.visitor(user).websocket(f"/ws/games/{game.pk}/"))
                assert "board" in fragment_ids(socket.recv(timeout=10))
            assert site.visitor(ana).get(f"/games/{game.pk}/").status == 200
            version = Game.objects.get(pk=game.pk).version
            response = site.visitor(ana).post(
                f"/games/{game.pk}/pass/", {"version": version, "action_id": fresh_action_id()}
            )
            assert response.status == 200, response.text[-2000:]
            # Without a token the API refuses, but the game's worker is the one refusing.
            assert site.visitor(ana).get(f"/api/v1/games/{game.pk}").status == 401
        after = site.requests_per_worker(game.pk)
        # 4 sockets, the page, the pass and the API read: 7 on one worker, none elsewhere.
        served = [a - b for a, b in zip(after, before, strict=True)]
        assert sorted(served) == [0, 7], (served, site.lines_about(game.pk))
        workers_of[game.pk] = {n for n, count in enumerate(served) if count}
    assert set().union(*workers_of.values()) == {0, 1}, f"every game went to one worker: {workers_of}"


def test_a_computer_turn_completes_through_a_task_worker(deploy_site: DeploySite, ana: Any) -> None:
    site = deploy_site
    site.start_process(
        "worker", [sys.executable, "manage.py", "db_worker", "--no-startup-delay", "--interval", "0.2"]
    )
    game = make_computer_game(ana, level="easy", racks=("CATSEOD", "DOGSEAT"))
    with site.visitor(ana).websocket(f"/ws/games/{game.pk}/") as socket:
        assert "board" in fragment_ids(socket.recv(timeout=10))
        response = site.visitor(ana).post(
            f"/games/{game.pk}/pass/", {"version": game.version, "action_id": fresh_action_id()}
        )
        assert response.status == 200, response.text[-2000:]
        # The web worker only enqueued the computer's turn; the task worker plays it, once.
        replies = Move.objects.filter(game=game, user__isnull=True)
        deadline = time.monotonic() + 30
        while not replies.exists() and time.monotonic() < deadline:
            time.sleep(0.2)
        assert replies.count() == 1
        seen: set[str] = set()
        while "scoreboard" not in seen or len(seen) < 2:
            seen |= fragment_ids(socket.recv(timeout=10))
        assert Game.objects.get(pk=game.pk).turn_seat == 0


def test_pages_static_files_and_headers_through_nginx(deploy_site: DeploySite, ana: Any) -> None:
    site = deploy_site
    home = site.visitor().get("/")
    assert home.status == 200
    assert "unsafe" not in home.headers["Content-Security-Policy"]
    assert home.headers["X-Content-Type-Options"] == "nosniff"
    # Hashed static names (collectstatic, WhiteNoise's manifest), served by nginx itself.
    scripts = re.findall(r'src="(/static/[^"]+\.[0-9a-f]{12}\.js)"', home.text)
    assert scripts, home.text[:1000]
    static = site.visitor().get(scripts[0], **{"Accept-Encoding": "gzip"})
    assert static.status == 200
    assert "immutable" in static.headers["Cache-Control"]
    assert static.headers.get("Content-Encoding") == "gzip"
    assert "nginx" in static.headers.get("Server", "")
    assert site.visitor(ana).get("/games/").status == 200
    # A WebSocket from another site is refused, through the proxy too.
    from websockets.sync.client import connect
    from websockets.typing import Origin

    visitor = site.visitor(ana)
    with (
        pytest.raises((ConnectionClosed, Exception)) as refused,
        connect(
            f"ws://127.0.0.1:{site.port}/ws/lobby/",
            origin=Origin("http://127.0.0.1:1"),
            additional_headers={"Cookie": visitor.cookie},
            open_timeout=10,
        ) as socket,
    ):
        socket.recv(timeout=5)
    assert refused.value is not None


def loopback_addresses(count: int) -> list[str]:
    """Fresh client addresses: the sign-up counter lives in Redis for an hour, across runs."""
    start = random.randrange(2, 250)
    return [f"127.{random.randrange(1, 250)}.{start + n}.{random.randrange(2, 250)}" for n in range(count)]


def log_in(site: DeploySite, source: str, password: str) -> int:
    return (
        site.visitor(source=source)
        .post("/accounts/login/", {"username": "ana", "password": password}, htmx=False)
        .status
    )


def test_throttling_sees_the_real_client_address_behind_nginx(deploy_site: DeploySite, ana: Any) -> None:
    site = deploy_site
    attacker, player, bot, person = loopback_addresses(4)
    ana.set_password("right-Pass-7")
    ana.save()
    # Three failures (LOGIN_FAILURE_LIMIT) from one machine lock it out...
    assert [log_in(site, attacker, "wrong") for _ in range(3)] == [200, 200, 429]
    assert log_in(site, attacker, "right-Pass-7") == 429
    # ...but not ana on another machine, though nginx is the peer Daphne sees for both.
    assert log_in(site, player, "right-Pass-7") == 302

    def sign_up(source: str, name: str) -> int:
        data = {
            "username": name,
            "email": f"{name}@example.org",
            "password1": "s3cret-Pass-9",
            "password2": "s3cret-Pass-9",
        }
        return site.visitor(source=source).post("/accounts/signup/", data, htmx=False).status

    assert [sign_up(bot, f"bot{n}") for n in range(3)] == [302, 302, 429]
    assert sign_up(person, "dora") == 302
    # The access log names the client, not the proxy.
    time.sleep(0.2)
    logs = "".join(log.read_text(errors="replace") for log in site.daphne_logs)
    assert f'"client":"{bot}"' in logs
