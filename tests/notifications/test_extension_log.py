"""A deadline moved on because no warning reached the player is a line of the game's log:
on the game page (between the moves it fell between, pushed live to open pages), in the
replay and in the API's move list, in the viewer's language. The GCG record ignores it."""

from __future__ import annotations

import re
from datetime import timedelta
from html import unescape
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone
from django.utils.html import escape

from api.models import ApiToken
from games import live, rendering
from games.gameview import load_game
from games.models import Game
from games.records import gcg_text
from tests.factories import PASSWORD
from tests.games.helpers import CAT_AT_CENTRE

pytestmark = pytest.mark.django_db

NOTE = "ben's deadline extended by 24 h: no warning could be delivered."


def lapse(game: Game) -> Game:
    """The turn's deadline passes with no warning delivered: the system moves it on."""
    Game.objects.filter(pk=game.pk).update(turn_deadline=timezone.now() - timedelta(minutes=1))
    game = Game.objects.get(pk=game.pk)
    assert game.timeout(now=timezone.now()) is None
    game.refresh_from_db()
    assert game.deadline_extended
    return game


def log_lines(html: str) -> list[str]:
    """The text of each line of the move log, in order."""
    log = html[html.index('id="move-list"') :]
    log = log[: log.index("</ol>")]
    items = re.findall(r"<li[^>]*>(.*?)</li>", log, re.S)
    return [" ".join(unescape(re.sub(r"<[^>]+>", " ", li)).split()) for li in items]


def test_the_game_page_replay_and_api_say_why_the_deadline_moved(
    ana: Any, ben: Any, game_ana_ben: Game
) -> None:
    game_ana_ben.play(ana, CAT_AT_CENTRE, version=game_ana_ben.version)
    record_before = gcg_text(Game.objects.get(pk=game_ana_ben.pk))
    game = lapse(game_ana_ben)

    client = Client()
    assert client.login(username="ana", password=PASSWORD)
    lines = log_lines(client.get(f"/games/{game.pk}/").content.decode())
    assert len(lines) == 2
    assert lines[0].startswith("1 ana")  # the move, then the note after it
    assert lines[1] == NOTE
    replay = log_lines(
        client.get(f"/games/{game.pk}/replay/").content.decode().replace('class="moves"', 'id="move-list"', 1)
    )
    assert replay[-1] == NOTE

    # In the viewer's language.
    ben.interface_language = "fr"
    ben.save()
    french = Client()
    assert french.login(username="ben", password=PASSWORD)
    page = french.get(f"/games/{game.pk}/", headers={"accept-language": "fr"}).content.decode()
    assert "Délai de ben prolongé de 24 h : aucun avertissement n'a pu être remis." in log_lines(page)

    # The API's move list: a line of kind "extend" after move 1, saying why.
    raw = ApiToken.issue(ana, "test")[1]
    body = Client().get(f"/api/v1/games/{game.pk}", headers={"Authorization": f"Bearer {raw}"}).json()
    assert [m["kind"] for m in body["moves"]] == ["play", "extend"]
    extend = body["moves"][1]
    assert (extend["number"], extend["player"], extend["note"]) == (1, "ben", NOTE)
    assert body["moves"][0]["note"] is None

    # The record of the game is the moves alone.
    assert gcg_text(Game.objects.get(pk=game.pk)) == record_before


def test_an_open_page_gets_the_note_live(ana: Any, ben: Any, game_ana_ben: Game) -> None:
    game_ana_ben.play(ana, CAT_AT_CENTRE, version=game_ana_ben.version)
    read = load_game(game_ana_ben.pk)
    before = live.Shown.of(live.page_view(read, read.pov(ana)))
    game = lapse(game_ana_ben)
    live.loaded_games.entries.clear()
    now_game = load_game(game.pk)
    view = live.page_view(now_game, now_game.pov(ana))
    now = live.Shown.of(view)
    assert before.followed_by(now)  # one version on: a delta, not a snapshot
    html = live.delta(view, before, now, rendering.Frame(oob=True))
    assert 'id="move-log"' in html
    assert NOTE in log_lines(html)
    # The note is the last line: a screen reader hears it.
    assert 'data-announce="' + escape(NOTE) + '"' in html


def test_a_game_that_never_extends_reads_nothing_for_its_log(ana: Any, ben: Any) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from games.gameview import Loaded
    from games.services import start_paired_game

    game = start_paired_game(first=ana, second=ben, language="en", inactivity_days=1, dictionary_version=None)
    with CaptureQueriesContext(connection) as queries:
        loaded = Loaded.of(load_game(game.pk))
    assert loaded.extensions == ()
    assert not [q for q in queries.captured_queries if "games_gameaction" in q["sql"]]
