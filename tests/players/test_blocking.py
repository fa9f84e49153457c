"""Blocking stops chat lines, invitations and random pairings between two players;
reports go to the moderators' queue in the admin."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import Group
from django.test import Client
from django.urls import reverse

from accounts.models import Block, Friendship, Report
from accounts.services import (
    AccountError,
    block_user,
    blocked_ids,
    is_blocked,
    report_user,
    request_friend,
    unblock_user,
)
from games.gameview import chat_lines
from games.models import Game, GameError
from games.services import start_game
from tests.factories import make_user
from tests.games.helpers import make_game

pytestmark = pytest.mark.django_db


def test_is_blocked_works_both_ways_until_unblocked(ana: Any, ben: Any, cleo: Any) -> None:
    block_user(blocker=ana, blocked=ben)
    assert is_blocked(ana, ben)
    assert is_blocked(ben, ana)
    assert not is_blocked(ana, cleo)
    assert set(blocked_ids(ben)) == {ana.pk}
    assert set(blocked_ids(ana)) == {ben.pk}
    unblock_user(blocker=ana, blocked=ben)
    assert not is_blocked(ana, ben)


def test_blocking_ends_a_friendship_and_blocking_yourself_is_refused(ana: Any, ben: Any) -> None:
    request_friend(user=ana, other=ben)
    request_friend(user=ben, other=ana)
    block_user(blocker=ben, blocked=ana)
    block_user(blocker=ben, blocked=ana)  # again: harmless
    assert not Friendship.objects.exists()
    assert Block.objects.count() == 1
    with pytest.raises(AccountError, match="self"):
        block_user(blocker=ana, blocked=ana)


def test_block_and_unblock_from_the_profile(client: Client, ana: Any, ben: Any) -> None:
    client.force_login(ana)
    response = client.post(reverse("players:block", args=["ben"]), {"action": "block"}, follow=True)
    assert "You blocked ben." in response.content.decode()
    assert "Unblock" in response.content.decode()
    assert ">ben<" in client.get(reverse("blocked")).content.decode()
    client.post(reverse("players:block", args=["ben"]), {"action": "unblock"})
    assert not Block.objects.exists()


def test_a_blocked_player_cannot_be_invited(client: Client, ana: Any, ben: Any) -> None:
    block_user(blocker=ben, blocked=ana)
    with pytest.raises(GameError) as refused:
        start_game(creator=ana, mode=Game.Mode.FRIEND, language="en", opponent=ben)
    assert refused.value.code == "blocked"
    client.force_login(ana)
    response = client.post(reverse("games:new"), {"mode": "friend", "language": "en", "opponent": "ben"})
    assert "You cannot play with this player." in response.content.decode()
    assert not Game.objects.exists()


def test_random_pairing_skips_a_blocked_players_seek(ana: Any, ben: Any, cleo: Any) -> None:
    seek = start_game(creator=ana, mode=Game.Mode.RANDOM, language="en")
    block_user(blocker=ana, blocked=ben)
    own = start_game(creator=ben, mode=Game.Mode.RANDOM, language="en")
    assert own.pk != seek.pk
    assert own.status == Game.Status.OPEN
    joined = start_game(creator=cleo, mode=Game.Mode.RANDOM, language="en")
    assert joined.pk == seek.pk
    assert joined.status == Game.Status.ACTIVE


def test_chat_lines_between_blocked_players_are_hidden(ana: Any, ben: Any) -> None:
    game = make_game(ana, ben)
    game.post_chat(ana, "hello")
    game.post_chat(ben, "rude words")
    assert [m.text for m in chat_lines(game.pk, game.pov(ana))] == ["hello", "rude words"]
    block_user(blocker=ana, blocked=ben)
    assert [m.text for m in chat_lines(game.pk, game.pov(ana))] == ["hello"]
    assert [m.text for m in chat_lines(game.pk, game.pov(ben))] == ["rude words"]


def test_report_from_a_profile_lands_in_the_queue(client: Client, ana: Any, ben: Any) -> None:
    client.force_login(ana)
    form = client.get(reverse("players:report", args=["ben"]), {"game": "42"}).content.decode()
    assert 'value="42"' in form
    response = client.post(
        reverse("players:report", args=["ben"]),
        {"reason": "abuse", "details": "  insults in chat  ", "game": "42"},
        follow=True,
    )
    assert "The moderators will look at your report." in response.content.decode()
    report = Report.objects.get()
    assert (report.reporter, report.reported, report.reason, report.details, report.game_id) == (
        ana,
        ben,
        "abuse",
        "insults in chat",
        42,
    )
    assert not report.resolved


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"reason": "nonsense"}, "Select a valid choice."),
        ({"reason": "other", "game": "-3"}, "greater than or equal to 1"),
    ],
)
def test_bad_reports_are_refused(
    client: Client, ana: Any, ben: Any, data: dict[str, str], message: str
) -> None:
    client.force_login(ana)
    response = client.post(reverse("players:report", args=["ben"]), data)
    assert message in response.content.decode()
    assert not Report.objects.exists()


def test_one_open_report_per_player_and_none_about_yourself(ana: Any, ben: Any) -> None:
    report_user(reporter=ana, reported=ben, reason="cheating")
    with pytest.raises(AccountError, match="already_reported"):
        report_user(reporter=ana, reported=ben, reason="abuse")
    with pytest.raises(AccountError, match="self"):
        report_user(reporter=ana, reported=ana, reason="abuse")
    assert Report.objects.count() == 1


def test_moderators_work_through_the_queue_in_the_admin(
    client: Client, ana: Any, ben: Any, cleo: Any
) -> None:
    moderator = make_user("mod", is_staff=True)
    moderator.groups.add(Group.objects.get(name="Moderators"))
    open_one = report_user(reporter=ana, reported=ben, reason="abuse", details="insults")
    other = report_user(reporter=cleo, reported=ben, reason="cheating")
    client.force_login(moderator)
    queue = client.get(reverse("admin:accounts_report_changelist"), {"resolved__exact": "0"})
    assert queue.status_code == 200
    assert "Abusive chat or harassment" in queue.content.decode()
    response = client.post(
        reverse("admin:accounts_report_changelist"),
        {"action": "mark_resolved", "_selected_action": [open_one.pk]},
        follow=True,
    )
    assert "1 report(s) resolved." in response.content.decode()
    open_one.refresh_from_db()
    other.refresh_from_db()
    assert open_one.resolved
    assert open_one.resolved_by == moderator
    assert open_one.resolved_at is not None
    assert not other.resolved
    # Moderators may not delete reports or add them in the admin.
    assert not moderator.has_perm("accounts.delete_report")
    assert client.get(reverse("admin:accounts_report_add")).status_code == 403


def test_the_game_page_links_to_the_opponents_profile_and_report(client: Client, ana: Any, ben: Any) -> None:
    game = make_game(ana, ben)
    client.force_login(ana)
    html = client.get(reverse("games:detail", args=[game.pk])).content.decode()
    assert f'href="{reverse("players:profile", args=["ben"])}"' in html
    assert f'href="{reverse("players:report", args=["ben"])}?game={game.pk}"' in html
    assert f'href="{reverse("players:report", args=["ana"])}' not in html  # not yourself
