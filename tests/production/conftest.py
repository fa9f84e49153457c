"""The site as production runs it: Daphne processes (``wordgame.asgi``) in their own
processes, on the test database, with real PostgreSQL and Redis where a test needs them,
a private ``redis-server`` for tests that stop Redis, nginx in front for the deploy test.

Clients speak HTTP and WebSocket over the loopback interface like browsers (a session
cookie made here with ``Client.force_login``, a CSRF cookie and header, an ``Origin``).
Every process a test starts is stopped when it ends; logs go to ``test-artifacts/``.
"""

from __future__ import annotations

import http.client
import json
import os
import secrets
import shutil
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest

from tests.conftest import service_unavailable

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class UnixHTTPConnection(http.client.HTTPConnection):
    """HTTP over a Unix socket (Daphne's ``-u``, as deploy/ runs it)."""

    def __init__(self, path: str, timeout: float = 10) -> None:
        super().__init__("localhost", timeout=timeout)
        self.unix_path = path

    def connect(self) -> None:
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(self.timeout)
        self.sock.connect(self.unix_path)


@dataclass
class Response:
    status: int
    text: str
    headers: dict[str, str]


@dataclass
class Visitor:
    """A signed-in (or anonymous) browser, reduced to its cookies: HTTP requests with the
    session and CSRF cookies, from ``source`` (another loopback address stands for
    another client machine)."""

    host: str
    port: int
    session: str = ""
    source: str = "127.0.0.1"
    csrf: str = field(default_factory=lambda: secrets.token_hex(16))

    @property
    def origin(self) -> str:
        return f"http://{self.host}:{self.port}"

    @property
    def cookie(self) -> str:
        parts = [f"csrftoken={self.csrf}"]
        if self.session:
            parts.append(f"sessionid={self.session}")
        return "; ".join(parts)

    def request(
        self,
        method: str,
        path: str,
        data: dict[str, Any] | None = None,
        headers: dict[str, str] | None = None,
    ) -> Response:
        connection = http.client.HTTPConnection(
            self.host, self.port, timeout=30, source_address=(self.source, 0)
        )
        body = urlencode(data or {}, doseq=True) if method == "POST" else None
        all_headers = {"Cookie": self.cookie, "Host": f"{self.host}:{self.port}", **(headers or {})}
        if method == "POST":
            all_headers |= {
                "Content-Type": "application/x-www-form-urlencoded",
                "X-CSRFToken": self.csrf,
                "Origin": self.origin,
            }
        try:
            connection.request(method, path, body=body, headers=all_headers)
            response = connection.getresponse()
            return Response(
                response.status, response.read().decode("utf-8", "replace"), dict(response.getheaders())
            )
        finally:
            connection.close()

    def get(self, path: str, **headers: str) -> Response:
        return self.request("GET", path, headers=headers)

    def post(self, path: str, data: dict[str, Any], *, htmx: bool = True) -> Response:
        return self.request("POST", path, data, {"HX-Request": "true"} if htmx else {})

    def websocket(self, path: str, *, timeout: float = 10) -> Any:
        from websockets.sync.client import connect
        from websockets.typing import Origin

        return connect(
            f"ws://{self.host}:{self.port}{path}",
            origin=Origin(self.origin),
            additional_headers={"Cookie": self.cookie},
            open_timeout=timeout,
            ping_interval=None,  # as a browser: it answers pings, it sends none
            close_timeout=2,
        )


def session_of(user: Any) -> str:
    from django.test import Client

    client = Client()
    client.force_login(user)
    return str(client.cookies["sessionid"].value)


@dataclass
class Process:
    name: str
    proc: subprocess.Popen[bytes]
    log: Path

    def tail(self, chars: int = 4000) -> str:
        return self.log.read_text(errors="replace")[-chars:]

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)


def test_db_name() -> str:
    from django.db import connection

    return str(connection.settings_dict["NAME"])


@pytest.fixture(autouse=True)
def _servers_share_a_cache_of_this_test(monkeypatch: pytest.MonkeyPatch) -> None:
    """The servers a test starts share one cache key prefix, of this test alone: the rate
    limiter's counts (sign-ups and log-ins from 127.0.0.1) live in the shared Redis, and
    with a prefix per xdist worker the servers of earlier tests had used up a later test's
    sign-up allowance (429). Inherited through :func:`server_env`."""
    monkeypatch.setenv("CACHE_KEY_PREFIX", f"wordgame-{uuid.uuid4().hex[:12]}")


