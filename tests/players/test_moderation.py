"""Moderators' toolkit: hide a chat line, mute, suspend, warn, deal with a report; the
log of it all; and the chat players control (blocking, chat off)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import Group
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import AppendOnlyError, ModerationAction, Notice, User
from accounts.moderation import chat_muted_until, mute_chat, suspend, suspended_until, warn
from accounts.notices import open_notices
from accounts.services import block_user, delete_account, report_user, resolve_reports
from games import rendering
from games.gameview import chat_lines
from games.messages import error_message
from games.models import ChatMessage, Game, GameError
from games.moderation import hide_chat_line
from games.services import start_game
from tests.factories import make_user
from tests.games.helpers import make_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def moderator() -> Any:
    user = make_user("mod", is_staff=True)
    user.groups.add(Group.objects.get(name="Moderators"))
    return user


def signed_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def chat(client: Client, game: Game, text: str) -> Any:
    return client.post(reverse("games:chat", args=[game.pk]), {"text": text}, headers={"HX-Request": "true"})


def later(monkeypatch: pytest.MonkeyPatch, delta: timedelta) -> None:
    """Move the site's clock on by ``delta``."""
    now = timezone.now() + delta
    monkeypatch.setattr(timezone, "now", lambda: now)


def test_a_muted_players_chat_is_refused_until_the_mute_ends(
    monkeypatch: pytest.MonkeyPatch, moderator: Any, ana: Any, ben: Any
) -> None:
    game = make_game(ana, ben)
    mute_chat(moderator=moderator, player=ana, days=2, reason="insults")
    answer = chat(signed_in(ana), game, "you again")
    assert answer.status_code == 200
    assert error_message("chat_muted") in answer.text
    assert not ChatMessage.objects.exists()
    assert chat(signed_in(ben), game, "hello").status_code == 200  # only ana is muted
    later(monkeypatch, timedelta(days=2, minutes=1))
    assert chat_muted_until(ana) is None
    chat(signed_in(ana), game, "sorry")
    assert list(ChatMessage.objects.values_list("text", flat=True)) == ["hello", "sorry"]


def test_a_suspension_stops_new_games_not_the_running_ones(
    monkeypatch: pytest.MonkeyPatch, moderator: Any, ana: Any, ben: Any, cleo: Any
) -> None:
    running = make_game(ana, ben)
    invitation = start_game(creator=cleo, mode=Game.Mode.FRIEND, language="en", opponent=ana)
    seek = start_game(creator=ana, mode=Game.Mode.RANDOM, language="fr")
    suspend(moderator=moderator, player=ana, days=7, reason="abandoning games")
    # Nobody joins the seek ana opened before: cleo opens her own.
    assert start_game(creator=cleo, mode=Game.Mode.RANDOM, language="fr").pk != seek.pk
    for mode, extra in (
        (Game.Mode.FRIEND, {"opponent": cleo}),
        (Game.Mode.RANDOM, {}),
        (Game.Mode.COMPUTER, {"level": "easy"}),
    ):
        with pytest.raises(GameError) as refused:
            start_game(creator=ana, mode=mode, language="en", **extra)
        assert refused.value.code == "suspended"
    with pytest.raises(GameError, match="suspended"):
        invitation.accept(ana, version=invitation.version)
    # The game under way goes on.
    running.pass_turn(ana, version=running.version)
    running.refresh_from_db()
    assert running.status == Game.Status.ACTIVE
    assert running.moves.count() == 1
    page = signed_in(ana).post(
        reverse("games:new"), {"mode": "computer", "language": "en", "level": "easy"}, follow=True
    )
    assert "suspended you from starting or joining games" in page.text  # the notice
    later(monkeypatch, timedelta(days=7, minutes=1))
    assert suspended_until(ana) is None
    start_game(creator=ana, mode=Game.Mode.COMPUTER, language="en", level="easy")


