"""Abuse limits of games (issue 24, point 6): invitations received do not fill the
invitee's active-games limit, a player may have only so many invitations waiting, and chat
lines a minute per player (through the shared limiter, which lets chat through when the
cache is down)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from accounts import ratelimit
from games.models import ChatMessage, Game, GameError
from games.services import start_game
from tests.factories import make_user
from tests.games.helpers import make_game

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_cache(settings: Any) -> None:
    settings.CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "limits"}
    }
    from django.core.cache import cache

    cache.clear()
    ratelimit.reset_outage()


def test_invitations_received_do_not_count_against_the_invitees_limit(ben: Any, settings: Any) -> None:
    settings.MAX_ACTIVE_GAMES = 3
    for n in range(5):
        start_game(creator=make_user(f"stranger{n}"), mode=Game.Mode.FRIEND, language="en", opponent=ben)
    assert Game.objects.active_for(ben).count() == 0
    for _ in range(3):
        start_game(creator=ben, mode=Game.Mode.COMPUTER, language="en", level="easy")
    with pytest.raises(GameError) as refused:
        start_game(creator=ben, mode=Game.Mode.COMPUTER, language="en", level="easy")
    assert refused.value.code == "too_many_games"
    # Accepting one more is refused too: accepted games are what counts.
    invitation = Game.objects.filter(status=Game.Status.INVITED, seats__user=ben).first()
    assert invitation is not None
    with pytest.raises(GameError):
        invitation.accept(ben, version=invitation.version)


def test_a_player_may_have_only_so_many_invitations_waiting(ana: Any, settings: Any) -> None:
    settings.MAX_PENDING_INVITATIONS = 2
    for name in ("dora", "emil"):
        start_game(creator=ana, mode=Game.Mode.FRIEND, language="en", opponent=make_user(name))
    with pytest.raises(GameError) as refused:
        start_game(creator=ana, mode=Game.Mode.FRIEND, language="en", opponent=make_user("fred"))
    assert refused.value.code == "too_many_invitations"
    assert Game.objects.filter(created_by=ana).count() == 2
    # Once one is answered, another may be sent.
    waiting = Game.objects.filter(created_by=ana).first()
    assert waiting is not None
    waiting.decline(waiting.seat_list()[1].user, version=waiting.version)
    start_game(creator=ana, mode=Game.Mode.FRIEND, language="en", opponent=make_user("gus"))


def chat(client: Client, game: Game, text: str) -> str:
    return client.post(
        reverse("games:chat", args=[game.pk]), {"text": text}, headers={"HX-Request": "true"}
    ).text


def test_chat_lines_a_minute_are_limited_with_a_clear_message(
    ana: Any, ben: Any, settings: Any, still_clock: float
) -> None:
    settings.CHAT_LINES_PER_MINUTE = 2
    game = make_game(ana, ben)
    client = Client()
    client.force_login(ana)
    answers = [chat(client, game, f"line {n}") for n in range(3)]
    assert "too fast" not in answers[1]
    assert "You are sending messages too fast. Wait a minute, then write again." in answers[2]
    assert ChatMessage.objects.filter(game=game).count() == 2


def test_chat_goes_through_when_the_cache_is_down(
    ana: Any, ben: Any, settings: Any, monkeypatch: Any
) -> None:
    from tests.api.test_rate_limits import DownCache

    settings.CHAT_LINES_PER_MINUTE = 1
    monkeypatch.setattr(ratelimit, "cache", DownCache())
    game = make_game(ana, ben)
    try:
        for n in range(3):
            game.post_chat(ana, f"line {n}")
    finally:
        ratelimit.reset_outage()
    assert ChatMessage.objects.filter(game=game).count() == 3
