from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Game, GameError
from games.services import rematch, start_game
from tests.games.helpers import at_version

HX = {"HX-Request": "true"}


@pytest.mark.django_db
def test_friend_invitation_then_accept_starts_game(ana: Any, ben: Any) -> None:
    game = start_game(creator=ana, mode="friend", language="fr", opponent=ben)
    assert game.status == Game.Status.INVITED
    assert game.turn_deadline is None
    game.accept(ben, version=game.version)
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    assert game.inactivity_days == 11
    assert game.turn_deadline is not None
    assert game.state_obj().language == "fr"
    assert game.first_player in (ana, ben)


@pytest.mark.django_db
def test_only_invitee_can_accept(ana: Any, ben: Any, cleo: Any) -> None:
    game = start_game(creator=ana, mode="friend", language="en", opponent=ben)
    for user in (ana, cleo):
        with pytest.raises(GameError):
            game.accept(user, version=game.version)


@pytest.mark.django_db
def test_decline_and_cancel(ana: Any, ben: Any) -> None:
    declined = start_game(creator=ana, mode="friend", language="en", opponent=ben)
    declined.decline(ben, version=declined.version)
    cancelled = start_game(creator=ana, mode="friend", language="en", opponent=ben)
    cancelled.decline(ana, version=cancelled.version)
    assert {declined.status, cancelled.status} == {Game.Status.DECLINED}
    with pytest.raises(GameError):
        declined.accept(ben, version=declined.version)


@pytest.mark.django_db
def test_random_seek_is_matched_first_come_first_served(ana: Any, ben: Any, cleo: Any) -> None:
    seek_ana = start_game(creator=ana, mode="random", language="es")
    assert seek_ana.status == Game.Status.OPEN
    assert start_game(creator=ana, mode="random", language="es").pk == seek_ana.pk  # no second seek
    seek_cleo = start_game(creator=cleo, mode="random", language="es")
    assert seek_cleo.pk == seek_ana.pk  # cleo joins ana's (older) seek
    joined = start_game(creator=ben, mode="random", language="es")
    assert joined.status == Game.Status.OPEN  # no seek left: ben waits
    game = Game.objects.get(pk=seek_ana.pk)
    assert game.status == Game.Status.ACTIVE
    assert game.inactivity_days == 5
    assert {s.user for s in game.seat_list()} == {ana, cleo}


@pytest.mark.django_db
def test_random_seek_in_other_language_is_not_matched(ana: Any, ben: Any) -> None:
    start_game(creator=ana, mode="random", language="de")
    other = start_game(creator=ben, mode="random", language="it")
    assert other.status == Game.Status.OPEN
    assert other.created_by == ben


@pytest.mark.django_db
def test_computer_game_starts_active_in_any_language(ana: Any) -> None:
    game = start_game(creator=ana, mode="computer", language="pt-BR", level="hard", first=0)
    assert game.status == Game.Status.ACTIVE
    seats = game.seat_list()
    assert seats[0].user == ana
    assert seats[1].is_computer
    assert seats[1].computer_level == "hard"


@pytest.mark.django_db
def test_active_games_limit_has_clear_error(client: Client, ana: Any, ben: Any, settings: Any) -> None:
    settings.MAX_ACTIVE_GAMES = 2
    start_game(creator=ana, mode="friend", language="en", opponent=ben)
    start_game(creator=ana, mode="random", language="en")
    with pytest.raises(GameError) as exc:
        start_game(creator=ana, mode="computer", language="en", level="easy")
    assert exc.value.code == "too_many_games"
    client.force_login(ana)
    response = client.post(
        reverse("games:new"), {"mode": "computer", "language": "en", "level": "easy"}, headers=HX
    )
    assert "maximum number of games" in response.text
    assert "(2)" in response.text


@pytest.mark.django_db
def test_invitee_at_limit_cannot_accept(ana: Any, ben: Any, cleo: Any, settings: Any) -> None:
    settings.MAX_ACTIVE_GAMES = 1
    start_game(creator=ben, mode="computer", language="en", level="easy")
    game = start_game(creator=ana, mode="friend", language="en", opponent=ben)
    with pytest.raises(GameError) as exc:
        game.accept(ben, version=game.version)
    assert exc.value.code == "too_many_games"


