"""Tasks lost with their worker come back (``games.worker``), and the immediate backend
runs a task only once the transaction that enqueued it commits
(``wordgame.task_backends``). The real worker processes killed mid-task are in
``tests/production/test_task_recovery.py``."""

from __future__ import annotations

import subprocess
import sys
from datetime import timedelta
from typing import Any

import pytest
from django.db import transaction
from django.utils import timezone
from django_tasks.base import TaskResultStatus
from django_tasks.signals import task_started
from django_tasks_db.models import DBTaskResult

from games import tasks, worker
from games.models import Move
from tests.games.helpers import CAT_AT_CENTRE, make_computer_game

DATABASE_TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend", "QUEUES": ["default"]}}


def running(*, worker_ids: list[str], minutes_ago: float) -> DBTaskResult:
    tasks.analyse_game.enqueue(1)
    row = DBTaskResult.objects.get(task_path=tasks.analyse_game.module_path, status=TaskResultStatus.READY)
    DBTaskResult.objects.filter(pk=row.pk).update(
        status=TaskResultStatus.RUNNING,
        worker_ids=worker_ids,
        started_at=timezone.now() - timedelta(minutes=minutes_ago),
    )
    return row


def status(row: DBTaskResult) -> str:
    row.refresh_from_db()
    return row.status


def dead_pid() -> int:
    done = subprocess.Popen([sys.executable, "-c", "pass"])
    done.wait()
    return done.pid


@pytest.mark.django_db
def test_a_task_past_its_lease_is_queued_again_and_a_younger_one_is_left(settings: Any) -> None:
    settings.TASKS = DATABASE_TASKS
    settings.TASK_LEASE_SECONDS = 600
    old = running(worker_ids=["elsewhere:123:abcdefgh"], minutes_ago=11)
    young = running(worker_ids=["elsewhere:124:abcdefgh"], minutes_ago=1)
    recovered = worker.recover_tasks()
    assert recovered.requeued == [str(old.pk)]
    assert status(old) == TaskResultStatus.READY
    assert status(young) == TaskResultStatus.RUNNING


@pytest.mark.django_db
def test_a_task_of_a_gone_worker_on_this_host_is_queued_again_at_once(settings: Any) -> None:
    settings.TASKS = DATABASE_TASKS
    gone = running(worker_ids=[f"{worker.HOST}:{dead_pid()}:abcdefgh"], minutes_ago=0.1)
    mine = running(worker_ids=[worker.worker_id()], minutes_ago=0.1)
    worker.recover_tasks()
    assert status(gone) == TaskResultStatus.READY
    assert status(mine) == TaskResultStatus.RUNNING


@pytest.mark.django_db
def test_a_task_lost_too_often_is_failed_not_retried(settings: Any) -> None:
    settings.TASKS = DATABASE_TASKS
    settings.TASK_MAX_ATTEMPTS = 3
    row = running(worker_ids=["a:1:x", "b:2:y", "c:3:z"], minutes_ago=60)
    recovered = worker.recover_tasks()
    assert recovered.failed == [str(row.pk)]
    row.refresh_from_db()
    assert row.status == TaskResultStatus.FAILED
    assert "claimed 3 times" in row.traceback


@pytest.mark.django_db
def test_recovery_starts_the_sweep_chain_once(settings: Any) -> None:
    settings.TASKS = DATABASE_TASKS
    assert worker.recover_tasks().sweep_enqueued is True
    assert worker.recover_tasks().sweep_enqueued is False
    assert DBTaskResult.objects.filter(task_path=tasks.sweep.module_path).count() == 1


@pytest.mark.django_db(transaction=True)
def test_immediate_backend_runs_a_follow_up_after_the_commit_never_inside(ana: Any) -> None:
    game = make_computer_game(ana, level="easy", racks=("CATSEOD", "DOGSEAT"))
    replies = Move.objects.filter(game=game, user__isnull=True)
    with transaction.atomic():
        game.play(ana, CAT_AT_CENTRE, version=game.version)
        assert not replies.exists()  # not thought inside the player's transaction
    assert replies.count() == 1


@pytest.mark.django_db(transaction=True)
def test_immediate_backend_runs_nothing_for_a_rolled_back_change(ana: Any) -> None:
    game = make_computer_game(ana, level="easy", racks=("CATSEOD", "DOGSEAT"))

    version = game.version

    def play_then_fail() -> None:
        with transaction.atomic():
            game.play(ana, CAT_AT_CENTRE, version=version)
            raise RuntimeError("the request failed after the move")

    started: list[str] = []

    def record(sender: Any, task_result: Any, **kwargs: Any) -> None:
        started.append(task_result.task.name)

    task_started.connect(record)
    try:
        with pytest.raises(RuntimeError):
            play_then_fail()
    finally:
        task_started.disconnect(record)
    assert started == []  # the computer never started thinking about a move never made
    assert not Move.objects.filter(game=game).exists()
