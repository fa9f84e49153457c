"""``/ws/tournaments/<id>/``: the tournament page kept live (STYLE.md 3.7): join the
group, send a snapshot, re-render the standings, pairings and log on every change. No
writes; the only message a client may send is ``resync`` (``ViewerConsumer``)."""

from __future__ import annotations

from typing import Any

from accounts.livesocket import off_thread
from games import live
from games.consumers import ViewerConsumer
from tournaments import realtime, rendering
from tournaments.models import Tournament


class TournamentConsumer(ViewerConsumer):
    tournament_id: int

    async def connect(self) -> None:
        self.tournament_id = int(self.scope["url_route"]["kwargs"]["tournament_id"])
        # Standings and pairings are public, like the page itself.
        if not await off_thread(Tournament.objects.filter(pk=self.tournament_id).exists)():
            await self.close()
            return
        await self.join(realtime.tournament_group(self.tournament_id))
        await self.accept()
        await self.push()

    async def tournament_changed(self, event: dict[str, Any]) -> None:
        await self.push()

    async def push(self) -> None:
        html = await live.render_in(
            self.viewer_language(), rendering.fragments_for, self.tournament_id, self.scope.get("user")
        )
        await self.send(text_data=html)


class ScreenConsumer(TournamentConsumer):
    """``/ws/tournaments/<id>/screen/``: one division's slide on the screen for the
    room (the same group; a different, viewer-free render)."""

    async def push(self) -> None:
        html = await live.render_in(self.viewer_language(), rendering.screen_fragment, self.tournament_id)
        await self.send(text_data=html)
