"""Games tests: a small word list instead of the built lexicons, and the computer
player thinking synchronously (one test drives the real process pool)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
import pytest_asyncio
from asgiref.sync import sync_to_async
from django.db import connection

from games import models
from tests.games.helpers import lexicon, make_game


@pytest.fixture(autouse=True)
def _small_lexicon(monkeypatch: pytest.MonkeyPatch, settings: Any) -> None:
    words = lexicon()
    monkeypatch.setattr(models, "lexicon_for", lambda language, version=None: words)
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"


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
