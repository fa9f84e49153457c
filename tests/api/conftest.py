"""API tests: a small word list (as the games tests use), a fresh cache per test (rate
limit counters must not leak from one test into the next), and personal tokens."""

from __future__ import annotations

import itertools
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest
import pytest_asyncio
from asgiref.sync import sync_to_async
from django.db import connection
from django.test import Client

from api.models import ApiToken
from games import models
from tests.games.helpers import lexicon, make_game

_caches = itertools.count()


@pytest.fixture(autouse=True)
def _api_settings(monkeypatch: pytest.MonkeyPatch, settings: Any) -> None:
    words = lexicon()
    monkeypatch.setattr(models, "lexicon_for", lambda language, version=None: words)
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": f"api-test-{next(_caches)}",
        }
    }
    settings.API_WRITES_PER_MINUTE = 1000
    settings.API_LOOKUPS_PER_MINUTE = 1000
    settings.API_TOKEN_REQUESTS_PER_MINUTE = 1000


def bearer(raw: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {raw}"}


@pytest.fixture
def token_for() -> Callable[[Any], str]:
    """``token_for(user)``: a new personal token (the raw string) for ``user``."""

    def make(user: Any) -> str:
        return ApiToken.issue(user, "test")[1]

    return make


class ApiClient:
    """A test client that sends JSON with a token: ``api.get(path)``, ``api.post(path, body)``."""

    def __init__(self, raw: str | None, language: str = "en") -> None:
        self.client = Client()
        self.headers = {"Accept-Language": language}
        if raw is not None:
            self.headers.update(bearer(raw))

    def get(self, path: str, **headers: str) -> Any:
        return self.client.get("/api/v1" + path, headers={**self.headers, **headers})

    def post(self, path: str, body: Any = None, *, raw: bytes | str | None = None, **headers: str) -> Any:
        import json

        data = raw if raw is not None else json.dumps(body if body is not None else {})
        return self.client.post(
            "/api/v1" + path, data=data, content_type="application/json", headers={**self.headers, **headers}
        )

    def put(self, path: str, **headers: str) -> Any:
        return self.client.put("/api/v1" + path, headers={**self.headers, **headers})

    def delete(self, path: str, **headers: str) -> Any:
        return self.client.delete("/api/v1" + path, headers={**self.headers, **headers})


@pytest.fixture
def api_as(token_for: Callable[[Any], str]) -> Callable[..., ApiClient]:
    """``api_as(user, language="en")``: an API client with a token of ``user``."""

    def make(user: Any, language: str = "en") -> ApiClient:
        return ApiClient(token_for(user) if user is not None else None, language)

    return make


@pytest.fixture
def game_ana_ben(ana: Any, ben: Any) -> models.Game:
    """ana (seat 0, to move) against ben; ana holds CATSEOD, ben JQXZKVW."""
    return make_game(ana, ben, racks=("CATSEOD", "JQXZKVW"))


@pytest_asyncio.fixture
async def close_db_connection() -> AsyncIterator[None]:
    """Async tests reach the database from asgiref's shared sync thread; close its
    connection at the end, or PostgreSQL cannot drop the test database."""
    yield

    def close() -> None:
        connection.close()  # looked up in the sync thread: its own connection

    await sync_to_async(close)()
