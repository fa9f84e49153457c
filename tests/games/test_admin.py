from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
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


@pytest.mark.django_db
@pytest.mark.parametrize("finished", [False, True])
def test_admin_refuses_lookups_into_racks_bag_and_state(
    admin_client: Client, ana: Any, ben: Any, game_ana_ben: Game, finished: bool
) -> None:
    """Filter look-ups through the state, the seed or a move's racks would tell staff an
    opponent's rack one letter at a time (by the row count); they are refused always."""
    from tests.games.helpers import set_racks

    set_racks(game_ana_ben, ("UGJQXZK", "CATSEOD"))
    game_ana_ben.refresh_from_db()
    game_ana_ben.pass_turn(ana, version=game_ana_ben.version)
    if finished:
        game_ana_ben.resign(ben, version=game_ana_ben.version)
    game_ana_ben.refresh_from_db()
    bag_start = game_ana_ben.state["bag"][0]
    games = reverse("admin:games_game_changelist")
    moves = reverse("admin:games_move_changelist")
    chat = reverse("admin:games_chatmessage_changelist")
    for url in (
        f"{games}?state__racks__1__startswith=CA",
        f"{games}?state__racks__0__startswith=UG",
        f"{games}?state__bag__startswith={bag_start}",
        f"{games}?state__bag__0={bag_start}",
        f"{games}?seed={game_ana_ben.seed}",
        f"{games}?seed__gte=0",
        f"{moves}?rack_after__startswith=UG",
        f"{moves}?rack_before__contains=Q",
        f"{moves}?exchanged__isnull=False",
        f"{moves}?engine_record__rack__startswith=U",
        f"{moves}?game__state__racks__1__startswith=CA",
        f"{chat}?game__state__bag__startswith={bag_start}",
    ):
        response = admin_client.get(url)
        assert response.status_code == 400, url
        assert "CATSEOD" not in response.text
    # Ordinary filters still work.
    assert admin_client.get(f"{games}?status__exact=active").status_code == 200
    assert admin_client.get(f"{moves}?kind__exact=pass").status_code == 200


@pytest.mark.django_db
def test_admin_hides_the_seed_while_the_game_is_on(
    admin_client: Client, ben: Any, game_ana_ben: Game
) -> None:
    url = reverse("admin:games_game_change", args=[game_ana_ben.pk])
    assert str(game_ana_ben.seed) not in admin_client.get(url).text
    game_ana_ben.resign(ben, version=game_ana_ben.version)
    assert str(game_ana_ben.seed) in admin_client.get(url).text


@pytest.mark.django_db
def test_moderation_pages_show_no_rack_while_the_game_is_on(
    client: Client, ana: Any, ben: Any, mia: Any, game_ana_ben: Game
) -> None:
    """The report page (the game's chat and moves), the moderation log, the chat lines'
    hiding page and the word queue: with their filters and searches, a moderator reads
    no rack or bag of a game under way; the report page shows the racks once it is over."""
    from accounts.moderation import warn
    from accounts.services import report_user
    from dictionaries.services import ensure_dictionaries
    from tests.games.helpers import set_racks

    ensure_dictionaries()
    set_racks(game_ana_ben, ("UGJQXZK", "CATSEOD"))
    game_ana_ben.refresh_from_db()
    game_ana_ben.pass_turn(ana, version=game_ana_ben.version)
    line = game_ana_ben.post_chat(ben, "my rack is awful")
    report = report_user(reporter=ana, reported=ben, reason="abuse", game_id=game_ana_ben.pk)
    mia.groups.add(Group.objects.get(name="Moderators"))
    warn(moderator=mia, player=ben, reason="be nice")
    client.force_login(mia)
    game_ana_ben.refresh_from_db()
    bag = "".join(game_ana_ben.state["bag"])
    report_page = reverse("admin:accounts_report_change", args=[report.pk])
    log = reverse("admin:accounts_moderationaction_changelist")
    chat = reverse("admin:games_chatmessage_changelist")
    pages = [
        report_page,
        f"{log}?kind__exact=warn&q=ben",
        f"{chat}?hidden=no&q=rack",
        reverse("admin:games_chatmessage_hide", args=[line.pk]),
        reverse("admin:accounts_user_change", args=[ben.pk]),
        reverse("admin:dictionaries_wordchange_changelist") + "?status__exact=proposed",
    ]
    for url in pages:
        response = client.get(url)
        assert response.status_code == 200, url
        for secret in ("UGJQXZK", "CATSEOD", bag[:20]):
            assert secret not in response.text, (url, secret)
    shown = client.get(report_page).text
    assert "my rack is awful" in shown
    assert "hidden while the game is on" in shown
    # Look-ups through the game's secrets stay refused from the new pages too.
    assert client.get(f"{chat}?game__state__racks__1__startswith=CA").status_code == 400
    game_ana_ben.resign(ben, version=game_ana_ben.version)
    assert "UGJQXZK → UGJQXZK" in client.get(report_page).text
