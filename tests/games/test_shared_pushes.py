"""Issue 14, point 2: one render per change for each seated player and one per interface
language for all spectators, whatever the number of sockets; the players' first."""

from __future__ import annotations

import asyncio
import re
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from games import live
from tests.factories import make_user
from tests.games.helpers import CAT_AT_CENTRE, make_game
from tests.games.test_game_consumer import connect, square_ids

ACTION_ID = re.compile(r'data-action-id="([0-9a-f]+)"')


async def receive_all(sockets: dict[str, WebsocketCommunicator]) -> dict[str, str]:
    return {name: await c.receive_from(timeout=5) for name, c in sockets.items()}


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("close_db_connection")
async def test_a_change_is_rendered_once_per_seat_and_once_per_spectator_language(
    ana: Any, ben: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = await sync_to_async(make_game)(ana, ben, racks=("CATSEOD", "JQXZKVW"))
    watchers = [await sync_to_async(make_user)(f"watcher{i}") for i in range(6)]
    rendered: list[tuple[str, str]] = []
    real = live.shared_push

    def counting(game_id: int, pov: Any, since: Any, version: int | None = None) -> Any:
        from django.utils import translation

        rendered.append((pov.kind, translation.get_language()))
        return real(game_id, pov, since, version)

    monkeypatch.setattr(live, "shared_push", counting)
    path = f"/ws/games/{game.pk}/"
    sockets: dict[str, WebsocketCommunicator] = {}
    # Spectators connect first, so the group would hand them the change first.
    for i, watcher in enumerate(watchers):
        cookie = "django_language=fr" if i % 2 else ""
        sockets[f"w{i}"], connected = await connect(path, watcher, cookie=cookie)
        assert connected
    sockets["ana"], _ = await connect(path, ana)
    sockets["ana2"], _ = await connect(path, ana)  # a second tab
    sockets["ben"], _ = await connect(path, ben)
    try:
        await receive_all(sockets)
        rendered.clear()
        reads, made = live.loaded_games.reads, live.loaded_games.made
        await sync_to_async(game.play)(ana, CAT_AT_CENTRE, version=game.version)
        pushes = await receive_all(sockets)
        # 2 seats + spectators in English + spectators in French = 4 renders for 9 sockets.
        assert sorted(rendered) == sorted(
            [("seat-0", "en"), ("seat-1", "en"), ("spectator", "en"), ("spectator", "fr")]
        )
        # ... from the game as this process held it and the move, once for all four (no read).
        assert (live.loaded_games.reads, live.loaded_games.made) == (reads, made + 1)
        # Players first: both seats were rendered before any spectator.
        assert {kind for kind, _ in rendered[:2]} == {"seat-0", "seat-1"}
        for name, html in pushes.items():
            assert square_ids(html) == {(7, 7), (7, 8), (7, 9)}, name
            assert f'data-version="{game.version}"' in html, name
        # The same fragments, but for the action id every socket gets afresh.
        english = [ACTION_ID.sub("", pushes[f"w{i}"]) for i in (0, 2, 4)]
        french = [ACTION_ID.sub("", pushes[f"w{i}"]) for i in (1, 3, 5)]
        assert english[0] != french[0]
        assert all(html == english[0] for html in english)
        assert all(html == french[0] for html in french)
        # Nobody but ana gets her rack; her two tabs each get their own action id.
        assert 'id="rack-tiles"' in pushes["ana"]
        assert 'id="rack-tiles"' in pushes["ana2"]
        assert all('id="rack' not in pushes[n] for n in pushes if n not in ("ana", "ana2"))
        ids = [ACTION_ID.findall(pushes[n]) for n in ("ana", "ana2")]
        assert ids[0]
        assert ids[1]
        assert ids[0] != ids[1]
        assert all(live.ACTION_ID_MARK not in html for html in pushes.values())
    finally:
        for communicator in sockets.values():
            await communicator.disconnect()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("close_db_connection")
async def test_spectators_render_nothing_for_a_chat_line(ana: Any, ben: Any, cleo: Any) -> None:
    game = await sync_to_async(make_game)(ana, ben)
    path = f"/ws/games/{game.pk}/"
    spectator, _ = await connect(path, cleo)
    player, _ = await connect(path, ben)
    try:
        await spectator.receive_from(timeout=5)
        await player.receive_from(timeout=5)
        await sync_to_async(game.post_chat)(ana, "hello")
        assert 'id="chat"' in await player.receive_from(timeout=5)
        assert await spectator.receive_nothing(timeout=0.3)
    finally:
        await spectator.disconnect()
        await player.disconnect()


@pytest.mark.asyncio
async def test_a_spectator_waits_for_the_players_at_most_a_moment() -> None:
    shared = live.SharedPushes()
    shared.player_joined(1, 1)
    # The player has not handled version 5 yet: the spectator waits, but not forever.
    loop_time = asyncio.get_running_loop().time
    start = loop_time()
    await shared.after_players(1, 5)
    assert loop_time() - start + 0.01 >= shared.PLAYERS_FIRST_WAIT
    # Once the player has handled version 6, a spectator goes at once.
    shared.player_handled(1, 6)
    start = loop_time()
    await shared.after_players(1, 6)
    assert loop_time() - start < 0.05
