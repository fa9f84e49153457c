from __future__ import annotations

import time
from typing import Any

import pytest

from games import computer
from games.models import Game, Move
from tests.games.helpers import CAT_AT_CENTRE, make_computer_game


@pytest.mark.django_db
def test_computer_replies_after_human_move(ana: Any, django_capture_on_commit_callbacks: Any) -> None:
    game = make_computer_game(ana, level="hard", racks=("CATSEOD", "DOGSEAT"))
    with django_capture_on_commit_callbacks(execute=True):
        game.play(ana, CAT_AT_CENTRE)
    game.refresh_from_db()
    moves = list(Move.objects.filter(game=game).order_by("number"))
    assert [m.kind for m in moves] == ["play", "play"]
    assert moves[1].user is None
    assert moves[1].seat == 1
    assert game.turn_seat == 0
    assert game.turn_deadline is not None


@pytest.mark.django_db
def test_computer_moving_first_plays_at_start(ana: Any, django_capture_on_commit_callbacks: Any) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        game = make_computer_game(ana, level="easy", first=1)
    assert Move.objects.filter(game=game).count() == 1
    assert Game.objects.get(pk=game.pk).turn_seat == 1  # ana (seat 1) to move


@pytest.mark.django_db
def test_computer_without_a_play_exchanges(ana: Any, django_capture_on_commit_callbacks: Any) -> None:
    game = make_computer_game(ana, level="medium", racks=("CATSEOD", "JQXZKVW"))
    with django_capture_on_commit_callbacks(execute=True):
        game.play(ana, CAT_AT_CENTRE)
    assert list(Move.objects.filter(game=game).values_list("kind", flat=True)) == ["play", "exchange"]


@pytest.mark.django_db
def test_stale_computer_decision_is_dropped(ana: Any) -> None:
    game = make_computer_game(ana, level="easy", first=1, racks=("DOGSEAT", "CATSEOD"))
    decision = {"kind": "pass"}
    assert game.play_computer(decision, version=game.version - 1) is None
    assert game.play_computer(decision, version=game.version) is not None
    assert game.play_computer(decision, version=game.version) is None  # not its turn any more


@pytest.mark.django_db
def test_resume_picks_up_pending_computer_turns(ana: Any, ben: Any) -> None:
    # Created without running on-commit hooks: as if the server stopped mid-thought.
    waiting = make_computer_game(ana, level="easy", first=1, racks=("DOGSEAT", "CATSEOD"))
    human_turn = make_computer_game(ben, level="easy", first=0)
    assert waiting.computer_seat_to_move() is not None
    assert computer.resume_pending_computer_turns() == [waiting.pk]
    assert Move.objects.filter(game=waiting).count() == 1
    assert not Move.objects.filter(game=human_turn).exists()
    assert computer.resume_pending_computer_turns() == []


@pytest.mark.django_db(transaction=True)
def test_real_process_pool_replies_without_blocking_the_caller(
    ana: Any, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings.COMPUTER_SYNC = False
    schedule = computer.schedule
    monkeypatch.setattr(computer, "schedule", lambda game_id, version: None)  # set the racks first
    game = make_computer_game(ana, level="hard", first=1, racks=("DOGSEAT", "CATSEOD"))
    try:
        started = time.monotonic()
        future = schedule(game.pk, game.version)
        returned_after = time.monotonic() - started
        assert future is not None
        assert future.result(timeout=30) is True
        assert returned_after < 0.5  # the caller did not wait for the thinking
    finally:
        computer.shutdown()
    move = Move.objects.get(game=game)
    assert move.kind == "play"
    assert move.user is None


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("close_db_connection")
async def test_event_loop_path_uses_the_pool(
    ana: Any, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from asgiref.sync import sync_to_async

    settings.COMPUTER_SYNC = False
    monkeypatch.setattr(computer, "schedule", lambda game_id, version: None)  # only run_turn below
    game = await sync_to_async(make_computer_game)(ana, level="medium", first=1, racks=("DOGSEAT", "CATSEOD"))
    try:
        assert await computer.run_turn(game.pk, game.version) is True
        assert await computer.run_turn(game.pk, game.version) is False  # already applied
    finally:
        await sync_to_async(computer.shutdown)()
    assert await Move.objects.filter(game=game, user__isnull=True).acount() == 1
