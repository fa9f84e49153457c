from __future__ import annotations

from typing import Any

import pytest

import engine
from games.actions import Accept
from games.models import AlreadyMoved, Game, GameError, GameMovedOn, Move
from tests.games.helpers import CAT_AT_CENTRE


@pytest.mark.django_db
def test_play_scores_saves_state_and_records_move(game_ana_ben: Game, ana: Any) -> None:
    move = game_ana_ben.play(ana, CAT_AT_CENTRE, version=game_ana_ben.version)
    game = Game.objects.get(pk=game_ana_ben.pk)
    assert move.kind == "play"
    assert move.words[0]["word"] == "CAT"
    assert move.score > 0
    assert move.rack_before == "CATSEOD"
    assert game.version == game_ana_ben.version
    assert game.state_obj().board[7][7:10] == "CAT"
    assert game.turn_seat == 1
    assert game.seats.get(index=0).score == move.score
    assert Move.objects.filter(game=game).count() == 1


@pytest.mark.django_db
def test_play_out_of_turn_raises_and_changes_nothing(game_ana_ben: Game, ben: Any) -> None:
    before = game_ana_ben.version
    with pytest.raises(engine.IllegalMove) as exc:
        game_ana_ben.play(
            ben, [engine.Placement(7, 7, "Z"), engine.Placement(7, 8, "A")], version=game_ana_ben.version
        )
    assert exc.value.code == "not_your_turn"
    assert Game.objects.get(pk=game_ana_ben.pk).version == before
    assert not Move.objects.exists()


@pytest.mark.django_db
def test_stale_version_raises_game_moved_on(game_ana_ben: Game, ana: Any) -> None:
    with pytest.raises(GameMovedOn):
        game_ana_ben.play(ana, CAT_AT_CENTRE, version=game_ana_ben.version - 1)
    assert not Move.objects.exists()


@pytest.mark.django_db
def test_repeated_action_id_is_applied_once(game_ana_ben: Game, ana: Any) -> None:
    version = game_ana_ben.version
    first = game_ana_ben.play(ana, CAT_AT_CENTRE, version=version, action_id="abc")
    again = Game.objects.get(pk=game_ana_ben.pk).play(ana, CAT_AT_CENTRE, version=version, action_id="abc")
    assert again.pk == first.pk
    assert Move.objects.count() == 1


@pytest.mark.django_db
def test_outsider_cannot_act(game_ana_ben: Game, cleo: Any) -> None:
    with pytest.raises(GameError) as exc:
        game_ana_ben.pass_turn(cleo, version=game_ana_ben.version)
    assert exc.value.code == "not_a_player"


@pytest.mark.django_db
def test_resign_on_opponents_turn_ends_game(game_ana_ben: Game, ben: Any) -> None:
    game_ana_ben.resign(ben, version=game_ana_ben.version)
    game = Game.objects.get(pk=game_ana_ben.pk)
    assert game.status == Game.Status.FINISHED
    assert game.end_reason == "resign"
    assert game.winner_seat == 0
    assert game.turn_deadline is None


@pytest.mark.django_db
def test_exchange_is_deterministic_from_seed(game_ana_ben: Game, ana: Any) -> None:
    game_ana_ben.exchange(ana, "CAT", version=game_ana_ben.version)
    after = Game.objects.get(pk=game_ana_ben.pk).state_obj()
    assert sorted(after.racks[0]) != sorted("CATSEOD") or after.racks[0] != "CATSEOD"
    assert len(after.racks[0]) == 7
    move = Move.objects.get()
    assert move.kind == "exchange"
    assert move.exchanged == "CAT"


@pytest.mark.django_db
def test_chat_is_for_players_only(game_ana_ben: Game, ana: Any, cleo: Any) -> None:
    message = game_ana_ben.post_chat(ana, " hello ")
    assert message.text == "hello"
    with pytest.raises(GameError):
        game_ana_ben.post_chat(cleo, "hi")


@pytest.mark.django_db
def test_stale_version_after_own_move_says_already_moved(game_ana_ben: Game, ana: Any, ben: Any) -> None:
    version = game_ana_ben.version
    game_ana_ben.play(ana, CAT_AT_CENTRE, version=version, action_id="tab-1")
    # The same player's second tab (another action id) at the old version.
    with pytest.raises(AlreadyMoved):
        Game.objects.get(pk=game_ana_ben.pk).pass_turn(ana, version=version, action_id="tab-2")
    # ben, behind by ana's move, is told that the game moved on: someone else moved.
    with pytest.raises(GameMovedOn) as exc:
        Game.objects.get(pk=game_ana_ben.pk).resign(ben, version=version)
    assert exc.value.code == "game_moved_on"
    assert Move.objects.count() == 1


