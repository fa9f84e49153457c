"""Live clocks that the server keeps (issue 28, point 2): charged only inside ``Game.act``,
overtime at 10 points per started minute, the flag falling once at the moment the clock
ran out through a task on the ``clocks`` queue, a move after it refused, two tabs never
stopping a clock twice, and a reload showing the true time left."""

from __future__ import annotations

import re
import threading
from datetime import datetime, timedelta
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

import engine
from games import clocks, services, tasks
from games.actions import Pass, Play, Resign
from games.models import Game, GameError, GameMovedOn, Move
from games.pace import Pace
from tests.factories import PASSWORD
from tests.games.helpers import CAT_AT_CENTRE, make_computer_game, make_game, set_racks

DATABASE_TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend", "QUEUES": ["default", "clocks"]}}


def live_game(ana: Any, ben: Any, code: str = "5+0", *, sudden_death: bool = False) -> Game:
    """ana (seat 0, to move, CATSEOD) against ben (JQXZKVW), live at ``code``."""
    return make_game(ana, ben, racks=("CATSEOD", "JQXZKVW"), pace=Pace.parse(code, sudden_death=sudden_death))


def started(game: Game) -> datetime:
    assert game.turn_started_at is not None
    return game.turn_started_at


def run_back(game: Game, seconds: float) -> Game:
    """As if the turn in progress began ``seconds`` earlier (the flag moves with it)."""
    start = started(game) - timedelta(seconds=seconds)
    assert game.clock_ms is not None
    assert game.turn_seat is not None
    flag = clocks.flag_at(game.clock_ms[game.turn_seat], start, game.overtime_minutes)
    Game.objects.filter(pk=game.pk).update(turn_started_at=start, turn_deadline=flag)
    game.refresh_from_db()
    return game


def test_overtime_costs_ten_points_per_started_minute() -> None:
    assert [engine.overtime_penalty(ms) for ms in (0, -5, 1, 59_999, 60_000, 60_001, 599_999, 600_000)] == [
        0,
        0,
        10,
        10,
        10,
        20,
        100,
        100,
    ]
    assert clocks.penalties([1000, -60_000, -60_001]) == [0, 10, 20]


def test_a_live_game_starts_both_clocks_and_runs_the_movers(ana: Any, ben: Any) -> None:
    game = live_game(ana, ben, "5+5")
    assert game.clock_ms == [300_000, 300_000]
    assert game.turn_deadline == started(game) + timedelta(minutes=5 + 10)
    at = started(game) + timedelta(seconds=10)
    game.act(ana, Play.of(CAT_AT_CENTRE), version=game.version, now=at)
    # 10 s charged, 5 s added; ben's clock runs from the move, his flag after his overtime.
    assert game.clock_ms == [295_000, 300_000]
    assert game.turn_started_at == at
    assert game.turn_deadline == at + timedelta(minutes=15)


def test_overtime_is_taken_off_at_the_end_as_time_penalties(ana: Any, ben: Any) -> None:
    game = live_game(ana, ben, "5+0")
    at = started(game) + timedelta(minutes=5, seconds=1)  # one second into overtime
    game.act(ana, Play.of(CAT_AT_CENTRE), version=game.version, now=at)
    assert game.clock_ms == [-1000, 300_000]
    game.act(ben, Resign(), version=game.version, now=at + timedelta(seconds=3))
    assert game.status == Game.Status.FINISHED
    penalty = Move.objects.get(game=game, kind=Move.Kind.PENALTY)
    assert (penalty.seat, penalty.score) == (0, -10)
    played = Move.objects.get(game=game, kind=Move.Kind.PLAY).score
    assert game.final_scores == [played - 10, 0]
    assert game.winner_seat == 0
    assert game.state_obj().penalties == (10, 0)


