"""Deadline warnings 24 h and 3 h before a turn lapses (at most one of each per turn, none
longer than the turn), and no forfeit without one: a correspondence game outside a
tournament extends a lapsed turn once by a day when no warning reached the player (a mail
or push the service accepted, or the game looked at during the turn), and says so."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.core import mail
from django.utils import timezone

from games import tasks
from games.models import Game, GameAction
from games.notify import on_viewed
from games.services import expire_games
from notifications.models import Delivery, Kind, Notification
from notifications.texts import render

pytestmark = pytest.mark.django_db


def warnings_for(user: Any) -> list[str]:
    rows = Notification.objects.filter(recipient=user, kind=Kind.DEADLINE_WARNING).order_by("pk")
    return [str(n.params.get("variant", "")) for n in rows]


def set_deadline(game: Game, **fields: Any) -> Game:
    Game.objects.filter(pk=game.pk).update(**fields)
    return Game.objects.get(pk=game.pk)


def test_a_day_before_then_three_hours_before_once_each(ana: Any, game_ana_ben: Game) -> None:
    now = timezone.now()
    set_deadline(game_ana_ben, turn_deadline=now + timedelta(hours=20))
    assert expire_games(now=now).reminded == [game_ana_ben.pk]
    assert expire_games(now=now + timedelta(hours=1)).reminded == []
    assert Game.objects.get(pk=game_ana_ben.pk).warned_hours == 24
    later = now + timedelta(hours=18)  # 2 h left
    assert expire_games(now=later).reminded == [game_ana_ben.pk]
    assert expire_games(now=later + timedelta(minutes=30)).reminded == []
    assert warnings_for(ana) == ["", ""]
    assert Game.objects.get(pk=game_ana_ben.pk).warned_hours == 3


def test_a_late_sweep_sends_only_the_most_urgent(ana: Any, game_ana_ben: Game) -> None:
    now = timezone.now()
    set_deadline(game_ana_ben, turn_deadline=now + timedelta(hours=2))
    assert expire_games(now=now).reminded == [game_ana_ben.pk]
    assert expire_games(now=now + timedelta(minutes=1)).reminded == []
    assert warnings_for(ana) == [""]


def test_no_warning_longer_than_the_turn(ana: Any, game_ana_ben: Game) -> None:
    """A one-day turn (a one-day tournament's) gets no "a day left" at its start."""
    now = timezone.now()
    set_deadline(game_ana_ben, inactivity_days=1, turn_deadline=now + timedelta(hours=23, minutes=59))
    assert expire_games(now=now).reminded == []
    assert expire_games(now=now + timedelta(hours=22)).reminded == [game_ana_ben.pk]
    assert warnings_for(ana) == [""]


def test_the_warning_task_enqueues_the_next_warning(ana: Any, game_ana_ben: Game, settings: Any) -> None:
    from django_tasks_db.models import DBTaskResult

    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend", "QUEUES": ["default"]}}
    deadline = timezone.now() + timedelta(hours=20)
    game = set_deadline(game_ana_ben, turn_deadline=deadline)
    assert tasks.turn_reminder.call(game.pk, game.version) is True
    queued = DBTaskResult.objects.filter(task_path="games.tasks.turn_reminder").get()
    assert queued.run_after == deadline - timedelta(hours=3)
    assert queued.args_kwargs["args"] == [game.pk, game.version]


def test_a_lapsed_turn_no_warning_reached_is_extended_once(ana: Any, ben: Any, game_ana_ben: Game) -> None:
    """ana has no verified address and no device: nothing reached her."""
    deadline = timezone.now() - timedelta(minutes=5)
    game = set_deadline(game_ana_ben, turn_deadline=deadline)
    now = timezone.now()
    assert game.timeout(now=now) is None
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    assert game.deadline_extended
    assert game.turn_deadline is not None
    assert now + timedelta(hours=24) - timedelta(seconds=5) <= game.turn_deadline <= now + timedelta(hours=24)
    # The game's log says why; ana is told, in a notification of its own.
    assert GameAction.objects.filter(game=game).latest("version").kind == "extend"
    assert warnings_for(ana)[-1] == "extended"
    told = Notification.objects.filter(recipient=ana, kind=Kind.DEADLINE_WARNING).latest("pk")
    assert render(told).title == "Your turn against ben was extended by a day"
    assert "will not be extended again" in render(told).body
    # Both players' pages say so beside the time left.
    from django.test import Client

    from tests.factories import PASSWORD

    watcher = Client()
    assert watcher.login(username="ben", password=PASSWORD)
    page = watcher.get(f"/games/{game.pk}/").content.decode()
    assert "extended by a day: no warning reached this player" in page
    # Once only: at the new deadline the turn lapses.
    assert game.timeout(now=game.turn_deadline + timedelta(seconds=1)) is not None
    game.refresh_from_db()
    assert (game.status, game.end_reason) == (Game.Status.FINISHED, "timeout")


def test_a_delivered_warning_lets_the_turn_lapse(
    ana: Any, game_ana_ben: Game, django_capture_on_commit_callbacks: Any
) -> None:
    ana.verified_email = ana.email
    ana.save()
    now = timezone.now()
    set_deadline(game_ana_ben, turn_deadline=now + timedelta(hours=2))
    with django_capture_on_commit_callbacks(execute=True):
        expire_games(now=now)
    assert len(mail.outbox) == 1
    assert Delivery.objects.get().status == Delivery.Status.SENT
    game = Game.objects.get(pk=game_ana_ben.pk)
    assert game.turn_noticed_at is not None
    assert game.timeout(now=now + timedelta(hours=3)) is not None
    assert Game.objects.get(pk=game.pk).end_reason == "timeout"


def test_looking_at_the_game_during_the_turn_counts(
    ana: Any, ben: Any, cleo: Any, game_ana_ben: Game, django_assert_num_queries: Any
) -> None:
    on_viewed(game_ana_ben.pk, ben.pk)  # not ben's turn: it does not count for ana
    on_viewed(game_ana_ben.pk, cleo.pk)  # not a player
    assert Game.objects.get(pk=game_ana_ben.pk).turn_noticed_at is None
    with django_assert_num_queries(1):  # every open game page runs it every 20 s
        on_viewed(game_ana_ben.pk, ana.pk)
    game = Game.objects.get(pk=game_ana_ben.pk)
    assert game.turn_noticed_at is not None
    assert game.turn_deadline is not None
    assert game.timeout(now=game.turn_deadline + timedelta(seconds=1)) is not None


def test_a_tournament_game_is_not_extended(ana: Any, ben: Any) -> None:
    from games.services import start_paired_game

    game = start_paired_game(first=ana, second=ben, language="en", inactivity_days=1, dictionary_version=None)
    assert not game.warn_before_timeout
    assert game.turn_deadline is not None
    assert game.timeout(now=game.turn_deadline + timedelta(seconds=1)) is not None
