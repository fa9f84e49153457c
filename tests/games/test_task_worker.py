"""The task queue as production runs it: real ``manage.py db_worker`` processes on the
test database. A worker killed in the middle of the computer's turn leaves its task
marked running; the next worker takes it back (``games.worker``) and the watchdog deferred
beside the turn enqueues it again too, and the computer's reply is applied exactly once."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings as django_settings
from django.db import connection
from django_tasks.base import TaskResultStatus
from django_tasks_db.models import DBTaskResult

from games import tasks
from games.models import Game, Move
from tests.games.helpers import CAT_AT_CENTRE, make_computer_game

ROOT = Path(django_settings.BASE_DIR)

WORKER = """
import sys
import time
import django
from django.conf import settings
settings.DATABASES["default"]["NAME"] = sys.argv[1]
django.setup()
from games import computer
think = float(sys.argv[2])
if think:
    # A slow thinker (the computer's own pause is a delayed start, not a sleep in the task).
    decide = computer.decide
    computer.decide = lambda game, seat: (time.sleep(think), decide(game, seat))[1]
from django.core.management import call_command
call_command("db_worker", interval=0.1, startup_delay=False, reload=False, verbosity=0)
"""


def start_worker(*, think_seconds: int) -> subprocess.Popen[str]:
    """A task worker on this test's database; it thinks at least ``think_seconds``."""
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "wordgame.settings", "TASKS_BACKEND": "database"}
    return subprocess.Popen(
        [sys.executable, "-c", WORKER, str(connection.settings_dict["NAME"]), str(think_seconds)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )


def wait_for(check: Callable[[], bool], seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.1)
    return False


def stop(worker: subprocess.Popen[str]) -> str:
    if worker.poll() is None:
        worker.kill()
    _out, err = worker.communicate(timeout=10)
    return err or ""


@pytest.mark.django_db(transaction=True)
def test_worker_killed_mid_thought_another_plays_the_turn_exactly_once(ana: Any, settings: Any) -> None:
    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend", "QUEUES": ["default"]}}
    settings.COMPUTER_WATCHDOG_SECONDS = 3
    game = make_computer_game(ana, level="easy", racks=("CATSEOD", "DOGSEAT"))
    slow = start_worker(think_seconds=60)
    fresh: subprocess.Popen[str] | None = None
    try:
        game.play(ana, CAT_AT_CENTRE, version=game.version)
        version = game.version
        turn = DBTaskResult.objects.filter(task_path=tasks.computer_turn.module_path)
        assert wait_for(lambda: turn.filter(status=TaskResultStatus.RUNNING).exists(), 30), stop(slow)
        time.sleep(0.5)  # thinking (or pausing after it): nothing applied yet
        slow.send_signal(signal.SIGKILL)
        slow.wait(timeout=10)
        assert not Move.objects.filter(game=game, user__isnull=True).exists()
        # The killed worker's claim stays until another worker takes it back.
        assert turn.filter(status=TaskResultStatus.RUNNING).count() == 1

        fresh = start_worker(think_seconds=0)
        replies = Move.objects.filter(game=game, user__isnull=True)
        assert wait_for(replies.exists, 45), stop(fresh)
        time.sleep(1.5)  # room for a duplicate to land, if one could
        assert replies.count() == 1
        reloaded = Game.objects.get(pk=game.pk)
        assert reloaded.version == version + 1
        assert reloaded.turn_seat == 0
        assert reloaded.actions.filter(kind__in=["play", "exchange", "pass"], user__isnull=True).count() == 1
    finally:
        stop(slow)
        if fresh is not None:
            stop(fresh)
