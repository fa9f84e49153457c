"""Solo challenges: a game with one seat played through ``Game.act``, five turns from a
seeded deal, stars measured against the engine's greedy total for that deal, the daily
seed shared by everyone with the day's table, a practice seed any time."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from engine import analysis
from games.actions import Pass
from games.models import Game, lexicon_for, rng_for
from puzzles import solo
from puzzles.models import SoloChallenge

pytestmark = pytest.mark.django_db


def play_greedily(game: Game, user: Any, *, turns: int | None = None) -> None:
    """Play the engine's best play each turn, as ``user``, through ``Game.act``."""
    lexicon = lexicon_for(game.language)
    played = 0
    while game.status == Game.Status.ACTIVE and (turns is None or played < turns):
        state = game.state_obj()
        choice = analysis.computer_move(
            state, 0, lexicon, "hard", rng_for(game.seed, "computer", state.moves_played)
        )
        if choice.kind == "play":
            game.play(user, list(choice.placements), version=game.version)
        elif choice.kind == "exchange":
            game.exchange(user, "".join(choice.tiles), version=game.version)
        else:
            game.pass_turn(user, version=game.version)
        game.refresh_from_db()
        played += 1


def test_stars_follow_the_engines_total_for_the_seed(ana: Any, ben: Any) -> None:
    daily = solo.start(user=ana, language="en", kind="daily")
    game = daily.game
    assert (game.seat_list()[0].user, len(game.seat_list()), game.state_obj().players) == (ana, 1, 1)
    assert daily.greedy_total == solo.greedy_total(daily.seed, "en") > 0
    # ben gets the same deal: the daily seed is everyone's.
    other = solo.start(user=ben, language="en", kind="daily")
    assert other.seed == daily.seed
    assert other.game.state_obj().racks == game.state_obj().racks
    assert solo.start(user=ana, language="en", kind="daily").pk == daily.pk
    play_greedily(game, ana)
    daily.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert game.end_reason == Game.EndReason.TURNS
    assert game.moves.count() == solo.TURNS
    # Playing as the engine does scores exactly its total: three stars.
    assert (daily.score, daily.stars) == (daily.greedy_total, 3)
    # ben passes every turn: nothing scored, no star.
    for _ in range(solo.TURNS):
        other.game.act(ben, Pass(), version=other.game.version)
        other.game.refresh_from_db()
    other.refresh_from_db()
    assert (other.score, other.stars, other.game.end_reason) == (0, 0, Game.EndReason.TURNS)
    assert daily.day is not None
    assert [c.pk for c in solo.day_table("en", daily.day)] == [daily.pk, other.pk]


def test_the_game_page_of_a_challenge_shows_its_target_stars_and_final_score(ana: Any) -> None:
    from django.test import Client

    challenge = solo.start(user=ana, language="en", kind="practice")
    client = Client()
    client.force_login(ana)
    page = client.get(f"/games/{challenge.game.pk}/").content.decode()
    assert f"target {challenge.greedy_total}" in page
    play_greedily(challenge.game, ana)
    page = client.get(f"/games/{challenge.game.pk}/").content.decode()
    assert "★★★" in page
    assert f"Final score {challenge.greedy_total}" in page
    assert " won " not in page


def test_star_thresholds() -> None:
    assert [solo.stars_for(s, 100) for s in (0, 59, 60, 79, 80, 99, 100, 140)] == [0, 0, 1, 1, 2, 2, 3, 3]


def test_practice_any_time_with_a_fresh_seed(ana: Any) -> None:
    first = solo.start(user=ana, language="de", kind="practice")
    assert solo.start(user=ana, language="de", kind="practice").pk == first.pk  # the one under way
    play_greedily(first.game, ana)
    second = solo.start(user=ana, language="de", kind="practice")
    assert second.pk != first.pk
    assert second.seed != first.seed
    assert second.day is None


def test_solo_pages_and_bad_input(ana: Any) -> None:
    client = Client()
    client.force_login(ana)
    page = client.get(reverse("puzzles:solo", args=["en"]))
    assert page.status_code == 200
    started = client.post(reverse("puzzles:solo-start", args=["en"]), {"kind": "daily"})
    challenge = SoloChallenge.objects.get(user=ana)
    assert started["Location"] == reverse("games:detail", args=[challenge.game_id])
    game_page = client.get(started["Location"])
    assert game_page.status_code == 200
    bad = client.post(reverse("puzzles:solo-start", args=["en"]), {"kind": "weekly"})
    assert bad.status_code == 400
    assert "Choose the daily challenge or practice." in bad.content.decode()
    assert client.post(reverse("puzzles:solo-start", args=["xx"]), {"kind": "daily"}).status_code == 404
    assert SoloChallenge.objects.count() == 1
    # The lobby marks the challenge's game, with its target.
    lobby = client.get(reverse("games:lobby")).content.decode()
    assert f"Solo challenge: target {challenge.greedy_total}" in lobby
    assert ">Solo<span" in lobby
    assert ">Tournament<span" not in lobby
