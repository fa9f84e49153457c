"""Accessibility checked by a machine: axe-core (vendored in ``vendor/axe-core``) on the
site's main pages, in the light and the dark theme (the theme follows the system setting,
emulated here). No violation of serious or critical impact may remain."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import in_thread
from tests.games.helpers import CAT_AT_CENTRE, make_game
from tests.players.helpers import make_finished_game

pytestmark = [pytest.mark.browser]

AXE = Path(__file__).parent / "vendor" / "axe-core" / "axe.min.js"
BLOCKING = {"serious", "critical"}


def axe_violations(page: Any) -> list[dict[str, Any]]:
    """Run axe on the page as it is now; its serious and critical violations."""
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE))
    result = page.evaluate(
        """async () => {
            const r = await axe.run(document, {resultTypes: ['violations']});
            return r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
                nodes: v.nodes.slice(0, 5).map(n => n.target.join(' ') + ' :: ' + n.failureSummary)}));
        }"""
    )
    return [v for v in result if v["impact"] in BLOCKING]


def check_both_themes(page: Any) -> None:
    found = {}
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        assert page.evaluate(f"() => matchMedia('(prefers-color-scheme: {scheme})').matches")
        if violations := axe_violations(page):
            found[scheme] = violations
    report = "\n".join(
        f"[{scheme}] {v['id']} ({v['impact']}): {v['help']}\n    " + "\n    ".join(v["nodes"])
        for scheme, violations in found.items()
        for v in violations
    )
    assert not found, f"{page.url}\n{report}"


@pytest.mark.django_db(transaction=True)
def test_home_page(open_page: Any, ana: Any) -> None:
    check_both_themes(open_page(ana, "/", bypass_csp=True))


@pytest.mark.django_db(transaction=True)
def test_home_page_signed_out(browser: Any, server_url: str, live_db: None) -> None:
    # axe-core is injected as a script: the site's strict CSP would refuse it.
    context = browser.new_context(locale="en-GB", bypass_csp=True)
    try:
        page = context.new_page()
        page.goto(server_url + "/")
        check_both_themes(page)
    finally:
        context.close()


@pytest.mark.django_db(transaction=True)
def test_lobby(open_page: Any, ana: Any, ben: Any) -> None:
    in_thread(make_game, ana, ben)
    check_both_themes(open_page(ana, "/games/", bypass_csp=True))


@pytest.mark.django_db(transaction=True)
def test_game_page(open_page: Any, ana: Any, ben: Any) -> None:
    game = in_thread(make_game, ana, ben, racks=("CATSEOD", "AEIOULN"))
    # A word on the board and a line of chat, so that tiles and messages are checked too.
    in_thread(game.play, ana, CAT_AT_CENTRE, version=game.version)
    in_thread(game.post_chat, ben, "Nice start")
    check_both_themes(open_page(ben, f"/games/{game.pk}/", bypass_csp=True))


@pytest.mark.django_db(transaction=True)
def test_word_look_up(open_page: Any, ana: Any) -> None:
    check_both_themes(open_page(ana, "/words/?word=quiz&language=en", bypass_csp=True))


@pytest.mark.django_db(transaction=True)
def test_profile(open_page: Any, ana: Any, ben: Any) -> None:
    from accounts.services import apply_rated_result, start_vacation

    def prepare() -> None:
        ana.display_name = "Ana María"
        ana.game_language = "es"
        ana.save()
        game = make_finished_game(
            ana, ben, moves=[(0, "play", "QUIZ", 64, True), (1, "play", "OX", 9, False)]
        )
        for n in range(3):
            apply_rated_result(
                language="en", player=ana, opponent=ben, score=n % 2, reference=f"{game.pk}:{n}"
            )
        start_vacation(user=ana)

    in_thread(prepare)
    check_both_themes(open_page(ben, "/players/ana/", bypass_csp=True))


@pytest.mark.django_db(transaction=True)
def test_how_to_play(open_page: Any, ana: Any) -> None:
    check_both_themes(open_page(ana, "/how-to-play/?language=de", bypass_csp=True))


@pytest.mark.django_db(transaction=True)
def test_friends_leaderboard_and_settings(open_page: Any, ana: Any, ben: Any, cleo: Any) -> None:
    from accounts.services import apply_rated_result, request_friend

    def prepare() -> None:
        request_friend(user=ana, other=ben)
        request_friend(user=ben, other=ana)
        request_friend(user=cleo, other=ana)
        apply_rated_result(language="en", player=ana, opponent=ben, score=1, reference="g1")

    in_thread(prepare)
    for path in ("/accounts/friends/", "/leaderboard/?language=en", "/accounts/settings/", "/players/?q=be"):
        check_both_themes(open_page(ana, path, bypass_csp=True))


@pytest.mark.django_db(transaction=True)
def test_tournament_pages(open_page: Any, ana: Any, ben: Any) -> None:
    from tests.tournaments.helpers import make_organiser, make_tournament

    def prepare() -> tuple[Any, int]:
        olga = make_organiser("olga")
        return olga, make_tournament(olga, [ana, ben], name="Club night").pk

    olga, tournament_id = in_thread(prepare)
    for path in ("/tournaments/", f"/tournaments/{tournament_id}/", "/tournaments/memberships/"):
        check_both_themes(open_page(ana, path, bypass_csp=True))
    # The organiser's view of the same page, with its controls.
    check_both_themes(open_page(olga, f"/tournaments/{tournament_id}/", bypass_csp=True))
    # The screen for the room, the printable sheets and the results summary.
    for sheet in ("screen/", "print/pairings/", "print/standings/", "results/"):
        check_both_themes(open_page(ana, f"/tournaments/{tournament_id}/{sheet}", bypass_csp=True))


@pytest.mark.django_db(transaction=True)
def test_analysis_page_is_styled_and_accessible(open_page: Any, ana: Any, ben: Any) -> None:
    game = in_thread(make_game, ana, ben, racks=("CATSEOD", "JQXZKVW"))
    in_thread(game.play, ana, CAT_AT_CENTRE, version=game.version)
    in_thread(game.pass_turn, ben, version=game.version)
    in_thread(game.resign, ana, version=game.version)
    page = open_page(ben, f"/games/{game.pk}/analysis/", bypass_csp=True)
    page.wait_for_selector("#analysis .analysis-moves li")
    styled = page.evaluate(
        """() => {
            const list = getComputedStyle(document.querySelector('.analysis-moves'));
            const row = getComputedStyle(document.querySelector('.analysis-moves .analysed'));
            const table = getComputedStyle(document.querySelector('.analysis-totals'));
            return [list.listStyleType, row.display, row.borderTopStyle, table.borderCollapse];
        }"""
    )
    assert styled == ["none", "grid", "solid", "collapse"]
    # A pass ranks among the choices, never past their number.
    assert "rank 216 of 215" not in page.content()
    facts = page.locator(".analysis-moves .facts").all_inner_texts()
    for text in facts:
        rank, of = (int(n) for n in text.split("·")[0].replace("rank", "").split("of"))
        assert 1 <= rank <= of, text
    check_both_themes(page)
