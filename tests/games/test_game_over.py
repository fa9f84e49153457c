from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from engine.gcg import import_gcg
from games.models import Game
from games.services import rematch
from tests.games.helpers import CAT_AT_CENTRE, make_computer_game

HX = {"HX-Request": "true"}


@pytest.fixture
def finished(game_ana_ben: Game, ana: Any, ben: Any) -> Game:
    game_ana_ben.play(ana, CAT_AT_CENTRE, version=game_ana_ben.version)
    game_ana_ben.resign(ben, version=game_ana_ben.version)
    return Game.objects.get(pk=game_ana_ben.pk)


@pytest.mark.django_db
def test_gcg_download_after_the_game(client: Client, ana: Any, finished: Game) -> None:
    client.force_login(ana)
    response = client.get(reverse("games:gcg", args=[finished.pk]))
    assert response.status_code == 200
    assert response["Content-Disposition"] == f'attachment; filename="wordgame-{finished.pk}.gcg"'
    record = import_gcg(response.content.decode())
    assert record.players == ("ana", "ben")
    assert [m.kind for m in record.moves] == ["play", "resign"]
    assert record.moves[0].rack_before == "CATSEOD"


@pytest.mark.django_db
def test_gcg_download_refused_while_game_is_on(
    client: Client, ana: Any, cleo: Any, game_ana_ben: Game
) -> None:
    for user in (ana, cleo):
        client.force_login(user)
        response = client.get(reverse("games:gcg", args=[game_ana_ben.pk]))
        assert response.status_code == 403
        assert "once the game is over" in response.text


@pytest.mark.django_db
def test_game_over_banner_and_context(client: Client, ben: Any, finished: Game) -> None:
    client.force_login(ben)
    page = client.get(reverse("games:detail", args=[finished.pk]))
    assert page.status_code == 200
    assert 'id="game-over"' in page.text
    context = page.context
    assert context["is_over"]
    assert context["winner"].name == "ana"
    assert context["end_reason"] == "resign"
    assert context["result_text"].startswith("ana won")
    assert context["can_rematch"]
    assert context["gcg_available"]
    assert context["moves"][0].rack_before == "CATSEOD"  # racks are public once it is over


@pytest.mark.django_db
def test_rematch_invites_other_player_who_now_moves_first(
    client: Client, ben: Any, ana: Any, finished: Game
) -> None:
    client.force_login(ben)
    response = client.post(reverse("games:rematch", args=[finished.pk]), headers=HX)
    new = Game.objects.exclude(pk=finished.pk).get()
    assert response["HX-Redirect"] == reverse("games:detail", args=[new.pk])
    assert new.status == Game.Status.INVITED
    assert new.invitee == ana
    assert new.seat_list()[0].user == ben  # ana moved first last time
    assert rematch(game=finished, user=ana).pk == new.pk  # asking twice gives the same game


@pytest.mark.django_db
def test_rematch_against_computer_starts_at_once(ana: Any) -> None:
    game = make_computer_game(ana, level="medium", first=1)
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    new = rematch(game=Game.objects.get(pk=game.pk), user=ana)
    assert new.status == Game.Status.ACTIVE
    assert new.seat_list()[0].user == ana
    assert new.seat_list()[1].computer_level == "medium"


@pytest.mark.django_db
def test_rematch_refused_while_game_is_on(client: Client, ana: Any, game_ana_ben: Game) -> None:
    client.force_login(ana)
    assert client.post(reverse("games:rematch", args=[game_ana_ben.pk]), headers=HX).status_code == 403


@pytest.mark.django_db
def test_replay_steps_through_moves_with_racks_after_the_end(
    client: Client, cleo: Any, finished: Game
) -> None:
    client.force_login(cleo)
    start = client.get(reverse("games:replay", args=[finished.pk]), {"move": 0}, headers=HX)
    assert start.context["step"] == 0
    assert start.context["next_step"] == 1
    assert start.context["seats"][0].rack == "CATSEOD"
    first = client.get(reverse("games:replay", args=[finished.pk]), {"move": 1})
    assert first.status_code == 200
    letters = "".join(sq["letter"] for sq in first.context["squares"][7])
    assert letters == "CAT"
    assert first.context["seats"][0].score == finished.seats.get(index=0).score


@pytest.mark.django_db
def test_replay_hides_racks_while_game_is_on(client: Client, cleo: Any, game_ana_ben: Game, ana: Any) -> None:
    game_ana_ben.play(ana, CAT_AT_CENTRE, version=game_ana_ben.version)
    client.force_login(cleo)
    response = client.get(reverse("games:replay", args=[game_ana_ben.pk]), {"move": 0})
    assert response.status_code == 200
    assert all(seat.rack == "" for seat in response.context["seats"])
    assert all(m.rack_before == "" for m in response.context["moves"])
