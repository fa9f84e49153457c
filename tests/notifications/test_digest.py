"""The daily summary of the games waiting for a player, by mail instead of one per move,
from the morning of their own day, once a day, only to a verified address."""

from __future__ import annotations

import zoneinfo
from datetime import datetime, timedelta
from typing import Any

import pytest
from django.utils import timezone

from games.models import Game
from games.notify import record_digests
from notifications.models import Kind, Notification
from tests.factories import make_user
from tests.games.helpers import make_game
from tests.notifications.conftest import Mailbox

pytestmark = pytest.mark.django_db

STOCKHOLM = zoneinfo.ZoneInfo("Europe/Stockholm")


def test_a_digest_lists_three_waiting_games_once_a_day(
    ana: Any, ben: Any, cleo: Any, smtp_server: Mailbox, django_capture_on_commit_callbacks: Any
) -> None:
    ana.verified_email, ana.time_zone = ana.email, "Europe/Stockholm"
    ana.save()
    mia = make_user("mia")
    games = [make_game(ana, other) for other in (ben, cleo, mia)]  # ana to move in each
    make_game(ben, ana)  # ben's move: not waiting for ana
    deadline = timezone.now() + timedelta(days=3)
    Game.objects.filter(pk__in=[g.pk for g in games]).update(turn_deadline=deadline)

    early = datetime(2026, 6, 2, 7, 30, tzinfo=STOCKHOLM)  # before her morning
    with django_capture_on_commit_callbacks(execute=True):
        assert record_digests(early) == []
    morning = datetime(2026, 6, 2, 8, 5, tzinfo=STOCKHOLM)
    with django_capture_on_commit_callbacks(execute=True):
        assert record_digests(morning) == [ana.pk]
        assert record_digests(morning + timedelta(hours=5)) == []  # once a day

    (message,) = smtp_server.messages
    assert message["Subject"].strip() == "3 games are waiting for your move"
    body = message.get_body(preferencelist=("plain",))
    assert body is not None
    text = body.get_content()
    for game, who in zip(games, ("ben", "cleo", "mia"), strict=True):
        assert f"Game #{game.pk} against {who}: your turn runs until" in text
    assert "Europe/Stockholm" in text
    assert "https://wordgame.example/games/" in text
    # The bell already showed each turn: the summary is not one more unread item.
    assert Notification.objects.get(kind=Kind.DIGEST).read_at is not None


def test_no_digest_without_a_verified_address(ana: Any, ben: Any, smtp_server: Mailbox) -> None:
    make_game(ana, ben)
    assert record_digests(timezone.now().replace(hour=12)) == []
    assert not Notification.objects.filter(kind=Kind.DIGEST).exists()
