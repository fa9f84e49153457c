"""The creator chooses rated or casual; games against the computer are always casual."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Game
from games.services import start_game

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(("kind", "rated"), [("rated", True), ("casual", False), ("", False)])
def test_friend_games_are_rated_when_the_creator_says_so(
    client: Client, ana: Any, ben: Any, kind: str, rated: bool
) -> None:
    client.force_login(ana)
    response = client.post(
        reverse("games:new"), {"mode": "friend", "language": "en", "opponent": "ben", "kind": kind}
    )
    assert response.status_code == 302
    assert Game.objects.get().rated is rated


def test_computer_games_are_always_casual(client: Client, ana: Any, settings: Any) -> None:
    client.force_login(ana)
    client.post(
        reverse("games:new"), {"mode": "computer", "level": "easy", "language": "en", "kind": "rated"}
    )
    assert Game.objects.get().rated is False


def test_a_bad_kind_is_refused(client: Client, ana: Any, ben: Any) -> None:
    client.force_login(ana)
    response = client.post(
        reverse("games:new"), {"mode": "friend", "language": "en", "opponent": "ben", "kind": "ranked"}
    )
    assert response.status_code == 200
    assert "Select a valid choice." in response.content.decode()
    assert not Game.objects.exists()


def test_rated_seekers_are_matched_only_with_rated_seekers(ana: Any, ben: Any, cleo: Any) -> None:
    casual = start_game(creator=ana, mode=Game.Mode.RANDOM, language="en")
    rated = start_game(creator=ben, mode=Game.Mode.RANDOM, language="en", rated=True)
    assert rated.pk != casual.pk
    assert rated.status == Game.Status.OPEN
    assert rated.rated
    joined = start_game(creator=cleo, mode=Game.Mode.RANDOM, language="en", rated=True)
    assert joined.pk == rated.pk
    assert joined.status == Game.Status.ACTIVE


def test_the_form_offers_the_choice(client: Client, ana: Any) -> None:
    client.force_login(ana)
    html = client.get(reverse("games:new")).content.decode()
    assert 'name="kind" value="rated"' in html
    assert 'name="kind" value="casual" checked' in html
    assert "Games against the computer are always casual." in html
