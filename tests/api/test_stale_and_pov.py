"""Through the API: who the caller is to a game is resolved once per request, and an
extra bought never makes another player's action stale (issue 23, points 1 and 4)."""

from __future__ import annotations

from typing import Any

import pytest

from accounts.services import grant_coins
from games import extras, pov
from games.actions import BuyExtra
from games.models import Game, GameMovedOn, Move
from tests.games.helpers import make_game


@pytest.mark.django_db
def test_an_api_action_resolves_who_the_player_is_once(api_as: Any, ana: Any, ben: Any) -> None:
    game = make_game(ana, ben, racks=("CATSEOD", "AEIOULN"))
    before = pov.made()
    cat = {"tiles": [[7, 7, "C"], [7, 8, "A"], [7, 9, "T"]], "version": game.version, "action_id": "x"}
    assert api_as(ana).post(f"/games/{game.pk}/play", cat).status_code == 200
    assert pov.made() - before == 1


@pytest.mark.django_db
def test_a_repeated_api_action_resolves_once_and_answers_as_its_player(
    api_as: Any, ana: Any, ben: Any
) -> None:
    """The same ``action_id`` sent again is answered with the game as its player sees it
    (her own rack), the point of view resolved once, by ``Game.act``."""
    game = make_game(ana, ben, racks=("CATSEOD", "AEIOULN"))
    cat = {"tiles": [[7, 7, "C"], [7, 8, "A"], [7, 9, "T"]], "version": game.version, "action_id": "x"}
    first = api_as(ana).post(f"/games/{game.pk}/play", cat).json()
    before = pov.made()
    again = api_as(ana).post(f"/games/{game.pk}/play", cat)
    assert again.status_code == 200, again.content
    assert pov.made() - before == 1
    assert again.json()["version"] == first["version"]
    assert again.json()["rack"] == first["rack"] != ""


@pytest.mark.django_db
def test_an_extra_outside_its_period_is_refused_and_costs_nothing(api_as: Any, ana: Any, ben: Any) -> None:
    game = make_game(ana, ben, racks=("CATSEOD", "AEIOULN"))
    grant_coins(user=ben, amount=30, reason="test")
    refused = api_as(ben).post(
        f"/games/{game.pk}/extras/tile-bag", {"version": game.version, "action_id": "t"}
    )
    assert refused.status_code == 409
    assert refused.json()["error"] == "extra_not_now"
    game.refresh_from_db()
    assert ben.coin_entries.count() == 1
    assert not game.purchases.exists()


@pytest.mark.django_db
def test_a_play_sent_before_the_opponents_purchase_is_applied(api_as: Any, ana: Any, ben: Any) -> None:
    """Buying an aid changes what its buyer sees, never the board: ana's play, sent with
    the version she read before ben bought hindsight, goes through."""
    game = make_game(ana, ben, racks=("CATSEOD", "AEIOULN"))
    game.pass_turn(ana, version=game.version)
    game.pass_turn(ben, version=game.version)
    grant_coins(user=ben, amount=30, reason="test")
    read = api_as(ana).get(f"/games/{game.pk}").json()["version"]
    bought = api_as(ben).post(f"/games/{game.pk}/extras/hindsight", {"version": read, "action_id": "h"})
    assert bought.status_code == 200, bought.content
    cat = {"tiles": [[7, 7, "C"], [7, 8, "A"], [7, 9, "T"]], "version": read, "action_id": "p"}
    played = api_as(ana).post(f"/games/{game.pk}/play", cat)
    assert played.status_code == 200, played.content
    assert played.json()["version"] == read + 2  # the purchase and the play: every change counted
    assert Move.objects.filter(game=game, kind="play").count() == 1
    # The same play sent again is the same action (idempotent by its id).
    assert api_as(ana).post(f"/games/{game.pk}/play", cat).json()["version"] == read + 2


@pytest.mark.django_db
def test_a_move_still_stales_an_action_that_could_not_have_seen_it(api_as: Any, ana: Any, ben: Any) -> None:
    game = make_game(ana, ben, racks=("CATSEOD", "AEIOULN"))
    read = game.version
    game.pass_turn(ana, version=read)
    grant_coins(user=ben, amount=30, reason="test")
    Game.objects.get(pk=game.pk).act(ben, BuyExtra(extras.TILE_BAG), version=read + 1)
    with pytest.raises(GameMovedOn) as refused:
        Game.objects.get(pk=game.pk).pass_turn(ben, version=read)
    assert refused.value.code == "game_moved_on"
