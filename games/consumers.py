"""WebSocket consumers: they authorise, join a group and turn group events into the
partials their own viewer may see (STYLE.md 3.7). No game logic, no writes."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections import Counter, OrderedDict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.utils import translation

from accounts.consumers import viewer_language
from games import realtime, rendering
from games.models import Game

#: Renders for sockets run on these threads. ``database_sync_to_async`` would run them
#: all on the process's one thread for consumers' synchronous code (HTTP requests get a
#: thread each, consumers share one): a render spends much of its time waiting for
#: PostgreSQL, and on one thread those waits queue behind each other. Each thread holds a
#: pooled database connection only while it renders (``DB_POOL_MAX_SIZE`` bounds all).
RENDER_THREADS = 4
render_threads = ThreadPoolExecutor(max_workers=RENDER_THREADS, thread_name_prefix="render")

R = TypeVar("R")


def off_thread(function: Callable[..., R]) -> Callable[..., Any]:
    """``function`` run on a render thread (database connections closed after, as
    ``database_sync_to_async`` does)."""
    return database_sync_to_async(function, thread_sensitive=False, executor=render_threads)


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


def client_message(text_data: str | None) -> str:
    """What a client asks for: ``resync`` (a full snapshot), ``check`` (what changed since
    this socket's last frame, nothing when it is current), or "" (anything else)."""
    try:
        message = json.loads(text_data or "")
    except ValueError:
        return ""
    if not isinstance(message, dict):
        return ""
    if message.get("type") == "resync" or "resync" in message:
        return "resync"
    return "check" if message.get("type") == "check" else ""


class ViewerConsumer(AsyncWebsocketConsumer):
    """What the consumers share: one group to leave on disconnect, fragments rendered
    in the viewer's language, and the only messages a client may send, ``resync`` and
    ``check`` (together at most once per ``RESYNC_INTERVAL``)."""

    group: str = ""
    language: str = ""  # the viewer's interface language, worked out on first use
    last_resync: float = float("-inf")

    async def push(self) -> None:
        raise NotImplementedError

    async def render(self, fragment: Callable[..., str], *args: Any) -> str:
        if not self.language:
            self.language = viewer_language(self.scope)
        return await off_thread(in_language(self.language, fragment))(*args)

    async def disconnect(self, code: int) -> None:
        if self.group:
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """The messages a client may send, each at most once per ``RESYNC_INTERVAL``:
        ``{"type": "resync"}`` and ``{"type": "check"}`` (:func:`client_message`)."""
        asked = client_message(text_data)
        if asked and self.resync_allowed():
            await (self.push() if asked == "resync" else self.check())

    async def check(self) -> None:
        """Here the same as ``resync``: the lobby and the analysis page keep no record
        of what they sent, so the full snapshot (only the game page sends ``check``)."""
        await self.push()

    def resync_allowed(self) -> bool:
        now = time.monotonic()
        if now - self.last_resync < RESYNC_INTERVAL:
            return False
        self.last_resync = now
        return True


PushKey = tuple[int, str, str, int | None, int | None]


class SharedPushes:
    """One process's game pushes, rendered once for all its sockets that see the same
    thing (issue 14, point 2): per change, one render per seated player and one per
    interface language for all spectators (``rendering.viewer_kind``), however many
    sockets there are; and the players' renders first.

    A render is keyed by (game, viewer kind, language, version the socket shows, version
    the event announced) and shared while it runs and for the next ``KEEP`` changes, so
    sockets handling the same event never render it twice. Snapshots on connect and
    resync (event version None) are only shared while they run, so none is stale.

    Players first: a spectator's socket waits (at most ``PLAYERS_FIRST_WAIT`` seconds)
    until every seated player's socket in this process has handled the change, so a
    crowd of spectators never delays the opponent."""

    KEEP = 256
    PLAYERS_FIRST_WAIT = 0.3

    def __init__(self) -> None:
        self.loop: asyncio.AbstractEventLoop | None = None
        self.renders: OrderedDict[PushKey, asyncio.Future[tuple[str, rendering.Shown]]] = OrderedDict()
        self.players: Counter[int] = Counter()  # game id -> seated players' sockets here
        self.handled: OrderedDict[tuple[int, int], tuple[list[int], asyncio.Event]] = OrderedDict()
        self.count = 0  # renders started (what the tests and the benchmark look at)

    def _here(self) -> None:
        """Futures and events belong to one event loop (tests run one per test)."""
        loop = asyncio.get_running_loop()
        if loop is not self.loop:
            self.loop = loop
            self.renders.clear()
            self.handled.clear()
            self.players.clear()

    async def push(
        self,
        game_id: int,
        kind: str,
        language: str,
        viewer: Any,
        since: rendering.Shown | None,
        version: int | None,
    ) -> tuple[str, rendering.Shown]:
        self._here()
        key: PushKey = (game_id, kind, language, since.version if since else None, version)
        render = self.renders.get(key)
        if render is None:

            def run() -> tuple[str, rendering.Shown]:
                with translation.override(language):
                    return rendering.shared_push(game_id, viewer, since, version)

            self.count += 1
            render = asyncio.ensure_future(off_thread(run)())
            self.renders[key] = render
            render.add_done_callback(lambda done: self._settled(key, done, keep=version is not None))
        html, shown = await asyncio.shield(render)
        return rendering.with_action_id(html), shown

    def _settled(self, key: PushKey, render: asyncio.Future[Any], *, keep: bool) -> None:
        if not keep or render.cancelled() or render.exception() is not None:
            if self.renders.get(key) is render:
                del self.renders[key]
            return
        while len(self.renders) > self.KEEP:
            self.renders.popitem(last=False)

    def _turn(self, game_id: int, version: int) -> tuple[list[int], asyncio.Event]:
        turn = self.handled.get((game_id, version))
        if turn is None:
            turn = self.handled[(game_id, version)] = ([0], asyncio.Event())
            while len(self.handled) > self.KEEP:
                self.handled.popitem(last=False)
        return turn

    def player_joined(self, game_id: int, delta: int) -> None:
        self._here()
        self.players[game_id] += delta
        if self.players[game_id] <= 0:
            del self.players[game_id]

    def player_handled(self, game_id: int, version: int) -> None:
        done, event = self._turn(game_id, version)
        done[0] += 1
        if done[0] >= self.players[game_id]:
            event.set()

    async def after_players(self, game_id: int, version: int) -> None:
        if not self.players[game_id]:
            return
        _done, event = self._turn(game_id, version)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(event.wait(), self.PLAYERS_FIRST_WAIT)


shared_pushes = SharedPushes()


def is_seat(kind: str) -> bool:
    return kind.startswith("seat-")


class GameConsumer(ViewerConsumer):
    """``/ws/games/<id>/``: the live game for one viewer (player or spectator).

    It remembers what it last sent (``shown``), so that after a change it sends only
    what changed when the viewer's page is exactly one version behind, and the full
    snapshot on connect, on ``resync`` and whenever a version was skipped."""

    game_id: int
    shown: rendering.Shown | None = None
    kind: str = ""  # rendering.viewer_kind: who else sees exactly what this viewer sees
    kind_fixed: bool = False
    counted: bool = False  # counted in shared_pushes.players

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

    async def disconnect(self, code: int) -> None:
        if self.counted:
            shared_pushes.player_joined(self.game_id, -1)
            self.counted = False
        await super().disconnect(code)

    async def viewer_kind(self) -> str:
        """This viewer's kind, looked up again until the game has started."""
        if not self.kind_fixed:
            self.kind, self.kind_fixed = await database_sync_to_async(rendering.viewer_kind)(
                self.game_id, self.scope.get("user")
            )
            if is_seat(self.kind) != self.counted:
                self.counted = is_seat(self.kind)
                shared_pushes.player_joined(self.game_id, 1 if self.counted else -1)
        return self.kind

    async def game_changed(self, event: dict[str, Any]) -> None:
        version = event.get("version")
        kind = await self.viewer_kind()
        if not isinstance(version, int):
            await self.send_update(self.shown, None)
        elif is_seat(kind):
            try:
                await self.send_update(self.shown, version)
            finally:
                shared_pushes.player_handled(self.game_id, version)
        else:
            await shared_pushes.after_players(self.game_id, version)
            await self.send_update(self.shown, version)

    async def chat_posted(self, event: dict[str, Any]) -> None:
        if not is_seat(await self.viewer_kind()):
            return  # chat is for the players only: nothing to render
        html = await self.render(rendering.chat_fragment, self.game_id, self.scope["user"])
        if html:
            await self.send(text_data=html)

    async def analysis_ready(self, event: dict[str, Any]) -> None:
        # The game-over panel links to the analysis once it is there.
        await self.push()

    async def push(self) -> None:
        """The full snapshot (on connect and on ``resync``)."""
        await self.send_update(None, None)

    async def check(self) -> None:
        """The game as it is now, from what this socket sent last: nothing when that is
        this version, a delta when the game moved on by one, else the snapshot (a task
        worker's change whose live update did not reach this process). The client's
        ``version`` is not needed: the socket's own record says what the page was sent.
        The version alone is read first: a check that finds nothing costs one small
        query, and one that finds a change renders it as a push of that version does
        (one read and render per version and kind of viewer, shared)."""
        now = await Game.objects.filter(pk=self.game_id).values_list("version", flat=True).afirst()
        if self.shown is not None and now == self.shown.version:
            return
        await self.send_update(self.shown, now)

    async def send_update(self, since: rendering.Shown | None, version: int | None) -> None:
        # Handlers run one at a time per connection, so ``shown`` is always what this
        # socket sent last.
        html, self.shown = await self.render_push(since, version)
        if html:
            await self.send(text_data=html)

    async def render_push(
        self, since: rendering.Shown | None, version: int | None
    ) -> tuple[str, rendering.Shown]:
        """Rendered once for every socket of this process showing the same kind of
        viewer, language and version (``SharedPushes``)."""
        if not self.language:
            self.language = viewer_language(self.scope)
        kind = await self.viewer_kind()
        return await shared_pushes.push(self.game_id, kind, self.language, self.scope["user"], since, version)


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
