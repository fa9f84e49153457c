"""The site's security settings and checks: WebSocket origin (scheme, host and port),
Content-Security-Policy without inline code, HSTS and the HTTPS redirect from the
environment."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.db import connection
from django.test import Client

from wordgame.asgi import application

ROOT = Path(__file__).resolve().parents[2]


@pytest_asyncio.fixture
async def close_db_connection() -> AsyncIterator[None]:
    yield

    def close() -> None:
        connection.close()  # looked up in the sync thread: its own connection

    await sync_to_async(close)()


def session_cookie(user: Any) -> bytes:
    client = Client()
    client.force_login(user)
    return f"sessionid={client.cookies['sessionid'].value}".encode()


async def lobby_socket(user: Any, headers: list[tuple[bytes, bytes]]) -> bool:
    cookie = await sync_to_async(session_cookie)(user)
    communicator = WebsocketCommunicator(application, "/ws/lobby/", headers=[*headers, (b"cookie", cookie)])
    connected, _ = await communicator.connect()
    await communicator.disconnect()
    return bool(connected)


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("close_db_connection")
@pytest.mark.parametrize(
    ("host", "origin", "extra", "allowed"),
    [
        ("localhost:8000", "http://localhost:8000", [], True),
        ("localhost", "http://localhost", [], True),
        # Same host name, another port or scheme: another origin, another site.
        ("localhost:8000", "http://localhost:9000", [], False),
        ("localhost:8000", "http://localhost", [], False),
        ("localhost:8000", "https://localhost:8000", [], False),
        ("localhost", "https://localhost", [], False),
        ("localhost:8000", "http://evil.example:8000", [], False),
        ("localhost:8000", "null", [], False),
        ("localhost:8000", None, [], False),
        # A host not in ALLOWED_HOSTS, even with a matching origin.
        ("evil.example", "http://evil.example", [], False),
        # Behind the TLS proxy (SECURE_PROXY_SSL_HEADER): the browser's origin is https.
        ("localhost", "https://localhost", [(b"x-forwarded-proto", b"https")], True),
        ("localhost", "http://localhost", [(b"x-forwarded-proto", b"https")], False),
    ],
)
async def test_websocket_origin_must_match_scheme_host_and_port(
    ana: Any, settings: Any, host: str, origin: str | None, extra: list[tuple[bytes, bytes]], allowed: bool
) -> None:
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    headers = [(b"host", host.encode()), *extra]
    if origin is not None:
        headers.append((b"origin", origin.encode()))
    assert await lobby_socket(ana, headers) is allowed


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("close_db_connection")
async def test_trusted_origins_may_connect(ana: Any, settings: Any) -> None:
    settings.CSRF_TRUSTED_ORIGINS = ["https://play.example.org"]
    headers = [(b"host", b"localhost"), (b"origin", b"https://play.example.org")]
    assert await lobby_socket(ana, headers)


@pytest.mark.django_db
def test_pages_carry_a_strict_content_security_policy(client: Client) -> None:
    policy = client.get("/").headers["Content-Security-Policy"]
    directives = dict(d.strip().split(" ", 1) for d in policy.split(";") if d.strip())
    assert directives["script-src"] == "'self'"
    assert directives["style-src"] == "'self'"
    assert directives["default-src"] == "'self'"
    assert directives["frame-ancestors"] == "'none'"
    assert "unsafe" not in policy


INLINE = [
    (re.compile(r"<script(?![^>]*\bsrc=)(?![^>]*type=\"application/json\")[^>]*>", re.I), "inline <script>"),
    (re.compile(r"<style", re.I), "<style> element"),
    (re.compile(r"\sstyle=", re.I), "style attribute"),
    (re.compile(r"\son[a-z]+=", re.I), "inline event handler"),
    (re.compile(r"hx-on", re.I), "hx-on (evaluated code)"),
]


def test_templates_have_no_inline_script_or_style() -> None:
    """The policy forbids inline code: no template may carry any (json_script data blocks,
    which are never run, are fine)."""
    found = []
    for path in sorted((ROOT / "templates").rglob("*.html")):
        text = path.read_text(encoding="utf-8")
        for pattern, what in INLINE:
            found += [f"{path.relative_to(ROOT)}: {what}: {m.group(0)!r}" for m in pattern.finditer(text)]
    assert not found, "\n".join(found)


def test_htmx_adds_no_indicator_styles() -> None:
    base = (ROOT / "templates" / "base.html").read_text(encoding="utf-8")
    assert '<meta name="htmx-config" content=\'{"includeIndicatorStyles": false' in base


def settings_values(names: list[str], **env: str) -> list[str]:
    code = f"import wordgame.settings as s; print(*[repr(getattr(s, n)) for n in {names!r}], sep='\\n')"
    base = {k: v for k, v in os.environ.items() if not k.startswith("SECURE_")}
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={**base, **env},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.splitlines()


@pytest.mark.pure
def test_hsts_and_https_redirect_come_from_the_environment() -> None:
    names = [
        "SECURE_SSL_REDIRECT",
        "SECURE_HSTS_SECONDS",
        "SECURE_HSTS_INCLUDE_SUBDOMAINS",
        "SECURE_HSTS_PRELOAD",
    ]
    assert settings_values(names) == ["False", "0", "False", "False"]
    assert settings_values(
        names,
        SECURE_SSL_REDIRECT="1",
        SECURE_HSTS_SECONDS="31536000",
        SECURE_HSTS_INCLUDE_SUBDOMAINS="1",
        SECURE_HSTS_PRELOAD="1",
    ) == ["True", "31536000", "True", "True"]


@pytest.mark.django_db
def test_https_redirect_and_hsts_header(client: Client, settings: Any) -> None:
    settings.SECURE_SSL_REDIRECT = True
    settings.SECURE_HSTS_SECONDS = 3600
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    plain = client.get("/words/")
    assert plain.status_code == 301
    assert plain.headers["Location"] == "https://testserver/words/"
    secure = client.get("/words/", HTTP_X_FORWARDED_PROTO="https")
    assert secure.status_code == 200
    assert secure.headers["Strict-Transport-Security"] == "max-age=3600"
    # The load balancer's health check works over plain HTTP.
    assert client.get("/healthz").status_code == 200
