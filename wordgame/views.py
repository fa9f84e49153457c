"""Site-wide pages that belong to no app: the home page and the health check."""

from __future__ import annotations

import asyncio
import logging
import uuid

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_safe

from dictionaries.graphs import base_graph
from engine.tiles import LANGUAGES, tileset


@require_safe  # HEAD too: monitors and link checkers use it
def home(request: HttpRequest) -> HttpResponse:
    languages = [(code, tileset(code).native_name) for code in LANGUAGES]
    return render(request, "home.html", {"game_languages": languages})


log = logging.getLogger(__name__)


def database_ok() -> bool:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception:
        log.exception("healthz: the database does not answer")
        return False
    return True


async def _channel_roundtrip() -> None:
    layer = get_channel_layer()
    assert layer is not None
    channel = await layer.new_channel()
    token = uuid.uuid4().hex
    await layer.send(channel, {"type": "health.check", "token": token})
    message = await asyncio.wait_for(layer.receive(channel), timeout=2)
    if message.get("token") != token:
        raise RuntimeError("channel layer returned a different message")


def channel_layer_ok() -> bool:
    try:
        async_to_sync(_channel_roundtrip)()
    except Exception:
        log.exception("healthz: the channel layer does not carry a message")
        return False
    return True


def lexicons_missing() -> list[str]:
    """The game languages whose word graph cannot be loaded (or is empty)."""
    missing = []
    for code in LANGUAGES:
        try:
            if base_graph(code).word_count == 0:
                missing.append(code)
        except Exception:
            log.exception("healthz: the %s lexicon cannot be loaded", code)
            missing.append(code)
    return missing


@require_GET
@never_cache
def healthz(request: HttpRequest) -> JsonResponse:
    """Whether the database, the channel layer and every game language's lexicon work;
    HTTP 503 when one does not. It names no backend, host or error (this is public):
    the reasons go to the log."""
    missing = lexicons_missing()
    checks: dict[str, dict[str, object]] = {
        "database": {"ok": database_ok()},
        "channel_layer": {"ok": channel_layer_ok()},
        "lexicons": {"ok": not missing, "missing": missing},
    }
    ok = all(bool(check["ok"]) for check in checks.values())
    return JsonResponse({"ok": ok, **checks}, status=200 if ok else 503)