@pytest.mark.django_db
def test_new_game_view_friend_by_username_any_case(client: Client, ana: Any, ben: Any) -> None:
    client.force_login(ana)
    response = client.post(
        reverse("games:new"), {"mode": "friend", "language": "en", "opponent": "BEN"}, headers=HX
    )
    game = Game.objects.get()
    assert response.status_code == 200
    assert response["HX-Redirect"] == reverse("games:detail", args=[game.pk])
    assert game.invitee == ben


@pytest.mark.django_db
def test_new_game_view_unknown_friend(client: Client, ana: Any) -> None:
    client.force_login(ana)
    response = client.post(reverse("games:new"), {"mode": "friend", "language": "en", "opponent": "nobody"})
    assert response.status_code == 200
    assert "no player with that username" in response.text
    assert not Game.objects.exists()


@pytest.mark.django_db
def test_new_game_page_and_lobby_render(client: Client, ana: Any) -> None:
    client.force_login(ana)
    assert client.get(reverse("games:new")).status_code == 200
    lobby = client.get(reverse("games:lobby"))
    assert lobby.status_code == 200
    assert 'id="lobby-games"' in lobby.text
    partial = client.get(reverse("games:lobby"), headers=HX)
    assert partial.text.lstrip().startswith("<")
    assert 'id="lobby-games"' in partial.text


@pytest.mark.django_db
def test_lobby_splits_your_turn_their_turn_and_invitations(
    client: Client, ana: Any, ben: Any, cleo: Any
) -> None:
    mine = start_game(creator=ana, mode="friend", language="en", opponent=ben, first=0)
    mine.accept(ben, version=mine.version)
    theirs = start_game(creator=ana, mode="friend", language="en", opponent=cleo, first=1)
    theirs.accept(cleo, version=theirs.version)
    start_game(creator=ben, mode="friend", language="en", opponent=ana)
    from games.rendering import lobby_context

    context = lobby_context(ana)
    assert [g["id"] for g in context["your_turn"]] == [mine.pk]
    assert [g["id"] for g in context["their_turn"]] == [theirs.pk]
    assert len(context["invitations_received"]) == 1
    assert context["active_count"] == 2  # an invitation received counts once accepted


@pytest.mark.django_db
def test_accept_and_decline_views(client: Client, ana: Any, ben: Any, cleo: Any) -> None:
    game = start_game(creator=ana, mode="friend", language="en", opponent=ben)
    client.force_login(cleo)
    assert (
        client.post(reverse("games:accept", args=[game.pk]), at_version(game), headers=HX).status_code == 404
    )
    client.force_login(ben)
    response = client.post(reverse("games:accept", args=[game.pk]), at_version(game), headers=HX)
    assert 'id="board"' in response.text
    assert Game.objects.get(pk=game.pk).status == Game.Status.ACTIVE
    other = start_game(creator=ana, mode="friend", language="en", opponent=ben)
    response = client.post(reverse("games:decline", args=[other.pk]), at_version(other), headers=HX)
    assert response["HX-Redirect"] == reverse("games:lobby")
    assert Game.objects.get(pk=other.pk).status == Game.Status.DECLINED


@pytest.mark.django_db
def test_watch_page_lists_public_active_games(client: Client, cleo: Any, game_ana_ben: Game) -> None:
    client.force_login(cleo)
    response = client.get(reverse("games:watch"))
    assert response.status_code == 200
    assert reverse("games:detail", args=[game_ana_ben.pk]) in response.text