def test_a_hidden_line_reads_hidden_by_a_moderator_and_is_logged(moderator: Any, ana: Any, ben: Any) -> None:
    game = make_game(ana, ben)
    line = game.post_chat(ana, "something nasty")
    hide_chat_line(message=line, moderator=moderator, reason="abuse")
    for viewer in (ana, ben):
        (item,) = chat_lines(game.pk, game.pov(viewer))
        assert item.hidden
        assert item.text == ""
    html = rendering.chat_html(chat_lines(game.pk, game.pov(ben)), game.version)
    assert "hidden by a moderator" in html
    assert "something nasty" not in html
    entry = ModerationAction.objects.get()
    assert (entry.kind, entry.subject, entry.moderator, entry.reason) == (
        "hide_chat",
        ana,
        moderator,
        "abuse",
    )
    assert (entry.game_id, entry.chat_message_id) == (game.pk, line.pk)
    with pytest.raises(ValidationError, match="hidden already"):
        hide_chat_line(message=line, moderator=moderator, reason="again")
    with pytest.raises(ValidationError, match="reason"):
        hide_chat_line(message=game.post_chat(ben, "hi"), moderator=moderator, reason="  ")


def test_a_warning_shows_on_every_page_until_acknowledged(moderator: Any, ana: Any) -> None:
    warn(moderator=moderator, player=ana, reason="Please keep the chat friendly.")
    client = signed_in(ana)
    page = client.get(reverse("games:lobby"))
    assert "A moderator warns you: Please keep the chat friendly." in page.text
    (notice,) = open_notices(ana)
    assert "A moderator warns you" in client.get(reverse("preferences")).text
    client.post(reverse("acknowledge-notice", args=[notice.pk]), {"next": "/games/"})
    assert "A moderator warns you" not in client.get(reverse("games:lobby")).text
    # Nobody else can acknowledge it for ana.
    assert open_notices(ana) == []


def test_every_moderator_action_is_logged_from_the_report_page(moderator: Any, ana: Any, ben: Any) -> None:
    game = make_game(ana, ben)
    line = game.post_chat(ben, "rude words")
    report = report_user(reporter=ana, reported=ben, reason="abuse", game_id=game.pk)
    client = signed_in(moderator)
    page = client.get(reverse("admin:accounts_report_change", args=[report.pk]))
    assert page.status_code == 200
    assert "rude words" in page.text
    moderate = reverse("admin:accounts_report_moderate", args=[report.pk])
    client.post(moderate, {"action": "mute", "days": "3", "reason": "insults"})
    client.post(moderate, {"action": "suspend", "days": "1", "reason": "insults again"})
    client.post(moderate, {"action": "warn", "reason": "last warning"})
    client.post(
        reverse("admin:games_chatmessage_hide", args=[line.pk]),
        {"reason": "insult", "next": page.request["PATH_INFO"]},
    )
    client.post(moderate, {"action": "resolve", "reason": "muted and warned"})
    log = list(ModerationAction.objects.order_by("pk").values_list("kind", "subject", "moderator", "reason"))
    assert log == [
        ("mute", ben.pk, moderator.pk, "insults"),
        ("suspend", ben.pk, moderator.pk, "insults again"),
        ("warn", ben.pk, moderator.pk, "last warning"),
        ("hide_chat", ben.pk, moderator.pk, "insult"),
        ("report_resolved", ben.pk, moderator.pk, "muted and warned"),
    ]
    assert all(a.report == report for a in ModerationAction.objects.exclude(kind="hide_chat"))
    assert [n.kind for n in open_notices(ben)] == ["muted", "suspended", "warning"]
    (told,) = open_notices(ana)
    assert told.kind == Notice.Kind.REPORT_RESOLVED
    assert "ben" in told.text
    report.refresh_from_db()
    assert report.resolved
    assert report.resolved_by == moderator
    # The log shows on the player's admin page.
    user_page = client.get(reverse("admin:accounts_user_change", args=[ben.pk])).text
    assert "last warning" in user_page
    assert "insults again" in user_page
    # A bad request changes nothing and says why.
    answer = client.post(moderate, {"action": "mute", "reason": "no days"}, follow=True)
    assert "Choose between 1 and 365 days." in answer.text
    assert ModerationAction.objects.count() == 5


