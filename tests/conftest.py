"""Project-wide fixtures: personas, fast settings, and the services switch.

Personas (STYLE.md): ``ana`` (seat 1), ``ben`` (seat 2), ``cleo`` (signed-in outsider or
spectator), ``mia`` (moderator, ``is_staff``).

Services: tests marked ``services`` need PostgreSQL and/or Redis. Without them they skip,
unless ``REQUIRE_SERVICES=1`` (CI's service run), which turns the skip into a failure.
"""

from __future__ import annotations

import itertools
import os
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from tests.factories import make_user

PURE_DIRS = ("engine", "lexicons")

# Parallel workers (pytest -n) share one Redis: each keeps its own channel groups and cache
# keys, it and the servers it starts (they inherit the environment), so that game 5 of one
# worker's database is never game 5 of another's.
XDIST_WORKER = os.environ.get("PYTEST_XDIST_WORKER", "")
if XDIST_WORKER:
    os.environ.setdefault("CHANNEL_LAYER_PREFIX", f"asgi-{XDIST_WORKER}")
    os.environ.setdefault("CACHE_KEY_PREFIX", f"wordgame-{XDIST_WORKER}")
IMMEDIATE_TASKS = {
    "default": {
        "BACKEND": "wordgame.task_backends.ImmediateAfterCommitBackend",
        "QUEUES": ["default", "clocks"],
    }
}


def require_services() -> bool:
    return os.environ.get("REQUIRE_SERVICES", "").strip().lower() in {"1", "true", "yes", "on"}


def service_unavailable(reason: str) -> None:
    """Skip, or fail when CI asked for the services to be really there."""
    if require_services():
        pytest.fail(f"REQUIRE_SERVICES=1 but {reason}", pytrace=False)
    pytest.skip(f"service not available: {reason}")


def tcp_reachable(url: str, default_port: int) -> bool:
    parts = urlsplit(url)
    try:
        with socket.create_connection((parts.hostname or "127.0.0.1", parts.port or default_port), timeout=1):
            return True
    except OSError:
        return False


def pytest_report_header(config: pytest.Config) -> list[str]:
    from django.conf import settings

    engine = str(settings.DATABASES["default"]["ENGINE"])
    layer = settings.CHANNEL_LAYERS["default"]["BACKEND"]
    return [
        f"wordgame: database={engine.rsplit('.', 1)[-1]} channel_layer={str(layer).rsplit('.', 1)[-1]} "
        f"REQUIRE_SERVICES={'1' if require_services() else '0'}"
    ]


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    # Tests in engine/ and lexicons/ touch neither database nor channel layer: mark them so
    # CI's second (services) run can leave them out with -m "not pure".
    root = Path(__file__).parent
    for item in items:
        rel = Path(str(item.fspath)).relative_to(root)
        if rel.parts and rel.parts[0] in PURE_DIRS:
            item.add_marker(pytest.mark.pure)


@pytest.fixture(autouse=True)
def _fast_settings(settings: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    # Tasks run in the process that enqueues them, once the enqueuing transaction commits
    # (a computer's reply is there when the move that handed it the turn returns); tests of
    # the real queue and its workers switch to the database backend themselves.
    settings.TASKS = IMMEDIATE_TASKS
    # The sign-up counter outlives a test (and a run, in Redis); tests of the limit lower it.
    settings.SIGNUP_RATE_PER_HOUR = 1000
    # So does the chat counter, per user id, and ids come again after each rollback.
    settings.CHAT_LINES_PER_MINUTE = 1000
    if not os.environ.get("REDIS_URL"):
        settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    elif XDIST_WORKER:
        # In case the settings were read before this module set the prefixes.
        layer = settings.CHANNEL_LAYERS["default"]
        settings.CHANNEL_LAYERS = {
            "default": {**layer, "CONFIG": {**layer["CONFIG"], "prefix": f"asgi-{XDIST_WORKER}"}}
        }
        cache = settings.CACHES["default"]
        settings.CACHES = {"default": {**cache, "KEY_PREFIX": f"wordgame-{XDIST_WORKER}"}}


@pytest.fixture(autouse=True)
def _default_interface_language() -> Iterator[None]:
    """Every test starts and ends in the default interface language: a request with
    Accept-Language or the language cookie leaves its language active in the thread,
    which would leak into the next test's expectations."""
    from django.conf import settings
    from django.utils import translation

    translation.activate(settings.LANGUAGE_CODE)
    yield
    translation.activate(settings.LANGUAGE_CODE)


@pytest.fixture(autouse=True)
def _no_games_read_before() -> Iterator[None]:
    """The process's cache of games read per version (games.live.loaded_games) is
    keyed by game id, and a rolled-back test's ids come again in the next test."""
    from games.live import loaded_games

    loaded_games.clear()
    yield
    loaded_games.clear()


@pytest.fixture
def redis_url() -> str:
    """The Redis URL for tests that need a real Redis (skip or fail without one)."""
    url = os.environ.get("REDIS_URL", "")
    if not url:
        service_unavailable("REDIS_URL is not set")
    if not tcp_reachable(url, 6379):
        service_unavailable(f"Redis at {url} does not answer")
    return url


@pytest.fixture
def postgres(django_db_setup: None) -> None:
    """For tests that need PostgreSQL's row locks (skip or fail on another database)."""
    from django.db import connection

    if connection.vendor != "postgresql":
        service_unavailable(f"the test database is {connection.vendor}, not PostgreSQL (set DATABASE_URL)")


@pytest.fixture
def ana(db: None) -> Any:
    return make_user("ana")


@pytest.fixture
def ben(db: None) -> Any:
    return make_user("ben")


@pytest.fixture
def cleo(db: None) -> Any:
    return make_user("cleo")


@pytest.fixture
def mia(db: None) -> Any:
    from django.contrib.auth.models import Group

    user = make_user("mia", is_staff=True)
    moderators = Group.objects.filter(name="Moderators").first()
    if moderators is not None:
        user.groups.add(moderators)
    return user


@pytest.fixture(autouse=True)
def _no_cache_outage_remembered() -> Iterator[None]:
    """The shared rate limiter remembers a cache failure for a few seconds (it lets
    everything through meanwhile): a test that brought the cache down must not leave
    the next test in the same process without limits."""
    from accounts import ratelimit

    ratelimit.reset_outage()
    yield
    ratelimit.reset_outage()


@pytest.fixture
def still_clock(monkeypatch: pytest.MonkeyPatch) -> float:
    """Rate limits count in fixed windows of the wall clock, so a test whose hits span a
    window's end gets a fresh budget halfway (a rare flake). This holds their clock in
    the middle of a window; returns the time it shows."""
    import time

    from accounts import ratelimit

    now = (time.time() // 60) * 60 + 30
    monkeypatch.setattr(ratelimit, "clock", lambda: now)
    return now


_cache_runs = itertools.count()


@pytest.fixture(autouse=True)
def _cache_of_its_own(settings: Any) -> None:
    """Each test counts in a cache of its own (a key prefix; still Redis in the services
    run): rate limits and cached scores are keyed by user and game ids, which repeat from
    test to test (rolled back) and between test workers sharing one Redis, so counts from
    other tests reached a limit they never should have (a flake seen in the full run)."""
    default = settings.CACHES["default"]
    prefix = f"test-{os.getpid()}-{next(_cache_runs)}"
    settings.CACHES = {**settings.CACHES, "default": {**default, "KEY_PREFIX": prefix}}
