"""Background work on Django's task framework (``django-tasks``, stored in the database
by ``django-tasks-db``, run by ``manage.py db_worker`` on any number of machines).

Every task takes ids and the game ``version`` it was scheduled for, re-reads the
database and goes through ``Game.act``, the game's one locked, version-checked path:
a task run twice, late, or after the game moved on changes nothing.

- :func:`computer_turn`: the computer's move, enqueued when a change leaves a computer
  seat to move. A :func:`computer_watchdog` is deferred beside it: a worker killed in
  mid-thought leaves its task marked running for ever, so the watchdog enqueues the turn
  again if the game has not moved (the version and the turn's ``action_id`` make a
  duplicate harmless).
- :func:`turn_deadline` and :func:`turn_reminder`: deferred to the deadline and to a day
  before it; they do nothing if the game moved on meanwhile.
- :func:`clock_flag`: a live game's flag, deferred to the moment the clock of the player
  to move runs out, on the ``clocks`` queue (``games.clocks.CLOCK_QUEUE``), which a worker
  of its own runs, so that a flag never waits behind other work.
- :func:`sweep`: the safety net, re-enqueuing itself every ``SWEEP_INTERVAL_SECONDS``
  (the framework has no periodic scheduler): lapsed deadlines and due reminders that no
  task handled, computer turns left waiting, and the players' daily digests.

:func:`schedule_followups` is what ``Game.act`` runs inside the change's transaction
(registered in ``GamesConfig.ready``): with ``django-tasks-db`` the tasks are rows of the
same database, so they commit with the change or not at all, and a retry with the same
``action_id`` (answered from the record of the first time) finds them in place. Workers
that die mid-task are covered by ``games.worker`` (run by every ``manage.py db_worker``).
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django_tasks import task
from django_tasks.base import Task, TaskResultStatus

from games import computer, hooks, outcomes, study
from games.actions import SYSTEM, Abort, Computer
from games.clocks import CLOCK_QUEUE
from games.models import Game, GameError, GameMovedOn, Transition
from games.notify import record_digests
from games.seeks import widen_step
from games.services import expire_games, match_waiting

logger = logging.getLogger(__name__)


def enqueue(
    task_: Task[Any, Any], *args: Any, at: datetime | None = None, queue: str = "", soon: bool = False
) -> bool:
    """Enqueue ``task_`` now, or to run after ``at``, on ``queue`` (the task's own by
    default) when the backend has it. A backend that cannot defer (the immediate backend
    the tests use) runs only what is due now, or at once with ``soon`` (a short pause
    that must not skip the task); returns whether it was enqueued."""
    backend = task_.get_backend()
    if queue and (not backend.queues or queue in backend.queues):
        task_ = task_.using(queue_name=queue)
    if at is not None and at > timezone.now():
        if backend.supports_defer:
            task_.using(run_after=at).enqueue(*args)
            return True
        if not soon:
            return False
    task_.enqueue(*args)
    return True


def computer_pause(live: bool) -> timedelta:
    """How long after the turn began the computer answers: a couple of seconds in a live
    game (``COMPUTER_LIVE_THINK_SECONDS``), ``COMPUTER_MIN_THINK_SECONDS`` otherwise. A
    delayed start of the task, not a sleep inside it: the worker is free meanwhile."""
    seconds = settings.COMPUTER_LIVE_THINK_SECONDS if live else settings.COMPUTER_MIN_THINK_SECONDS
    return timedelta(seconds=seconds)


def schedule_followups(transition: Transition) -> None:
    """The follow-ups of a change: the computer's turn (with its watchdog), or the turn's
    deadline and reminder, or a finished game's rating change and analysis.

    Called inside the change's transaction (``Game.act``), so the tasks commit with it;
    its own atomic block makes a watchdog's call all-or-nothing too (without a savepoint:
    inside a change, a failure here fails the whole change anyway). Under the immediate
    backend (tests) each task runs once that transaction commits
    (``wordgame.task_backends``), never inside it."""
    with transaction.atomic(savepoint=False):
        if (
            transition.live
            and transition.status == Game.Status.ACTIVE
            and transition.turn_deadline is not None
        ):
            enqueue(
                clock_flag,
                transition.game_id,
                transition.version,
                at=transition.turn_deadline,
                queue=CLOCK_QUEUE,
            )
        if transition.abort_at is not None:
            enqueue(
                abort_unstarted,
                transition.game_id,
                transition.version,
                at=transition.abort_at,
                queue=CLOCK_QUEUE,
            )
        if transition.computer_to_move:
            start_at = timezone.now() + computer_pause(transition.live)
            enqueue(computer_turn, transition.game_id, transition.version, at=start_at, soon=True)
            watchdog_at = start_at + timedelta(seconds=settings.COMPUTER_WATCHDOG_SECONDS)
            enqueue(computer_watchdog, transition.game_id, transition.version, at=watchdog_at)
        elif transition.live:
            pass  # no deadline warnings in a live game: its clocks are on the page
        elif transition.status == Game.Status.ACTIVE and transition.turn_deadline is not None:
            deadline = transition.turn_deadline
            enqueue(turn_deadline, transition.game_id, transition.version, at=deadline)
            enqueue(turn_reminder, transition.game_id, transition.version, at=deadline - timedelta(days=1))
        elif transition.status == Game.Status.FINISHED:
            enqueue(rate_game, transition.game_id)
            enqueue(analyse_game, transition.game_id)


def _game_at(game_id: int, version: int) -> Game | None:
    game = Game.objects.filter(pk=game_id, version=version).prefetch_related("seats__user").first()
    return game


@task()
def computer_turn(game_id: int, version: int) -> bool:
    """Think and play the computer's move in ``game_id`` at ``version``; False when the
    game moved on (a duplicate, a late watchdog) or has no computer to move."""
    game = _game_at(game_id, version)
    seat = game.computer_seat_to_move() if game is not None else None
    if game is None or seat is None:
        return False
    # The human-looking pause is the task's delayed start (schedule_followups).
    action = computer.decide(game, seat)
    try:
        record = game.act(
            game.pov(Computer(seat.index)), action, version=version, action_id=f"computer:{version}"
        )
    except GameMovedOn:
        return False
    return record.version == version + 1


@task()
def computer_watchdog(game_id: int, version: int) -> bool:
    """If the computer's turn at ``version`` has still not been played, enqueue it again
    (its worker may have been killed), with a new watchdog after it."""
    game = _game_at(game_id, version)
    if game is None or game.computer_seat_to_move() is None:
        return False
    logger.warning("computer turn in game %s at version %s not played yet: enqueued again", game_id, version)
    schedule_followups(Transition.of(game))
    return True


@task()
def turn_deadline(game_id: int, version: int) -> bool:
    """Time the player to move out if the game is still at ``version`` and the deadline
    has passed."""
    game = _game_at(game_id, version)
    return game is not None and game.timeout(version=version) is not None


# Enqueued on CLOCK_QUEUE by schedule_followups (on the default queue where a backend
# has no such queue: some tests' settings).
@task()
def clock_flag(game_id: int, version: int) -> bool:
    """The flag of a live game at ``version``: the player to move loses on time, recorded
    at the moment their clock ran out, whenever this runs (``Game.timeout`` through
    ``Game.act`` as the system, the row locked); in the challenge window of the game's
    last play the flag accepts that play instead (``engine.moves.timeout``). Run twice,
    late, or after a move that beat the flag, it changes nothing."""
    game = _game_at(game_id, version)
    return game is not None and game.is_live and game.timeout(version=version) is not None


@task()
def abort_unstarted(game_id: int, version: int) -> bool:
    """Call off a live game at ``version`` whose first player has not moved within
    ``LIVE_ABORT_SECONDS`` (``Abort`` through ``Game.act`` as the system); nothing if a
    move came first, or run twice."""
    game = _game_at(game_id, version)
    if game is None or "abort" not in game.allowed_actions(SYSTEM):
        return False
    try:
        game.act(SYSTEM, Abort(), version=version)
    except GameError:
        return False
    return True


def schedule_seek(seek: Game) -> None:
    """When a random request opens (in its transaction): look again for a match each time
    its rating window widens (``games.seeks``)."""
    enqueue(seek_widened, seek.pk, at=seek.created_at + widen_step(seek.is_live))


@task()
def seek_widened(game_id: int) -> bool:
    """The window of the open request ``game_id`` widened: pair it if another request is
    now within reach, else look again at the next widening. Nothing once it is closed."""
    matched = match_waiting(game_id=game_id)
    if matched is not None:
        return True
    seek = Game.objects.filter(pk=game_id, status=Game.Status.OPEN).first()
    if seek is not None:
        enqueue(seek_widened, game_id, at=timezone.now() + widen_step(seek.is_live))
    return False


@task()
def turn_reminder(game_id: int, version: int) -> bool:
    """Warn the player to move (the most urgent warning due, once each per turn) if the
    game is still at ``version``, then enqueue this task again for the turn's next warning."""
    game = _game_at(game_id, version)
    if game is None:
        return False
    sent = game.send_turn_reminder(version=version)
    now = timezone.now()
    if (next_at := game.next_warning_at(now)) is not None:
        enqueue(turn_reminder, game_id, version, at=next_at)
    return sent


