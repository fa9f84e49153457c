"""The game's partials as views and consumers render them: the action forms outside every
swapped partial, the delta's parts, and the sentence a screen reader hears."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

import engine
from games.gameview import load_game, view_for
from games.models import Game
from games.services import start_game
from tests.games.helpers import CAT_AT_CENTRE, fragments, make_game, push

HX = {"HX-Request": "true"}
ACTION_FORMS = ("play-form", "pass-form", "exchange-form", "resign-form", "accept-form", "decline-form")


def section(html: str, element_id: str) -> str:
    """The element with ``element_id`` (a partial's root), up to its closing tag."""
    start = html.index(f'id="{element_id}"')
    tag = html.rfind("<", 0, start)
    name = re.match(r"<(\w+)", html[tag:])
    assert name is not None
    return html[tag : html.index(f"</{name.group(1)}>", start)]


@pytest.mark.django_db
def test_action_forms_stay_outside_every_swapped_partial(ana: Any, game_ana_ben: Game) -> None:
    client = Client()
    client.force_login(ana)
    page = client.get(reverse("games:detail", args=[game_ana_ben.pk])).text
    for form in ACTION_FORMS:
        opening = re.search(rf'<form id="{form}"[^>]*>', page)
        assert opening is not None, form
        assert 'hx-swap="none"' in opening.group(0)
        body = page[opening.end() : page.index("</form>", opening.end())]
        assert 'name="csrfmiddlewaretoken"' in body, form  # works without JavaScript too
        assert f'name="version" value="{game_ana_ben.version}"' in body, form
        assert 'name="action_id"' in body, form
    # The move panel (pushed and answered) holds buttons that belong to those forms,
    # never a form of its own, and says which version and action id it shows.
    fragments = client.get(reverse("games:fragments", args=[game_ana_ben.pk]), headers=HX).text
    for html in (page, fragments):
        panel = section(html, "move-panel")
        assert "<form" not in panel
        assert 'form="play-form"' in panel
        assert 'form="pass-form"' in panel
        assert f'data-version="{game_ana_ben.version}"' in panel
        assert re.search(r'data-action-id="[0-9a-f]{32}"', panel)
    for partial in ("board", "rack", "scoreboard", "move-log", "chat", "game-over"):
        assert "<form id=" not in section(fragments, partial), partial


@pytest.mark.django_db
def test_invitation_buttons_post_the_version(ana: Any, ben: Any) -> None:
    game = start_game(creator=ana, mode=Game.Mode.FRIEND, language="en", opponent=ben)
    client = Client()
    client.force_login(ben)
    page = client.get(reverse("games:detail", args=[game.pk])).text
    panel = section(page, "move-panel")
    assert 'form="accept-form"' in panel
    assert 'form="decline-form"' in panel
    for form in ("accept-form", "decline-form"):
        opening = re.search(rf'<form id="{form}"[^>]*>', page)
        assert opening is not None
        body = page[opening.end() : page.index("</form>", opening.end())]
        assert f'name="version" value="{game.version}"' in body
    lobby = client.get(reverse("games:lobby")).text
    assert f'name="version" value="{game.version}"' in lobby


@pytest.mark.django_db
def test_opponents_move_is_announced_in_words_in_the_viewers_language(ana: Any, game_ana_ben: Game) -> None:
    game_ana_ben.play(ana, CAT_AT_CENTRE, version=game_ana_ben.version)
    game = load_game(game_ana_ben.pk)
    score = game.moves.get().score
    item = view_for(game, ana).moves[-1]
    assert item.announce == f"ana played CAT at H8 across for {score}."
    with translation.override("de"):
        item = view_for(game, ana).moves[-1]
    assert item.announce == f"ana hat CAT auf H8 waagerecht gelegt und erzielt {score}."
    html = fragments(game, ana)
    assert f'data-announce="ana played CAT at H8 across for {score}."' in section(html, "move-log")


@pytest.mark.django_db
def test_push_sends_nothing_twice_and_a_delta_only_one_version_on(ana: Any, ben: Any, cleo: Any) -> None:
    game = make_game(ana, ben, racks=("CATSEOD", "JQXZKVW"))
    snapshot, shown = push(game.pk, cleo, None)
    assert 'data-base=""' in snapshot
    assert push(game.pk, cleo, shown) == ("", shown)
    game.play(ana, CAT_AT_CENTRE, version=game.version)
    delta, after = push(game.pk, cleo, shown)
    assert f'data-base="{shown.version}"' in delta
    assert after.version == shown.version + 1
    assert 'data-last="7-7 7-8 7-9"' in delta
    # ben passes: nothing is laid, so no square at all; the marker clears the highlight.
    game.pass_turn(ben, version=game.version)
    delta, _ = push(game.pk, cleo, after)
    assert 'id="sq-' not in delta
    assert 'data-last=""' in delta
    assert '<li class="move"' in delta
    # Two versions on from what the page shows: the snapshot.
    game.play(ana, [engine.Placement(7, 10, "S")], version=game.version)
    again, _ = push(game.pk, cleo, after)
    assert 'data-base=""' in again
    assert 'id="board"' in again
