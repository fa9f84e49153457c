from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.core.management import call_command
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from games import tasks
from games.actions import Computer, Pass
from games.models import Game, GameError, Move
from tests.games.helpers import CAT_AT_CENTRE, make_computer_game


@pytest.mark.django_db
def test_computer_replies_after_human_move(ana: Any, django_capture_on_commit_callbacks: Any) -> None:
    game = make_computer_game(ana, level="hard", racks=("CATSEOD", "DOGSEAT"))
    with django_capture_on_commit_callbacks(execute=True):
        game.play(ana, CAT_AT_CENTRE, version=game.version)
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
        game.play(ana, CAT_AT_CENTRE, version=game.version)
    assert list(Move.objects.filter(game=game).values_list("kind", flat=True)) == ["play", "exchange"]


@pytest.mark.django_db
def test_stale_computer_turn_does_nothing_and_a_repeat_applies_once(ana: Any) -> None:
    game = make_computer_game(ana, level="easy", first=1, racks=("DOGSEAT", "CATSEOD"))
    version = game.version
    assert tasks.computer_turn.call(game.pk, version - 1) is False
    assert tasks.computer_turn.call(game.pk, version) is True
    assert tasks.computer_turn.call(game.pk, version) is False  # the game moved on
    # The same decision applied twice at the same version (a watchdog's duplicate that
    # got past the version read): the turn's action id answers with the first record.
    other = make_computer_game(ana, level="easy", first=1, racks=("DOGSEAT", "CATSEOD"))
    first = other.act(Computer(0), Pass(), version=other.version, action_id=f"computer:{other.version}")
    again = Game.objects.get(pk=other.pk).act(
        Computer(0), Pass(), version=first.version - 1, action_id=first.action_id
    )
    assert again.pk == first.pk
    assert Move.objects.filter(game=other).count() == 1


@pytest.mark.django_db
def test_only_a_computer_seat_may_act_as_the_computer(ana: Any, ben: Any, game_ana_ben: Game) -> None:
    with pytest.raises(GameError) as exc:
        game_ana_ben.act(Computer(0), Pass(), version=game_ana_ben.version)
    assert exc.value.code == "not_a_player"
    assert not Move.objects.filter(game=game_ana_ben).exists()


def database_tasks(settings: Any) -> None:
    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend", "QUEUES": ["default"]}}


def run_worker() -> None:
    """What ``manage.py db_worker`` does, until no task is due."""
    call_command("db_worker", batch=True, interval=0, startup_delay=False, reload=False, verbosity=0)


def queued(task_: Any, *args: Any) -> list[DBTaskResult]:
    """The stored results of ``task_`` (those called with ``args``, if given)."""
    results = DBTaskResult.objects.filter(task_path=task_.module_path).order_by("enqueued_at")
    return [r for r in results if not args or r.args_kwargs["args"] == list(args)]


@pytest.mark.django_db(transaction=True)
def test_a_human_move_enqueues_the_computer_turn_and_a_worker_plays_it(ana: Any, settings: Any) -> None:
    database_tasks(settings)
    game = make_computer_game(ana, level="medium", racks=("CATSEOD", "DOGSEAT"))
    game.play(ana, CAT_AT_CENTRE, version=game.version)
    assert Move.objects.filter(game=game).count() == 1  # nothing thought in the request
    [turn] = queued(tasks.computer_turn)
    [watchdog] = queued(tasks.computer_watchdog)
    assert turn.args_kwargs["args"] == [game.pk, game.version]
    assert queued(tasks.turn_deadline, game.pk, game.version) == []  # the computer has no clock
    assert watchdog.run_after > timezone.now() + timedelta(seconds=settings.COMPUTER_WATCHDOG_SECONDS - 5)
    run_worker()
    assert [m.kind for m in Move.objects.filter(game=game).order_by("number")] == ["play", "play"]
    # The watchdog, run late, finds the turn played and does nothing.
    assert tasks.computer_watchdog.call(game.pk, game.version) is False
    # The computer's move left ana to move: her deadline and reminder are waiting.
    game.refresh_from_db()
    [deadline] = queued(tasks.turn_deadline, game.pk, game.version)
    assert deadline.run_after == game.turn_deadline
    [reminder] = queued(tasks.turn_reminder, game.pk, game.version)
    assert reminder.run_after == game.turn_deadline - timedelta(days=1)


@pytest.mark.django_db(transaction=True)
def test_deadline_task_times_out_only_the_turn_it_was_set_for(ana: Any, ben: Any, settings: Any) -> None:
    from tests.games.helpers import make_game

    database_tasks(settings)
    game = make_game(ana, ben, racks=("CATSEOD", "JQXZKVW"))
    version = game.version
    assert tasks.turn_deadline.call(game.pk, version) is False  # not due yet
    Game.objects.filter(pk=game.pk).update(turn_deadline=timezone.now() - timedelta(minutes=1))
    game.refresh_from_db()
    game.play(ana, CAT_AT_CENTRE, version=version)  # a move in time: ben's turn now
    assert tasks.turn_deadline.call(game.pk, version) is False  # set for ana's turn: moved on
    # ben was warned (a turn no warning reached is extended instead: test_deadline_warnings).
    Game.objects.filter(pk=game.pk).update(
        turn_deadline=timezone.now() - timedelta(minutes=1), turn_noticed_at=timezone.now()
    )
    assert tasks.turn_deadline.call(game.pk, game.version) is True
    game.refresh_from_db()
    assert game.end_reason == Game.EndReason.TIMEOUT
    assert game.winner_seat == 0


@pytest.mark.django_db(transaction=True)
def test_sweep_enqueues_a_waiting_computer_turn_and_itself_once(ana: Any, settings: Any) -> None:
    database_tasks(settings)
    game = make_computer_game(ana, level="easy", first=1, racks=("DOGSEAT", "CATSEOD"))
    DBTaskResult.objects.all().delete()  # as if its turn was lost (a database restored from backup)
    Game.objects.filter(pk=game.pk).update(updated_at=timezone.now() - timedelta(minutes=5))
    report = tasks.sweep.call()
    assert report["computer"] == [game.pk]
    assert len(queued(tasks.sweep)) == 1
    assert tasks.ensure_sweep() is False  # one sweep waits already: no second chain
    run_worker()
    assert Move.objects.filter(game=game).count() == 1
