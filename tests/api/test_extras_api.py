"""The paid extras through the API (issue 13 point 3), and the keys the account and game
shapes carry for them (coins, ratings, aids, rated)."""

from __future__ import annotations

from typing import Any

import pytest

from accounts.services import grant_coins
from games.models import ExtraPurchase, Game
from tests.games.helpers import CAT_AT_CENTRE


@pytest.mark.django_db
def test_account_shows_coins_and_ratings(api_as: Any, ana: Any) -> None:
    grant_coins(user=ana, amount=12, reason="test")
    account = api_as(ana).get("/account").json()
    assert account["coins"] == 12
    assert account["ratings"] == {}


@pytest.mark.django_db
def test_tile_bag_once_per_turn_and_in_the_game_for_everyone(
    api_as: Any, ana: Any, ben: Any, game_ana_ben: Game
) -> None:
    grant_coins(user=ana, amount=12, reason="test")
    first = api_as(ana).post(f"/games/{game_ana_ben.pk}/extras/tile-bag", {})
    assert first.status_code == 200, first.content
    body = first.json()
    assert body["coins"] == 7
    assert body["in_bag"] == sum(body["unseen"].values()) - 7  # the opponent's rack holds 7
    assert "C" not in body["unseen"] or body["unseen"]["C"] < 2
    again = api_as(ana).post(f"/games/{game_ana_ben.pk}/extras/tile-bag", {})
    assert again.json()["coins"] == 7  # the same turn: nothing more spent
    assert ExtraPurchase.objects.count() == 1
    game = api_as(ben).get(f"/games/{game_ana_ben.pk}").json()
    assert game["aids"] == [{"player": "ana", "turn": 1, "extra": "tile_bag"}]
    assert (
        api_as(ben).post(f"/games/{game_ana_ben.pk}/extras/tile-bag", {}).json()["error"] == "extra_not_now"
    )


@pytest.mark.django_db
def test_refusals_are_json_and_change_nothing(api_as: Any, ana: Any, game_ana_ben: Game) -> None:
    poor = api_as(ana).post(f"/games/{game_ana_ben.pk}/extras/tile-bag", {})
    assert poor.status_code == 403
    assert poor.json()["error"] == "not_enough_coins"
    cat = {"tiles": [[7, 7, "C"], [7, 8, "A"], [7, 9, "T"]]}
    strength = api_as(ana).post(f"/games/{game_ana_ben.pk}/strength", cat)
    assert strength.json()["error"] == "strength_not_bought"
    assert not ExtraPurchase.objects.exists()


@pytest.mark.django_db
def test_hindsight_and_word_strength(api_as: Any, ana: Any, ben: Any, game_ana_ben: Game) -> None:
    grant_coins(user=ana, amount=30, reason="test")
    grant_coins(user=ben, amount=30, reason="test")
    game_ana_ben.play(ana, CAT_AT_CENTRE, version=game_ana_ben.version)
    looked = api_as(ana).post(f"/games/{game_ana_ben.pk}/extras/hindsight", {}).json()
    assert looked["turn"] == 1
    assert looked["best_score"] >= looked["played_score"]
    assert looked["best"] is not None
    assert looked["coins"] == 20


@pytest.mark.django_db
def test_word_strength_ranks_a_tentative_play(api_as: Any, ana: Any, game_ana_ben: Game) -> None:
    grant_coins(user=ana, amount=30, reason="test")
    bought = api_as(ana).post(f"/games/{game_ana_ben.pk}/extras/word-strength", {})
    assert bought.status_code == 200, bought.content
    assert bought.json()["coins"] == 20
    cat = {"tiles": [[7, 7, "C"], [7, 8, "A"], [7, 9, "T"]]}
    ranked = api_as(ana).post(f"/games/{game_ana_ben.pk}/strength", cat).json()
    assert set(ranked) == {"rank", "of", "share", "best_score"}
    assert ranked["rank"] >= 1
    assert ranked["best_score"] >= 1
    assert 0 < ranked["share"] <= 100


@pytest.mark.django_db
def test_a_rated_game_through_the_api_has_no_paid_extras(api_as: Any, ana: Any, ben: Any) -> None:
    created = api_as(ana).post("/games", {"opponent": "ben", "language": "en", "rated": True}).json()
    game = Game.objects.get(pk=created["id"])
    assert game.rated
    assert not game.extras_allowed
