"""Fault tests (issue 14, point 4): real Daphne processes on the test database and a
private ``redis-server`` each test starts on a free port, so Redis can be killed and
restarted without touching the shared one; database connections are dropped with
``pg_terminate_backend`` on the test database's own backends only.

They need PostgreSQL (``DATABASE_URL``) and the ``redis-server`` program: without them
they are skipped, or fail under ``REQUIRE_SERVICES=1``.
"""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import free_port
from tests.conftest import service_unavailable

ROOT = Path(__file__).resolve().parents[2]
LOGS = ROOT / "test-artifacts"
VERSION = re.compile(r'data-version="(\d+)"')


class PrivateRedis:
    """A ``redis-server`` of this test's own, without persistence."""

    def __init__(self) -> None:
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.proc = subprocess.Popen(
            [
                "redis-server",
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                import socket

                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                    return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("redis-server did not start")

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(timeout=10)


@pytest.fixture
def private_redis(postgres: None) -> Iterator[PrivateRedis]:
    if shutil.which("redis-server") is None:
        service_unavailable("redis-server is not installed")
    redis = PrivateRedis()
    redis.start()
    try:
        yield redis
    finally:
        redis.kill()


_collected: dict[str, str] = {}


def static_root() -> str:
    """Static files collected once per test run: with DEBUG off the pages name hashed files
    (WhiteNoise's manifest), as in production."""
    if "root" not in _collected:
        root = ROOT / "var" / f"test-static-{os.getpid()}"
        done = subprocess.run(
            [sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"],
            cwd=ROOT,
            env={
                **os.environ,
                "DEBUG": "0",
                "SECRET_KEY": "collectstatic",
                "ALLOWED_HOSTS": "127.0.0.1",
                "STATIC_ROOT": str(root),
            },
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert done.returncode == 0, done.stderr
        _collected["root"] = str(root)
    return _collected["root"]


class Daphne:
    """One Daphne worker on the test database and the private Redis."""

    def __init__(self, redis_url: str, db_name: str, secret: str) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.ws = f"ws://127.0.0.1:{self.port}"
        LOGS.mkdir(exist_ok=True)
        self.log = LOGS / f"faults-daphne-{self.port}.log"
        env = {
            **os.environ,
            "WORDGAME_TEST_DB_NAME": db_name,
            "DJANGO_SETTINGS_MODULE": "tests.browser.server_settings",
            "PYTHONPATH": str(ROOT),
            "REDIS_URL": redis_url,
            "DEBUG": "0",
            "STATIC_ROOT": static_root(),
            "SECRET_KEY": secret,
            "ALLOWED_HOSTS": "127.0.0.1",
            "SECURE_COOKIES": "0",
        }
        env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        with self.log.open("wb") as out:
            self.proc = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "daphne",
                    "-b",
                    "127.0.0.1",
                    "-p",
                    str(self.port),
                    "tests.browser.asgi:application",
                ],
                cwd=ROOT,
                env=env,
                stdout=out,
                stderr=subprocess.STDOUT,
            )

    def wait_up(self, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"daphne exited:\n{self.log.read_text()[-3000:]}")
            try:
                with urllib.request.urlopen(self.url + "/healthz", timeout=1):
                    return
            except OSError:
                time.sleep(0.2)
        raise RuntimeError(f"daphne did not start:\n{self.log.read_text()[-3000:]}")

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(timeout=10)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()


@pytest.fixture
def daphnes(private_redis: PrivateRedis, settings: Any) -> Iterator[list[Daphne]]:
    """Two Daphne workers sharing the private Redis."""
    from django.db import connection

    db_name = str(connection.settings_dict["NAME"])
    servers = [Daphne(private_redis.url, db_name, settings.SECRET_KEY) for _ in range(2)]
    try:
        for server in servers:
            server.wait_up()
        yield servers
    finally:
        for server in servers:
            server.stop()


def session_of(user: Any) -> str:
    from django.test import Client

    client = Client()
    client.force_login(user)
    return str(client.cookies["sessionid"].value)


class Player:
    """A signed-in browser: posts actions over HTTP and keeps one live socket, which it
    reconnects (as app.js does) when the server closes it, taking the snapshot it is
    sent. ``version`` is the version the page shows."""

    def __init__(self, user: Any, game_id: int) -> None:
        self.session = session_of(user)
        self.csrf = "c" * 32
        self.game_id = game_id
        self.version = 0
        self.frames: list[str] = []
        self.reconnects = 0
        self.task: asyncio.Task[None] | None = None
        self.online = False

    def headers(self, origin: str) -> dict[str, str]:
        return {
            "Cookie": f"sessionid={self.session}; csrftoken={self.csrf}",
            "X-CSRFToken": self.csrf,
            "Origin": origin,
            "Referer": origin + "/",
            "HX-Request": "true",
        }

    async def post(self, server: Daphne, action: str, data: dict[str, Any], timeout: float = 30) -> Any:
        import httpx

        async with httpx.AsyncClient(
            base_url=server.url, headers=self.headers(server.url), timeout=timeout
        ) as c:
            return await c.post(f"/games/{self.game_id}/{action}/", data=data)

    async def get(self, server: Daphne, path: str) -> Any:
        import httpx

        async with httpx.AsyncClient(base_url=server.url, headers=self.headers(server.url), timeout=30) as c:
            return await c.get(path)

    def watch(self, servers: list[Daphne]) -> None:
        """Stay connected, to the first of ``servers`` that answers."""
        self.online = True
        self.task = asyncio.create_task(self._live(servers))

    async def _live(self, servers: list[Daphne]) -> None:
        import websockets

        attempt = 0
        while self.online:
            server = servers[attempt % len(servers)]
            try:
                async with websockets.connect(
                    f"{server.ws}/ws/games/{self.game_id}/",
                    additional_headers={"Cookie": f"sessionid={self.session}", "Origin": server.url},
                    open_timeout=5,
                    ping_interval=None,
                ) as ws:
                    async for message in ws:
                        text = message if isinstance(message, str) else message.decode()
                        self.frames.append(text)
                        match = VERSION.search(text)
                        if match:
                            self.version = int(match.group(1))
            except (TimeoutError, OSError, websockets.WebSocketException):
                pass
            if self.online:
                self.reconnects += 1
                attempt += 1
                await asyncio.sleep(0.2)

    async def offline(self) -> None:
        self.online = False
        if self.task is not None:
            self.task.cancel()
            await asyncio.gather(self.task, return_exceptions=True)

    async def sees(self, version: int, timeout: float = 15) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.version >= version:
                return True
            await asyncio.sleep(0.02)
        return False
