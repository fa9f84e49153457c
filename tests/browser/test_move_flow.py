"""The move flow as a player meets it: an answer and a push may arrive in either order, a
page that missed a version catches up (asking once, and again when the answer is lost), a
page whose socket dropped says so and comes back, the notification offer ends with the
game, and the opponent's move is read out. Each order is forced: the HTTP answer is held with
``page.route`` and the WebSocket's frames with ``page.route_web_socket``."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page, Route, WebSocketRoute, expect

from tests.browser.conftest import in_thread, shot
from tests.browser.test_play_in_browser import expect_my_turn, play_button, rack_tile, square
from tests.games.helpers import make_game

pytestmark = [pytest.mark.browser]

CAT = [(7, 7, "C"), (7, 8, "A"), (7, 9, "T")]

# Records what htmx swapped and which live frames app.js dropped, for the assertions.
RECORDER = """() => {
  window.__swaps = []; window.__frames = []; window.__answers = 0;
  document.body.addEventListener('htmx:oobAfterSwap', (e) => window.__swaps.push(e.target.id));
  document.body.addEventListener('htmx:wsBeforeMessage', (e) => window.__frames.push(e.defaultPrevented));
  document.body.addEventListener('htmx:afterRequest', (e) => {
    if (e.detail.elt.id === 'play-form') window.__answers += 1;
  });
}"""

# Every square of the live board against a fresh snapshot from the server: what the
# deltas built must look exactly like what a reload would show.
BOARD_DIFF = """async () => {
  const answer = await fetch(location.pathname + 'fragments/', {headers: {'HX-Request': 'true'}});
  const doc = new DOMParser().parseFromString(await answer.text(), 'text/html');
  const norm = (el) => [el.dataset.letter, el.className.replace(/\\b(is-cursor|flash)\\b/g, '')
      .replace(/\\s+/g, ' ').trim(), el.getAttribute('aria-label')].join('|');
  const diffs = [];
  doc.querySelectorAll('#board .sq').forEach((sq) => {
    const live = document.getElementById(sq.id);
    if (!live || norm(live) !== norm(sq)) diffs.push(`${sq.id}: ${live && norm(live)} != ${norm(sq)}`);
  });
  return diffs;
}"""


class HeldSocket:
    """Stands between a page and the game's WebSocket: frames from the page are recorded
    and passed on; frames from the server pass at once, or wait while ``holding``, or
    are lost (``drop`` counts the next deltas to lose)."""

    def __init__(self) -> None:
        self.holding = False
        self.drop = 0
        self.queue: list[str] = []
        self.sent: list[str] = []
        self.dropped: list[str] = []
        self.route: WebSocketRoute | None = None
        self.server: WebSocketRoute | None = None
        self.lose_snapshots = 0  # the next snapshots (data-base="") to lose
        self.resync_times: list[float] = []

    def attach(self, page: Page) -> None:
        page.route_web_socket(re.compile(r"/ws/games/\d+/$"), self.handle)

    def handle(self, ws: WebSocketRoute) -> None:
        self.route = ws
        server = self.server = ws.connect_to_server()

        def to_server(message: str | bytes) -> None:
            self.sent.append(str(message))
            if '"resync"' in str(message):
                self.resync_times.append(time.monotonic())
            server.send(message)

        ws.on_message(to_server)
        server.on_message(self.from_server)

    def from_server(self, message: str | bytes) -> None:
        assert self.route is not None
        text = str(message)
        if self.drop and 'data-base="' in text[:300] and 'data-base=""' not in text[:300]:
            self.drop -= 1
            self.dropped.append(text)
        elif self.lose_snapshots and 'data-base=""' in text[:300]:
            self.lose_snapshots -= 1
            self.dropped.append(text)
        elif self.holding:
            self.queue.append(text)
        else:
            self.route.send(text)

    def release(self) -> None:
        assert self.route is not None
        self.holding = False
        for message in self.queue:
            self.route.send(message)
        self.queue.clear()


def wait_until(page: Page, condition: Callable[[], bool], timeout: float = 20, what: str = "") -> None:
    """Let Playwright run (its callbacks fill the lists above) until ``condition``."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        page.wait_for_timeout(50)


