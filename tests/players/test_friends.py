"""Friends: ask by username, the other accepts; a friends list with "play"; search."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import Friendship, User
from accounts.services import AccountError, block_user, friends_of, request_friend
from tests.factories import make_user

pytestmark = pytest.mark.django_db


def test_a_request_becomes_a_friendship_when_accepted(client: Client, ana: Any, ben: Any) -> None:
    client.force_login(ana)
    response = client.post(reverse("friends"), {"username": "BEN"}, follow=True)
    assert "Friend request sent to ben." in response.content.decode()
    assert list(friends_of(ana)) == []
    page = client.get(reverse("friends")).content.decode()
    assert "Waiting for an answer" in page

    client.force_login(ben)
    page = client.get(reverse("friends")).content.decode()
    assert "Friend requests for you" in page
    assert ">ana<" in page
    response = client.post(reverse("friend-action", args=["ana"]), {"action": "accept"}, follow=True)
    assert "You and ana are friends now." in response.content.decode()
    assert list(friends_of(ana)) == [ben]
    assert list(friends_of(ben)) == [ana]


def test_asking_someone_who_asked_you_makes_you_friends(ana: Any, ben: Any) -> None:
    request_friend(user=ana, other=ben)
    friendship = request_friend(user=ben, other=ana)
    assert friendship.status == Friendship.Status.ACCEPTED
    assert Friendship.objects.count() == 1


def test_asking_twice_keeps_one_request(ana: Any, ben: Any) -> None:
    assert request_friend(user=ana, other=ben).pk == request_friend(user=ana, other=ben).pk
    assert Friendship.objects.count() == 1


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("ana", "That is you."),
        ("nobody", "There is no player with that name."),
        ("", "This field is required."),
    ],
)
def test_bad_requests_are_refused_and_change_nothing(
    client: Client, ana: Any, name: str, message: str
) -> None:
    client.force_login(ana)
    response = client.post(reverse("friends"), {"username": name})
    assert response.status_code == 200
    assert message in response.content.decode()
    assert not Friendship.objects.exists()


def test_no_friend_requests_with_a_blocked_player(ana: Any, ben: Any) -> None:
    block_user(blocker=ben, blocked=ana)
    with pytest.raises(AccountError) as refused:
        request_friend(user=ana, other=ben)
    assert refused.value.code == "blocked"
    assert not Friendship.objects.exists()


def test_already_friends_is_said(ana: Any, ben: Any) -> None:
    request_friend(user=ana, other=ben)
    request_friend(user=ben, other=ana)
    with pytest.raises(AccountError, match="already_friends"):
        request_friend(user=ana, other=ben)


def test_decline_withdraw_and_remove(client: Client, ana: Any, ben: Any, cleo: Any) -> None:
    request_friend(user=ana, other=ben)
    request_friend(user=ana, other=cleo)
    client.force_login(ben)
    client.post(reverse("friend-action", args=["ana"]), {"action": "end"})  # ben declines
    client.force_login(ana)
    client.post(reverse("friend-action", args=["cleo"]), {"action": "end"})  # ana withdraws
    assert not Friendship.objects.exists()
    request_friend(user=ana, other=ben)
    request_friend(user=ben, other=ana)
    client.post(reverse("friend-action", args=["ben"]), {"action": "end"})
    assert list(friends_of(ana)) == []
    response = client.post(reverse("friend-action", args=["ben"]), {"action": "nonsense"})
    assert response.status_code == 400


def test_friends_list_play_button_opens_the_new_game_form_with_the_friend(
    client: Client, ana: Any, ben: Any
) -> None:
    request_friend(user=ana, other=ben)
    request_friend(user=ben, other=ana)
    client.force_login(ana)
    page = client.get(reverse("friends")).content.decode()
    play_url = reverse("games:new-with", args=["ben"])
    assert f'href="{play_url}"' in page
    form = client.get(play_url).content.decode()
    assert 'name="opponent"' in form
    assert 'value="ben"' in form
    assert 'value="friend" checked' in form
    assert client.get(reverse("games:new-with", args=["nobody"])).status_code == 404


def test_search_players_by_name(client: Client, ana: Any, ben: Any) -> None:
    make_user("anabel")
    gone = make_user("anatole")
    gone.is_active = False
    gone.save()
    ben.display_name = "Benjamin Ana"
    ben.save()
    client.force_login(ana)
    html = client.get(reverse("players:search"), {"q": "ANA"}).content.decode()
    assert ">anabel<" in html
    assert "Benjamin Ana" in html  # found by display name
    assert "anatole" not in html  # deleted
    assert (
        f'class="player-link" href="{reverse("players:profile", args=["ana"])}"' not in html
    )  # not yourself
    assert "Nobody by that name." in client.get(reverse("players:search"), {"q": "zzz"}).content.decode()
    short = client.get(reverse("players:search"), {"q": "a"}).content.decode()
    assert "Ensure this value has at least 2 characters" in short
    empty = client.get(reverse("players:search")).content.decode()
    assert "Nobody by that name." not in empty


@pytest.mark.parametrize("name", ["computer", "Computer", "RANDOM", "random"])
def test_reserved_usernames_are_refused_at_sign_up(client: Client, name: str) -> None:
    response = client.post(
        reverse("signup"),
        {
            "username": name,
            "email": "x@example.org",
            "password1": "a-long-passphrase-1",
            "password2": "a-long-passphrase-1",
        },
    )
    assert response.status_code == 200
    assert "That username is reserved." in response.content.decode()
    assert not User.objects.filter(username__iexact=name).exists()
