"""Paid extras (issue 10): buying on the game's one path, what each shows, refunds."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

import engine
from accounts.models import CoinEntry
from accounts.services import grant_coins
from games import extras
from games.models import ExtraPurchase, Game, GameError
from games.services import buy_extra
from tests.games.helpers import CAT_AT_CENTRE


def coins(user: Any, amount: int) -> None:
    grant_coins(user=user, amount=amount, reason="test")


def balance(user: Any) -> int:
    user.refresh_from_db()
    return int(user.coins)


def snapshot(game: Game, *users: Any) -> tuple[Any, ...]:
    fresh = Game.objects.get(pk=game.pk)
    return (
        fresh.version,
        fresh.state,
        ExtraPurchase.objects.count(),
        CoinEntry.objects.count(),
        tuple(balance(u) for u in users),
    )


@pytest.mark.django_db
def test_buying_the_tile_bag_spends_once_per_turn(ana: Any, ben: Any, game_ana_ben: Game) -> None:
    coins(ana, 20)
    purchase = buy_extra(game=game_ana_ben, user=ana, extra=extras.TILE_BAG, version=game_ana_ben.version)
    assert purchase.period == 1
    assert balance(ana) == 20 - extras.price(extras.TILE_BAG)
    assert purchase.entry.amount == -extras.price(extras.TILE_BAG)
    # Again in the same turn: the same purchase, nothing spent (even with an old version).
    again = buy_extra(game=Game.objects.get(pk=game_ana_ben.pk), user=ana, extra=extras.TILE_BAG, version=0)
    assert again.pk == purchase.pk
    assert balance(ana) == 20 - extras.price(extras.TILE_BAG)
    assert Game.objects.get(pk=game_ana_ben.pk).actions.filter(kind="buy_extra").count() == 1


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("who", "extra", "setup", "code"),
    [
        ("ana", extras.TILE_BAG, "poor", "not_enough_coins"),
        ("ben", extras.TILE_BAG, "", "extra_not_now"),  # not ben's turn
        ("ben", extras.HINDSIGHT, "", "extra_not_now"),  # ben has not moved yet
        ("ana", extras.HINDSIGHT, "", "extra_not_now"),  # ana's turn: hindsight is for after a move
        ("ana", "crystal_ball", "", "bad_extra"),
        ("ana", extras.TILE_BAG, "off", "extras_off"),
        ("ana", extras.TILE_BAG, "over", "game_over"),
        ("cleo", extras.TILE_BAG, "", "not_a_player"),
    ],
)
def test_refused_purchases_say_why_and_change_nothing(
    ana: Any, ben: Any, cleo: Any, game_ana_ben: Game, who: str, extra: str, setup: str, code: str
) -> None:
    users = {"ana": ana, "ben": ben, "cleo": cleo}
    for user in users.values():
        coins(user, 2 if setup == "poor" else 50)
    if setup == "off":
        Game.objects.filter(pk=game_ana_ben.pk).update(extras_allowed=False)
    if setup == "over":
        game_ana_ben.resign(ben, version=game_ana_ben.version)
    game = Game.objects.get(pk=game_ana_ben.pk)
    before = snapshot(game, *users.values())
    with pytest.raises((GameError, engine.IllegalMove)) as exc:
        buy_extra(game=game, user=users[who], extra=extra, version=game.version)
    assert getattr(exc.value, "code", None) == code
    assert snapshot(game, *users.values()) == before


@pytest.mark.django_db
def test_hindsight_is_for_the_last_move_until_the_next(ana: Any, ben: Any, game_ana_ben: Game) -> None:
    coins(ana, 50)
    game_ana_ben.play(ana, CAT_AT_CENTRE, version=game_ana_ben.version)
    purchase = buy_extra(game=game_ana_ben, user=ana, extra=extras.HINDSIGHT, version=game_ana_ben.version)
    assert purchase.period == 1  # ana's move 1


@pytest.mark.django_db
def test_an_unused_purchase_is_refunded_when_the_opponent_resigns_in_that_turn(
    ana: Any, ben: Any, game_ana_ben: Game
) -> None:
    coins(ana, 50)
    purchase = buy_extra(game=game_ana_ben, user=ana, extra=extras.TILE_BAG, version=game_ana_ben.version)
    assert balance(ana) == 45
    game = Game.objects.get(pk=game_ana_ben.pk)
    game.resign(ben, version=game.version)
    purchase.refresh_from_db()
    assert purchase.refund is not None
    assert purchase.refund.amount == extras.price(extras.TILE_BAG)
    assert balance(ana) == 50
    assert sum(CoinEntry.objects.filter(user=ana).values_list("amount", flat=True)) == 50


@pytest.mark.django_db
def test_resigning_yourself_after_buying_is_not_refunded(ana: Any, ben: Any, game_ana_ben: Game) -> None:
    coins(ana, 50)
    buy_extra(game=game_ana_ben, user=ana, extra=extras.TILE_BAG, version=game_ana_ben.version)
    game = Game.objects.get(pk=game_ana_ben.pk)
    game.resign(ana, version=game.version)
    assert not ExtraPurchase.objects.filter(refund__isnull=False).exists()
    assert balance(ana) == 45


@pytest.mark.parametrize("language", engine.LANGUAGES)
def test_tile_bag_counts_are_the_tile_set_minus_board_minus_own_rack(language: str) -> None:
    """On positions reached by computer play in every language: the unseen tiles are the
    whole set minus the board (a blank counted as a blank) minus the buyer's rack, and
    the same whichever tiles are in the bag and which on the opponent's rack."""
    from engine.analysis import computer_move
    from tests.games.helpers import lexicon

    rng = random.Random(f"tile-bag-{language}")
    state = engine.new_game(language, rng)
    words = lexicon() if language == "en" else engine.WordListLexicon([], engine.tileset(language).alphabet)
    for _ in range(6):
        if state.over:
            break
        choice = computer_move(state, state.turn, words, "easy", rng)
        state = choice.apply(state, state.turn, words, rng).state
    tiles = engine.tileset(language)
    for seat in (0, 1):
        bag = extras.tile_bag(state, seat)
        expected = Counter({**tiles.counts, engine.BLANK: tiles.blanks})
        for line in state.board:
            for char in line:
                if char != engine.EMPTY:
                    expected[engine.BLANK if char.islower() else char] -= 1
        expected.subtract(state.racks[seat])
        assert dict(bag.unseen) == {t: n for t, n in expected.items() if n > 0}
        assert bag.total == len(state.bag) + len(state.racks[1 - seat])
        assert bag.in_bag == len(state.bag)
        # Swapping tiles between the bag and the opponent's rack changes nothing shown.
        pool = list(state.bag + state.racks[1 - seat])
        random.Random(1).shuffle(pool)
        other = len(state.racks[1 - seat])
        racks = list(state.racks)
        racks[1 - seat] = "".join(pool[:other])
        moved = engine.GameState.from_dict({**state.to_dict(), "racks": racks, "bag": "".join(pool[other:])})
        assert extras.tile_bag(moved, seat) == bag


def test_strength_ranks_ties_together_and_shares_the_best() -> None:
    scores = sorted([5, 10, 10, 20, 40])
    assert extras.strength(40, scores).rank == 1
    assert extras.strength(10, scores).rank == 3  # two plays score more; the tie shares 3
    assert extras.strength(10, scores).share == 25
    assert extras.strength(5, scores).rank == 5
    assert extras.strength(40, scores).of == 5