def test_the_flag_falls_once_at_the_moment_the_clock_ran_out(ana: Any, ben: Any) -> None:
    game = live_game(ana, ben, "5+0", sudden_death=True)
    game = run_back(game, 5 * 60 + 40)  # the flag fell 40 s ago; the task runs late
    flag = game.turn_deadline
    assert flag is not None
    assert flag == started(game) + timedelta(minutes=5)
    version = game.version
    assert tasks.clock_flag.call(game.pk, version) is True
    assert tasks.clock_flag.call(game.pk, version) is False  # run twice: nothing more
    game.refresh_from_db()
    assert (game.status, game.end_reason, game.winner_seat) == (Game.Status.FINISHED, "timeout", 1)
    assert game.finished_at == flag  # when the clock reached zero, not when the task ran
    assert game.clock_ms == [0, 300_000]
    assert game.version == version + 1
    assert Move.objects.filter(game=game, kind=Move.Kind.TIMEOUT).count() == 1
    assert not Move.objects.filter(game=game, kind=Move.Kind.PENALTY).exists()


def test_in_overtime_the_flag_falls_at_the_limit_with_its_penalty(ana: Any, ben: Any) -> None:
    game = live_game(ana, ben, "5+0")
    game = run_back(game, 5 * 60 + 9 * 60)  # nine minutes into overtime: still playing
    assert tasks.clock_flag.call(game.pk, game.version) is False
    game = run_back(game, 60)
    assert tasks.clock_flag.call(game.pk, game.version) is True
    game.refresh_from_db()
    assert (game.end_reason, game.winner_seat) == ("timeout", 1)
    assert game.clock_ms == [-600_000, 300_000]
    assert Move.objects.get(game=game, kind=Move.Kind.PENALTY).score == -100


def test_a_move_after_the_flag_is_refused_with_a_clear_message(ana: Any, ben: Any) -> None:
    game = live_game(ana, ben, "5+0", sudden_death=True)
    game = run_back(game, 5 * 60 + 1)  # the flag fell a second ago; its task has not run yet
    version = game.version
    with pytest.raises(GameError) as refused:
        game.act(ana, Play.of(CAT_AT_CENTRE), version=version)
    assert refused.value.code == "time_up"
    with pytest.raises(GameError) as other:
        game.act(ben, Resign(), version=version)
    assert other.value.code == "clock_flag"
    client = Client()
    client.login(username="ana", password=PASSWORD)
    page = client.post(
        reverse("games:pass", args=[game.pk]), {"version": version}, headers={"HX-Request": "true"}
    ).content.decode()
    assert "Your time ran out before this move arrived" in page
    game.refresh_from_db()
    assert (game.version, game.status) == (version, Game.Status.ACTIVE)


def test_a_move_made_before_the_flag_wins_over_its_late_task(ana: Any, ben: Any) -> None:
    game = live_game(ana, ben, "5+0", sudden_death=True)
    flag = game.turn_deadline
    assert flag is not None
    version = game.version
    game.act(ana, Play.of(CAT_AT_CENTRE), version=version, now=flag - timedelta(milliseconds=1))
    assert game.clock_ms == [1, 300_000]
    assert tasks.clock_flag.call(game.pk, version) is False  # the move beat it
    game.refresh_from_db()
    assert (game.status, game.turn_seat) == (Game.Status.ACTIVE, 1)


def test_a_reload_shows_the_true_time_left(ana: Any, ben: Any) -> None:
    game = live_game(ana, ben, "5+0")
    game = run_back(game, 65)
    client = Client()
    client.login(username="ben", password=PASSWORD)
    page = client.get(reverse("games:detail", args=[game.pk])).content.decode()
    shown = [int(ms) for ms in re.findall(r'data-clock-ms="(-?\d+)"', page)]
    running = re.findall(r'data-running="(true|false)"', page)
    assert running == ["true", "false"]
    assert 300_000 - 66_000 <= shown[0] <= 300_000 - 65_000
    assert shown[1] == 300_000
    assert ">3:55<" in page
    assert "js/clocks.js" in page
    # The API gives the same figures.
    from api.models import ApiToken

    token = ApiToken.issue(ben, "test")[1]
    answer = client.get(f"/api/v1/games/{game.pk}", headers={"Authorization": f"Bearer {token}"}).json()
    assert [(c["player"], c["running"]) for c in answer["clocks"]] == [("ana", True), ("ben", False)]
    assert 300_000 - 67_000 <= answer["clocks"][0]["left_ms"] <= 300_000 - 65_000
    assert answer["deadline"] is not None


