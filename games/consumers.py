"""WebSocket consumers: they authorise, join a group, send a snapshot and hand group
events to ``games.live``, which works out what their own viewer may see (STYLE.md 3.7).
No game logic, no writes, no rendering of their own."""

from __future__ import annotations

import asyncio

from accounts.consumers import viewer_language
from accounts.livesocket import LiveSocket, off_thread
from games import live, realtime, rendering
from games.models import Game
from games.pov import Pov
from notifications import presence

Event = dict[str, object]


class ViewerConsumer(LiveSocket):
    """What the consumers share (beside ``LiveSocket``'s groups and ends): fragments rendered
    in the viewer's language, and the only messages a client may send, ``resync`` and
    ``check`` (together at most once per ``RESYNC_INTERVAL``)."""

    language: str = ""  # the viewer's interface language, worked out on first use
    last_resync: float = float("-inf")

    async def push(self) -> None:
        raise NotImplementedError

    def viewer_language(self) -> str:
        if not self.language:
            self.language = viewer_language(self.scope)
        return self.language

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """The messages a client may send, each at most once per ``RESYNC_INTERVAL``:
        ``{"type": "resync"}`` and ``{"type": "check"}`` (:func:`client_message`)."""
        asked = live.client_message(text_data)
        if asked and (now := live.may_ask(self.last_resync)) is not None:
            self.last_resync = now
            await (self.push() if asked == "resync" else self.check())

    async def check(self) -> None:
        """Here the same as ``resync``: the lobby and the analysis page keep no record
        of what they sent, so the full snapshot (only the game page sends ``check``)."""
        await self.push()


class GameConsumer(ViewerConsumer):
    """``/ws/games/<id>/``: the live game for one viewer (player or spectator).

    Who the viewer is to the game (``pov``) is resolved once, on connect; each render
    hands back the point of view it used (``games.live`` resolves it again only while
    the game's seats may still change). It remembers what it last sent (``shown``), so
    that after a change it sends only what changed when the page is exactly one version
    behind, and the full snapshot on connect, on ``resync`` and when a version was
    skipped."""

    game_id: int
    pov: Pov
    shown: live.Shown | None = None
    counted: bool = False  # counted in live.shared_pushes.players
    present: asyncio.Task[None] | None = None  # keeps its player marked present on the game

    async def connect(self) -> None:
        self.game_id = int(self.scope["url_route"]["kwargs"]["game_id"])
        pov = await live.off_thread(live.watched_pov)(self.game_id, self.scope.get("user"))
        if pov is None:
            await self.close()
            return
        self.take(pov)
        await self.join(realtime.game_group(self.game_id))
        await self.accept()
        if pov.is_player and pov.user_id is not None:
            await presence.amark_present(pov.user_id, self.game_id)
            self.present = asyncio.ensure_future(live.stay_present(self.game_id, pov.user_id))
        # A snapshot at once: a (re)connecting browser can never stay stale.
        await self.push()
        if self.present is not None and await self.is_live_now():
            # The opponent no longer sees this player away.
            await realtime.apresence_changed(self.game_id, pov.user_id)

    async def is_live_now(self) -> bool:
        """Whether this is a live game under way (its players are shown away or present)."""
        live_now = Game.objects.filter(pk=self.game_id, speed="live", status=Game.Status.ACTIVE)
        return await off_thread(live_now.exists)()

    def take(self, pov: Pov) -> None:
        """Keep ``pov``, counting this socket among the game's seated players' here."""
        self.pov = pov
        if pov.is_player != self.counted:
            self.counted = pov.is_player
            live.shared_pushes.player_joined(self.game_id, 1 if self.counted else -1)

    async def disconnect(self, code: int) -> None:
        if self.counted:
            live.shared_pushes.player_joined(self.game_id, -1)
            self.counted = False
        try:
            if self.present is not None:
                await live.stop(self.present)
                self.present = None
                if await self.is_live_now():
                    await realtime.apresence_changed(self.game_id, self.pov.user_id)
        finally:
            # The groups are left whatever happened above (LiveSocket: on every way out).
            await super().disconnect(code)

    async def presence_changed(self, event: Event) -> None:
        """A player of this live game opened or closed its page: show them away or back
        (the snapshot again; not to that player's own sockets)."""
        if self.shown is not None and event.get("user_id") != self.pov.user_id:
            await self.push()

    async def game_changed(self, event: Event) -> None:
        version = event.get("version")
        if not isinstance(version, int):
            await self.send_update(self.shown, None)
        elif self.pov.is_player:
            try:
                sent = await self.send_update(self.shown, version)
            finally:
                live.shared_pushes.player_handled(self.game_id, version)
            if sent:
                live.observe_push(event, self.pov)
        else:
            await live.shared_pushes.after_players(self.game_id, version)
            if await self.send_update(self.shown, version):
                live.observe_push(event, self.pov)

    async def chat_posted(self, event: Event) -> None:
        if not self.pov.is_player:
            return  # chat is for the players only: nothing to render
        html = await live.render_in(self.viewer_language(), live.chat_fragment, self.game_id, self.pov)
        if html:
            await self.send(text_data=html)

    async def analysis_ready(self, event: Event) -> None:
        """Nothing on the game page depends on the analysis (its own page has its own
        socket, ``AnalysisConsumer``): a snapshot here would re-draw every panel for
        nothing, the game-over links under the player's pointer included, so a click
        landing during that swap was lost."""

    async def push(self) -> None:
        """The full snapshot (on connect and on ``resync``)."""
        await self.send_update(None, None)

    async def check(self) -> None:
        """The game as it is now, from what this socket sent last: nothing when that is
        this version, a delta when the game moved on by one, else the snapshot (a task
        worker's change whose live update did not reach this process). The version alone
        is read first: a check that finds nothing costs one small query."""
        now = await off_thread(Game.objects.filter(pk=self.game_id).values_list("version", flat=True).first)()
        if self.shown is not None and now == self.shown.version:
            return
        await self.send_update(self.shown, now)

    async def send_update(self, since: live.Shown | None, version: int | None) -> bool:
        # Handlers run one at a time per connection, so ``shown`` is always what this
        # socket sent last. Rendered once for every socket of this process showing the
        # same kind of viewer, language and version (``live.SharedPushes``).
        pushed = await live.shared_pushes.push(self.game_id, self.pov, self.viewer_language(), since, version)
        self.shown = pushed.shown
        self.take(pushed.pov)
        if pushed.html:
            await self.send(text_data=pushed.html)
        return bool(pushed.html)


