"""A moderator deals with a report in the admin, end to end: reads the reported game's
chat, hides a line, mutes the player and marks the report dealt with; the players see
the hidden line and are told, the reporter too."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from accounts.models import ModerationAction, Report
from tests.browser.conftest import in_thread, shot
from tests.factories import make_user

pytestmark = [pytest.mark.browser]

MODERATOR_PERMISSIONS = (
    "view_report",
    "change_report",
    "view_user",
    "view_moderationaction",
    "moderate_players",
    "view_chatmessage",
)


def set_up() -> tuple[Any, Any, Any, int, int]:
    from django.contrib.auth.models import Group, Permission

    from accounts.services import report_user
    from games.models import Game
    from games.services import start_game

    ana, ben = make_user("ana"), make_user("ben")
    # The test database is flushed between browser tests: the group is made again here,
    # with what the migrations give it for this work.
    group, _ = Group.objects.get_or_create(name="Moderators")
    group.permissions.add(*Permission.objects.filter(codename__in=MODERATOR_PERMISSIONS))
    mod = make_user("mod", is_staff=True)
    mod.groups.add(group)
    game = start_game(creator=ana, mode=Game.Mode.FRIEND, language="en", opponent=ben, first=0)
    game.accept(ben, version=game.version)
    game.post_chat(ana, "good luck")
    game.post_chat(ben, "you are hopeless")
    report = report_user(reporter=ana, reported=ben, reason="abuse", details="insults", game_id=game.pk)
    return ana, ben, mod, game.pk, report.pk


def test_a_moderator_hides_a_line_mutes_and_resolves_from_the_report_page(open_page: Any) -> None:
    ana, ben, mod, game_id, report_id = in_thread(set_up)
    page = open_page(mod, f"/admin/accounts/report/{report_id}/change/")
    chat = page.locator("#report-chat")
    expect(chat).to_contain_text("you are hopeless")
    expect(page.locator("#report-moves")).to_have_count(0)  # no move yet: "No moves yet."
    row = chat.locator("tr", has_text="you are hopeless")
    row.get_by_placeholder("Reason").fill("insult")
    row.get_by_role("button", name="Hide").click()
    expect(page.locator("#report-chat tr", has_text="you are hopeless")).to_contain_text(
        "hidden by a moderator"
    )
    actions = page.locator("form.report-actions")
    actions.get_by_label(re.compile("^Days")).fill("2")
    actions.get_by_label(re.compile("^Reason")).fill("insults in chat")
    actions.get_by_role("button", name="Mute chat").click()
    expect(page.locator(".messagelist")).to_contain_text("Done, logged, and the player is told.")
    expect(page.locator("#report-log")).to_contain_text("chat muted")
    page.get_by_role("button", name=re.compile("Mark dealt with")).click()
    expect(page.locator(".messagelist")).to_contain_text("the reporter is told")
    shot(page, "moderator-report-page")
    # The player's admin page shows the log.
    page.goto(page.url.split("/admin/")[0] + f"/admin/accounts/user/{ben.pk}/change/")
    expect(page.get_by_text("insults in chat")).to_be_visible()
    assert in_thread(lambda: sorted(ModerationAction.objects.values_list("kind", flat=True))) == [
        "hide_chat",
        "mute",
        "report_resolved",
    ]
    assert in_thread(lambda: Report.objects.get(pk=report_id).resolved)

    # ben sees the hidden line and why he cannot write; ana hears the report was dealt with.
    player = open_page(ben, f"/games/{game_id}/")
    expect(player.locator("#notices")).to_contain_text("A moderator muted your chat")
    expect(player.locator("#chat")).to_contain_text("hidden by a moderator")
    expect(player.locator("#chat")).not_to_contain_text("you are hopeless")
    reporter = open_page(ana, "/games/")
    notices = reporter.locator("#notices")
    expect(notices).to_contain_text("A moderator dealt with your report about ben")
    notices.get_by_role("button", name="Got it").click()
    expect(reporter.locator("#notices")).to_have_count(0)
