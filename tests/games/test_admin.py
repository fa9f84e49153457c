from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from dictionaries.hooks import word_usage_count
from games.models import ChatMessage, Game, Move
from tests.games.helpers import CAT_AT_CENTRE


@pytest.fixture
def admin_client(client: Client, db: None) -> Client:
    client.force_login(get_user_model().objects.create_superuser("root", "root@example.org", "x"))
    return client


@pytest.mark.django_db
def test_admin_pages_show_games_moves_and_chat(admin_client: Client, ana: Any, game_ana_ben: Game) -> None:
    game_ana_ben.play(ana, CAT_AT_CENTRE, version=game_ana_ben.version)
    game_ana_ben.post_chat(ana, "hello")
    move = Move.objects.get()
    message = ChatMessage.objects.get()
    for url in (
        reverse("admin:games_game_changelist"),
        reverse("admin:games_game_change", args=[game_ana_ben.pk]),
        reverse("admin:games_move_changelist"),
        reverse("admin:games_move_change", args=[move.pk]),
        reverse("admin:games_chatmessage_changelist") + "?q=hello",
        reverse("admin:games_chatmessage_change", args=[message.pk]),
    ):
        assert admin_client.get(url).status_code == 200, url


@pytest.mark.django_db
def test_admin_cannot_edit_engine_state(admin_client: Client, game_ana_ben: Game) -> None:
    page = admin_client.get(reverse("admin:games_game_change", args=[game_ana_ben.pk]))
    assert 'name="state"' not in page.text
    assert 'name="version"' not in page.text


@pytest.mark.django_db
def test_word_usage_counter_counts_finished_games(ana: Any, ben: Any, game_ana_ben: Game) -> None:
    game_ana_ben.play(ana, CAT_AT_CENTRE, version=game_ana_ben.version)
    assert word_usage_count("en", "CAT") == 0  # not finished yet
    game_ana_ben.resign(ben, version=game_ana_ben.version)
    assert word_usage_count("en", "CAT") == 1
    assert word_usage_count("en", "CA") == 0
    assert word_usage_count("fr", "CAT") == 0


@pytest.mark.django_db
def test_admin_hides_racks_and_bag_while_the_game_is_on(
    admin_client: Client, ana: Any, ben: Any, game_ana_ben: Game
) -> None:
    from tests.games.helpers import set_racks

    set_racks(game_ana_ben, ("JQXZKVW", "CATSEOD"))
    game_ana_ben.refresh_from_db()
    game_ana_ben.pass_turn(ana, version=game_ana_ben.version)
    move = Move.objects.get()
    game_page = admin_client.get(reverse("admin:games_game_change", args=[game_ana_ben.pk])).text
    move_page = admin_client.get(reverse("admin:games_move_change", args=[move.pk])).text
    for page in (game_page, move_page):
        assert "JQXZKVW" not in page
        assert "CATSEOD" not in page
        assert "hidden while the game is on" in page
    game_ana_ben.resign(ben, version=game_ana_ben.version)
    assert "JQXZKVW" in admin_client.get(reverse("admin:games_move_change", args=[move.pk])).text
