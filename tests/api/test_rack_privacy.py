"""No response of the API shows an opponent's rack while the game is on.

ben holds JQXZKVW: J, Q, X and Z exist once each in the English set and are on no board
and no other rack, so any of them as a tile (an uppercase letter outside a timestamp)
in what ana or cleo receive would be a leak."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from asgiref.sync import sync_to_async

from tests.api.conftest import ApiClient
from tests.api.test_stream import open_stream
from tests.factories import make_user
from tests.games.helpers import make_game

BEN_RACK = "JQXZKVW"
TIMESTAMP = re.compile(r"\d{4}-\d\d-\d\dT[\d:.]+(?:Z|[+-]\d\d:\d\d)")


def leaked(payload: str) -> list[str]:
    text = TIMESTAMP.sub("", payload)
    return re.findall(r"[JQXZ]", text)


def payloads(api: ApiClient, game_id: int, version: int) -> dict[str, str]:
    got = {}
    for name, response in {
        "game": api.get(f"/games/{game_id}"),
        "games": api.get("/games"),
        "active": api.get("/games?status=active"),
        "account": api.get("/account"),
        "gcg": api.get(f"/games/{game_id}/gcg"),
        "preview": api.post(f"/games/{game_id}/preview", {"tiles": [[7, 7, "C"], [7, 8, "A"], [7, 9, "T"]]}),
        "stale": api.post(f"/games/{game_id}/pass", {"version": version - 1}),
        "word": api.get("/words/en/cat"),
    }.items():
        got[name] = response.content.decode()
    return got


@pytest.mark.django_db
def test_no_response_shows_the_opponents_rack(ana: Any, ben: Any, cleo: Any, token_for: Any) -> None:
    game = make_game(ana, ben, racks=("CATSEOD", BEN_RACK))
    ana_api, ben_api, cleo_api = (ApiClient(token_for(u)) for u in (ana, ben, cleo))
    # The check can fail: ben's own view of the game does show his rack.
    assert leaked(ben_api.get(f"/games/{game.pk}").content.decode())

    seen = {f"ana:{k}": v for k, v in payloads(ana_api, game.pk, game.version).items()}
    seen |= {f"cleo:{k}": v for k, v in payloads(cleo_api, game.pk, game.version).items()}
    # ana plays, swaps and passes: every answer is the game as she sees it.
    played = ana_api.post(
        f"/games/{game.pk}/play", {"tiles": [[7, 7, "C"], [7, 8, "A"], [7, 9, "T"]], "version": game.version}
    )
    seen["ana:play"] = played.content.decode()
    version = played.json()["version"]
    ben_api.post(f"/games/{game.pk}/pass", {"version": version})
    seen["ana:exchange"] = ana_api.post(
        f"/games/{game.pk}/exchange", {"tiles": "SE", "version": version + 1}
    ).content.decode()
    seen |= {f"ana-later:{k}": v for k, v in payloads(ana_api, game.pk, version + 2).items()}
    seen |= {f"cleo-later:{k}": v for k, v in payloads(cleo_api, game.pk, version + 2).items()}
    leaks = {name: leaked(text) for name, text in seen.items() if leaked(text)}
    assert not leaks, leaks


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_stream_events_show_no_rack(close_db_connection: None) -> None:
    ana = await sync_to_async(make_user)("ana")
    ben = await sync_to_async(make_user)("ben")
    game = await sync_to_async(make_game)(ana, ben, racks=("CATSEOD", BEN_RACK))
    stream = await open_stream(ana)
    try:
        lines = [(await stream.line()).decode() for _ in range(2)]
    finally:
        await stream.close()
    assert [json.loads(line)["type"] for line in lines] == ["game_started", "your_turn"]
    assert json.loads(lines[0])["game"]["id"] == game.pk
    assert not leaked("".join(lines))
