"""``GET /api/v1/stream/events``: NDJSON events of the caller's games, pushed by the
channel layer (no polling): where things stand on connecting, then each change."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from typing import Any

import pytest
import pytest_asyncio
from asgiref.sync import sync_to_async
from asgiref.testing import ApplicationCommunicator
from channels.layers import get_channel_layer
from django.core.asgi import get_asgi_application
from django.db import connection
from django.test import AsyncClient

from api.models import ApiToken
from games.models import Game
from games.services import start_game
from tests.factories import make_user
from tests.games.helpers import make_game

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


class Stream:
    """An open event stream, read line by line."""

    def __init__(self, response: Any) -> None:
        self.response = response
        self.lines = response.streaming_content.__aiter__()
        # One read at a time, kept across timeouts: cancelling a read would end the stream.
        self.pending: asyncio.Future[Any] | None = None

    async def line(self, timeout: float = 5) -> bytes:
        if self.pending is None:
            self.pending = asyncio.ensure_future(self.lines.__anext__())
        done, _ = await asyncio.wait({self.pending}, timeout=timeout)
        if not done:
            raise TimeoutError
        read, self.pending = self.pending, None
        return bytes(read.result())

    async def event(self, timeout: float = 5) -> dict[str, Any]:
        """The next event, skipping keep-alive lines."""
        while True:
            raw = await self.line(timeout)
            if raw.strip():
                event: dict[str, Any] = json.loads(raw)
                return event

    async def events(self, count: int) -> list[tuple[str, int]]:
        return [(e["type"], e["game"]["id"]) for e in [await self.event() for _ in range(count)]]

    async def quiet(self, seconds: float = 0.5) -> bool:
        """Nothing but keep-alives for ``seconds``."""
        try:
            while True:
                raw = await self.line(seconds)
                if raw.strip():
                    return False
        except TimeoutError:
            return True

    async def close(self) -> None:
        """Hang up as a server does when its client goes: cancel the read in progress."""
        if self.pending is None:
            self.pending = asyncio.ensure_future(self.lines.__anext__())
            await asyncio.sleep(0.05)
        self.pending.cancel()
        with contextlib.suppress(asyncio.CancelledError, StopAsyncIteration):
            await self.pending


async def open_stream(user: Any, query: str = "") -> Stream:
    raw = (await sync_to_async(ApiToken.issue)(user, "stream"))[1]
    response = await AsyncClient().get(
        "/api/v1/stream/events" + query, headers={"Authorization": f"Bearer {raw}"}
    )
    assert response.status_code == 200
    assert response["Content-Type"] == "application/x-ndjson"
    return Stream(response)


async def members(group: str) -> int:
    """How many channels are in ``group`` (the in-memory layer, or Redis in CI's services run)."""
    layer: Any = get_channel_layer()
    if hasattr(layer, "groups"):
        return len(layer.groups.get(group, {}))
    connection = layer.connection(layer.consistent_hash(group))
    return int(await connection.zcard(layer._group_key(group)))


@pytest_asyncio.fixture
async def players(close_db_connection: None) -> AsyncIterator[tuple[Any, Any, Any]]:
    yield tuple([await sync_to_async(make_user)(name) for name in ("ana", "ben", "cleo")])


async def test_connecting_says_where_things_stand(players: tuple[Any, Any, Any]) -> None:
    ana, ben, cleo = players
    ana_to_move = await sync_to_async(make_game)(ana, ben)  # ana first
    ben_to_move = await sync_to_async(make_game)(cleo, ben)  # cleo first...
    await sync_to_async(ben_to_move.pass_turn)(cleo, version=ben_to_move.version)  # ...now ben
    invitation = await sync_to_async(start_game)(creator=cleo, mode="friend", language="en", opponent=ben)
    await sync_to_async(start_game)(creator=ana, mode="friend", language="en", opponent=cleo)  # not ben's
    stream = await open_stream(ben)
    try:
        assert sorted(await stream.events(4)) == sorted(
            [
                ("game_started", ana_to_move.pk),
                ("game_started", ben_to_move.pk),
                ("your_turn", ben_to_move.pk),
                ("invitation", invitation.pk),
            ]
        )
        assert await stream.quiet()
    finally:
        await stream.close()


async def test_each_change_of_my_games_is_an_event(players: tuple[Any, Any, Any]) -> None:
    ana, ben, cleo = players
    stream = await open_stream(ben)
    try:
        invitation = await sync_to_async(start_game)(
            creator=ana, mode="friend", language="en", opponent=ben, first=0
        )
        event = await stream.event()
        assert (event["type"], event["game"]["id"]) == ("invitation", invitation.pk)
        assert event["game"]["allowed"] == ["accept", "decline"]
        assert event["game"]["created_by"] == "ana"

        await sync_to_async(invitation.accept)(ben, version=invitation.version)
        assert await stream.events(1) == [("game_started", invitation.pk)]

        await sync_to_async(invitation.pass_turn)(ana, version=invitation.version)
        event = await stream.event()
        assert (event["type"], event["game"]["id"]) == ("your_turn", invitation.pk)
        assert event["game"]["version"] == invitation.version
        assert event["game"]["to_move"] == "ben"
        assert "rack" not in event["game"]

        other = await sync_to_async(make_game)(ana, cleo)  # not ben's: nothing
        await sync_to_async(other.resign)(cleo, version=other.version)
        assert await stream.quiet()

        await sync_to_async(invitation.resign)(ben, version=invitation.version)
        event = await stream.event()
        assert (event["type"], event["game"]["id"], event["game"]["status"]) == (
            "game_over",
            invitation.pk,
            "finished",
        )
    finally:
        await stream.close()


async def test_against_the_computer_each_turn_is_announced(players: tuple[Any, Any, Any]) -> None:
    ana, _ben, _cleo = players
    stream = await open_stream(ana)
    try:
        game = await sync_to_async(start_game)(
            creator=ana, mode="computer", language="en", level="easy", first=0
        )
        assert await stream.events(2) == [("game_started", game.pk), ("your_turn", game.pk)]
        # ana passes; the computer answers at once (immediate tasks): ana's turn again,
        # at a new version, however the two changes' events arrive.
        await sync_to_async(game.pass_turn)(ana, version=game.version)
        event = await stream.event()
        assert (event["type"], event["game"]["id"]) == ("your_turn", game.pk)
        assert event["game"]["version"] == (await Game.objects.aget(pk=game.pk)).version
        assert await stream.quiet()
    finally:
        await stream.close()


async def test_a_quiet_stream_sends_empty_lines_and_leaves_its_group(
    players: tuple[Any, Any, Any], settings: Any
) -> None:
    settings.API_STREAM_KEEPALIVE_SECONDS = 0.2
    ana, _ben, _cleo = players
    stream = await open_stream(ana)
    assert await stream.line() == b"\n"
    assert await stream.line() == b"\n"
    assert await members(f"lobby-{ana.pk}") == 1
    await stream.close()
    assert await members(f"lobby-{ana.pk}") == 0


async def test_a_client_hanging_up_ends_the_stream(
    players: tuple[Any, Any, Any], settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Through Django's ASGI handler, as Daphne serves it: a disconnect stops the stream
    and it leaves the group."""
    settings.API_STREAM_KEEPALIVE_SECONDS = 0.2
    # The handler's own request thread must not keep a database connection after the
    # test (PostgreSQL could not drop the test database): none are kept.
    monkeypatch.setitem(connection.settings_dict, "CONN_MAX_AGE", 0)
    ana, _ben, _cleo = players
    raw = (await sync_to_async(ApiToken.issue)(ana, "stream"))[1]
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": "/api/v1/stream/events",
        "raw_path": b"/api/v1/stream/events",
        "query_string": b"",
        "root_path": "",
        "headers": [(b"host", b"testserver"), (b"authorization", f"Bearer {raw}".encode())],
        "client": ("127.0.0.1", 50000),
        "server": ("testserver", 80),
    }
    communicator = ApplicationCommunicator(get_asgi_application(), scope)
    await communicator.send_input({"type": "http.request", "body": b"", "more_body": False})
    start = await communicator.receive_output(5)
    assert (start["type"], start["status"]) == ("http.response.start", 200)
    assert (await communicator.receive_output(5))["body"] == b"\n"
    assert await members(f"lobby-{ana.pk}") == 1
    await communicator.send_input({"type": "http.disconnect"})
    await communicator.wait(5)
    assert await members(f"lobby-{ana.pk}") == 0


async def test_the_stream_needs_a_token(close_db_connection: None) -> None:
    response = await AsyncClient().get("/api/v1/stream/events", headers={"Authorization": "Bearer wg_nope"})
    assert response.status_code == 401
    assert response.json()["error"] == "unauthenticated"


async def ended(stream: Stream, within: float) -> bool:
    """Whether the stream ends (its last line read) within ``within`` seconds; keep-alive
    lines may come meanwhile."""
    deadline = asyncio.get_running_loop().time() + within
    try:
        while (left := deadline - asyncio.get_running_loop().time()) > 0:
            await stream.line(left)
    except StopAsyncIteration:
        return True
    except TimeoutError:
        return False
    return False


#: A revoked token or app grant ends its open stream within this many seconds (issue 24),
#: with the keep-alive interval production runs with: the revocation wakes the stream.
REVOKED_BOUND = 5.0


async def test_a_revoked_token_ends_its_stream(players: tuple[Any, Any, Any], settings: Any) -> None:
    settings.API_STREAM_KEEPALIVE_SECONDS = 15
    ana, _ben, _cleo = players
    stream = await open_stream(ana)
    assert await stream.quiet()  # subscribed, and nothing to say
    await sync_to_async(ApiToken.objects.filter(user=ana).delete)()
    assert await ended(stream, REVOKED_BOUND)
    assert await members(f"lobby-{ana.pk}") == 0
    assert await members(f"auth-{ana.pk}") == 0


async def test_a_revoked_app_grant_ends_its_stream(players: tuple[Any, Any, Any], settings: Any) -> None:
    """The same mechanism and bound as a personal token: an app's access token revoked
    on the player's tokens page ends the stream it holds open."""
    from oauth2_provider.models import AccessToken

    from api.oauth import revoke_grant

    settings.API_STREAM_KEEPALIVE_SECONDS = 15
    ana, _ben, _cleo = players
    token, app_id, _client_id = await sync_to_async(grant_for)(ana)
    response = await AsyncClient().get("/api/v1/stream/events", headers={"Authorization": f"Bearer {token}"})
    assert response.status_code == 200
    stream = Stream(response)
    try:
        assert not await ended(stream, 0.5)
        await sync_to_async(revoke_grant)(user=ana, application_id=app_id)
    except BaseException:
        await stream.close()
        raise
    assert not await sync_to_async(AccessToken.objects.exists)()
    assert await ended(stream, REVOKED_BOUND)


async def test_an_access_token_the_app_revokes_itself_ends_its_stream(
    players: tuple[Any, Any, Any], settings: Any
) -> None:
    """The app hands its token back at ``/oauth/revoke_token/`` (the toolkit's own view,
    RFC 7009): the stream it holds open ends as at once."""
    from oauth2_provider.models import AccessToken

    settings.API_STREAM_KEEPALIVE_SECONDS = 15
    ana, _ben, _cleo = players
    token, _app_id, client_id = await sync_to_async(grant_for)(ana)
    response = await AsyncClient().get("/api/v1/stream/events", headers={"Authorization": f"Bearer {token}"})
    assert response.status_code == 200
    stream = Stream(response)
    try:
        assert not await ended(stream, 0.5)
        revoked = await AsyncClient().post("/oauth/revoke_token/", {"token": token, "client_id": client_id})
        assert revoked.status_code == 200
    except BaseException:
        await stream.close()
        raise
    assert not await sync_to_async(AccessToken.objects.exists)()
    assert await ended(stream, REVOKED_BOUND)


def grant_for(user: Any) -> tuple[str, int, str]:
    """An app's access token for ``user`` (scope ``read``): the token, the app's id and
    its client id."""
    from oauth2_provider.models import Application

    from tests.api.test_oauth import REDIRECT, sign_in

    app = Application.objects.create(
        name="Pocket Words",
        client_type=Application.CLIENT_PUBLIC,
        authorization_grant_type=Application.GRANT_AUTHORIZATION_CODE,
        redirect_uris=REDIRECT,
    )
    return sign_in(user, app, "read"), app.pk, app.client_id
