"""Browser tests: Debian's Chromium driven by Playwright against a real Daphne server.

The server runs in a second process (``tests/browser/asgi.py``: the site plus static
files) on a free port, using the test database this process created: SQLite's test
database is a file (``var/test-db.sqlite3``), PostgreSQL's is ``test_<name>``. Tests use
``django_db(transaction=True)`` so what they set up is committed and visible to it.
Players sign in by a session cookie made here with ``Client.force_login``.

Screenshots go to ``test-artifacts/`` (git-ignored), for people and for CI to keep.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

import pytest

T = TypeVar("T")
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if CHROMIUM.exists():
        return
    skip = pytest.mark.skip(reason=f"{CHROMIUM} is not installed (apt-get install chromium)")
    for item in items:
        if "browser" in item.keywords:
            item.add_marker(skip)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_until_up(url: str, proc: subprocess.Popen[bytes], log: Path, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"the test server exited:\n{log.read_text()[-3000:]}")
        try:
            with urllib.request.urlopen(url + "/healthz", timeout=1):
                return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"the test server did not start in {timeout}s:\n{log.read_text()[-3000:]}")


@contextmanager
def daphne_server(db_name: str, log_name: str, **env_vars: str) -> Iterator[str]:
    """Daphne serving the site on the test database ``db_name`` (its log in
    ``test-artifacts/``, extra settings in ``env_vars``); yields its URL, stops it after."""
    port = free_port()
    ARTIFACTS.mkdir(exist_ok=True)
    # One log per test worker: two workers writing one file truncate each other's, and a
    # failure then shows the other server's log.
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    log = ARTIFACTS / (f"{worker}-{log_name}" if worker else log_name)
    env = {
        **os.environ,
        "WORDGAME_TEST_DB_NAME": db_name,
        "DJANGO_SETTINGS_MODULE": "tests.browser.server_settings",
        "PYTHONPATH": str(ROOT),
        "DEBUG": "1",
        **env_vars,
    }
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    command = [
        sys.executable,
        "-m",
        "daphne",
        "-b",
        "127.0.0.1",
        "-p",
        str(port),
        "tests.browser.asgi:application",
    ]
    with log.open("wb") as out:
        proc = subprocess.Popen(command, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        wait_until_up(url, proc, log)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()


@pytest.fixture(scope="session")
def server_url(django_db_setup: None, django_db_blocker: Any) -> Iterator[str]:
    """Start Daphne on the test database; stop it at the end of the session."""
    from django.db import connection

    with django_db_blocker.unblock():
        db_name = str(connection.settings_dict["NAME"])
    with daphne_server(db_name, "server.log") as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Chromium for one test module. Module scope, not session: Playwright's sync API
    keeps an event loop running in this thread, which would break the async tests that
    run after these. While it runs, the ORM calls the tests make between browser steps
    are still plain synchronous code, hence DJANGO_ALLOW_ASYNC_UNSAFE for that time only."""
    from playwright.sync_api import sync_playwright

    previous = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        with sync_playwright() as p:
            chromium = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True)
            yield chromium
            chromium.close()
    finally:
        if previous is None:
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = previous


@pytest.fixture
def open_page(browser: Any, server_url: str, live_db: None) -> Iterator[Any]:
    """``open_page(user, path, viewport=...)``: a new browser context signed in as
    ``user``, with the page at ``path``. Contexts are closed after the test; page
    errors (uncaught JavaScript exceptions) fail the test."""
    from django.conf import settings
    from django.test import Client

    contexts: list[Any] = []
    errors: list[str] = []

    def make(
        user: Any,
        path: str,
        *,
        viewport: dict[str, int] | None = None,
        touch: bool = False,
        language: str | None = None,
        console: list[str] | None = None,
        setup: Callable[[Any], None] | None = None,
        bypass_csp: bool = False,
    ) -> Any:
        """``language``: the interface language (the language cookie); ``console``: a
        list that collects the page's console messages ("type: text"); ``setup``: called
        with the page before it loads (e.g. to route its WebSocket); ``bypass_csp``: let
        the test's own scripts run in the page (string predicates, injected helpers) under
        the site's strict Content-Security-Policy."""
        client = Client()
        client.force_login(user)
        context = browser.new_context(
            viewport=viewport or {"width": 1280, "height": 900},
            has_touch=touch,
            is_mobile=touch,
            device_scale_factor=1,
            locale="en-GB",
            bypass_csp=bypass_csp,
        )
        cookies = [
            {
                "name": settings.SESSION_COOKIE_NAME,
                "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                "url": server_url,
            }
        ]
        if language:
            cookies.append({"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": server_url})
        context.add_cookies(cookies)
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(10_000)
        page.on("pageerror", lambda exc: errors.append(f"{user}: {exc}"))
        if console is not None:
            page.on("console", lambda message: console.append(f"{message.type}: {message.text}"))
        if setup is not None:
            setup(page)
        page.goto(server_url + path)
        if page.locator("#game").count():
            # The WebSocket's first snapshot has been swapped in: the page is live.
            page.wait_for_selector('#game[data-live="true"]', state="attached")
        return page

    yield make
    for context in contexts:
        context.close()
    assert not errors, errors


@pytest.fixture
def live_db(transactional_db: None, settings: Any) -> None:
    """Committed data the server process can read; the test process thinks for the
    computer synchronously when its own setup hands the computer a turn (the immediate
    task backend of tests/conftest.py)."""


def in_thread(fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """Run ``fn`` in a fresh thread and return its result.

    Model methods broadcast through ``async_to_sync``, which refuses to run in a thread
    with a running event loop, and Playwright's sync API keeps one in this thread. The
    other thread has its own database connection to the same test database.
    """
    from django.db import connection

    def run() -> T:
        try:
            return fn(*args, **kwargs)
        finally:
            connection.close()

    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(run).result()


def shot(page: Any, name: str) -> None:
    """Save a screenshot as a test artefact."""
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)
