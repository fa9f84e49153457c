from __future__ import annotations

from datetime import timedelta
from io import StringIO
from typing import Any

import pytest
from django.core import mail
from django.core.management import call_command
from django.utils import timezone

from games.models import Game, Move
from games.services import expire_games, start_game
from tests.games.helpers import CAT_AT_CENTRE


@pytest.mark.django_db
def test_deadline_is_five_days_random_eleven_friend(
    ana: Any, ben: Any, cleo: Any, game_ana_ben: Game
) -> None:
    assert game_ana_ben.inactivity_days == 11
    assert game_ana_ben.turn_deadline is not None
    assert abs(game_ana_ben.turn_deadline - (timezone.now() + timedelta(days=11))) < timedelta(minutes=1)
    start_game(creator=cleo, mode="random", language="en")
    random_game = start_game(creator=ana, mode="random", language="en")
    assert random_game.inactivity_days == 5
    assert random_game.turn_deadline is not None
    assert abs(random_game.turn_deadline - (timezone.now() + timedelta(days=5))) < timedelta(minutes=1)


@pytest.mark.django_db
def test_a_move_restarts_the_clock(ana: Any, game_ana_ben: Game) -> None:
    Game.objects.filter(pk=game_ana_ben.pk).update(turn_deadline=timezone.now() + timedelta(hours=1))
    game = Game.objects.get(pk=game_ana_ben.pk)
    game.play(ana, CAT_AT_CENTRE, version=game.version)
    assert game.turn_deadline is not None
    assert game.turn_deadline > timezone.now() + timedelta(days=10)


@pytest.mark.django_db
def test_reminder_sent_once_the_day_before(
    game_ana_ben: Game, ana: Any, django_capture_on_commit_callbacks: Any
) -> None:
    # Mail goes only to a confirmed address (notifications.preferences.email_address),
    # after the commit (notifications.tasks).
    ana.verified_email = ana.email
    ana.save()
    now = timezone.now()
    Game.objects.filter(pk=game_ana_ben.pk).update(turn_deadline=now + timedelta(hours=20))
    with django_capture_on_commit_callbacks(execute=True):
        report = expire_games(now=now)
    assert report.reminded == [game_ana_ben.pk]
    assert report.timed_out == []
    assert len(mail.outbox) == 1
    assert mail.outbox[0].to == ["ana@example.org"]  # ana is to move
    assert f"#{game_ana_ben.pk}" in str(mail.outbox[0].body)
    assert f"/games/{game_ana_ben.pk}/" in str(mail.outbox[0].body)
    assert expire_games(now=now + timedelta(hours=1)).reminded == []
    assert len(mail.outbox) == 1


@pytest.mark.django_db
def test_no_reminder_with_more_than_a_day_left(game_ana_ben: Game) -> None:
    now = timezone.now()
    Game.objects.filter(pk=game_ana_ben.pk).update(turn_deadline=now + timedelta(days=2))
    assert expire_games(now=now).reminded == []
    assert mail.outbox == []


@pytest.mark.django_db
def test_lapsed_turn_times_out_player_to_move(game_ana_ben: Game) -> None:
    now = timezone.now()
    # ana was warned (a turn no warning reached is extended instead: test_deadline_warnings).
    Game.objects.filter(pk=game_ana_ben.pk).update(
        turn_deadline=now - timedelta(minutes=1), turn_noticed_at=now
    )
    out = StringIO()
    call_command("expire_games", stdout=out)
    game = Game.objects.get(pk=game_ana_ben.pk)
    assert game.status == Game.Status.FINISHED
    assert game.end_reason == "timeout"
    assert game.winner_seat == 1  # ana (seat 0) timed out
    assert Move.objects.get(game=game).kind == "timeout"
    assert f"timed out: 1 game(s) [{game.pk}]" in out.getvalue()


@pytest.mark.django_db
def test_a_move_made_before_the_sweep_wins(ana: Any, game_ana_ben: Game) -> None:
    now = timezone.now()
    game_ana_ben.play(ana, CAT_AT_CENTRE, version=game_ana_ben.version)  # a fresh deadline for ben
    assert game_ana_ben.timeout(now=now) is None
    assert Game.objects.get(pk=game_ana_ben.pk).status == Game.Status.ACTIVE


@pytest.mark.django_db
def test_computer_turn_has_no_deadline(ana: Any) -> None:
    game = start_game(creator=ana, mode="computer", language="en", level="easy", first=1)
    assert game.turn_deadline is None
    assert expire_games(now=timezone.now() + timedelta(days=365)).timed_out == []