def lay(page: Page, placements: list[tuple[int, int, str]]) -> None:
    for row, col, letter in placements:
        rack_tile(page, letter).click()
        square(page, row, col).click()
        expect(square(page, row, col).locator(".tile.pending")).to_have_count(1)
    expect(play_button(page)).to_be_enabled()


def hold_answers(page: Page) -> list[tuple[Route, Any]]:
    """Play answers are fetched from the server (so the move is made) but given to the
    page only when the test fulfils them."""
    held: list[tuple[Route, Any]] = []
    page.route("**/play/", lambda route: held.append((route, route.fetch())))
    return held


# htmx logs a request it aborted as an error: the preview form (hx-sync="this:replace")
# aborts an older preview when the tiles change again. Not a fault of the move flow.
ABORTED = ("htmx:afterRequest, [object HTMLFormElement]", "htmx:sendAbort, [object HTMLFormElement]")


def errors(console: list[str]) -> list[str]:
    return [
        line
        for line in console
        if (line.startswith("error") or "htmx:" in line) and not line.endswith(ABORTED)
    ]


def sync_version(page: Page) -> int:
    return int(page.locator("#game-sync").get_attribute("data-version") or 0)


@pytest.mark.django_db(transaction=True)
def test_answer_arriving_after_the_push_of_its_version_is_dropped(open_page: Any, ana: Any, ben: Any) -> None:
    """The answer to a move is the delta from the version the page played on; when the
    push of the same delta came first, the answer is dropped as already shown."""
    game = in_thread(make_game, ana, ben, racks=("CATSEOD", "AEIOULN"))
    console: list[str] = []
    page = open_page(ana, f"/games/{game.pk}/", console=console, bypass_csp=True)
    held = hold_answers(page)
    page.evaluate(RECORDER)
    lay(page, CAT)
    play_button(page).click()
    # The move is made; its push (a delta) reaches the page before the answer.
    expect(square(page, 7, 7)).to_have_attribute("data-letter", "C")
    expect(page.locator("#game-sync")).to_have_attribute("data-version", str(game.version + 1))
    wait_until(page, lambda: len(held) == 1, what="the held answer")
    page.evaluate("window.__swaps = []")
    route, response = held[0]
    route.fulfill(response=response)
    page.wait_for_function("window.__answers === 1")
    assert page.evaluate("window.__swaps") == []  # nothing swapped twice
    assert sync_version(page) == game.version + 1
    assert errors(console) == []
    expect_my_turn(page, False)
    assert page.evaluate(BOARD_DIFF) == []


