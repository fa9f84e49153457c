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
from games.gameview import extra_views
from games.models import ExtraPurchase, Game, GameError
from games.services import buy_extra
from tests.games.helpers import CAT_AT_CENTRE, make_game


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
def test_hindsight_can_be_bought_on_the_buyers_next_turn_until_they_move(
    ana: Any, ben: Any, game_ana_ben: Game
) -> None:
    # Against the computer the opponent's turn lasts a second: the window goes on
    # through the player's own next turn, until they move again.
    coins(ana, 50)
    game_ana_ben.play(ana, CAT_AT_CENTRE, version=game_ana_ben.version)
    game_ana_ben.pass_turn(ben, version=game_ana_ben.version)
    purchase = buy_extra(game=game_ana_ben, user=ana, extra=extras.HINDSIGHT, version=game_ana_ben.version)
    assert purchase.period == 1  # still ana's move 1, on her turn
    paid = balance(ana)
    game = Game.objects.get(pk=game_ana_ben.pk)
    assert buy_extra(game=game, user=ana, extra=extras.HINDSIGHT, version=game.version) == purchase
    assert balance(ana) == paid  # the same purchase, not charged again
    game.pass_turn(ana, version=game.version)  # her next move: the window moves on
    assert buy_extra(game=game, user=ana, extra=extras.HINDSIGHT, version=game.version).period == 3


@pytest.mark.django_db
def test_hindsight_on_a_pass_is_not_sold_on_the_next_turn(ana: Any, ben: Any, game_ana_ben: Game) -> None:
    # After a pass the rack looked back on is the rack in hand, on the board but for the
    # opponent's reply: on the passer's own turn that would be the best play now.
    coins(ana, 50)
    game_ana_ben.pass_turn(ana, version=game_ana_ben.version)
    game_ana_ben.pass_turn(ben, version=game_ana_ben.version)
    game = Game.objects.get(pk=game_ana_ben.pk)
    with pytest.raises(GameError, match="extra_not_now"):
        buy_extra(game=game, user=ana, extra=extras.HINDSIGHT, version=game.version)
    assert balance(ana) == 50
    panel = {item.code: item for item in extra_views(game, 0, game.state_obj(), list(game.moves.all()), [])}
    assert panel[extras.HINDSIGHT].move is None


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


HX = {"HX-Request": "true"}


def client_for(user: Any) -> Any:
    """A signed-in client; today's daily bonus already had, so balances move only by purchases."""
    from django.test import Client
    from django.utils import timezone

    type(user).objects.filter(pk=user.pk).update(last_daily_bonus=timezone.now().date())
    c = Client()
    c.force_login(user)
    return c


@pytest.mark.django_db
def test_buying_over_http_shows_the_tile_bag_to_the_buyer_only_and_discloses_it_to_all(
    ana: Any, ben: Any, cleo: Any, game_ana_ben: Game
) -> None:
    from django.urls import reverse

    coins(ana, 20)
    url = reverse("games:buy", args=[game_ana_ben.pk, extras.TILE_BAG])
    answer = client_for(ana).post(url, {"version": game_ana_ben.version, "action_id": "buy-1"}, headers=HX)
    assert answer.status_code == 200
    assert 'class="tile-bag"' in answer.text
    assert balance(ana) == 15
    fragments = reverse("games:fragments", args=[game_ana_ben.pk])
    for user in (ben, cleo):
        seen = client_for(user).get(fragments, headers=HX).text
        assert 'class="tile-bag"' not in seen
        assert "Aids bought" in seen
        assert "Tile bag" in seen
    assert 'id="extras"' not in client_for(cleo).get(fragments, headers=HX).text


@pytest.mark.django_db
def test_each_extra_says_what_it_does_in_the_players_language(ana: Any, game_ana_ben: Game) -> None:
    from django.urls import reverse

    fragments = reverse("games:fragments", args=[game_ana_ben.pk])
    seen = client_for(ana).get(fragments, headers=HX).text
    for code in extras.EXTRAS:
        assert f'title="{extras.DESCRIPTIONS[code]}"' in seen.replace("&#x27;", "'")
        # Read out with its buy button too (a tooltip reaches no screen reader or finger).
        assert f'aria-describedby="extra-{code}-what"' in seen
        assert f'id="extra-{code}-what">{extras.DESCRIPTIONS[code]}<' in seen.replace("&#x27;", "'")
    french = client_for(ana).get(fragments, headers={**HX, "Accept-Language": "fr"}).text
    assert 'title="Le meilleur coup que permettait votre dernier chevalet' in french


@pytest.mark.django_db
def test_hindsight_shows_the_best_play_to_its_buyer_only(ana: Any, ben: Any, game_ana_ben: Game) -> None:
    from django.urls import reverse

    coins(ana, 20)
    game_ana_ben.play(ana, CAT_AT_CENTRE, version=game_ana_ben.version)
    client_for(ana).post(
        reverse("games:buy", args=[game_ana_ben.pk, extras.HINDSIGHT]),
        {"version": game_ana_ben.version},
        headers=HX,
    )
    fragments = reverse("games:fragments", args=[game_ana_ben.pk])
    mine = client_for(ana).get(fragments, headers=HX).text
    assert 'class="hindsight"' in mine
    assert 'class="mini-board"' in mine
    assert 'class="hindsight"' not in client_for(ben).get(fragments, headers=HX).text