class AnalysisConsumer(ViewerConsumer):
    """``/ws/games/<id>/analysis/``: the analysis page, updated when the analysis is ready."""

    game_id: int

    async def connect(self) -> None:
        self.game_id = int(self.scope["url_route"]["kwargs"]["game_id"])
        user = self.scope.get("user")
        watchable = Game.objects.watchable_by(user).filter(pk=self.game_id, status=Game.Status.FINISHED)
        if not await off_thread(watchable.exists)():
            await self.close()
            return
        await self.join(realtime.game_group(self.game_id))
        await self.accept()
        await self.push()

    async def analysis_ready(self, event: Event) -> None:
        await self.push()

    async def game_changed(self, event: Event) -> None:
        """A finished game changes no more; nothing to show."""

    async def chat_posted(self, event: Event) -> None:
        """Chat is not part of the analysis page."""

    async def push(self) -> None:
        html = await live.render_in(self.viewer_language(), rendering.analysis_fragment, self.game_id)
        await self.send(text_data=html)


class LobbyConsumer(ViewerConsumer):
    """``/ws/lobby/``: the signed-in user's game lists."""

    async def connect(self) -> None:
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.close()
            return
        # The seeks page (/games/seeks/) listens to every open request instead.
        self.seeks = b"seeks=1" in self.scope.get("query_string", b"")
        await self.join(realtime.SEEKS_GROUP if self.seeks else realtime.lobby_group(user.pk))
        await self.accept()
        await self.push()

    async def lobby_changed(self, event: Event) -> None:
        await self.push()

    async def seeks_changed(self, event: Event) -> None:
        await self.push()

    async def push(self) -> None:
        fragment = rendering.seeks_fragment if self.seeks else rendering.lobby_fragment
        html = await live.render_in(self.viewer_language(), fragment, self.scope["user"])
        await self.send(text_data=html)
