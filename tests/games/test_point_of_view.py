"""Who a person is to a game is resolved once (``games.pov``), and an extra bought never
makes another player's action stale (issue 23, points 1 and 4)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import CoinEntry, User
from accounts.services import grant_coins
from games import extras, pov
from games.actions import SYSTEM, Computer
from games.models import ExtraPurchase, Move
from games.tasks import computer_turn
from tests.games.helpers import make_computer_game, make_game, tiles
from tests.games.test_races import run_together

HX = {"HX-Request": "true"}
CAT = tiles((7, 7, "C"), (7, 8, "A"), (7, 9, "T"))


@pytest.mark.django_db
def test_roles_of_seats_spectators_the_creator_the_system_and_the_computer(
    ana: Any, ben: Any, cleo: Any
) -> None:
    game = make_game(ana, ben)
    assert game.pov(ana).kind == "seat-0"
    assert game.pov(ben).role == "seat"
    assert game.pov(cleo).kind == "spectator"
    assert game.pov(SYSTEM).is_system
    assert game.pov(Computer(1)).seat is None  # seat 1 is ben's, not a computer's
    computer = make_computer_game(ana)
    assert computer.pov(Computer(1)).seat == 1


@pytest.mark.django_db
def test_a_page_action_resolves_who_the_player_is_once(ana: Any, ben: Any) -> None:
    game = make_game(ana, ben, racks=("CATSEOD", "AEIOULN"))
    client = Client()
    client.force_login(ana)
    before = pov.made()
    answer = client.post(
        reverse("games:play", args=[game.pk]),
        {"tiles": CAT, "version": game.version, "action_id": "a"},
        headers=HX,
    )
    assert answer.status_code == 200
    assert Move.objects.filter(game=game).count() == 1
    assert pov.made() - before == 1


@pytest.mark.django_db
def test_the_computers_turn_resolves_the_computer_once(ana: Any) -> None:
    game = make_computer_game(ana)
    game.pass_turn(ana, version=game.version)
    before = pov.made()
    assert computer_turn.call(game.pk, game.version)
    assert pov.made() - before == 1


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_two_purchases_and_a_play_racing_leave_one_consistent_game(
    postgres: None, ana: Any, ben: Any
) -> None:
    game = make_game(ana, ben, racks=("CATSEOD", "AEIOULN"))
    game.pass_turn(ana, version=game.version)
    game.exchange(ben, "AE", version=game.version)  # hindsight looks back on it, on any turn
    for user in (ana, ben):
        grant_coins(user=user, amount=30, reason="test")
    version = game.version

    def as_user(user: User, path: str, data: dict[str, object]) -> Callable[[], str]:
        def call() -> str:
            client = Client()
            client.force_login(user)
            url = f"/games/{game.pk}/{path}/"
            return str(client.post(url, {**data, "version": version}, headers=HX).status_code)

        return call

    answers = run_together(
        as_user(ana, "play", {"tiles": CAT, "action_id": "play"}),
        as_user(ana, "extras/tile_bag", {"action_id": "bag"}),
        as_user(ben, "extras/hindsight", {"action_id": "look"}),
    )
    assert answers == ["200", "200", "200"]
    game.refresh_from_db()
    assert Move.objects.filter(game=game, kind="play").count() == 1
    assert game.state_obj().board[7][7:10] == "CAT"
    # ben's hindsight (of his own exchange): bought when it came before ana's play; after
    # it, refused as stale (his request could not have seen the play), never paid for.
    looks = ExtraPurchase.objects.filter(game=game, user=ben, extra=extras.HINDSIGHT).count()
    assert looks in (0, 1)
    assert CoinEntry.objects.filter(user=ben, reason="extra:hindsight").count() == looks
    # ana's tile bag: bought for her turn (move 3) when it came before her play, else
    # refused as not its time (her turn was over), and then not paid for.
    bags = list(ExtraPurchase.objects.filter(game=game, user=ana, extra=extras.TILE_BAG))
    assert all(bag.period == 3 for bag in bags)
    assert CoinEntry.objects.filter(user=ana, reason="extra:tile_bag").count() == len(bags)
    kinds = sorted(game.actions.filter(version__gt=version).values_list("kind", flat=True))
    assert kinds == sorted(["play"] + ["buy_extra"] * (len(bags) + looks))
    assert game.version == version + len(kinds)