@pytest.mark.django_db
def test_pages_render_for_seek_invitation_and_spectator(
    client: Client, ana: Any, ben: Any, cleo: Any
) -> None:
    seek = start_game(creator=cleo, mode="random", language="en")
    invitation = start_game(creator=ana, mode="friend", language="en", opponent=ben)
    client.force_login(cleo)
    assert "Waiting for an opponent" in client.get(reverse("games:detail", args=[seek.pk])).text
    assert (
        client.get(reverse("games:detail", args=[invitation.pk])).status_code == 404
    )  # not started: private
    client.force_login(ben)
    page = client.get(reverse("games:detail", args=[invitation.pk]))
    assert page.context["can_accept"]
    assert reverse("games:accept", args=[invitation.pk]) in page.text
    invitation.accept(ben, version=invitation.version)
    client.force_login(cleo)
    watching = client.get(reverse("games:detail", args=[invitation.pk]))
    assert watching.context["is_spectator"]
    assert watching.context["rack"] == []
    assert 'id="rack"' not in watching.text


@pytest.mark.django_db
def test_refused_accept_over_htmx_shows_why_in_the_move_panel(
    client: Client, ana: Any, ben: Any, settings: Any
) -> None:
    settings.MAX_ACTIVE_GAMES = 1
    start_game(creator=ben, mode="computer", language="en", level="easy")
    game = start_game(creator=ana, mode="friend", language="en", opponent=ben)
    client.force_login(ben)
    response = client.post(reverse("games:accept", args=[game.pk]), at_version(game), headers=HX)
    assert response.status_code == 200
    assert 'id="move-panel"' in response.text
    assert 'class="form-errors notice" role="alert"' in response.text
    assert "You already have the maximum number of games going (1)." in response.text
    game.refresh_from_db()
    assert game.status == Game.Status.INVITED


@pytest.mark.django_db
def test_creator_chooses_whether_others_may_watch(client: Client, ana: Any, cleo: Any) -> None:
    client.force_login(ana)
    client.post(reverse("games:new"), {"mode": "computer", "language": "en", "level": "easy", "public": "on"})
    client.post(reverse("games:new"), {"mode": "computer", "language": "en", "level": "easy"})
    public, private = Game.objects.order_by("pk")
    assert public.is_public
    assert not private.is_public
    assert list(Game.objects.watchable_by(cleo)) == [public]
    watcher = Client()
    watcher.force_login(cleo)
    assert watcher.get(reverse("games:detail", args=[private.pk])).status_code == 404
    assert watcher.get(reverse("games:detail", args=[public.pk])).status_code == 200
    # A rematch keeps the setting.
    private.resign(ana, version=private.version)
    assert not rematch(game=private, user=ana).is_public


@pytest.mark.django_db
def test_accept_from_the_lobby_goes_to_the_game_and_pushed_rows_post_with_htmx(
    client: Client, ana: Any, ben: Any
) -> None:
    from games.rendering import lobby_fragment

    game = start_game(creator=ana, mode="friend", language="en", opponent=ben)
    # The row pushed over the WebSocket is rendered without a request (no CSRF token in
    # the form), so Accept must post with htmx, whose header carries the token.
    pushed = lobby_fragment(ben)
    assert f'hx-post="{reverse("games:accept", args=[game.pk])}"' in pushed
    csrf_client = Client(enforce_csrf_checks=True)
    csrf_client.force_login(ben)
    csrf_client.get(reverse("games:lobby"))
    token = csrf_client.cookies["csrftoken"].value
    response = csrf_client.post(
        reverse("games:accept", args=[game.pk]),
        at_version(game, **{"from": "lobby"}),
        headers={**HX, "X-CSRFToken": token},
    )
    assert response.status_code == 200
    assert response["HX-Redirect"] == reverse("games:detail", args=[game.pk])
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE


@pytest.mark.django_db
def test_an_invitation_cannot_be_accepted_once_either_player_blocked_the_other(ana: Any, ben: Any) -> None:
    from accounts.models import Block

    game = start_game(creator=ana, mode="friend", language="en", opponent=ben)
    Block.objects.create(blocker=ben, blocked=ana)
    with pytest.raises(GameError) as exc:
        game.accept(ben, version=game.version)
    assert exc.value.code == "blocked"
    assert Game.objects.get(pk=game.pk).status == Game.Status.INVITED
