"""Abuse limits that hold and an API that works while Redis is down (issue 24, points 3,
6 and 7), against a real Daphne process on the test database and a private Redis.

- the API answers while Redis is down: the limits fail open with a log line;
- one user's tokens share one write budget;
- one address trying one password on many user names is locked out;
- invitations received do not fill the invitee's active-games limit, and one player may
  have only so many invitations waiting;
- chat lines a minute per player;
- the quiz with an item that is not a number is a 400 with a message; ``HEAD /`` is 200.
"""

from __future__ import annotations

import http.client
import json
import random
import time
import uuid
from collections.abc import Callable
from typing import Any

import pytest

from accounts.models import User
from api.models import ApiToken
from games.models import ChatMessage, Game
from games.services import start_game
from tests.factories import PASSWORD, make_user
from tests.games.helpers import make_game
from tests.production.conftest import Daphne, RedisServer

pytestmark = pytest.mark.django_db(transaction=True)


def api(
    server: Daphne, method: str, path: str, raw: str, body: dict[str, Any] | None = None
) -> tuple[int, Any]:
    """One JSON API request with a personal token; the status and the decoded body."""
    assert server.port is not None
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    headers = {"Authorization": f"Bearer {raw}", "Host": f"127.0.0.1:{server.port}"}
    payload = None
    if body is not None:
        payload = json.dumps(body)
        headers["Content-Type"] = "application/json"
    try:
        connection.request(method, f"/api/v1{path}", body=payload, headers=headers)
        response = connection.getresponse()
        text = response.read().decode()
        return response.status, json.loads(text) if text else None
    finally:
        connection.close()


def fresh_address() -> str:
    return f"127.{random.randrange(1, 250)}.{random.randrange(1, 250)}.{random.randrange(2, 250)}"


def at_start_of_a_minute(seconds_needed: float = 20) -> None:
    """The limits count per clock minute: start a burst where it cannot straddle two."""
    left = 60 - time.time() % 60
    if left < seconds_needed:
        time.sleep(left + 0.5)


COMPUTER_GAME = {"opponent": "computer", "level": "easy", "language": "en"}


def test_the_api_answers_while_redis_is_down(
    start_daphne: Callable[..., Daphne], private_redis: RedisServer, ana: Any, ben: Any
) -> None:
    server = start_daphne("outage-api", env={"REDIS_URL": private_redis.url})
    raw = ApiToken.issue(ana, "probe")[1]
    game = make_game(ana, ben)
    private_redis.stop()

    assert api(server, "GET", "/account", raw)[0] == 200
    assert api(server, "GET", "/games", raw)[0] == 200
    status, body = api(server, "GET", f"/games/{game.pk}", raw)
    assert status == 200
    status, body = api(
        server,
        "POST",
        f"/games/{game.pk}/pass",
        raw,
        {"version": body["version"], "action_id": uuid.uuid4().hex},
    )
    assert status == 200, body
    assert Game.objects.get(pk=game.pk).version == game.version + 1
    status, body = api(server, "POST", "/games", raw, COMPUTER_GAME)
    assert status == 201, body
    assert api(server, "GET", "/words/en/cat", raw)[0] == 200
    status, body = api(server, "POST", f"/games/{game.pk}/preview", raw, {"tiles": [[7, 7, "C"]]})
    assert status == 200, body
    assert api(server, "GET", f"/tournaments/{game.pk}", raw)[0] == 404  # none: as without Redis
    status, body = api(
        server, "POST", "/token", "", {"username": "ana", "password": PASSWORD, "name": "outage"}
    )
    assert status in {200, 201}, body
    version = Game.objects.get(pk=game.pk).version
    status, body = api(server, "POST", f"/games/{game.pk}/resign", body["token"], {"version": version})
    assert status == 200, body
    assert Game.objects.get(pk=game.pk).status == Game.Status.FINISHED
    assert "the cache is unavailable" in server.tail(200_000)


def test_one_users_tokens_share_one_write_budget(
    start_daphne: Callable[..., Daphne], private_redis: RedisServer, ana: Any
) -> None:
    server = start_daphne("limits-tokens", env={"REDIS_URL": private_redis.url, "API_WRITES_PER_MINUTE": "4"})
    tokens = [ApiToken.issue(ana, f"bot {n}")[1] for n in range(3)]
    at_start_of_a_minute()
    statuses = [api(server, "POST", "/games", tokens[n % 3], COMPUTER_GAME)[0] for n in range(6)]
    assert statuses == [201, 201, 201, 201, 429, 429]
    assert Game.objects.filter(created_by=ana).count() == 4