def test_players_cannot_moderate(ana: Any, ben: Any) -> None:
    report = report_user(reporter=ana, reported=ben, reason="abuse")
    staff_without_group = make_user("helper", is_staff=True)
    for user in (ana, staff_without_group):
        client = signed_in(user)
        client.post(
            reverse("admin:accounts_report_moderate", args=[report.pk]), {"action": "warn", "reason": "x"}
        )
    assert not ModerationAction.objects.exists()


def test_the_log_is_append_only_and_kept_anonymised_when_the_account_goes(moderator: Any, ana: Any) -> None:
    warn(moderator=moderator, player=ana, reason="spam")
    entry = ModerationAction.objects.get()
    with pytest.raises(AppendOnlyError):
        entry.save()
    with pytest.raises(AppendOnlyError):
        entry.delete()
    with pytest.raises(AppendOnlyError):
        ModerationAction.objects.all().delete()
    delete_account(user=ana)
    entry = ModerationAction.objects.get()
    assert entry.subject.username == f"deleted player {ana.pk}"
    assert entry.reason == "spam"
    assert not Notice.objects.filter(user=ana).exists()


def test_resolving_by_the_queue_action_tells_the_reporter(moderator: Any, ana: Any, ben: Any) -> None:
    report = report_user(reporter=ana, reported=ben, reason="cheating")
    assert resolve_reports(reports=[report], moderator=moderator) == 1
    assert [n.kind for n in open_notices(ana)] == ["report_resolved"]
    assert ModerationAction.objects.get().kind == "report_resolved"


def test_a_blocked_players_chat_stops_mid_game(ana: Any, ben: Any) -> None:
    game = make_game(ana, ben)
    game.post_chat(ben, "before")
    block_user(blocker=ana, blocked=ben)
    answer = chat(signed_in(ben), game, "after the block")
    assert error_message("chat_blocked") in answer.text
    with pytest.raises(GameError, match="chat_blocked"):
        game.post_chat(ana, "and back")
    assert list(ChatMessage.objects.values_list("text", flat=True)) == ["before"]


def test_a_player_may_turn_chat_off(client: Client, ana: Any, ben: Any) -> None:
    game = make_game(ana, ben)
    game.post_chat(ben, "hello ana")
    client.force_login(ana)
    assert "hello ana" in client.get(reverse("games:detail", args=[game.pk])).text
    client.post(reverse("preferences"), {"display_name": "", "game_language": "", "interface_language": ""})
    ana.refresh_from_db()
    assert not ana.chat_enabled
    page = client.get(reverse("games:detail", args=[game.pk])).text
    assert "hello ana" not in page
    assert 'id="chat-text"' not in page
    assert chat_lines(game.pk, Game.objects.get(pk=game.pk).pov(User.objects.get(pk=ana.pk))) == ()
    assert error_message("chat_off") in chat(client, game, "hi").text
    client.post(reverse("preferences"), {"chat_enabled": "on"})
    ana.refresh_from_db()
    assert ana.chat_enabled
    assert "hello ana" in client.get(reverse("games:detail", args=[game.pk])).text


def test_mutes_and_suspensions_need_a_reason_and_sensible_days(moderator: Any, ana: Any) -> None:
    for days, reason in ((0, "x"), (366, "x"), (3, " ")):
        with pytest.raises(ValidationError):
            mute_chat(moderator=moderator, player=ana, days=days, reason=reason)
    assert not ModerationAction.objects.exists()
    assert not User.objects.get(pk=ana.pk).notices.exists()
