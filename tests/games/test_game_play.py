from __future__ import annotations

from typing import Any

import pytest

import engine
from games.models import Game, GameError, GameMovedOn, Move
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
        game_ana_ben.play(ben, [engine.Placement(7, 7, "Z"), engine.Placement(7, 8, "A")])
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
        game_ana_ben.pass_turn(cleo)
    assert exc.value.code == "not_a_player"


@pytest.mark.django_db
def test_resign_on_opponents_turn_ends_game(game_ana_ben: Game, ben: Any) -> None:
    game_ana_ben.resign(ben)
    game = Game.objects.get(pk=game_ana_ben.pk)
    assert game.status == Game.Status.FINISHED
    assert game.end_reason == "resign"
    assert game.winner_seat == 0
    assert game.turn_deadline is None


@pytest.mark.django_db
def test_exchange_is_deterministic_from_seed(game_ana_ben: Game, ana: Any) -> None:
    game_ana_ben.exchange(ana, "CAT")
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
