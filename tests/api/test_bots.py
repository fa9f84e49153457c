"""Bots say they are bots: a token marked as a bot's makes its account a bot's, labelled
wherever its name shows, and rated games pair bots only with bots."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from api.models import ApiToken
from games import rendering
from games.models import Game, GameError
from games.services import start_game, start_paired_game
from tests.api.conftest import bearer
from tests.factories import make_user

pytestmark = pytest.mark.django_db


def make_bot(username: str) -> tuple[Any, str]:
    user = make_user(username)
    _token, raw = ApiToken.issue(user, "engine", bot=True)
    user.refresh_from_db()
    return user, raw


def test_a_bot_cannot_start_a_rated_game_against_a_person(ana: Any) -> None:
    bot, raw = make_bot("wordbot")
    client = Client()
    answer = client.post(
        "/api/v1/games",
        {"opponent": "ana", "language": "en", "rated": True},
        content_type="application/json",
        headers=bearer(raw),
    )
    assert answer.status_code == 403
    assert answer.json()["error"] == "bot_rated_human"
    assert "Bots play rated games only against other bots" in answer.json()["message"]
    # Nor the other way round.
    with pytest.raises(GameError, match="bot_rated_human"):
        start_game(creator=ana, mode=Game.Mode.FRIEND, language="en", opponent=bot, rated=True)
    assert not Game.objects.exists()
    # Paired by a tournament's organiser, they play, unrated (refusing would stop the round).
    paired = start_paired_game(
        first=ana, second=bot, language="en", inactivity_days=3, dictionary_version=None, rated=True
    )
    assert not paired.rated
    # Unrated games with people, and rated ones with bots, are fine.
    start_game(creator=bot, mode=Game.Mode.FRIEND, language="en", opponent=ana)
    other, _raw = make_bot("otherbot")
    start_game(creator=bot, mode=Game.Mode.FRIEND, language="en", opponent=other, rated=True)


def test_a_rated_seek_pairs_bots_with_bots_and_people_with_people(ana: Any, ben: Any) -> None:
    bot, _raw = make_bot("wordbot")
    seek = start_game(creator=bot, mode=Game.Mode.RANDOM, language="en", rated=True)
    mine = start_game(creator=ana, mode=Game.Mode.RANDOM, language="en", rated=True)
    assert mine.pk != seek.pk
    assert mine.status == Game.Status.OPEN
    joined = start_game(creator=ben, mode=Game.Mode.RANDOM, language="en", rated=True)
    assert joined.pk == mine.pk
    assert joined.status == Game.Status.ACTIVE
    other, _raw = make_bot("otherbot")
    assert start_game(creator=other, mode=Game.Mode.RANDOM, language="en", rated=True).pk == seek.pk


def test_a_bots_name_says_bot_wherever_it_shows(ana: Any) -> None:
    bot, _raw = make_bot("wordbot")
    assert bot.is_bot
    assert ApiToken.objects.get().is_bot
    game = start_game(creator=bot, mode=Game.Mode.FRIEND, language="en", opponent=ana)
    client = Client()
    client.force_login(ana)
    for url in (
        reverse("games:detail", args=[game.pk]),
        reverse("games:lobby"),
        reverse("players:profile", args=["wordbot"]),
    ):
        assert "wordbot (bot)" in client.get(url).text, url
    assert rendering.lobby_item(game, ana)["opponent"] == "wordbot (bot)"
    # A person's name is left alone, and an ordinary token marks nobody.
    ApiToken.issue(ana, "script")
    ana.refresh_from_db()
    assert not ana.is_bot
    assert ana.shown_name == "ana"


def test_the_tokens_page_marks_a_token_as_a_bots(ana: Any) -> None:
    client = Client()
    client.force_login(ana)
    page = client.get(reverse("api:tokens"))
    assert "This token is for a bot" in page.text
    client.post(reverse("api:tokens"), {"name": "my bot", "bot": "on"})
    ana.refresh_from_db()
    assert ana.is_bot
    assert ApiToken.objects.get(user=ana).is_bot