@pytest.mark.django_db
def test_missing_version_is_refused_and_changes_nothing(game_ana_ben: Game, ana: Any) -> None:
    with pytest.raises(GameError) as exc:
        game_ana_ben.play(ana, CAT_AT_CENTRE, version=None)
    assert exc.value.code == "missing_version"
    assert Game.objects.get(pk=game_ana_ben.pk).version == game_ana_ben.version
    assert not Move.objects.exists()


@pytest.mark.django_db
def test_every_action_is_recorded_with_its_id(ana: Any, ben: Any) -> None:
    from games.models import GameAction
    from games.services import start_game

    game = start_game(creator=ana, mode="friend", language="en", opponent=ben)
    game.accept(ben, version=game.version, action_id="accept-1")
    game.pass_turn(game.seat_user(game.turn_seat or 0), version=game.version, action_id="pass-1")
    records = list(GameAction.objects.filter(game=game).values_list("version", "kind", "action_id"))
    assert records == [(1, "deal", ""), (2, "accept", "accept-1"), (3, "pass", "pass-1")]
    # A repeated accept answers with what it did the first time.
    assert Game.objects.get(pk=game.pk).act(ben, Accept(), version=1, action_id="accept-1").version == 2


@pytest.mark.django_db
def test_page_flags_come_from_the_rule_table(game_ana_ben: Game, ana: Any, ben: Any, cleo: Any) -> None:
    from tests.games.helpers import context as game_context

    assert game_ana_ben.allowed_actions(ana) == {"play", "exchange", "pass", "resign", "buy_extra"}
    assert game_ana_ben.allowed_actions(ben) == {"resign", "buy_extra"}
    assert game_ana_ben.allowed_actions(cleo) == frozenset()
    for user in (ana, ben, cleo):
        context = game_context(game_ana_ben, user)
        allowed = game_ana_ben.allowed_actions(user)
        assert context["can_act"] == ("play" in allowed)
        assert context["can_resign"] == ("resign" in allowed)


@pytest.mark.django_db
def test_a_vacation_pauses_the_turn_clock_and_opponents_see_it(
    game_ana_ben: Game, ana: Any, ben: Any
) -> None:
    from datetime import timedelta

    from django.utils import timezone

    from accounts.models import VacationPeriod
    from games.gameview import view_for

    now = timezone.now()
    # ana's deadline passed an hour ago, but she has been on vacation for two days of her turn.
    Game.objects.filter(pk=game_ana_ben.pk).update(
        turn_deadline=now - timedelta(hours=1), turn_noticed_at=now
    )
    VacationPeriod.objects.create(
        user=ana, started_at=now - timedelta(days=2), ends_by=now + timedelta(days=3)
    )
    game = Game.objects.get(pk=game_ana_ben.pk)
    assert game.timeout(now=now) is None
    seats = {s.name: s for s in view_for(game, ben).seats}
    assert seats["ana"].vacation_until is not None
    # A game whose clock vacations do not pause (a tournament's) times out.
    Game.objects.filter(pk=game.pk).update(vacation_pauses=False)
    assert Game.objects.get(pk=game.pk).timeout(now=now) is not None


@pytest.mark.django_db
def test_a_copy_read_before_a_player_joined_acts_with_the_seats_as_they_are_now(ana: Any, ben: Any) -> None:
    """A copy of the game read at an older version (here: an open seek, before ben took
    its second seat) may still act with the current version: ``act`` reads the seats
    again rather than take the copy's."""
    from games.services import start_game

    seek = start_game(creator=ana, mode="random", language="es")
    old = Game.objects.with_seats().get(pk=seek.pk)
    assert old.seat_of(ben) is None
    game = start_game(creator=ben, mode="random", language="es")
    assert game.pk == seek.pk
    game = Game.objects.with_seats().get(pk=game.pk)
    if game.turn_seat != game.seat_of(ben):
        game.pass_turn(ana, version=game.version)
    old.pass_turn(ben, version=game.version)
    assert old.seat_of(ben) is not None
    assert Move.objects.filter(game=game, user=ben, kind="pass").count() == 1


@pytest.mark.django_db
def test_a_move_rolled_back_after_its_scores_leaves_the_callers_seats_as_they_were(
    ana: Any, ben: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``act`` takes the caller's seats (read at the same version) as copies: a failure
    after the scores were set rolls the database back and leaves the caller's copy too."""
    from games.models import GameAction
    from tests.games.helpers import make_game

    game = make_game(ana, ben, racks=("CATSEOD", "AEIOULN"))
    game = Game.objects.with_seats().get(pk=game.pk)

    def fails(**kwargs: Any) -> None:
        raise RuntimeError("the database went away")

    monkeypatch.setattr(GameAction.objects, "create", fails)
    with pytest.raises(RuntimeError):
        game.play(ana, CAT_AT_CENTRE, version=game.version)
    assert [s.score for s in game.seat_list()] == [0, 0]
    assert Move.objects.filter(game=game).count() == 0
