"""Who may do what: only a seated player acts, only on a live game, and every refusal is
a clear answer (403/404/405 or a sentence) that changes nothing."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from games.models import Game, Move
from games.services import start_game
from tests.games.helpers import CAT_AT_CENTRE, at_version, tiles

HX = {"HX-Request": "true"}
CAT = tiles((7, 7, "C"), (7, 8, "A"), (7, 9, "T"))
# Every POST a game page can make, with data that would be valid for a player.
ACTIONS: dict[str, dict[str, Any]] = {
    "preview": {"tiles": CAT},
    "play": {"tiles": CAT},
    "exchange": {"exchange": "CAT"},
    "pass": {},
    "resign": {"confirm": "yes"},
    "accept": {},
    "decline": {},
    "rematch": {},
    "chat": {"text": "hello"},
}
POST_ONLY = ("preview", "play", "exchange", "pass", "accept", "decline", "rematch", "chat")


def snapshot(game: Game) -> tuple[Any, ...]:
    """What must not change after a refused request."""
    fresh = Game.objects.get(pk=game.pk)
    return (
        fresh.status,
        fresh.version,
        fresh.state,
        Move.objects.filter(game=game).count(),
        fresh.chat_messages.count(),
        Game.objects.count(),
    )


def url(name: str, game: Game) -> str:
    return reverse(f"games:{name}", args=[game.pk])


def signed_in(user: Any, **kwargs: Any) -> Client:
    client = Client(**kwargs)
    client.force_login(user)
    return client


@pytest.mark.django_db
def test_spectator_posting_to_every_action_url_is_refused_and_changes_nothing(
    cleo: Any, game_ana_ben: Game
) -> None:
    client = signed_in(cleo)
    before = snapshot(game_ana_ben)
    for name, data in ACTIONS.items():
        for headers in (HX, {}):
            response = client.post(
                url(name, game_ana_ben), {**data, "version": game_ana_ben.version}, headers=headers
            )
            assert response.status_code == 403, (name, headers)
            assert response.text in (
                "Only the players of this game can do that.",
                "This invitation is not for you, or it is no longer open.",
            ), name
    assert snapshot(game_ana_ben) == before


@pytest.mark.django_db
def test_outsider_gets_404_on_every_url_of_a_private_game(cleo: Any, game_ana_ben: Game) -> None:
    Game.objects.filter(pk=game_ana_ben.pk).update(is_public=False)
    client = signed_in(cleo)
    before = snapshot(game_ana_ben)
    for name, data in ACTIONS.items():
        assert client.post(url(name, game_ana_ben), data, headers=HX).status_code == 404, name
    for name in ("detail", "fragments", "replay", "gcg", "resign"):
        assert client.get(url(name, game_ana_ben)).status_code == 404, name
    assert snapshot(game_ana_ben) == before


@pytest.mark.django_db
def test_anonymous_posts_are_sent_to_log_in_and_change_nothing(game_ana_ben: Game) -> None:
    client = Client()
    before = snapshot(game_ana_ben)
    for name, data in ACTIONS.items():
        response = client.post(url(name, game_ana_ben), data)
        assert response.status_code == 302, name
        assert response["Location"].startswith(reverse("login")), name
    assert snapshot(game_ana_ben) == before


@pytest.mark.django_db
def test_get_on_post_only_urls_is_405(ana: Any, game_ana_ben: Game) -> None:
    client = signed_in(ana)
    before = snapshot(game_ana_ben)
    for name in POST_ONLY:
        assert client.get(url(name, game_ana_ben)).status_code == 405, name
    # resign answers GET with its confirmation page, and changes nothing.
    assert client.get(url("resign", game_ana_ben)).status_code == 200
    assert snapshot(game_ana_ben) == before


@pytest.mark.django_db
def test_post_without_csrf_token_is_refused(ana: Any, game_ana_ben: Game) -> None:
    client = signed_in(ana, enforce_csrf_checks=True)
    before = snapshot(game_ana_ben)
    for name, data in ACTIONS.items():
        response = client.post(url(name, game_ana_ben), {**data, "version": game_ana_ben.version}, headers=HX)
        assert response.status_code == 403, name
    new = client.post(reverse("games:new"), {"mode": "computer", "language": "en", "level": "easy"})
    assert new.status_code == 403
    assert snapshot(game_ana_ben) == before


@pytest.mark.django_db
def test_post_with_the_pages_csrf_token_is_accepted(ana: Any, game_ana_ben: Game) -> None:
    client = signed_in(ana, enforce_csrf_checks=True)
    page = client.get(url("detail", game_ana_ben)).text
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
    assert token is not None
    data = {"tiles": CAT, "version": game_ana_ben.version, "csrfmiddlewaretoken": token.group(1)}
    assert client.post(url("play", game_ana_ben), data, headers=HX).status_code == 200
    assert Move.objects.filter(game=game_ana_ben).count() == 1


@pytest.mark.django_db
def test_actions_on_a_finished_game_say_it_is_over_and_change_nothing(
    ana: Any, ben: Any, game_ana_ben: Game
) -> None:
    game_ana_ben.resign(ben, version=game_ana_ben.version)
    client = signed_in(ana)
    before = snapshot(game_ana_ben)
    for name in ("play", "exchange", "pass", "resign"):
        data = {**ACTIONS[name], "version": game_ana_ben.version}
        response = client.post(url(name, game_ana_ben), data, follow=True)
        assert response.status_code == 200, name
        assert "The game is over." in response.text, name
    preview = client.post(url("preview", game_ana_ben), {"tiles": CAT}, headers=HX)
    assert preview.status_code == 200
    assert snapshot(game_ana_ben) == before


@pytest.mark.django_db
def test_resigning_twice_records_one_resignation(ana: Any, ben: Any, game_ana_ben: Game) -> None:
    client = signed_in(ben)
    for action_id in ("first", "second"):
        client.post(
            url("resign", game_ana_ben),
            at_version(game_ana_ben, confirm="yes", action_id=action_id),
            headers=HX,
        )
    assert list(Move.objects.filter(game=game_ana_ben).values_list("kind", flat=True)) == ["resign"]
    game_ana_ben.refresh_from_db()
    assert game_ana_ben.winner_seat == 0


@pytest.mark.django_db
def test_nobody_but_the_invitee_can_accept_an_invitation(ana: Any, ben: Any, cleo: Any) -> None:
    game = start_game(creator=ana, mode="friend", language="en", opponent=ben)
    before = snapshot(game)
    # The outsider cannot even see a private invitation; the creator cannot accept it.
    assert signed_in(cleo).post(url("accept", game), at_version(game), headers=HX).status_code == 404
    assert signed_in(cleo).post(url("decline", game), at_version(game), headers=HX).status_code == 404
    response = signed_in(ana).post(url("accept", game), at_version(game), follow=True)
    assert "This invitation is not for you" in response.text
    assert snapshot(game) == before
    signed_in(ben).post(url("accept", game), at_version(game), headers=HX)
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    # Accepting again, or declining a game that has started, changes nothing.
    again = snapshot(game)
    assert (
        "This invitation is not for you"
        in signed_in(ben).post(url("accept", game), at_version(game), follow=True).text
    )
    assert signed_in(ben).post(url("decline", game), at_version(game), headers=HX).status_code == 403
    assert signed_in(ana).post(url("decline", game), at_version(game), headers=HX).status_code == 403
    assert snapshot(game) == again


@pytest.mark.django_db
def test_a_declined_invitation_cannot_be_accepted_or_played(ana: Any, ben: Any) -> None:
    game = start_game(creator=ana, mode="friend", language="en", opponent=ben)
    game.decline(ben, version=game.version)
    before = snapshot(game)
    assert (
        "This invitation is not for you"
        in signed_in(ben).post(url("accept", game), at_version(game), follow=True).text
    )
    assert (
        "This game was declined."
        in signed_in(ben).post(url("pass", game), at_version(game), follow=True).text
    )
    assert signed_in(ana).post(url("decline", game), at_version(game), headers=HX).status_code == 403
    assert snapshot(game) == before


@pytest.mark.django_db
def test_rematch_of_a_game_still_on_says_so(ana: Any, game_ana_ben: Game) -> None:
    before = snapshot(game_ana_ben)
    response = signed_in(ana).post(url("rematch", game_ana_ben), headers=HX)
    assert response.status_code == 403
    assert response.text == "A rematch can be asked for once the game is over."
    assert snapshot(game_ana_ben) == before


@pytest.mark.django_db
def test_rematch_by_a_spectator_is_refused(ana: Any, ben: Any, cleo: Any, game_ana_ben: Game) -> None:
    game_ana_ben.resign(ben, version=game_ana_ben.version)
    response = signed_in(cleo).post(url("rematch", game_ana_ben), headers=HX)
    assert response.status_code == 403
    assert not Game.objects.filter(rematch_of=game_ana_ben).exists()


@pytest.mark.django_db
def test_rematch_asked_by_both_players_gives_one_game(ana: Any, ben: Any, game_ana_ben: Game) -> None:
    game_ana_ben.resign(ben, version=game_ana_ben.version)
    first = signed_in(ana).post(url("rematch", game_ana_ben))
    second = signed_in(ben).post(url("rematch", game_ana_ben))
    assert first.status_code == second.status_code == 302
    assert first["Location"] == second["Location"]
    assert Game.objects.filter(rematch_of=game_ana_ben).count() == 1


@pytest.mark.django_db
def test_player_cannot_act_out_of_turn_with_any_action(ben: Any, game_ana_ben: Game) -> None:
    client = signed_in(ben)
    before = snapshot(game_ana_ben)
    for name in ("play", "exchange", "pass"):
        data = {"tiles": tiles((7, 7, "Z"), (7, 8, "K")), "exchange": "Z", "version": game_ana_ben.version}
        response = client.post(url(name, game_ana_ben), data, headers=HX)
        assert response.status_code == 200
        assert "It is not your turn." in response.text, name
    assert snapshot(game_ana_ben) == before


@pytest.mark.django_db
def test_admin_is_for_staff_with_permissions_only(ana: Any, mia: Any, game_ana_ben: Game) -> None:
    game_ana_ben.play(ana, CAT_AT_CENTRE, version=game_ana_ben.version)
    pages = [
        reverse("admin:games_game_change", args=[game_ana_ben.pk]),
        reverse("admin:games_move_changelist"),
        reverse("admin:games_move_change", args=[Move.objects.get().pk]),
    ]
    for page in pages:
        response = signed_in(ana).get(page)
        assert response.status_code == 302  # a player is sent to the admin log-in
        assert "/admin/login/" in response["Location"]
        # A moderator is staff, but words are their job, not games (and their racks).
        assert signed_in(mia).get(page).status_code == 403
    root = get_user_model().objects.create_superuser("root", "root@example.org", "x")
    assert signed_in(root).get(pages[0]).status_code == 200
