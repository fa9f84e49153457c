"""One outbound path: every change that concerns a person records a notification for them
in its own transaction (one INSERT and one task at most), never for the one who made it."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

import engine
from accounts.services import request_friend
from games.models import Game
from games.services import start_game
from notifications.models import Kind, Notification
from tests.games.helpers import CAT_AT_CENTRE, make_computer_game

pytestmark = pytest.mark.django_db

DATABASE_TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend", "QUEUES": ["default"]}}


def kinds_of(user: Any) -> list[str]:
    return list(Notification.objects.filter(recipient=user).order_by("pk").values_list("kind", flat=True))


def test_a_move_tells_the_opponent_and_not_the_mover(ana: Any, ben: Any, game_ana_ben: Game) -> None:
    before = kinds_of(ana)
    game_ana_ben.play(ana, CAT_AT_CENTRE, version=game_ana_ben.version)
    turn = Notification.objects.get(recipient=ben, kind=Kind.YOUR_TURN)
    assert turn.params["who"] == "ana"
    assert turn.params["game"] == game_ana_ben.pk
    assert turn.path == f"/games/{game_ana_ben.pk}/"
    assert game_ana_ben.turn_deadline is not None
    assert turn.params["deadline"] == game_ana_ben.turn_deadline.isoformat()
    assert kinds_of(ana) == before


def test_a_refused_move_records_nothing(ana: Any, ben: Any, game_ana_ben: Game) -> None:
    before = Notification.objects.count()
    with pytest.raises(engine.IllegalMove):
        game_ana_ben.play(ana, [engine.Placement(0, 0, "C")], version=game_ana_ben.version)
    assert Notification.objects.count() == before


def test_a_move_adds_one_insert_and_one_task_to_its_transaction(
    ana: Any, ben: Any, game_ana_ben: Game, settings: Any
) -> None:
    from django_tasks_db.models import DBTaskResult

    settings.TASKS = DATABASE_TASKS
    with CaptureQueriesContext(connection) as queries:
        game_ana_ben.play(ana, CAT_AT_CENTRE, version=game_ana_ben.version)
    inserts = [q["sql"] for q in queries.captured_queries if q["sql"].startswith("INSERT")]
    assert sum('"notifications_notification"' in sql for sql in inserts) == 1
    dispatches = DBTaskResult.objects.filter(task_path="notifications.tasks.dispatch")
    assert dispatches.count() == 1
    ids = Notification.objects.filter(recipient=ben, kind=Kind.YOUR_TURN).values_list("pk", flat=True)
    assert dispatches.get().args_kwargs["args"] == [list(ids)]


def test_a_rolled_back_change_leaves_neither_notification_nor_task(
    ana: Any, ben: Any, game_ana_ben: Game, settings: Any
) -> None:
    from django_tasks_db.models import DBTaskResult

    settings.TASKS = DATABASE_TASKS
    before = Notification.objects.count()

    def move_then_fail() -> None:
        with transaction.atomic():
            game_ana_ben.play(ana, CAT_AT_CENTRE, version=game_ana_ben.version)
            assert Notification.objects.count() == before + 1
            raise RuntimeError("the request failed after the move")

    with pytest.raises(RuntimeError):
        move_then_fail()
    assert Notification.objects.count() == before
    assert not DBTaskResult.objects.filter(task_path="notifications.tasks.dispatch").exists()


def test_invitation_and_its_answers(ana: Any, ben: Any) -> None:
    game = start_game(creator=ana, mode=Game.Mode.FRIEND, language="en", opponent=ben, first=0)
    invitation = Notification.objects.get(recipient=ben)
    assert (invitation.kind, invitation.params["who"], invitation.path) == (
        Kind.INVITATION,
        "ana",
        f"/games/{game.pk}/",
    )
    game.decline(ben, version=game.version)
    answer = Notification.objects.get(recipient=ana)
    assert (answer.kind, answer.params["variant"], answer.params["who"]) == (
        Kind.INVITATION_ANSWER,
        "declined",
        "ben",
    )
    other = start_game(creator=ana, mode=Game.Mode.FRIEND, language="en", opponent=ben, first=0)
    other.accept(ben, version=other.version)
    accepted = Notification.objects.filter(recipient=ana).first()
    assert accepted is not None
    assert accepted.params["variant"] == "accepted"
    assert accepted.params["game"] == other.pk


def test_the_end_with_the_result_for_the_other_player(ana: Any, ben: Any, game_ana_ben: Game) -> None:
    game_ana_ben.play(ana, CAT_AT_CENTRE, version=game_ana_ben.version)
    ana_before = kinds_of(ana)
    game_ana_ben.resign(ana, version=game_ana_ben.version)
    over = Notification.objects.get(recipient=ben, kind=Kind.GAME_OVER)
    assert over.params["variant"] == "won"
    assert over.params["who"] == "ana"
    assert kinds_of(ana) == ana_before  # ana resigned: she knows


def test_a_lapsed_turn_tells_both_players(ana: Any, ben: Any, game_ana_ben: Game) -> None:
    from datetime import timedelta

    from django.utils import timezone

    Game.objects.filter(pk=game_ana_ben.pk).update(turn_noticed_at=timezone.now())  # ana was warned
    game_ana_ben.refresh_from_db()
    assert game_ana_ben.timeout(now=timezone.now() + timedelta(days=30)) is not None
    results = dict(
        Notification.objects.filter(kind=Kind.GAME_OVER).values_list("recipient__username", "params__variant")
    )
    assert results == {"ana": "lost", "ben": "won"}


def test_a_chat_line_for_the_other_player_if_they_keep_chat_on(
    ana: Any, ben: Any, game_ana_ben: Game
) -> None:
    game_ana_ben.post_chat(ana, "good luck!")
    line = Notification.objects.get(recipient=ben, kind=Kind.CHAT)
    assert line.params["text"] == "good luck!"
    assert not Notification.objects.filter(recipient=ana, kind=Kind.CHAT).exists()
    ben.chat_enabled = False
    ben.save()
    game = Game.objects.get(pk=game_ana_ben.pk)
    game.post_chat(ana, "hello?")
    assert Notification.objects.filter(recipient=ben, kind=Kind.CHAT).count() == 1


def test_a_friend_request(ana: Any, ben: Any) -> None:
    request_friend(user=ana, other=ben)
    asked = Notification.objects.get(recipient=ben)
    assert (asked.kind, asked.params["who"], asked.path) == (Kind.FRIEND_REQUEST, "ana", "/accounts/friends/")
    request_friend(user=ana, other=ben)  # asking again makes no second request
    assert Notification.objects.filter(recipient=ben).count() == 1


def test_games_against_the_computer_notify_nothing(ana: Any) -> None:
    game = make_computer_game(ana, racks=("CATSEOD", "JQXZKVW"))
    game.play(ana, CAT_AT_CENTRE, version=game.version)
    assert not Notification.objects.exists()


def test_a_paired_game_tells_the_player_to_move(ana: Any, ben: Any) -> None:
    """A tournament round (or a matched seek) starts the game: whoever moves first hears it."""
    from games.services import start_paired_game

    game = start_paired_game(first=ana, second=ben, language="en", inactivity_days=3, dictionary_version=None)
    turn = Notification.objects.get(recipient=ana)
    assert (turn.kind, turn.params["who"], turn.path) == (Kind.YOUR_TURN, "ben", f"/games/{game.pk}/")
    assert not Notification.objects.filter(recipient=ben).exists()


def test_withdrawing_ones_own_invitation_or_seek_tells_nobody(ana: Any, ben: Any) -> None:
    invitation = start_game(creator=ana, mode=Game.Mode.FRIEND, language="en", opponent=ben, first=0)
    seek = start_game(creator=ana, mode=Game.Mode.RANDOM, language="en")
    invitation.decline(ana, version=invitation.version)
    seek.decline(ana, version=seek.version)
    assert not Notification.objects.filter(recipient=ana).exists()


def test_a_moderators_warning_is_a_notification_too_in_the_players_language(
    ben: Any, mia: Any, django_capture_on_commit_callbacks: Any
) -> None:
    from django.core import mail

    from accounts.moderation import warn
    from notifications.texts import as_recipient, render

    ben.interface_language = "de"
    ben.verified_email = ben.email
    ben.save()
    with django_capture_on_commit_callbacks(execute=True):
        warn(moderator=mia, player=ben, reason="spam")
    notice = Notification.objects.get(recipient=ben)
    assert notice.kind == Kind.NOTICE
    with as_recipient(ben):
        text = render(notice)
    assert "spam" in text.body
    assert text.title == "Neuigkeiten zu deinem Konto"
    (message,) = mail.outbox
    assert "spam" in str(message.body)


def test_a_deleted_account_takes_its_notifications_and_devices_with_it(ben: Any, ana: Any) -> None:
    from accounts.services import delete_account, export_data
    from notifications.models import PushSubscription

    request_friend(user=ana, other=ben)
    PushSubscription.objects.create(
        user=ben, endpoint="https://93.184.216.34/p", p256dh="x", auth="y", user_agent="phone"
    )
    exported = export_data(ben)["notifications"]
    assert [n["kind"] for n in exported["notifications"]] == [Kind.FRIEND_REQUEST]
    assert exported["push_devices"] == ["phone"]
    delete_account(user=ben)
    assert not Notification.objects.filter(recipient=ben).exists()
    assert not PushSubscription.objects.filter(user=ben).exists()
