"""Bots say they are bots: a token marked as a bot's makes its account a bot's, labelled
wherever its name shows, and rated games pair bots only with bots."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import Block, Friendship, Rating
from api.models import ApiToken
from games import rendering
from games.models import Game, GameError
from games.outcomes import is_ratable
from games.services import rematch, start_game, start_paired_game
from tests.api.conftest import bearer
from tests.factories import make_user
from tests.tournaments.helpers import make_organiser, make_tournament, run_round
from tournaments.exports import collect, json_document

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


def befriend(one: Any, other: Any) -> None:
    Friendship.objects.create(from_user=one, to_user=other, status=Friendship.Status.ACCEPTED)


def test_a_bot_is_labelled_in_the_api_wherever_a_player_is_named(ana: Any) -> None:
    bot, raw = make_bot("wordbot")
    game = start_game(creator=bot, mode=Game.Mode.FRIEND, language="en", opponent=ana)
    game.accept(ana, version=game.version)
    befriend(ana, bot)
    Block.objects.create(blocker=ana, blocked=make_bot("otherbot")[0])
    Rating.objects.create(user=bot, language="en", games=3, last_played_at=timezone.now())
    Rating.objects.create(user=ana, language="en", games=3, last_played_at=timezone.now(), rating=1400)
    as_bot, as_ana = Client(headers=bearer(raw)), Client(headers=bearer(ApiToken.issue(ana, "app")[1]))
    as_bot.post(f"/api/v1/games/{game.pk}/chat", {"text": "beep"}, content_type="application/json")

    def bots(rows: list[dict[str, Any]], key: str = "username") -> dict[str, bool]:
        return {row[key]: row["bot"] for row in rows}

    players = as_ana.get(f"/api/v1/games/{game.pk}").json()["players"]
    assert bots(players) == {"wordbot": True, "ana": False}
    assert bots(as_ana.get("/api/v1/games").json()[0]["players"]) == {"wordbot": True, "ana": False}
    assert bots(as_ana.get(f"/api/v1/games/{game.pk}/chat").json(), key="text") == {"beep": True}
    assert bots(as_ana.get("/api/v1/friends").json()) == {"wordbot": True}
    assert bots(as_bot.get("/api/v1/friends").json()) == {"ana": False}
    assert bots(as_ana.get("/api/v1/blocks").json()) == {"otherbot": True}
    assert bots(as_ana.get("/api/v1/players?q=bot").json()) == {"wordbot": True, "otherbot": True}
    assert bots(as_bot.get("/api/v1/players?q=an").json()) == {"ana": False}
    assert bots(as_ana.get("/api/v1/leaderboard/en").json()) == {"wordbot": True, "ana": False}
    assert as_ana.get("/api/v1/players/wordbot").json()["bot"] is True
    assert as_ana.get("/api/v1/players/ana").json()["bot"] is False


def test_a_bot_is_labelled_on_every_page_that_names_it(ana: Any) -> None:
    bot, _raw = make_bot("wordbot")
    game = start_game(creator=bot, mode=Game.Mode.FRIEND, language="en", opponent=ana)
    befriend(ana, bot)
    Rating.objects.create(user=bot, language="en", games=3, last_played_at=timezone.now())
    organiser = make_organiser("olga")
    cleo = make_user("cleo")
    tournament = make_tournament(organiser, [bot, cleo], system="roundrobin", rounds=1)
    client = Client()
    client.force_login(ana)
    pages = {
        "lobby": reverse("games:lobby"),
        "game": reverse("games:detail", args=[game.pk]),
        "profile": reverse("players:profile", args=["wordbot"]),
        "leaderboard": reverse("leaderboard") + "?language=en",
        "friends": reverse("friends"),
        "search": reverse("players:search") + "?q=word",
        "tournament, registered": reverse("tournaments:detail", args=[tournament.pk]),
    }
    for name, url in pages.items():
        assert "wordbot (bot)" in client.get(url).text, name
    (table,) = run_round(tournament, organiser)
    # A rated tournament pairs the bot with a person: their game is played unrated.
    assert tournament.rated
    assert table.game is not None
    assert not table.game.rated
    page = client.get(reverse("tournaments:detail", args=[tournament.pk])).text
    standings = page[page.index('id="standings"') : page.index("</section>", page.index('id="standings"'))]
    assert "wordbot (bot)" in standings
    assert "cleo (bot)" not in page
    # The tournament's files keep the plain name ("(bot)" is the site's label, not a
    # name); its JSON, which the API serves, says "bot" beside the username.
    players = Client(headers=bearer(ApiToken.issue(ana, "app")[1])).get(
        f"/api/v1/tournaments/{tournament.pk}"
    )
    assert {p["username"]: (p["name"], p["bot"]) for p in players.json()["players"]} == {
        "wordbot": ("wordbot", True),
        "cleo": ("cleo", False),
    }
    assert "wordbot (bot)" not in json.dumps(json_document(collect(tournament)))


@pytest.mark.parametrize("who_turns_bot", ["invitee", "creator"])
def test_an_invitation_to_a_rated_game_cannot_be_accepted_once_either_is_a_bot(
    ana: Any, ben: Any, who_turns_bot: str
) -> None:
    game = start_game(creator=ana, mode=Game.Mode.FRIEND, language="en", opponent=ben, rated=True)
    ApiToken.issue(ben if who_turns_bot == "invitee" else ana, "engine", bot=True)
    ben.refresh_from_db()
    with pytest.raises(GameError, match="bot_rated_human"):
        game.accept(ben, version=game.version)
    game.refresh_from_db()
    assert game.status == Game.Status.INVITED


def test_a_rematch_of_a_rated_game_is_refused_once_one_of_them_is_a_bot(ana: Any, ben: Any) -> None:
    game = start_game(creator=ana, mode=Game.Mode.FRIEND, language="en", opponent=ben, rated=True)
    game.accept(ben, version=game.version)
    game.refresh_from_db()
    game.resign(ana, version=game.version)
    game.refresh_from_db()
    _token, raw = ApiToken.issue(ben, "engine", bot=True)
    client = Client()
    client.force_login(ana)
    with pytest.raises(GameError, match="bot_rated_human"):
        rematch(game=game, user=ana)
    answer = client.post(reverse("games:rematch", args=[game.pk]))
    assert answer.status_code == 403
    assert "Bots play rated games only against other bots" in answer.text
    through_api = Client(headers=bearer(raw)).post(f"/api/v1/games/{game.pk}/rematch")
    assert through_api.status_code == 403
    assert through_api.json()["error"] == "bot_rated_human"
    assert not Game.objects.filter(rematch_of=game).exists()


def test_a_game_between_a_bot_and_a_person_is_never_rated(ana: Any, ben: Any) -> None:
    """The account became a bot's during a rated game: the game ends unrated."""
    game = start_game(creator=ana, mode=Game.Mode.FRIEND, language="en", opponent=ben, rated=True)
    game.accept(ben, version=game.version)
    ApiToken.issue(ben, "engine", bot=True)
    game.refresh_from_db()
    game.pass_turn(game.seat_list()[game.turn_seat or 0].user, version=game.version)
    game.refresh_from_db()
    game.pass_turn(game.seat_list()[game.turn_seat or 0].user, version=game.version)
    game.refresh_from_db()
    game.resign(ana, version=game.version)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert not is_ratable(game)
    assert not Rating.objects.exists()


def test_a_bots_rated_seek_through_the_api_is_not_matched_with_a_persons(ana: Any) -> None:
    _bot, raw = make_bot("wordbot")
    api = Client(headers=bearer(raw))
    # Random pairing through the API: a bot's rated seek is never matched with ana's.
    mine = start_game(creator=ana, mode=Game.Mode.RANDOM, language="en", rated=True)
    seek = api.post(
        "/api/v1/games",
        {"opponent": "random", "language": "en", "rated": True},
        content_type="application/json",
    )
    assert seek.status_code == 201
    assert seek.json()["id"] != mine.pk
    assert seek.json()["status"] == "open"