@pytest.mark.django_db(transaction=True)
def test_push_arriving_after_the_answer_is_dropped_and_the_next_applies(
    open_page: Any, ana: Any, ben: Any
) -> None:
    game = in_thread(make_game, ana, ben, racks=("CATSEOD", "AEIOULN"))
    console: list[str] = []
    socket = HeldSocket()
    page = open_page(ana, f"/games/{game.pk}/", console=console, setup=socket.attach, bypass_csp=True)
    other = open_page(ben, f"/games/{game.pk}/")
    page.evaluate(RECORDER)
    lay(page, CAT)
    socket.holding = True
    play_button(page).click()
    # The answer comes first and shows the move.
    page.wait_for_function("window.__answers === 1")
    expect(square(page, 7, 7)).to_have_attribute("data-letter", "C")
    assert sync_version(page) == game.version + 1
    wait_until(page, lambda: len(socket.queue) == 1, what=f"one held frame: {socket.queue}")
    socket.release()
    # The push of the same version is dropped as already shown (no error, no swap).
    page.wait_for_function("window.__frames.length === 1")
    assert page.evaluate("window.__frames") == [True]
    # The next push (ben passes) applies on top of it.
    expect_my_turn(other, True)
    other.locator("button[form='pass-form']").click()
    expect_my_turn(page, True)
    expect(page.locator("#move-log .move")).to_have_count(2)
    assert sync_version(page) == game.version + 2
    assert errors(console) == []
    assert page.evaluate(BOARD_DIFF) == []


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("answer_first", [False, True], ids=["push-first", "answer-first"])
def test_refusal_in_the_answer_is_shown_whichever_arrives_first(
    open_page: Any, ana: Any, ben: Any, answer_first: bool
) -> None:
    game = in_thread(make_game, ana, ben, racks=("CATSEOD", "AEIOULN"))
    console: list[str] = []
    socket = HeldSocket()
    page = open_page(ana, f"/games/{game.pk}/", console=console, setup=socket.attach, bypass_csp=True)
    other_tab = open_page(ana, f"/games/{game.pk}/")
    lay(page, CAT)
    # ana plays CAT in her other tab first; this tab does not hear of it yet.
    socket.holding = True
    lay(other_tab, CAT)
    play_button(other_tab).click()
    expect(square(other_tab, 7, 7)).to_have_attribute("data-letter", "C")
    wait_until(page, lambda: len(socket.queue) == 1, what=f"one held frame: {socket.queue}")
    # This tab's Play (at the old version) is refused; the answer and the push then
    # arrive in the order under test.
    held = hold_answers(page)
    page.evaluate(RECORDER)
    play_button(page).click()
    wait_until(page, lambda: len(held) == 1, what="the held answer")
    route, response = held[0]
    if answer_first:
        route.fulfill(response=response)
        page.wait_for_function("window.__answers === 1")
        socket.release()
        page.wait_for_function("window.__frames.length === 1")
    else:
        socket.release()
        expect(square(page, 7, 7)).to_have_attribute("data-letter", "C")
        route.fulfill(response=response)
        page.wait_for_function("window.__answers === 1")
    alert = page.locator("#move-panel [role='alert']")
    expect(alert).to_be_visible()
    expect(alert).not_to_be_empty()
    page.wait_for_timeout(300)  # nothing later takes it away
    expect(alert).to_be_visible()
    expect(square(page, 7, 7)).to_have_attribute("data-letter", "C")
    assert sync_version(page) == game.version + 1
    assert errors(console) == []
    shot(page, f"refusal-{'answer' if answer_first else 'push'}-first")


@pytest.mark.django_db(transaction=True)
def test_page_that_missed_a_version_asks_for_a_snapshot(
    open_page: Any, ana: Any, ben: Any, cleo: Any
) -> None:
    game = in_thread(make_game, ana, ben, racks=("CATSEOD", "AEIOULN"))
    socket = HeldSocket()
    watcher = open_page(cleo, f"/games/{game.pk}/", setup=socket.attach)
    pa = open_page(ana, f"/games/{game.pk}/")
    pb = open_page(ben, f"/games/{game.pk}/")
    socket.drop = 1  # cleo's page never gets the push of ana's move
    lay(pa, CAT)
    play_button(pa).click()
    expect_my_turn(pb, True)
    wait_until(watcher, lambda: len(socket.dropped) == 1, what="the dropped delta")
    assert square(watcher, 7, 7).get_attribute("data-letter") == ""
    # ben passes: its delta does not follow what cleo's page shows, so the page asks
    # for the snapshot and shows both moves.
    pb.locator("button[form='pass-form']").click()
    expect(square(watcher, 7, 7)).to_have_attribute("data-letter", "C")
    expect(watcher.locator("#move-log .move")).to_have_count(2)
    assert sync_version(watcher) == game.version + 2
    assert [json for json in socket.sent if '"resync"' in json]
    assert watcher.evaluate(BOARD_DIFF) == []


