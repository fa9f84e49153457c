"""Ratings: Glicko-2 per game language, one history row per player per rated game."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import Rating, RatingChange
from accounts.services import apply_rated_result, leaderboard
from tests.factories import make_user

pytestmark = pytest.mark.django_db


def test_a_rated_win_moves_both_ratings_and_writes_history(ana: Any, ben: Any) -> None:
    mine, theirs = apply_rated_result(language="en", player=ana, opponent=ben, score=1, reference="game:1")
    a = Rating.objects.get(user=ana, language="en")
    b = Rating.objects.get(user=ben, language="en")
    assert a.rating > 1500 > b.rating
    assert a.rating - 1500 == pytest.approx(1500 - b.rating)
    assert a.deviation < 350
    assert (a.games, b.games) == (1, 1)
    assert (mine.rating_before, mine.rating_after, mine.score) == (1500, a.rating, 1)
    assert (theirs.user, theirs.opponent, theirs.score) == (ben, ana, 0)
    assert not Rating.objects.filter(language="de").exists()


def test_the_same_reference_is_applied_once(ana: Any, ben: Any) -> None:
    first = apply_rated_result(language="en", player=ana, opponent=ben, score=1, reference="game:7")
    again = apply_rated_result(language="en", player=ana, opponent=ben, score=1, reference="game:7")
    assert [c.pk for c in again] == [c.pk for c in first]
    assert RatingChange.objects.count() == 2
    assert Rating.objects.get(user=ana, language="en").games == 1


def test_a_draw_between_equals_changes_no_rating_but_narrows_deviation(ana: Any, ben: Any) -> None:
    apply_rated_result(language="fr", player=ana, opponent=ben, score=0.5, reference="game:2")
    for user in (ana, ben):
        row = Rating.objects.get(user=user, language="fr")
        assert row.rating == pytest.approx(1500)
        assert row.deviation < 350


def test_ratings_are_per_game_language(ana: Any, ben: Any) -> None:
    apply_rated_result(language="en", player=ana, opponent=ben, score=1, reference="game:1")
    apply_rated_result(language="de", player=ana, opponent=ben, score=0, reference="game:2")
    assert Rating.objects.get(user=ana, language="en").rating > 1500
    assert Rating.objects.get(user=ana, language="de").rating < 1500


def test_time_away_widens_the_deviation_before_the_next_game(ana: Any, ben: Any, cleo: Any) -> None:
    now = timezone.now()
    dan = make_user("dan")
    for user in (ana, ben, cleo, dan):
        Rating.objects.create(user=user, language="en", rating=1600, deviation=60, last_played_at=now)
    apply_rated_result(language="en", player=ana, opponent=ben, score=0, reference="x", at=now)
    apply_rated_result(
        language="en", player=cleo, opponent=dan, score=0, reference="y", at=now + timedelta(days=300)
    )
    a = RatingChange.objects.get(reference="x", user=ana)
    c = RatingChange.objects.get(reference="y", user=cleo)
    # The same loss from the same rating: the player back after 300 days is less certain
    # of their rating, so it moves more.
    assert c.rating_before == a.rating_before == 1600
    assert 1600 - c.rating_after > 1600 - a.rating_after > 0


@pytest.mark.parametrize("score", [2, -1, 0.3])
def test_bad_scores_are_refused(ana: Any, ben: Any, score: float) -> None:
    with pytest.raises(ValueError, match="score"):
        apply_rated_result(language="en", player=ana, opponent=ben, score=score, reference="game:1")
    assert not RatingChange.objects.exists()


def test_leaderboard_lists_players_active_in_the_last_30_days(ana: Any, ben: Any, cleo: Any) -> None:
    now = timezone.now()
    apply_rated_result(
        language="en", player=ana, opponent=ben, score=1, reference="1", at=now - timedelta(days=40)
    )
    apply_rated_result(
        language="en", player=cleo, opponent=ben, score=1, reference="2", at=now - timedelta(days=2)
    )
    names = [row.user.username for row in leaderboard("en", now=now)]
    assert names == ["cleo", "ben"]  # ana's only game was 40 days ago
    assert list(leaderboard("de", now=now)) == []


def test_leaderboard_page(client: Client, ana: Any, ben: Any, cleo: Any) -> None:
    apply_rated_result(language="es", player=ana, opponent=ben, score=1, reference="1")
    dan = make_user("dan")
    dan.is_active = False  # a deleted account is not listed
    dan.save()
    apply_rated_result(language="es", player=dan, opponent=ben, score=1, reference="2")
    client.force_login(cleo)
    page = client.get(reverse("leaderboard"), {"language": "es"})
    assert page.status_code == 200
    text = page.content.decode()
    assert text.index(">ana<") < text.index(">ben<")
    assert "dan" not in text
    refused = client.get(reverse("leaderboard"), {"language": "xx"})
    assert refused.status_code == 400
    assert "Unknown game language." in refused.content.decode()


def test_profile_shows_rating_and_history_chart(client: Client, ana: Any, ben: Any) -> None:
    now = timezone.now()
    for n, score in enumerate((1, 1, 0)):
        apply_rated_result(
            language="en",
            player=ana,
            opponent=ben,
            score=score,
            reference=f"g{n}",
            at=now + timedelta(minutes=n),
        )
    client.force_login(ben)
    html = client.get(reverse("players:profile", args=["ana"])).content.decode()
    rating = Rating.objects.get(user=ana, language="en")
    assert f"<strong>{round(rating.rating)}</strong>" in html
    assert '<svg class="rating-chart"' in html
    assert "<polyline" in html
    assert "from 1500 to " in html
    assert "rated games: 3" in html
