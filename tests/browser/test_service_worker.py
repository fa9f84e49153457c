"""The service worker in Debian's Chromium: given a push message (CDP
``ServiceWorker.deliverPushMessage``; headless Chromium reaches no push service), it shows
the notification with the server's title and body, three pushes with one tag leave one,
and its click handler takes an open page of the site to the game."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest

from tests.factories import make_user

pytestmark = [pytest.mark.browser]


def shown(page: Any) -> list[list[str]]:
    result: list[list[str]] = page.evaluate(
        "navigator.serviceWorker.ready.then(r => r.getNotifications())"
        ".then(ns => ns.map(n => [n.title, n.body, n.tag]))"
    )
    return result


def wait_for(page: Any, predicate: Any, timeout: float = 10) -> Any:
    """Poll ``predicate`` while Playwright's loop runs (it delivers the CDP events)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if value := predicate():
            return value
        page.wait_for_timeout(100)
    raise AssertionError("timed out")


def test_the_service_worker_shows_pushes_one_per_tag_and_opens_the_game(
    open_page: Any, server_url: str, live_db: None
) -> None:
    ana = make_user("ana")
    page = open_page(ana, "/notifications/", bypass_csp=True)
    page.context.grant_permissions(["notifications"], origin=server_url)
    scope = page.evaluate(
        "navigator.serviceWorker.register('/sw.js', {scope: '/'}).then(() => navigator.serviceWorker.ready)"
        ".then(r => r.scope)"
    )
    assert scope == server_url + "/"
    # The page comes under the worker's control (it claims its clients on activation).
    wait_for(page, lambda: page.evaluate("!!navigator.serviceWorker.controller"))

    cdp = page.context.new_cdp_session(page)
    registrations: list[str] = []
    cdp.on(
        "ServiceWorker.workerRegistrationUpdated",
        lambda event: registrations.extend(r["registrationId"] for r in event["registrations"]),
    )
    cdp.send("ServiceWorker.enable")
    registration = wait_for(page, lambda: registrations[-1] if registrations else None)

    def deliver(message: dict[str, str]) -> None:
        cdp.send(
            "ServiceWorker.deliverPushMessage",
            {"origin": server_url, "registrationId": registration, "data": json.dumps(message)},
        )

    deliver(
        {"title": "Din tur mot ben", "body": "ben har gjort sitt drag.", "url": "/games/7/", "tag": "game-7"}
    )
    assert wait_for(page, lambda: shown(page)) == [["Din tur mot ben", "ben har gjort sitt drag.", "game-7"]]
    for n in range(3):
        deliver({"title": "ben wrote in game #8", "body": f"line {n}", "url": "/games/8/", "tag": "game-8"})
    wait_for(page, lambda: ["ben wrote in game #8", "line 2", "game-8"] in shown(page))
    assert sorted(tag for _title, _body, tag in shown(page)) == ["game-7", "game-8"]

    # A tap: the worker's click handler runs (a simulated click cannot open a window, so it
    # takes the open page of the site to the game).
    worker = wait_for(page, lambda: page.context.service_workers[0] if page.context.service_workers else None)
    worker.evaluate(
        """self.registration.getNotifications({tag: "game-7"}).then(ns => {
             self.dispatchEvent(new NotificationEvent("notificationclick", {notification: ns[0]}));
           })"""
    )
    page.wait_for_url(server_url + "/games/7/")
    assert [tag for _t, _b, tag in shown(page)] == ["game-8"]  # the tapped one is closed


def test_the_site_is_installable_and_has_an_offline_page(
    browser: Any, server_url: str, live_db: None, tmp_path: Any
) -> None:
    """Chromium reports no installability errors (in a persistent context: an incognito
    one always says ``in-incognito``), and the worker answers a page with the offline
    page when the network is gone."""
    from django.conf import settings
    from django.test import Client

    from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS

    ana = make_user("ana")
    client = Client()
    client.force_login(ana)
    context = browser.browser_type.launch_persistent_context(
        str(tmp_path / "profile"), executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True
    )
    try:
        context.add_cookies(
            [
                {
                    "name": settings.SESSION_COOKIE_NAME,
                    "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                    "url": server_url,
                }
            ]
        )
        page = context.pages[0] if context.pages else context.new_page()
        page.goto(server_url + "/games/")
        page.evaluate("navigator.serviceWorker.ready.then(() => true)")
        cdp = context.new_cdp_session(page)
        seen: list[Any] = []

        def installable() -> bool:
            seen.append(cdp.send("Page.getInstallabilityErrors")["installabilityErrors"])
            return seen[-1] == []

        try:
            wait_for(page, installable, timeout=30)
        except AssertionError:
            raise AssertionError(f"installability errors: {seen[-1]}") from None
        manifest = cdp.send("Page.getAppManifest")
        assert manifest["url"] == server_url + "/manifest.webmanifest"
        assert not manifest["errors"]

        context.set_offline(True)
        page.goto(server_url + "/games/")
        assert page.locator("h1").inner_text() == "You are offline"
    finally:
        context.close()