def test_password_spraying_from_one_address_is_locked_out(
    start_daphne: Callable[..., Daphne], private_redis: RedisServer, cleo: Any
) -> None:
    server = start_daphne(
        "limits-spraying",
        env={"REDIS_URL": private_redis.url, "LOGIN_FAILURE_LIMIT": "5", "LOGIN_ADDRESS_FAILURE_LIMIT": "6"},
    )
    cleo.set_password("right-Pass-7")
    cleo.save()
    names = [make_user(f"target{n}").username for n in range(8)]
    sprayer, elsewhere = fresh_address(), fresh_address()

    def log_in(source: str, username: str, password: str) -> int:
        visitor = server.visitor(source=source)
        return visitor.post(
            "/accounts/login/", {"username": username, "password": password}, htmx=False
        ).status

    # One wrong password per user name: far below the limit per user name...
    statuses = [log_in(sprayer, name, "Summer2026!") for name in names]
    assert statuses[:5] == [200] * 5
    # ...but the sixth failure from the address locks it out, for every user name.
    assert statuses[5:] == [429, 429, 429]
    assert log_in(sprayer, "cleo", "right-Pass-7") == 429
    assert log_in(elsewhere, "cleo", "right-Pass-7") == 302


def test_invitations_received_leave_the_invitee_free_and_senders_are_capped(
    start_daphne: Callable[..., Daphne], private_redis: RedisServer, ana: Any, ben: Any, cleo: Any
) -> None:
    server = start_daphne(
        "limits-invitations",
        env={"REDIS_URL": private_redis.url, "MAX_ACTIVE_GAMES": "3", "MAX_PENDING_INVITATIONS": "2"},
    )
    for _ in range(2):
        start_game(creator=ben, mode=Game.Mode.COMPUTER, language="en", level="easy")
    # Three players ben never answered invite him: his limit is not theirs to fill.
    for n in range(3):
        start_game(creator=make_user(f"stranger{n}"), mode=Game.Mode.FRIEND, language="en", opponent=ben)
    bens = ApiToken.issue(ben, "phone")[1]
    status, body = api(server, "POST", "/games", bens, COMPUTER_GAME)
    assert status == 201, body
    # Now at three games he took on, the limit holds (nothing more, invitation or not).
    status, body = api(server, "POST", "/games", bens, COMPUTER_GAME)
    assert (status, body["error"]) == (403, "too_many_games")

    anas = ApiToken.issue(ana, "phone")[1]
    friend = {"language": "en"}
    assert api(server, "POST", "/games", anas, {**friend, "opponent": "cleo"})[0] == 201
    assert api(server, "POST", "/games", anas, {**friend, "opponent": make_user("dora").username})[0] == 201
    status, body = api(server, "POST", "/games", anas, {**friend, "opponent": make_user("emil").username})
    assert (status, body["error"]) == (403, "too_many_invitations")
    assert "invitations waiting for an answer (2)" in body["message"]
    assert Game.objects.filter(created_by=ana, status=Game.Status.INVITED).count() == 2


def test_chat_lines_a_minute_are_limited_per_player(
    start_daphne: Callable[..., Daphne], private_redis: RedisServer, ana: Any, ben: Any
) -> None:
    server = start_daphne("limits-chat", env={"REDIS_URL": private_redis.url, "CHAT_LINES_PER_MINUTE": "3"})
    game = make_game(ana, ben)
    visitor = server.visitor(ana)
    at_start_of_a_minute()
    answers = [visitor.post(f"/games/{game.pk}/chat/", {"text": f"line {n}"}) for n in range(4)]
    assert [a.status for a in answers] == [200] * 4
    assert "too fast" not in answers[2].text
    assert "You are sending messages too fast. Wait a minute, then write again." in answers[3].text
    assert list(ChatMessage.objects.filter(game=game).values_list("text", flat=True).order_by("pk")) == [
        "line 0",
        "line 1",
        "line 2",
    ]
    # Ben's lines are his own budget.
    assert "too fast" not in server.visitor(ben).post(f"/games/{game.pk}/chat/", {"text": "hi"}).text


def test_a_quiz_answer_naming_no_number_is_a_400_and_head_of_the_home_page_is_200(
    start_daphne: Callable[..., Daphne], ana: Any
) -> None:
    server = start_daphne("small-ones")
    visitor = server.visitor(ana)
    for item in ("abc", "1.5", "", "9" * 40, "-3"):
        answer = visitor.post("/games/study/en/quiz/", {"item": item, "answer": "CAT"})
        assert answer.status == 400, (item, answer.status)
        assert "This answer could not be read" in answer.text
    assert visitor.post("/games/study/en/quiz/", {"item": "987654", "answer": "CAT"}).status == 404
    head = visitor.request("HEAD", "/")
    assert head.status == 200
    assert head.text == ""
    assert User.objects.filter(username="ana").exists()