@pytest.mark.django_db
def test_word_strength_ranks_the_tentative_play_for_its_buyer(ana: Any, ben: Any, game_ana_ben: Game) -> None:
    from django.urls import reverse

    from tests.games.helpers import tiles

    coins(ana, 20)
    preview = reverse("games:preview", args=[game_ana_ben.pk])
    cat = tiles((7, 7, "C"), (7, 8, "A"), (7, 9, "T"))
    assert "% of the best" not in client_for(ana).post(preview, {"tiles": cat}, headers=HX).text
    buy_extra(game=game_ana_ben, user=ana, extra=extras.WORD_STRENGTH, version=game_ana_ben.version)
    ranked = client_for(ana).post(preview, {"tiles": cat}, headers=HX).text
    assert "% of the best" in ranked
    assert "rank " in ranked


@pytest.mark.django_db
def test_the_gcg_record_names_every_aid(ana: Any, ben: Any, game_ana_ben: Game) -> None:
    from django.urls import reverse

    coins(ana, 20)
    buy_extra(game=game_ana_ben, user=ana, extra=extras.TILE_BAG, version=game_ana_ben.version)
    game = Game.objects.get(pk=game_ana_ben.pk)
    game.play(ana, CAT_AT_CENTRE, version=game.version)
    game.resign(ben, version=game.version)
    record = client_for(ben).get(reverse("games:gcg", args=[game.pk])).content.decode()
    assert "#note Wordgame-Aid: ana 1 tile_bag" in record.splitlines()


@pytest.mark.django_db
def test_a_refused_purchase_over_http_says_why(ana: Any, game_ana_ben: Game) -> None:
    from django.urls import reverse

    url = reverse("games:buy", args=[game_ana_ben.pk, extras.TILE_BAG])
    answer = client_for(ana).post(url, {"version": game_ana_ben.version}, headers=HX)
    assert "You do not have enough coins for this extra." in answer.text
    assert not ExtraPurchase.objects.exists()


@pytest.mark.django_db
def test_meanings_of_a_move_log_word(ana: Any, game_ana_ben: Game) -> None:
    from django.urls import reverse

    answer = client_for(ana).get(reverse("games:define", args=[game_ana_ben.pk]) + "?word=cat")
    assert '<strong class="word">CAT</strong>' in answer.text


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_concurrent_purchases_never_overspend(postgres: None, ana: Any, ben: Any) -> None:
    """Purchases racing in two games at once, with coins for only one of them: exactly one
    is bought, the balance never goes below zero and equals the ledger."""
    from tests.games.test_races import run_together

    first = make_game(ana, ben, racks=("CATSEOD", "JQXZKVW"))
    second = make_game(ana, ben, racks=("CATSEOD", "JQXZKVW"))
    coins(ana, extras.price(extras.TILE_BAG))

    def buy(game: Game) -> Any:
        def call() -> str:
            try:
                buy_extra(
                    game=Game.objects.get(pk=game.pk), user=ana, extra=extras.TILE_BAG, version=game.version
                )
            except GameError as exc:
                return exc.code
            return "bought"

        return call

    answers = run_together(buy(first), buy(second), buy(first))
    assert sorted(answers).count("bought") >= 1
    assert ExtraPurchase.objects.count() == 1
    assert balance(ana) == 0
    assert sum(CoinEntry.objects.filter(user=ana).values_list("amount", flat=True)) == 0
    assert set(answers) <= {"bought", "not_enough_coins", "game_moved_on", "already_moved"}


@pytest.mark.django_db
def test_meanings_of_the_words_through_a_tapped_tile(ana: Any, ben: Any, game_ana_ben: Game) -> None:
    from django.urls import reverse

    game_ana_ben.play(ana, CAT_AT_CENTRE, version=game_ana_ben.version)
    url = reverse("games:define", args=[game_ana_ben.pk])
    assert '<strong class="word">CAT</strong>' in client_for(ben).get(url + "?row=7&col=8").text
    assert "<strong" not in client_for(ben).get(url + "?row=0&col=0").text  # an empty square
    assert "<strong" not in client_for(ben).get(url + "?row=x&col=99").text


@pytest.mark.django_db
def test_the_creator_switches_paid_extras_off_and_a_rematch_keeps_it(ana: Any, ben: Any) -> None:
    from django.urls import reverse

    from games.services import rematch

    client = client_for(ana)
    client.post(reverse("games:new"), {"mode": "computer", "language": "en", "level": "easy", "extras": "on"})
    client.post(reverse("games:new"), {"mode": "computer", "language": "en", "level": "easy"})
    with_extras, without = Game.objects.order_by("pk")
    assert with_extras.extras_allowed
    assert not without.extras_allowed
    without.resign(ana, version=without.version)
    assert not rematch(game=Game.objects.get(pk=without.pk), user=ana).extras_allowed
