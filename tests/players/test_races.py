"""Concurrent player actions on PostgreSQL (row locks): each happens once."""

from __future__ import annotations

from typing import Any

import pytest

from accounts.models import Friendship, Rating, RatingChange
from accounts.services import apply_rated_result, request_friend
from tests.games.test_races import run_together

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def test_the_same_game_rated_twice_at_once_counts_once(postgres: None, ana: Any, ben: Any) -> None:
    def rate() -> str:
        mine, _theirs = apply_rated_result(
            language="en", player=ana, opponent=ben, score=1, reference="game:9"
        )
        return str(mine.pk)

    answers = run_together(rate, rate, rate)
    assert len(set(answers)) == 1
    assert RatingChange.objects.count() == 2
    assert list(Rating.objects.order_by("user_id").values_list("games", flat=True)) == [1, 1]


def test_two_games_rated_at_once_both_count_from_fresh_values(postgres: None, ana: Any, ben: Any) -> None:
    def rate(reference: str) -> Any:
        return lambda: str(
            apply_rated_result(language="en", player=ana, opponent=ben, score=1, reference=reference)
        )

    run_together(rate("game:1"), rate("game:2"))
    changes = list(RatingChange.objects.filter(user=ana).order_by("rating_before"))
    assert len(changes) == 2
    # Serialised by the row locks: the second started from the first's result.
    assert changes[1].rating_before == pytest.approx(changes[0].rating_after)
    assert Rating.objects.get(user=ana).games == 2


def test_two_players_asking_each_other_at_once_become_friends_once(
    postgres: None, ana: Any, ben: Any
) -> None:
    answers = run_together(
        lambda: request_friend(user=ana, other=ben).status,
        lambda: request_friend(user=ben, other=ana).status,
    )
    assert sorted(answers) == ["accepted", "pending"]
    friendship = Friendship.objects.get()
    assert friendship.status == Friendship.Status.ACCEPTED
