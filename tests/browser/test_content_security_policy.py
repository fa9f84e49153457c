"""Every main page, in Chromium, under the site's Content-Security-Policy: no violation
(an inline script, style or event handler, an eval, a foreign source) is reported while it
loads, swaps fragments with htmx and receives its WebSocket snapshot."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import Page

from tests.browser.conftest import in_thread
from tests.games.helpers import make_computer_game, make_game

pytestmark = [pytest.mark.browser]

WATCH_VIOLATIONS = """
window.__csp = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__csp.push(`${e.violatedDirective} ${e.blockedURI || "inline"} ${e.sourceFile}:${e.lineNumber}`);
});
"""


def watch(page: Page, problems: list[str]) -> None:
    page.context.add_init_script(WATCH_VIOLATIONS)
    page.on(
        "console",
        lambda m: problems.append(f"{page.url}: {m.text}") if "Content Security Policy" in m.text else None,
    )


def visit(page: Page, url: str, problems: list[str]) -> None:
    response = page.goto(url)
    assert response is not None
    assert response.status == 200, url
    assert "script-src 'self'" in (response.headers.get("content-security-policy") or "")
    page.wait_for_load_state("networkidle")
    problems += [f"{url}: {v}" for v in page.evaluate("window.__csp || []")]


@pytest.mark.django_db(transaction=True)
def test_main_pages_report_no_csp_violation(
    open_page: Any, browser: Any, server_url: str, ana: Any, ben: Any
) -> None:
    problems: list[str] = []
    game = in_thread(make_game, ana, ben, racks=("CATSEOD", "JQXZKVW"))
    computer = in_thread(make_computer_game, ana)
    staff = in_thread(lambda: get_user_model().objects.create_superuser("root", "root@example.org", "x"))

    anonymous = browser.new_context(locale="en-GB")
    page = anonymous.new_page()
    watch(page, problems)
    for path in ("/", "/accounts/login/", "/accounts/signup/", "/words/?word=cat&language=en"):
        visit(page, server_url + path, problems)
    # htmx swaps the look-up result in as the visitor types.
    page.fill("input[name=word]", "quixotic")
    page.wait_for_load_state("networkidle")
    page.wait_for_timeout(500)
    problems += page.evaluate("window.__csp")
    anonymous.close()

    page = open_page(ana, "/games/")
    watch(page, problems)
    for path in ("/games/", "/games/new/", "/games/watch/", f"/games/{game.pk}/", f"/games/{computer.pk}/"):
        visit(page, server_url + path, problems)
        if "/games/" in path and path.rstrip("/").split("/")[-1].isdigit():
            page.wait_for_selector('#game[data-live="true"]', state="attached")
    # Interface language switch (the footer's select submits itself from a static script).
    with page.expect_navigation():
        page.select_option("select[name=language]", "de")
    page.wait_for_load_state("networkidle")
    assert page.locator("html").get_attribute("lang") == "de"
    problems += page.evaluate("window.__csp || []")

    page = open_page(staff, "/admin/")
    watch(page, problems)
    for path in (
        "/admin/",
        "/admin/games/game/",
        f"/admin/games/game/{game.pk}/change/",
        "/admin/games/move/",
    ):
        visit(page, server_url + path, problems)
    assert not problems, "\n".join(problems)