@pytest.mark.django_db(transaction=True)
def test_page_behind_asks_once_per_gap_and_again_when_the_snapshot_is_lost(
    open_page: Any, ana: Any, ben: Any, cleo: Any
) -> None:
    """Two deltas that do not follow the page's version make one resync request, not one
    each; the snapshot answering it is lost, so the page asks again after its retry delay
    (the server answers one resync a second) and catches up."""
    game = in_thread(make_game, ana, ben, racks=("CATSEOD", "AEIOULN"))
    socket = HeldSocket()
    watcher = open_page(cleo, f"/games/{game.pk}/", setup=socket.attach)
    pa = open_page(ana, f"/games/{game.pk}/")
    pb = open_page(ben, f"/games/{game.pk}/")
    socket.drop = 1  # cleo's page never gets the push of ana's move
    lay(pa, CAT)
    play_button(pa).click()
    expect_my_turn(pb, True)
    wait_until(watcher, lambda: len(socket.dropped) == 1, what="the dropped delta")
    # ben and ana pass; both deltas reach cleo's page together, neither on its version.
    socket.holding = True
    pb.locator("button[form='pass-form']").click()
    expect_my_turn(pa, True)
    pa.locator("button[form='pass-form']").click()
    expect_my_turn(pb, True)
    wait_until(watcher, lambda: len(socket.queue) == 2, what=f"two held frames: {socket.queue}")
    socket.lose_snapshots = 1
    socket.release()
    expect(watcher.locator("#move-log .move")).to_have_count(3)
    assert sync_version(watcher) == game.version + 3
    assert len(socket.dropped) == 2  # the delta, then the first snapshot
    watcher.wait_for_timeout(2000)  # no further request once the page is current
    resyncs = [json for json in socket.sent if '"resync"' in json]
    assert resyncs == [f'{{"type":"resync","version":{game.version}}}'] * 2
    assert socket.resync_times[1] - socket.resync_times[0] >= 1.4
    assert watcher.evaluate(BOARD_DIFF) == []


@pytest.mark.django_db(transaction=True)
def test_dropped_socket_is_shown_and_the_page_plays_on_after_reconnecting(
    open_page: Any, ana: Any, ben: Any
) -> None:
    game = in_thread(make_game, ana, ben, racks=("CATSEOD", "AEIOULN"))
    socket = HeldSocket()
    page = open_page(ana, f"/games/{game.pk}/", setup=socket.attach)
    pb = open_page(ben, f"/games/{game.pk}/")
    note = page.locator("#connection-note")
    expect(note).to_be_hidden()
    first = socket.route
    assert first is not None
    assert socket.server is not None
    # As when a server restarts: the ws extension reconnects after 1012 (in under 1 s).
    socket.server.close()
    first.close(code=1012)
    expect(page.locator("#game")).to_have_attribute("data-live", "false")
    expect(note).to_be_visible()
    expect(page.locator("#game")).to_have_attribute("data-live", "true")
    assert socket.route is not first
    expect(note).to_be_hidden()
    expect(page.locator("#live-announcer")).to_have_text("Connected again.")
    # The move goes out over HTTP with the version on screen; ben's reply comes over the
    # new socket.
    lay(page, CAT)
    play_button(page).click()
    expect_my_turn(pb, True)
    pb.locator("button[form='pass-form']").click()
    expect_my_turn(page, True)
    expect(page.locator("#move-log .move")).to_have_count(2)
    assert sync_version(page) == game.version + 2
    assert page.evaluate(BOARD_DIFF) == []


@pytest.mark.django_db(transaction=True)
def test_opponents_move_is_read_out_and_notifications_end_with_the_game(
    open_page: Any, ana: Any, ben: Any
) -> None:
    game = in_thread(make_game, ana, ben, racks=("CATSEOD", "AEIOULN"))
    pa = open_page(ana, f"/games/{game.pk}/")
    pa.context.grant_permissions(["notifications"])
    pa.reload()
    pa.wait_for_selector('#game[data-live="true"]', state="attached")
    pb = open_page(ben, f"/games/{game.pk}/")
    expect(pa.locator(".notify-state")).to_be_visible()
    lay(pa, CAT)
    play_button(pa).click()
    # ben hears the move in words, with where it was played and its score.
    expect(pb.locator("#live-announcer")).to_have_text(
        re.compile(r"^ana played CAT at H8 across for \d+\. Your turn\.$")
    )
    # ben resigns; the dialog closes, and ana's page no longer offers turn notifications.
    pb.locator("#move-panel .more-menu summary").click()
    pb.get_by_role("link", name="Resign…").click()
    pb.locator("#resign-dialog button[type=submit]").click()
    expect(pb.locator("#resign-dialog")).not_to_be_visible()
    expect(pa.locator("#game-over .banner")).to_contain_text("ana won")
    expect(pa.locator(".notify-state")).to_be_hidden()
    expect(pa.locator('[data-action="notify"]')).to_be_hidden()
    expect(pb.locator('[data-action="notify"]')).to_be_hidden()
    assert pa.evaluate(BOARD_DIFF) == []
