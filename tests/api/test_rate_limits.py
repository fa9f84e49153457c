"""Requests per user per minute (all of a user's tokens together), writes and look-ups
apart, counted in the shared cache; over the limit: 429, JSON, Retry-After; with the cache
down, let through."""

from __future__ import annotations

import os
import subprocess
import sys
from typing import Any

import pytest

from api import ratelimit
from games.models import Game

pytestmark = pytest.mark.django_db


def test_writes_are_limited_per_user_across_tokens(
    api_as: Any, ana: Any, ben: Any, settings: Any, still_clock: float
) -> None:
    settings.API_WRITES_PER_MINUTE = 2
    api = api_as(ana)
    body = {"opponent": "computer", "level": "easy", "language": "en"}
    assert [api.post("/games", body).status_code for _ in range(2)] == [201, 201]
    limited = api.post("/games", body)
    assert limited.status_code == 429
    assert limited.json() == {
        "error": "rate_limited",
        "message": "Too many requests. Wait the number of seconds in Retry-After, then try again.",
    }
    assert 1 <= int(limited["Retry-After"]) <= 60
    assert Game.objects.count() == 2
    # Look-ups have their own budget; another token of the same player has not.
    assert api.get("/account").status_code == 200
    assert api_as(ana).post("/games", body).status_code == 429
    assert Game.objects.count() == 2
    # Another player has a budget of their own.
    assert api_as(ben).post("/games", body).status_code == 201


def test_lookups_are_limited_per_user(api_as: Any, ana: Any, settings: Any, still_clock: float) -> None:
    settings.API_LOOKUPS_PER_MINUTE = 3
    api = api_as(ana)
    assert [api.get(path).status_code for path in ("/account", "/games", "/words/en/cat")] == [200, 200, 200]
    assert api.get("/account").status_code == 429
    assert api.post("/games", {"opponent": "computer", "level": "easy", "language": "en"}).status_code == 201


def test_the_count_starts_again_each_minute(api_as: Any, ana: Any, settings: Any, monkeypatch: Any) -> None:
    settings.API_LOOKUPS_PER_MINUTE = 1
    clock = [600.0]
    monkeypatch.setattr(ratelimit.RateLimit, "now", lambda self: clock[0])
    api = api_as(ana)
    assert api.get("/account").status_code == 200
    clock[0] = 645.0
    limited = api.get("/account")
    assert limited.status_code == 429
    assert limited["Retry-After"] == "15"
    clock[0] = 660.0
    assert api.get("/account").status_code == 200


def test_a_limit_of_zero_turns_it_off(api_as: Any, ana: Any, settings: Any) -> None:
    settings.API_LOOKUPS_PER_MINUTE = 0
    api = api_as(ana)
    assert all(api.get("/account").status_code == 200 for _ in range(20))


@pytest.mark.services
def test_processes_share_the_count_in_redis(
    api_as: Any, ana: Any, settings: Any, redis_url: str, monkeypatch: Any
) -> None:
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": redis_url,
            "KEY_PREFIX": f"api-test-{os.getpid()}",
        }
    }
    settings.API_LOOKUPS_PER_MINUTE = 5
    clock = 1_000_000 * 60 + 5.0  # a fixed window, in the middle of nowhere
    monkeypatch.setattr(ratelimit.RateLimit, "now", lambda self: clock)
    api = api_as(ana)
    assert api.get("/account").status_code == 200
    # Another process counts three requests of the same user in the same window.
    script = (
        "import django; django.setup()\n"
        "from django.conf import settings\n"
        f"settings.CACHES = {settings.CACHES!r}\n"
        "from api.ratelimit import count\n"
        f"print([count('lookup', 'user-{ana.pk}', {clock}) for _ in range(3)])\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", script],
        env={**os.environ, "DJANGO_SETTINGS_MODULE": "wordgame.settings"},
        capture_output=True,
        text=True,
        check=True,
    )
    assert out.stdout.strip() == "[2, 3, 4]"
    assert api.get("/account").status_code == 200  # the fifth
    assert api.get("/account").status_code == 429


class DownCache:
    """A cache whose server does not answer (Redis down)."""

    def add(self, *args: Any, **kwargs: Any) -> bool:
        raise ConnectionError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    incr = set = get = add


def test_with_the_cache_down_requests_are_let_through_with_a_log_line(
    api_as: Any, ana: Any, settings: Any, monkeypatch: Any, caplog: Any
) -> None:
    from accounts import ratelimit as shared

    settings.API_WRITES_PER_MINUTE = 1
    monkeypatch.setattr(shared, "cache", DownCache())
    shared.reset_outage()
    api = api_as(ana)
    body = {"opponent": "computer", "level": "easy", "language": "en"}
    try:
        assert [api.post("/games", body).status_code for _ in range(3)] == [201, 201, 201]
        assert api.get("/account").status_code == 200
    finally:
        shared.reset_outage()
    warnings = [r for r in caplog.records if r.name == "accounts.ratelimit"]
    # One line for the outage, not one per request (the cache is left alone a while).
    assert len(warnings) == 1
    assert "the cache is unavailable" in warnings[0].getMessage()