@pytest.mark.django_db(transaction=True)
def test_the_flag_is_deferred_on_the_clocks_queue_and_the_computer_starts_late(
    ana: Any, ben: Any, settings: Any
) -> None:
    settings.TASKS = DATABASE_TASKS
    game = live_game(ana, ben, "5+0")
    flags = DBTaskResult.objects.filter(
        task_path=tasks.clock_flag.module_path, args_kwargs__args=[game.pk, game.version]
    )
    flag = flags.get()
    assert flag.queue_name == "clocks"
    assert flag.run_after == game.turn_deadline
    abort = DBTaskResult.objects.get(
        task_path=tasks.abort_unstarted.module_path, args_kwargs__args=[game.pk, game.version]
    )
    assert abort.queue_name == "clocks"
    assert abort.run_after == started(game) + timedelta(seconds=60)
    before = timezone.now()
    computer = services.start_game(
        creator=ana, mode=Game.Mode.COMPUTER, language="en", level="easy", first=1, pace=Pace.parse("5+0")
    )
    turn = DBTaskResult.objects.get(
        task_path=tasks.computer_turn.module_path, args_kwargs__args=[computer.pk, computer.version]
    )
    assert turn.run_after is not None
    assert before + timedelta(seconds=settings.COMPUTER_LIVE_THINK_SECONDS) <= turn.run_after
    assert turn.run_after <= timezone.now() + timedelta(seconds=settings.COMPUTER_LIVE_THINK_SECONDS)


def test_the_computer_plays_its_live_turn_on_its_clock(
    ana: Any, django_capture_on_commit_callbacks: Any
) -> None:
    game = services.start_game(
        creator=ana, mode=Game.Mode.COMPUTER, language="en", level="easy", first=0, pace=Pace.parse("5+0")
    )
    set_racks(game, ("CATSEOD", "DOGSEAT"))
    game.refresh_from_db()
    with django_capture_on_commit_callbacks(execute=True):
        game.play(ana, CAT_AT_CENTRE, version=game.version)
    game.refresh_from_db()
    # The immediate backend runs the delayed start at once: the computer has moved.
    assert game.turn_seat == 0
    assert game.clock_ms is not None
    assert game.clock_ms[1] <= 300_000


def test_correspondence_games_have_no_clocks(ana: Any) -> None:
    game = make_computer_game(ana)
    assert game.clock_ms is None
    assert game.turn_started_at is None


@pytest.mark.django_db(transaction=True)
def test_two_tabs_and_the_flag_racing_stop_the_clock_once(ana: Any, ben: Any, postgres: None) -> None:
    game = live_game(ana, ben, "5+0", sudden_death=True)
    flag = game.turn_deadline
    assert flag is not None
    version = game.version
    outcomes: list[str] = []
    barrier = threading.Barrier(3)

    def attempt(name: str, run: Any) -> None:
        try:
            barrier.wait()
            run()
            outcomes.append(f"{name}:ok")
        except (GameError, GameMovedOn, engine.IllegalMove) as exc:
            outcomes.append(f"{name}:{getattr(exc, 'code', 'illegal')}")
        finally:
            connection.close()

    def tab(action: Any) -> Any:
        return lambda: Game.objects.get(pk=game.pk).act(
            ana, action, version=version, now=flag - timedelta(milliseconds=5)
        )

    threads = [
        threading.Thread(target=attempt, args=("play", tab(Play.of(CAT_AT_CENTRE)))),
        threading.Thread(target=attempt, args=("pass", tab(Pass()))),
        threading.Thread(
            target=attempt,
            args=("flag", lambda: Game.objects.get(pk=game.pk).timeout(version=version, now=flag)),
        ),
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    game.refresh_from_db()
    assert game.version == version + 1, outcomes
    assert game.actions.filter(version=version + 1).count() == 1
    assert len([o for o in outcomes if o.endswith(":ok")]) >= 1
    done = game.actions.get(version=version + 1).kind
    if done == "timeout":
        assert game.clock_ms == [0, 300_000]
    else:
        assert game.clock_ms is not None
        assert game.clock_ms[0] == 5