@task()
def rate_game(game_id: int) -> bool:
    """Update both players' ratings for a finished rated game (``games.outcomes``; once per
    game, however often it runs)."""
    game = (
        Game.objects.filter(pk=game_id, status=Game.Status.FINISHED).prefetch_related("seats__user").first()
    )
    if game is None:
        return False
    outcomes.on_game_finished(game)
    return True


@task()
def analyse_game(game_id: int) -> bool:
    """Analyse a finished game, store it, collect its players' study items and tell the
    screens it is ready. Does nothing if it was analysed already."""
    return study.store_analysis(game_id)


@task()
def sweep() -> dict[str, list[int]]:
    """The safety net: time out and remind what no deadline task handled, enqueue
    computer turns left waiting longer than the watchdog allows, then enqueue the next
    sweep unless another one is already waiting."""
    report = expire_games()
    digests = record_digests(timezone.now())
    stuck_before = timezone.now() - timedelta(seconds=settings.COMPUTER_WATCHDOG_SECONDS)
    stuck = list(
        Game.objects.computer_to_move().filter(updated_at__lte=stuck_before).values_list("pk", "version")
    )
    for game_id, version in stuck:
        enqueue(computer_turn, game_id, version)
    ensure_sweep()
    return {
        "timed_out": report.timed_out,
        "reminded": report.reminded,
        "aborted": report.aborted,
        "digests": digests,
        "computer": [g for g, _ in stuck],
    }


def ensure_sweep() -> bool:
    """Enqueue the next sweep in ``SWEEP_INTERVAL_SECONDS`` unless one is waiting already
    (several chains started by several workers merge into one). Every sweep calls it,
    and so does every task worker when it starts and at each lease check
    (``games.worker``), so a sweep lost with its worker starts again. Returns whether it
    enqueued one. The recurring tasks of the apps above games are made sure of here
    too (``games.hooks.keep_chains``)."""
    hooks.keep_chains()
    if not chain_missing(sweep, TaskResultStatus.READY):
        return False
    enqueue(sweep, at=timezone.now() + timedelta(seconds=settings.SWEEP_INTERVAL_SECONDS))
    return True


def chain_missing(task_: Task[Any, Any], *statuses: TaskResultStatus) -> bool:
    """Whether a recurring task's chain needs starting: its backend can defer (the
    immediate one cannot: nothing to keep) and no run of it is in ``statuses``."""
    from django_tasks_db.models import DBTaskResult

    if not task_.get_backend().supports_defer:
        return False
    return not DBTaskResult.objects.filter(task_path=task_.module_path, status__in=statuses).exists()