def server_env(**overrides: str) -> dict[str, str]:
    env = {
        **os.environ,
        "WORDGAME_TEST_DB_NAME": test_db_name(),
        "DJANGO_SETTINGS_MODULE": "tests.production.server_settings",
        "PYTHONPATH": str(ROOT),
        "DEBUG": "1",
    }
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    env.update(overrides)
    return env


def wait_for(
    check: Callable[[], bool], what: str, process: Process | None = None, timeout: float = 30
) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process is not None and process.proc.poll() is not None:
            raise RuntimeError(f"{process.name} exited while waiting for {what}:\n{process.tail()}")
        try:
            if check():
                return
        except OSError:
            pass
        time.sleep(0.2)
    tail = process.tail() if process is not None else ""
    raise RuntimeError(f"timed out waiting for {what}\n{tail}")


@dataclass
class Daphne(Process):
    port: int | None = None
    unix_socket: Path | None = None

    def healthz(self) -> int:
        if self.unix_socket is not None:
            connection: http.client.HTTPConnection = UnixHTTPConnection(str(self.unix_socket), timeout=5)
        else:
            connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=5)
        try:
            connection.request("GET", "/healthz", headers={"Host": "127.0.0.1"})
            return connection.getresponse().status
        finally:
            connection.close()

    def visitor(self, user: Any = None, **kwargs: Any) -> Visitor:
        assert self.port is not None
        return Visitor("127.0.0.1", self.port, session_of(user) if user is not None else "", **kwargs)


@pytest.fixture
def start_daphne(transactional_db: None) -> Iterator[Callable[..., Daphne]]:
    """``start_daphne(name, env={...}, unix_socket=None, proxy_headers=False)``: a Daphne
    process serving ``wordgame.asgi:application`` on the test database, up when returned
    (``/healthz`` answers 200)."""
    started: list[Daphne] = []
    ARTIFACTS.mkdir(exist_ok=True)

    def start(
        name: str,
        *,
        env: dict[str, str] | None = None,
        unix_socket: Path | None = None,
        proxy_headers: bool = False,
    ) -> Daphne:
        port = None if unix_socket is not None else free_port()
        bind = ["-u", str(unix_socket)] if unix_socket is not None else ["-b", "127.0.0.1", "-p", str(port)]
        args = [sys.executable, "-m", "daphne", *bind, *(["--proxy-headers"] if proxy_headers else [])]
        log = ARTIFACTS / f"{name}.log"
        with log.open("wb") as out:
            proc = subprocess.Popen(
                [*args, "wordgame.asgi:application"],
                cwd=ROOT,
                env=server_env(**(env or {})),
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        server = Daphne(name, proc, log, port=port, unix_socket=unix_socket)
        started.append(server)
        wait_for(lambda: server.healthz() == 200, f"{name} to answer /healthz", server)
        return server

    yield start
    for server in started:
        server.stop()


@dataclass
class RedisServer:
    """A private ``redis-server`` on its own port: tests may stop and restart it."""

    port: int
    workdir: Path
    process: Process | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def ping(self) -> bool:
        with socket.create_connection(("127.0.0.1", self.port), timeout=1) as s:
            s.sendall(b"PING\r\n")
            return s.recv(16).startswith(b"+PONG")

    def start(self) -> None:
        binary = shutil.which("redis-server")
        assert binary is not None
        log = ARTIFACTS / f"redis-{self.port}.log"
        with log.open("ab") as out:
            proc = subprocess.Popen(
                [binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
                cwd=self.workdir,
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        self.process = Process(f"redis-{self.port}", proc, log)
        wait_for(self.ping, "the private redis-server", self.process)

    def stop(self) -> None:
        if self.process is not None:
            self.process.stop()
            self.process = None


@pytest.fixture
def private_redis(tmp_path: Path) -> Iterator[RedisServer]:
    if shutil.which("redis-server") is None:
        service_unavailable("redis-server is not installed")
    ARTIFACTS.mkdir(exist_ok=True)
    server = RedisServer(free_port(), tmp_path)
    server.start()
    yield server
    server.stop()


def fragment_ids(message: str | bytes) -> set[str]:
    """The ids of the partials a pushed WebSocket message swaps in."""
    import re

    text = message.decode() if isinstance(message, bytes) else message
    return set(re.findall(r'<[a-z]+ id="([a-z-]+)"', text))


def fresh_action_id() -> str:
    return uuid.uuid4().hex


def as_json(response: Response) -> Any:
    return json.loads(response.text)
