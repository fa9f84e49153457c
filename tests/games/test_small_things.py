"""Two things a player noticed (issue 26): a note said twice, a form that should not open."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import Report
from games.models import Game
from tests.games.helpers import make_game

pytestmark = pytest.mark.django_db


def test_a_player_reads_that_extras_are_off_once(client: Client, ana: Any, ben: Any, cleo: Any) -> None:
    game = make_game(ana, ben)
    Game.objects.filter(pk=game.pk).update(extras_allowed=False)
    note = "Paid extras are switched off in this game."
    client.force_login(ana)
    assert client.get(reverse("games:detail", args=[game.pk])).text.count(note) == 1
    Game.objects.filter(pk=game.pk).update(is_public=True)
    client.force_login(cleo)  # a spectator has no extras panel: the aids panel says it
    assert client.get(reverse("games:detail", args=[game.pk])).text.count(note) == 1


def test_a_player_cannot_open_the_report_form_for_themselves(client: Client, ana: Any) -> None:
    client.force_login(ana)
    response = client.get(reverse("players:report", args=["ANA"]), follow=True)
    assert response.redirect_chain[-1][0] == reverse("players:profile", args=["ana"])
    assert "That is you." in response.text
    assert 'name="reason"' not in response.text
    client.post(reverse("players:report", args=["ana"]), {"reason": "cheating"})
    assert not Report.objects.exists()
