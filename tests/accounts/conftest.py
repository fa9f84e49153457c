from __future__ import annotations

from collections.abc import AsyncIterator

import pytest_asyncio
from asgiref.sync import sync_to_async
from django.db import connection


@pytest_asyncio.fixture
async def close_db_connection() -> AsyncIterator[None]:
    """Async tests reach the database from asgiref's shared sync thread; close its
    connection at the end, or PostgreSQL cannot drop the test database."""
    yield

    def close() -> None:
        connection.close()  # looked up in the sync thread: its own connection

    await sync_to_async(close)()
