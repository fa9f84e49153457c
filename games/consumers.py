"""WebSocket consumers: they authorise, join a group and turn group events into the
partials their own viewer may see (STYLE.md 3.7). No game logic, no writes."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.utils import translation
from django.utils.translation import trans_real

from games import realtime, rendering
from games.models import Game


def viewer_language(scope: dict[str, Any]) -> str:
    """The interface language the viewer's pages are in: the language cookie, else the
    browser's Accept-Language, else the default, as LocaleMiddleware decides for HTTP."""
    cookie = scope.get("cookies", {}).get(settings.LANGUAGE_COOKIE_NAME)
    candidates = [cookie] if cookie else []
    headers = dict(scope.get("headers") or [])
    accept = headers.get(b"accept-language", b"").decode("latin-1")
    candidates += [code for code, _q in trans_real.parse_accept_lang_header(accept) if code != "*"]
    for code in candidates:
        try:
            return translation.get_supported_language_variant(code)
        except LookupError:
            continue
    return settings.LANGUAGE_CODE


def in_language(language: str, render: Callable[..., str]) -> Callable[..., str]:
    """``render`` run with ``language`` active (it runs in a worker thread, where no
    middleware has activated one)."""

    def rendered(*args: Any) -> str:
        with translation.override(language):
            return render(*args)

    return rendered


#: A client may ask for a fresh snapshot at most this often; more is ignored, so a
#: misbehaving client cannot make the server re-render in a loop.
RESYNC_INTERVAL = 1.0


def wants_resync(text_data: str | None) -> bool:
    try:
        message = json.loads(text_data or "")
    except ValueError:
        return False
    return isinstance(message, dict) and (message.get("type") == "resync" or "resync" in message)


class ViewerConsumer(AsyncWebsocketConsumer):
    """What both consumers share: one group to leave on disconnect, fragments rendered
    in the viewer's language, and ``resync`` as the only message a client may send
    (at most once per ``RESYNC_INTERVAL``)."""

    group: str = ""
    language: str = ""  # the viewer's interface language, worked out on first use
    last_resync: float = float("-inf")

    async def push(self) -> None:
        raise NotImplementedError

    async def render(self, fragment: Callable[..., str], *args: Any) -> str:
        if not self.language:
            self.language = viewer_language(self.scope)
        return await database_sync_to_async(in_language(self.language, fragment))(*args)

    async def disconnect(self, code: int) -> None:
        if self.group:
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """The only message a client may send: ``{"type": "resync", ...}``."""
        if wants_resync(text_data) and self.resync_allowed():
            await self.push()

    def resync_allowed(self) -> bool:
        now = time.monotonic()
        if now - self.last_resync < RESYNC_INTERVAL:
            return False
        self.last_resync = now
        return True


class GameConsumer(ViewerConsumer):
    """``/ws/games/<id>/``: the live game for one viewer (player or spectator).

    It remembers what it last sent (``shown``), so that after a change it sends only
    what changed when the viewer's page is exactly one version behind, and the full
    snapshot on connect, on ``resync`` and whenever a version was skipped."""

    game_id: int
    shown: rendering.Shown | None = None

    async def connect(self) -> None:
        self.game_id = int(self.scope["url_route"]["kwargs"]["game_id"])
        user = self.scope.get("user")
        if not await Game.objects.watchable_by(user).filter(pk=self.game_id).aexists():
            await self.close()
            return
        self.group = realtime.game_group(self.game_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        # A snapshot at once: a (re)connecting browser can never stay stale.
        await self.push()

    async def game_changed(self, event: dict[str, Any]) -> None:
        await self.send_update(self.shown)

    async def chat_posted(self, event: dict[str, Any]) -> None:
        html = await self.render(rendering.chat_fragment, self.game_id, self.scope["user"])
        if html:
            await self.send(text_data=html)

    async def analysis_ready(self, event: dict[str, Any]) -> None:
        # The game-over panel links to the analysis once it is there.
        await self.push()

    async def push(self) -> None:
        """The full snapshot (on connect and on ``resync``)."""
        await self.send_update(None)

    async def send_update(self, since: rendering.Shown | None) -> None:
        # Handlers run one at a time per connection, so ``shown`` is always what this
        # socket sent last.
        html, self.shown = await self.render_push(since)
        if html:
            await self.send(text_data=html)

    async def render_push(self, since: rendering.Shown | None) -> tuple[str, rendering.Shown]:
        if not self.language:
            self.language = viewer_language(self.scope)
        user = self.scope["user"]

        def render() -> tuple[str, rendering.Shown]:
            with translation.override(self.language):
                return rendering.push(self.game_id, user, since)

        return await database_sync_to_async(render)()


class AnalysisConsumer(ViewerConsumer):
    """``/ws/games/<id>/analysis/``: the analysis page, updated when the analysis is ready."""

    game_id: int

    async def connect(self) -> None:
        self.game_id = int(self.scope["url_route"]["kwargs"]["game_id"])
        user = self.scope.get("user")
        if (
            not await Game.objects.watchable_by(user)
            .filter(pk=self.game_id, status=Game.Status.FINISHED)
            .aexists()
        ):
            await self.close()
            return
        self.group = realtime.game_group(self.game_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        await self.push()

    async def analysis_ready(self, event: dict[str, Any]) -> None:
        await self.push()

    async def game_changed(self, event: dict[str, Any]) -> None:
        """A finished game changes no more; nothing to show."""

    async def chat_posted(self, event: dict[str, Any]) -> None:
        """Chat is not part of the analysis page."""

    async def push(self) -> None:
        html = await self.render(rendering.analysis_fragment, self.game_id, self.scope["user"])
        await self.send(text_data=html)


class LobbyConsumer(ViewerConsumer):
    """``/ws/lobby/``: the signed-in user's game lists."""

    async def connect(self) -> None:
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.close()
            return
        self.group = realtime.lobby_group(user.pk)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        await self.push()

    async def lobby_changed(self, event: dict[str, Any]) -> None:
        await self.push()

    async def push(self) -> None:
        html = await self.render(rendering.lobby_fragment, self.scope["user"])
        await self.send(text_data=html)
