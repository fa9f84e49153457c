"""Notification tests: the games' small word list, mail kept in memory unless a test
sends it through a real SMTP server (``smtp_server``)."""

from __future__ import annotations

import socket
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field
from email import message_from_bytes, policy
from email.message import EmailMessage
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
    settings.SITE_URL = "https://wordgame.example"


@pytest.fixture
def game_ana_ben(ana: Any, ben: Any) -> models.Game:
    """ana (seat 0, to move) against ben; ana holds CATSEOD, ben JQXZKVW."""
    return make_game(ana, ben, racks=("CATSEOD", "JQXZKVW"))


@dataclass
class Mailbox:
    port: int
    messages: list[EmailMessage] = field(default_factory=list)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def smtp_server(settings: Any) -> Iterator[Mailbox]:
    """A real SMTP server (aiosmtpd) on a free port of 127.0.0.1, with Django's SMTP
    backend pointed at it: what it receives is parsed into ``messages``."""
    from aiosmtpd.controller import Controller

    box = Mailbox(port=free_port())

    class Handler:
        async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
            parsed = message_from_bytes(envelope.content, policy=policy.default)
            assert isinstance(parsed, EmailMessage)
            box.messages.append(parsed)
            return "250 OK"

    controller = Controller(Handler(), hostname="127.0.0.1", port=box.port)
    controller.start()
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST = "127.0.0.1"
    settings.EMAIL_PORT = box.port
    settings.EMAIL_USE_TLS = False
    settings.EMAIL_HOST_USER = ""
    settings.EMAIL_HOST_PASSWORD = ""
    try:
        yield box
    finally:
        controller.stop()


@pytest_asyncio.fixture
async def close_db_connection() -> AsyncIterator[None]:
    yield

    def close() -> None:
        connection.close()

    await sync_to_async(close)()
