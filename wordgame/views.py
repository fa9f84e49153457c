"""Site-wide pages that belong to no app: the home page and the health check."""

from __future__ import annotations

import asyncio
import uuid

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from engine.tiles import LANGUAGES, tileset


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    languages = [(code, tileset(code).native_name) for code in LANGUAGES]
    return render(request, "home.html", {"game_languages": languages})


def database_status() -> dict[str, object]:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as exc:  # noqa: BLE001 - any failure means "down"; report it, don't raise
        return {"ok": False, "vendor": connection.vendor, "error": str(exc)[:200]}
    return {"ok": True, "vendor": connection.vendor}


async def _channel_roundtrip() -> None:
    layer = get_channel_layer()
    assert layer is not None
    channel = await layer.new_channel()
    token = uuid.uuid4().hex
    await layer.send(channel, {"type": "health.check", "token": token})
    message = await asyncio.wait_for(layer.receive(channel), timeout=2)
    if message.get("token") != token:
        raise RuntimeError("channel layer returned a different message")


def channel_layer_status() -> dict[str, object]:
    backend = str(settings.CHANNEL_LAYERS["default"]["BACKEND"]).rsplit(".", 1)[-1]
    try:
        async_to_sync(_channel_roundtrip)()
    except Exception as exc:  # noqa: BLE001
        return {"ok": False, "backend": backend, "error": str(exc)[:200] or type(exc).__name__}
    return {"ok": True, "backend": backend}


@require_GET
@never_cache
def healthz(request: HttpRequest) -> JsonResponse:
    """Database and channel-layer status; HTTP 503 when either is down."""
    db = database_status()
    layer = channel_layer_status()
    ok = bool(db["ok"] and layer["ok"])
    return JsonResponse({"ok": ok, "database": db, "channel_layer": layer}, status=200 if ok else 503)
