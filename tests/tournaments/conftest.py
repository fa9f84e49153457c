"""Tournament tests: the games' small word list (games play out in a few moves), and
the organiser persona, olga, in the "Organisers" group the migration creates."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
import pytest_asyncio
from asgiref.sync import sync_to_async
from django.db import connection

from games import models as game_models
from tests.games.helpers import lexicon
from tests.tournaments.helpers import make_organiser


@pytest.fixture(autouse=True)
def _small_lexicon(monkeypatch: pytest.MonkeyPatch) -> None:
    words = lexicon()
    monkeypatch.setattr(game_models, "lexicon_for", lambda language, version=None: words)


@pytest.fixture
def olga(db: None) -> Any:
    """An organiser (in the "Organisers" group)."""
    return make_organiser("olga")


@pytest_asyncio.fixture
async def close_db_connection() -> AsyncIterator[None]:
    """Async tests reach the database from asgiref's shared sync thread; close its
    connection at the end, or PostgreSQL cannot drop the test database."""
    yield

    def close() -> None:
        connection.close()

    await sync_to_async(close)()
