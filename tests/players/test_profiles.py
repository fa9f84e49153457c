"""Profiles: who the player is, and statistics per game language from their finished games."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from accounts import hooks
from accounts.hooks import BestPlay
from accounts.models import AVATAR_COLOURS
from games.profiles import player_statistics
from tests.players.helpers import make_finished_game

pytestmark = pytest.mark.django_db


def test_statistics_per_game_language(ana: Any, ben: Any) -> None:
    make_finished_game(
        ana,
        ben,
        scores=(320, 280),
        winner=0,
        moves=[
            (0, "play", "QUIZ", 64, False),
            (1, "play", "DOG", 8, False),
            (0, "play", "RETAINS", 80, True),
        ],
    )
    make_finished_game(ben, ana, scores=(300, 200), winner=0, moves=[(1, "play", "CAT", 12, False)])
    make_finished_game(ana, ben, scores=(250, 250), winner=None, moves=[(0, "play", "OX", 20, False)])
    make_finished_game(
        ana, ben, language="de", scores=(150, 180), winner=1, moves=[(0, "play", "ÄRGER", 30, True)]
    )
    live = make_finished_game(ana, ben, scores=(999, 0), moves=[(0, "play", "ZZZ", 500, True)])
    live.status = "active"  # a game still going counts nowhere
    live.save()

    en, de = player_statistics(ana)
    assert (en.language, en.games, en.wins, en.losses, en.draws) == ("en", 3, 1, 1, 1)
    assert en.average_score == pytest.approx((320 + 200 + 250) / 3)
    assert en.highest_score == 320
    assert en.best_play == BestPlay("RETAINS", 80)
    assert en.bingos == 1
    assert (de.language, de.games, de.wins, de.losses, de.draws) == ("de", 1, 0, 1, 0)
    assert de.best_play == BestPlay("ÄRGER", 30)
    assert [(s.language, s.wins, s.losses, s.draws) for s in player_statistics(ben)] == [
        ("en", 1, 1, 1),
        ("de", 1, 0, 0),
    ]


def test_statistics_without_games_are_empty(cleo: Any) -> None:
    assert player_statistics(cleo) == []


def test_profile_page(client: Client, ana: Any, ben: Any) -> None:
    ana.display_name = "Ana María"
    ana.game_language = "es"
    ana.interface_language = "pt-br"
    ana.save()
    make_finished_game(ana, ben, language="es", moves=[(0, "play", "ÑANDÚ", 42, False)])
    client.force_login(ben)
    response = client.get(reverse("players:profile", args=["ANA"]))  # names are case-insensitive
    assert response.status_code == 200
    html = response.content.decode()
    assert '<h1 id="profile-name">Ana María</h1>' in html
    assert "Member since" in html
    assert "Español" in html  # preferred game language
    assert "Português" in html  # interface language
    assert f"avatar-c{ana.avatar_index}" in html
    assert ">A</span>" in html  # the avatar's initial
    assert "ÑANDÚ (42)" in html
    assert "Add friend" in html
    assert "Block" in html
    assert "Report" in html


def test_own_profile_links_to_settings(client: Client, ana: Any) -> None:
    client.force_login(ana)
    html = client.get(reverse("players:profile", args=["ana"])).content.decode()
    assert reverse("preferences") in html
    assert "Add friend" not in html
    assert "No finished games yet." in html
    assert "No rated games yet." in html


def test_unknown_or_deleted_players_have_no_profile(client: Client, ana: Any, ben: Any) -> None:
    client.force_login(ana)
    assert client.get(reverse("players:profile", args=["nobody"])).status_code == 404
    ben.is_active = False
    ben.save()
    assert client.get(reverse("players:profile", args=["ben"])).status_code == 404


def test_profiles_need_a_signed_in_player(client: Client, ana: Any) -> None:
    response = client.get(reverse("players:profile", args=["ana"]))
    assert response.status_code == 302
    assert reverse("login") in response["Location"]


def test_avatar_colour_is_stable_and_from_the_palette(ana: Any, ben: Any) -> None:
    assert ana.avatar_colour in AVATAR_COLOURS
    assert ana.avatar_colour == type(ana).objects.get(pk=ana.pk).avatar_colour
    ana.display_name = "zed"
    assert ana.avatar_initial == "Z"


def test_statistics_come_through_the_hook(ana: Any, ben: Any) -> None:
    make_finished_game(ana, ben)
    assert [s.language for s in hooks.statistics_for(ana)] == ["en"]
