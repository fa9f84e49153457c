"""What an app needs beside playing (``api.players``): chat, rematch, invitations,
friends, blocks and reports, profiles, the archive with its cursor, the study list;
and a test that every page action has its endpoint."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.urls import URLPattern, URLResolver, get_resolver
from django.utils import timezone

from accounts.models import Block, Friendship, Report
from api.v1 import api
from games.models import ChatMessage, Game, StudyItem
from tests.api.conftest import ApiClient
from tests.players.helpers import make_finished_game

pytestmark = pytest.mark.django_db

Api = Callable[..., ApiClient]


def test_chat_read_and_send(api_as: Api, game_ana_ben: Game, cleo: Any) -> None:
    ana, ben = api_as(game_ana_ben.created_by), api_as(game_ana_ben.seat_user(1))
    sent = ana.post(f"/games/{game_ana_ben.pk}/chat", {"text": " Good luck! "})
    assert sent.status_code == 201
    assert [(line["author"], line["text"], line["mine"]) for line in sent.json()] == [
        ("ana", "Good luck!", True)
    ]
    assert [line["mine"] for line in ben.get(f"/games/{game_ana_ben.pk}/chat").json()] == [False]
    # A spectator reads no chat and writes none.
    watcher = api_as(cleo)
    assert watcher.get(f"/games/{game_ana_ben.pk}/chat").json()["error"] == "not_a_player"
    assert watcher.post(f"/games/{game_ana_ben.pk}/chat", {"text": "hi"}).status_code == 403
    assert ana.post(f"/games/{game_ana_ben.pk}/chat", {"text": ""}).json()["error"] == "bad_request"
    assert ChatMessage.objects.count() == 1


def test_chat_refused_when_blocked(api_as: Api, game_ana_ben: Game) -> None:
    ben = game_ana_ben.seat_user(1)
    Block.objects.create(blocker=ben, blocked=game_ana_ben.created_by)
    answer = api_as(game_ana_ben.created_by).post(f"/games/{game_ana_ben.pk}/chat", {"text": "hello"})
    assert (answer.status_code, answer.json()["error"]) == (403, "chat_blocked")
    assert set(answer.json()) == {"error", "message"}


def test_rematch_once_over(api_as: Api, game_ana_ben: Game) -> None:
    ana = api_as(game_ana_ben.created_by)
    assert ana.post(f"/games/{game_ana_ben.pk}/rematch").json()["error"] == "rematch_not_finished"
    game_ana_ben.resign(game_ana_ben.seat_user(1), version=game_ana_ben.version)
    first = ana.post(f"/games/{game_ana_ben.pk}/rematch")
    assert first.status_code == 201
    assert first.json()["status"] == "invited"
    assert ana.post(f"/games/{game_ana_ben.pk}/rematch").json()["id"] == first.json()["id"]


def test_invitations_sent_received_and_answered(api_as: Api, ana: Any, ben: Any) -> None:
    a, b = api_as(ana), api_as(ben)
    made = a.post("/games", {"opponent": "ben", "language": "en"}).json()
    assert [g["id"] for g in a.get("/invitations?direction=sent").json()] == [made["id"]]
    assert a.get("/invitations?direction=received").json() == []
    assert [g["id"] for g in b.get("/invitations").json()] == [made["id"]]
    assert b.post(f"/games/{made['id']}/accept", {"version": made["version"]}).json()["status"] == "active"
    assert b.get("/invitations").json() == []


def test_friends_add_accept_list_remove(api_as: Api, ana: Any, ben: Any) -> None:
    a, b = api_as(ana), api_as(ben)
    assert a.put("/friends/BEN").json() == {"username": "ben", "bot": False, "status": "requested"}
    assert b.get("/friends").json() == [{"username": "ana", "bot": False, "status": "asked"}]
    assert b.put("/friends/ana").json() == {"username": "ana", "bot": False, "status": "friends"}
    assert a.get("/friends").json() == [{"username": "ben", "bot": False, "status": "friends"}]
    assert a.put("/friends/ana").json()["error"] == "self"
    assert a.put("/friends/nobody").status_code == 404
    assert a.delete("/friends/ben").status_code == 204
    assert not Friendship.objects.exists()


def test_block_unblock_and_report(api_as: Api, ana: Any, ben: Any) -> None:
    a = api_as(ana)
    assert a.put("/blocks/ben").status_code == 204
    assert [row["username"] for row in a.get("/blocks").json()] == ["ben"]
    assert a.get("/players/ben").json()["blocked"] is True
    assert a.delete("/blocks/ben").status_code == 204
    assert not Block.objects.exists()
    assert a.post("/players/ben/report", {"reason": "abuse", "details": "rude"}).status_code == 204
    again = a.post("/players/ben/report", {"reason": "abuse"})
    assert (again.status_code, again.json()["error"]) == (409, "already_reported")
    assert a.post("/players/ben/report", {"reason": "nonsense"}).status_code == 400
    assert Report.objects.count() == 1


def test_profile_with_ratings_and_statistics(api_as: Api, ana: Any, ben: Any) -> None:
    make_finished_game(ben, ana, moves=[(0, "play", "QUIZ", 64, False)])
    profile = api_as(ana).get("/players/Ben").json()
    assert profile["username"] == "ben"
    assert profile["statistics"][0]["best_word"] == "QUIZ"
    assert profile["ratings"] == []


def test_archive_filters_cursor_and_privacy(api_as: Api, ana: Any, ben: Any, cleo: Any) -> None:
    start = timezone.now() - timedelta(days=1)
    games = [make_finished_game(ana, ben, finished_at=start + timedelta(minutes=i)) for i in range(5)]
    Game.objects.filter(pk=games[2].pk).update(is_public=False)
    seen: list[int] = []
    cursor = ""
    while True:
        page = api_as(ana).get(f"/players/ana/games?limit=2&opponent=ben&cursor={cursor}").json()
        seen += [g["id"] for g in page["games"]]
        assert page["head_to_head"]["games"] == 5
        cursor = page["next_cursor"]
        if not cursor:
            break
    assert seen == [g.pk for g in reversed(games)]
    outsider = api_as(cleo).get("/players/ana/games?word=cat").json()
    assert games[2].pk not in [g["id"] for g in outsider["games"]]
    assert len(outsider["games"]) == 4
    bad = api_as(ana).get("/players/ana/games?cursor=nonsense")
    assert (bad.status_code, bad.json()["error"]) == (400, "bad_cursor")


def test_archive_pace_filter(api_as: Api, ana: Any, ben: Any) -> None:
    now = timezone.now()
    correspondence = make_finished_game(ana, ben, finished_at=now - timedelta(minutes=1))
    live = make_finished_game(ana, ben, finished_at=now)
    Game.objects.filter(pk=live.pk).update(speed="live", clock_seconds=300, increment_seconds=5)
    found = api_as(ana).get("/players/ana/games?pace=live").json()["games"]
    assert [(g["id"], g["pace"]) for g in found] == [(live.pk, "5+5")]
    found = api_as(ana).get("/players/ana/games?pace=correspondence").json()["games"]
    assert [g["id"] for g in found] == [correspondence.pk]
    bad = api_as(ana).get("/players/ana/games?pace=blitz")
    assert bad.status_code == 400


def test_study_list(api_as: Api, ana: Any, ben: Any) -> None:
    StudyItem.objects.create(
        user=ana, language="en", word="QUIXOTIC", kind="bingo", rack="QUIXOTC", score=90, move_number=3
    )
    StudyItem.objects.create(
        user=ben, language="en", word="ZAX", kind="play", rack="ZAX", score=50, move_number=3
    )
    assert [i["word"] for i in api_as(ana).get("/study/en").json()] == ["QUIXOTIC"]
    assert api_as(ana).get("/study/xx").status_code == 404


# ----- every page action has its endpoint -------------------------------------------------------

#: Each page's URL name -> the API operation that does the same ("METHOD /path"), or why
#: the API has none: pages for moderators or organisers, HTML the app draws itself, or
#: signing in (the API has its tokens).
PAGE_ACTIONS: dict[str, str] = {
    "games:lobby": "GET /api/v1/games",
    "games:new": "POST /api/v1/games",
    "games:new-with": "POST /api/v1/games",
    "games:detail": "GET /api/v1/games/{game_id}",
    "games:fragments": "none: HTML fragments of the game page (the app has GET /games/ID)",
    "games:preview": "POST /api/v1/games/{game_id}/preview",
    "games:play": "POST /api/v1/games/{game_id}/play",
    "games:exchange": "POST /api/v1/games/{game_id}/exchange",
    "games:pass": "POST /api/v1/games/{game_id}/pass",
    "games:resign": "POST /api/v1/games/{game_id}/resign",
    "games:challenge": "POST /api/v1/games/{game_id}/challenge",
    "games:accept-play": "POST /api/v1/games/{game_id}/accept-play",
    "games:accept": "POST /api/v1/games/{game_id}/accept",
    "games:decline": "POST /api/v1/games/{game_id}/decline",
    "games:rematch": "POST /api/v1/games/{game_id}/rematch",
    "games:chat": "POST /api/v1/games/{game_id}/chat",
    "games:gcg": "GET /api/v1/games/{game_id}/gcg",
    "games:buy": "POST /api/v1/games/{game_id}/extras/tile-bag",
    "games:define": "GET /api/v1/words/{language}/{word}",
    "games:study": "GET /api/v1/study/{language}",
    "games:my-archive": "GET /api/v1/players/{username}/games",
    "archive:games": "GET /api/v1/players/{username}/games",
    "archive:download": "GET /api/v1/games/{game_id}/gcg",
    "players:profile": "GET /api/v1/players/{username}",
    "players:block": "PUT /api/v1/blocks/{username}",
    "players:report": "POST /api/v1/players/{username}/report",
    "friends": "GET /api/v1/friends",
    "friend-action": "PUT /api/v1/friends/{username}",
    "blocked": "GET /api/v1/blocks",
    "api:tokens": "POST /api/v1/token",
    "api:token-revoke": "none: revoking a token is done on the page (a leaked token must not revoke others)",
    "api:app-revoke": "none: taking an app's access back is done on the page, like a token",
    "home": "none: the home page",
    "healthz": "none: the health check",
    "metrics": "none: Prometheus's figures, for operators",
    "how-to-play": "none: the rules, a page",
    "set_language": "none: the interface language of the pages (the API follows Accept-Language)",
    "signup": "none: signing up is on the site",
    "delete-account": "none: deleting an account asks for the password on the site",
    "games:watch": "GET /api/v1/watch",
    "games:seeks": "GET /api/v1/games/seeks",
    "games:seek-accept": "POST /api/v1/games/seeks/{game_id}/accept",
    "games:seek-computer": "POST /api/v1/games/seeks/{game_id}/computer",
    "dictionaries:lookup": "GET /api/v1/words/{language}/{word}",
    "dictionaries:suggest": "POST /api/v1/words/{language}/{word}/suggest",
    "tournaments:list": "GET /api/v1/tournaments",
    "tournaments:detail": "GET /api/v1/tournaments/{tournament_id}",
    "tournaments:register": "POST /api/v1/tournaments/{tournament_id}/register",
    "tournaments:withdraw": "POST /api/v1/tournaments/{tournament_id}/withdraw",
    "tournaments:memberships": "PUT /api/v1/tournaments/memberships/{body}",
    "tournaments:export": "GET /api/v1/tournaments/{tournament_id}/export",
    "tournaments:check-in": "POST /api/v1/tournaments/{tournament_id}/check-in",
    # The room's screen, the printable sheets and the results summary show the standings
    # and pairings the tournament's own endpoint gives.
    "tournaments:screen": "GET /api/v1/tournaments/{tournament_id}",
    "tournaments:print": "GET /api/v1/tournaments/{tournament_id}",
    "tournaments:summary": "GET /api/v1/tournaments/{tournament_id}",
    "games:replay": "GET /api/v1/games/{game_id}",
    "games:analysis": "GET /api/v1/games/{game_id}/analysis",
    "games:quiz": "POST /api/v1/study/{language}/quiz",
    "games:study-export": "GET /api/v1/study/{language}",
    "coins": "GET /api/v1/account/coins",
    "preferences": "PATCH /api/v1/account/settings",
    "vacation": "PUT /api/v1/account/vacation",
    "download-data": "GET /api/v1/account/data",
    "acknowledge-notice": "POST /api/v1/notices/{notice_id}/read",
    "players:search": "GET /api/v1/players",
    "leaderboard": "GET /api/v1/leaderboard/{language}",
    "notifications:list": "GET /api/v1/notifications",
    "notifications:read-all": "POST /api/v1/notifications/read",
    "notifications:open": "POST /api/v1/notifications/read",
    "notifications:push-subscribe": "POST /api/v1/notifications/push",
    "notifications:push-remove": "POST /api/v1/notifications/push/revoke",
    "notifications:unsubscribe": "none: the one-click link of a mail, signed, used without signing in",
    "notifications:verify-email": "none: the signed link of the verification mail",
    "notifications:resend-verification": "POST /api/v1/notifications/settings/verify-email",
    "notifications:settings": "PATCH /api/v1/notifications/settings",
    "notifications:service-worker": "none: the browser's service worker script",
    "notifications:manifest": "none: the installable app's manifest",
    "notifications:offline": "none: the page the service worker shows offline",
    "puzzles:index": "GET /api/v1/puzzles/daily/{language}",
    "puzzles:daily": "GET /api/v1/puzzles/daily/{language}",
    "puzzles:calendar": "GET /api/v1/puzzles/{language}/days",
    "puzzles:day": "GET /api/v1/puzzles/{language}/{day}",
    "puzzles:preview": "POST /api/v1/puzzles/{language}/{day}/preview",
    "puzzles:submit": "POST /api/v1/puzzles/{language}/{day}",
    "puzzles:solo": "GET /api/v1/puzzles/solo/{language}",
    "puzzles:solo-start": "POST /api/v1/puzzles/solo/{language}",
    "games:study-word": "POST /api/v1/games/{game_id}/study-word",
    "puzzles:duel-new": "POST /api/v1/puzzles/duels",
    "puzzles:duel": "GET /api/v1/puzzles/duels/{duel_id}",
    "puzzles:duel-preview": "POST /api/v1/puzzles/duels/{duel_id}/preview",
    "puzzles:duel-answer": "POST /api/v1/puzzles/duels/{duel_id}",
}

#: Whole namespaces left out: the admin (staff), Django's sign-in pages, the word pages
#: and tournaments (their own issues), the API itself and the apps' OAuth sign-in.
LEFT_OUT = ("admin:", "api-v1:", "oauth2_provider:")
#: Organisers' pages (the API's tournaments are read-only for them).
ORGANISERS = {
    "tournaments:new",
    "tournaments:round-controls",
    "tournaments:add-player",
    "tournaments:withdraw-player",
    "tournaments:reinstate-player",
    "tournaments:player-rating",
    "tournaments:pair-round",
    "tournaments:start-round",
    "tournaments:override-pairing",
    "tournaments:override-result",
    "tournaments:check-in-player",
    "tournaments:move-player",
    "tournaments:player-name",
    "tournaments:add-division",
    "tournaments:export-event",
    "tournaments:prize-bands",
}
AUTH_PAGES = {
    "login",
    "logout",
    "password_change",
    "password_change_done",
    "password_reset",
    "password_reset_done",
    "password_reset_confirm",
    "password_reset_complete",
}


def url_names(patterns: list[Any], namespace: str = "") -> set[str]:
    names: set[str] = set()
    for entry in patterns:
        if isinstance(entry, URLResolver):
            inner = f"{namespace}{entry.namespace}:" if entry.namespace else namespace
            names |= url_names(entry.url_patterns, inner)
        elif isinstance(entry, URLPattern) and entry.name:
            names.add(namespace + entry.name)
    return names


def test_every_page_action_has_its_endpoint() -> None:
    pages = {
        name
        for name in url_names(get_resolver().url_patterns)
        if not name.startswith(LEFT_OUT) and name not in AUTH_PAGES | ORGANISERS and name != "favicon"
    }
    unaccounted = pages - set(PAGE_ACTIONS)
    assert unaccounted == set(), "map these pages to their endpoint (or say why there is none)"
    paths = api.get_openapi_schema()["paths"]
    operations = {f"{method.upper()} {path}" for path, item in paths.items() for method in item}
    for page, operation in PAGE_ACTIONS.items():
        if not operation.startswith("none: "):
            assert operation in operations, f"{page}: {operation} is not in the OpenAPI document"


def test_new_endpoints_documented_with_an_example() -> None:
    schemas = api.get_openapi_schema()["components"]["schemas"]
    for name in (
        "ChatLineOut",
        "ChatIn",
        "FriendOut",
        "BlockedOut",
        "ReportIn",
        "ProfileOut",
        "ArchiveOut",
        "StudyItemOut",
        "NotificationSettingsOut",
        "NotificationSettingsIn",
        "PuzzleOut",
        "PuzzleAnswerIn",
        "SoloChallengeOut",
        "SoloStartIn",
        "DuelIn",
        "DuelOut",
    ):
        assert schemas[name].get("examples"), name


def test_account_pages_as_endpoints(api_as: Api, ana: Any, ben: Any, game_ana_ben: Game) -> None:
    from accounts.models import Notice
    from accounts.services import grant_coins

    grant_coins(user=ana, amount=40, reason="signup")
    a = api_as(ana)
    assert a.get("/account/coins").json()["balance"] == 40
    changed = a.client.patch(
        "/api/v1/account/settings",
        data='{"chat_enabled": false}',
        content_type="application/json",
        headers=a.headers,
    )
    assert changed.json()["chat_enabled"] is False
    bad = a.client.patch(
        "/api/v1/account/settings",
        data='{"game_language": "xx"}',
        content_type="application/json",
        headers=a.headers,
    )
    assert (bad.status_code, bad.json()["details"][0]["field"]) == (400, "game_language")
    assert a.put("/account/vacation").json()["on_vacation"] is True
    assert a.put("/account/vacation").json()["error"] == "on_vacation"
    assert a.delete("/account/vacation").json()["on_vacation"] is False
    assert a.get("/account/data").json()["coins"]["balance"] == 40
    notice = Notice.objects.create(user=ana, kind=Notice.Kind.WARNING, params={"reason": "spam"})
    assert [n["id"] for n in a.get("/notices").json()] == [notice.pk]
    assert a.post(f"/notices/{notice.pk}/read").status_code == 204
    assert a.post(f"/notices/{notice.pk}/read").status_code == 404
    assert [p["username"] for p in a.get("/players?q=BE").json()] == ["ben"]
    assert a.get("/leaderboard/en").json() == []
    assert [g["id"] for g in api_as(ben).get("/watch").json()] == [game_ana_ben.pk]
    assert a.get(f"/games/{game_ana_ben.pk}/analysis").status_code == 403
    StudyItem.objects.create(
        user=ana, language="en", word="CAT", kind="play", rack="CATSEOD", score=30, move_number=1
    )
    question = a.get("/study/en/quiz").json()
    assert question["rack"] == "CATSEOD"
    assert a.post("/study/en/quiz", {"item": question["item"], "answer": "cat"}).json() == {
        "right": True,
        "word": "CAT",
    }


def test_tournament_player_side_and_word_suggestion(api_as: Api, ana: Any) -> None:
    from tests.tournaments.helpers import make_organiser, make_tournament

    olga = make_organiser("olga")
    tournament = make_tournament(olga)
    a = api_as(ana)
    assert [t["id"] for t in a.get("/tournaments").json()] == [tournament.pk]
    assert a.post(f"/tournaments/{tournament.pk}/register").status_code == 204
    assert tournament.registrations.filter(user=ana).exists()
    assert a.post(f"/tournaments/{tournament.pk}/withdraw").status_code == 204
    assert not tournament.registrations.filter(user=ana, status="active").exists()
    done = a.client.put(
        "/api/v1/tournaments/memberships/naspa",
        data='{"number": "NA-1", "rating": 1500}',
        content_type="application/json",
        headers=a.headers,
    )
    assert done.json() == [{"body": "naspa", "number": "NA-1", "rating": 1500}]
    assert a.post("/words/en/blorpish/suggest", {}).status_code == 204
    again = a.post("/words/en/blorpish/suggest", {})
    assert (again.status_code, again.json()["error"]) == (400, "bad_suggestion")
    refused = a.post("/words/en/cat/suggest", {})  # already in the word list
    assert (refused.status_code, refused.json()["error"]) == (400, "bad_suggestion")
