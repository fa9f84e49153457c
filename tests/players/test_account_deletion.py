"""Deleting an account anonymises it and keeps finished games; "download my data"."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import Block, Friendship, RatingChange, User, VacationPeriod
from accounts.services import (
    AccountError,
    apply_rated_result,
    block_user,
    delete_account,
    report_user,
    request_friend,
    start_vacation,
)
from games.models import ChatMessage, Game, Seat
from tests.factories import PASSWORD
from tests.games.helpers import make_game
from tests.players.helpers import make_finished_game

pytestmark = pytest.mark.django_db


def test_deleting_anonymises_and_keeps_finished_games(client: Client, ana: Any, ben: Any, cleo: Any) -> None:
    ana.display_name = "Ana M."
    ana.game_language = "de"
    ana.save()
    game = make_finished_game(ana, ben)
    ChatMessage.objects.create(game=game, author=ana, text="my words")
    ChatMessage.objects.create(game=game, author=ben, text="his words")
    request_friend(user=ana, other=cleo)
    block_user(blocker=ana, blocked=ben)
    start_vacation(user=ana)
    apply_rated_result(language="en", player=ana, opponent=ben, score=1, reference=f"game:{game.pk}")
    client.force_login(ana)
    response = client.post(reverse("delete-account"), {"password": PASSWORD}, follow=True)
    assert "Your account is deleted." in response.content.decode()
    assert "_auth_user_id" not in client.session

    gone = User.objects.get(pk=ana.pk)
    assert gone.username == f"deleted player {ana.pk}"
    assert (gone.email, gone.display_name, gone.first_name, gone.game_language) == ("", "", "", "")
    assert not gone.is_active
    assert not gone.has_usable_password()
    assert gone.deleted_at is not None
    assert not client.login(username="ana", password=PASSWORD)
    # The finished game and its seat stay, played by "deleted player N"; ratings history too.
    assert Seat.objects.get(game=game, index=0).display_name == f"deleted player {ana.pk}"
    assert Game.objects.filter(pk=game.pk).exists()
    assert RatingChange.objects.filter(user=ana).exists()
    assert [m.text for m in ChatMessage.objects.all()] == ["his words"]
    assert not Friendship.objects.exists()
    assert not Block.objects.exists()
    assert not VacationPeriod.objects.exists()


def test_deletion_is_refused_while_games_are_going(client: Client, ana: Any, ben: Any) -> None:
    make_game(ana, ben)
    with pytest.raises(AccountError, match="unfinished_games"):
        delete_account(user=ana)
    client.force_login(ana)
    response = client.post(reverse("delete-account"), {"password": PASSWORD})
    assert "Finish or resign your games first" in response.content.decode()
    assert User.objects.get(pk=ana.pk).username == "ana"


def test_deletion_needs_the_password(client: Client, ana: Any) -> None:
    client.force_login(ana)
    response = client.post(reverse("delete-account"), {"password": "wrong"})
    assert "That is not your password." in response.content.decode()
    assert User.objects.get(pk=ana.pk).is_active


def test_download_my_data(client: Client, ana: Any, ben: Any) -> None:
    game = make_finished_game(
        ana, ben, language="fr", moves=[(0, "play", "CHAT", 9, False), (1, "play", "RAT", 5, False)]
    )
    ChatMessage.objects.create(game=game, author=ana, text="bonjour")
    ChatMessage.objects.create(game=game, author=ben, text="salut")
    request_friend(user=ana, other=ben)
    report_user(reporter=ben, reported=ana, reason="abuse", details="ben's words about ana")
    client.force_login(ana)
    response = client.get(reverse("download-data"))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/json")
    assert response["Content-Disposition"].startswith('attachment; filename="wordgame-data-')
    data = json.loads(response.content)
    assert data["account"]["username"] == "ana"
    assert data["account"]["email"] == "ana@example.org"
    assert data["friends"] == [
        {"player": "ben", "status": "pending", "asked_by_me": True, "since": data["friends"][0]["since"]}
    ]
    assert [g["id"] for g in data["games"]["games"]] == [game.pk]
    assert data["games"]["games"][0]["result"] == "win"
    assert [m["words"] for m in data["games"]["moves"]] == [["CHAT"]]  # her moves only
    assert [c["text"] for c in data["games"]["chat"]] == ["bonjour"]
    # Reports about her are the reporter's, not hers.
    assert data["reports_made"] == []
    assert "ben's words" not in response.content.decode()


def test_no_rematch_is_offered_or_made_against_a_deleted_player(client: Client, ana: Any, ben: Any) -> None:
    game = make_game(ana, ben)
    game.resign(ben, version=game.version)
    delete_account(user=ben)
    client.force_login(ana)
    page = client.get(reverse("games:detail", args=[game.pk]))
    assert page.status_code == 200
    assert not page.context["can_rematch"]
    assert reverse("games:rematch", args=[game.pk]) not in page.text
    response = client.post(reverse("games:rematch", args=[game.pk]))
    assert response.status_code == 403
    assert "deleted their account" in response.text
    assert Game.objects.count() == 1


def test_deletion_page_lists_the_games_in_the_way_before_the_password(
    client: Client, ana: Any, ben: Any
) -> None:
    from games.services import start_game

    going = make_game(ana, ben)
    invited = start_game(creator=ana, mode=Game.Mode.FRIEND, language="en", opponent=ben)
    client.force_login(ana)
    page = client.get(reverse("delete-account")).text
    assert 'id="unfinished-games"' in page
    assert f"Game {going.pk} against ben: In progress" in page
    assert f"Game {invited.pk} against ben: Invitation pending" in page
    assert reverse("games:detail", args=[going.pk]) in page
    assert "Resign all and delete" in page


def test_resign_all_and_delete_ends_every_game_and_deletes(client: Client, ana: Any, ben: Any) -> None:
    from games.services import start_game

    going = make_game(ana, ben)
    invited = start_game(creator=ben, mode=Game.Mode.FRIEND, language="en", opponent=ana)
    client.force_login(ana)
    response = client.post(reverse("delete-account"), {"password": "wrong", "resign_all": "1"})
    assert "That is not your password." in response.text
    assert Game.objects.get(pk=going.pk).status == Game.Status.ACTIVE
    response = client.post(reverse("delete-account"), {"password": PASSWORD, "resign_all": "1"}, follow=True)
    assert "Your account is deleted." in response.text
    going.refresh_from_db()
    assert going.status == Game.Status.FINISHED
    assert going.end_reason == "resign"
    assert going.winner_seat == 1
    assert Game.objects.get(pk=invited.pk).status == Game.Status.DECLINED
    assert not User.objects.get(pk=ana.pk).is_active
