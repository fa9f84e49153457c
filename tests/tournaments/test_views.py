"""The tournament pages: what everyone sees, what a player may do, and what only the
organiser may (a player gets 403 and nothing changes)."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from tests.tournaments.helpers import make_players, make_tournament
from tournaments import services
from tournaments.models import Tournament

HX = {"HX-Request": "true"}


@pytest.mark.django_db
def test_list_and_detail_show_the_tournament_to_anyone(client: Any, olga: Any) -> None:
    ana, ben = make_players("ana", "ben")
    tournament = make_tournament(olga, [ana, ben], name="Autumn open")
    html = client.get(reverse("tournaments:list")).content.decode()
    assert "Autumn open" in html
    assert "New tournament" not in html
    page = client.get(reverse("tournaments:detail", args=[tournament.pk]))
    assert page.status_code == 200
    html = page.content.decode()
    for part in ('id="standings"', 'id="pairings"', 'id="log"'):
        assert part in html
    assert 'ws-connect="/ws/tournaments/' in html
    assert "Created the tournament." in html
    assert 'id="organiser"' not in html


@pytest.mark.django_db
def test_player_registers_and_withdraws_from_the_page(client: Any, olga: Any) -> None:
    (ana,) = make_players("ana")
    tournament = make_tournament(olga)
    client.force_login(ana)
    html = client.get(reverse("tournaments:detail", args=[tournament.pk])).content.decode()
    assert "Register" in html
    response = client.post(reverse("tournaments:register", args=[tournament.pk]), headers=HX)
    assert response.status_code == 200
    assert response["HX-Redirect"] == reverse("tournaments:detail", args=[tournament.pk])
    assert tournament.registrations.filter(user=ana, status="active").exists()
    html = client.get(reverse("tournaments:detail", args=[tournament.pk])).content.decode()
    assert "You are registered." in html
    client.post(reverse("tournaments:withdraw", args=[tournament.pk]))
    assert tournament.registrations.get(user=ana).status == "withdrawn"
    assert list(tournament.events.values_list("kind", flat=True)) == ["created", "registered", "withdrawn"]


@pytest.mark.django_db
def test_a_player_cannot_run_or_change_a_tournament(client: Any, olga: Any) -> None:
    ana, ben = make_players("ana", "ben")
    tournament = make_tournament(olga, [ana, ben])
    registration = tournament.registrations.get(user=ben)
    client.force_login(ana)
    assert client.get(reverse("tournaments:new")).status_code == 403
    assert client.post(reverse("tournaments:new"), {"name": "x"}).status_code == 403
    posts = [
        ("tournaments:pair-round", [tournament.pk], {}),
        ("tournaments:start-round", [tournament.pk], {}),
        ("tournaments:add-player", [tournament.pk], {"username": "ana"}),
        ("tournaments:withdraw-player", [tournament.pk, registration.pk], {}),
        ("tournaments:reinstate-player", [tournament.pk, registration.pk], {}),
        ("tournaments:player-rating", [tournament.pk, registration.pk], {"rating": "2000"}),
        ("tournaments:override-pairing", [tournament.pk], {"table": 1, "first": 1, "reason": "r"}),
        (
            "tournaments:override-result",
            [tournament.pk],
            {"round": 1, "table": 1, "override": "forfeit", "absent": "first", "reason": "r"},
        ),
    ]
    for name, args, data in posts:
        response = client.post(reverse(name, args=args), data)
        assert response.status_code == 403, name
    assert client.get(reverse("tournaments:round-controls", args=[tournament.pk])).status_code == 403
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.REGISTRATION
    assert tournament.registrations.get(user=ben).rating is None
    assert tournament.events.count() == 3
    html = client.get(reverse("tournaments:detail", args=[tournament.pk])).content.decode()
    assert 'id="organiser"' not in html
    # Signed out, the organiser's pages send to the log-in page.
    client.logout()
    response = client.post(reverse("tournaments:pair-round", args=[tournament.pk]))
    assert response.status_code == 302
    assert "/accounts/login/" in response["Location"]


@pytest.mark.django_db
def test_organiser_creates_and_runs_a_tournament_from_the_pages(client: Any, olga: Any) -> None:
    ana, ben, cleo = make_players("ana", "ben", "cleo")
    client.force_login(olga)
    assert "New tournament" in client.get(reverse("tournaments:list")).content.decode()
    response = client.post(
        reverse("tournaments:new"),
        {
            "name": "Club night",
            "language": "fr",
            "system": "swiss",
            "rounds": "2",
            "days_per_move": "2",
            "rated": "on",
            "starts_at": "2031-01-02T19:30",
            "rating_body": "absp",
        },
    )
    tournament = Tournament.objects.get(name="Club night")
    assert response.status_code == 302
    assert (tournament.language, tournament.system, tournament.rounds, tournament.rating_body) == (
        "fr",
        "swiss",
        2,
        "absp",
    )
    assert tournament.created_by == olga
    for user in (ana, ben, cleo):
        client.post(
            reverse("tournaments:add-player", args=[tournament.pk]), {"username": user.username.upper()}
        )
    response = client.post(
        reverse("tournaments:add-player", args=[tournament.pk]), {"username": "nobody"}, follow=True
    )
    assert "There is no player with that username." in response.content.decode()
    assert tournament.registrations.count() == 3
    cleo_reg = tournament.registrations.get(user=cleo)
    client.post(
        reverse("tournaments:player-rating", args=[tournament.pk, cleo_reg.pk]),
        {"member_number": "A77", "rating": "180", "reason": "from the ABSP list"},
    )
    cleo_reg.refresh_from_db()
    assert (cleo_reg.member_number, cleo_reg.rating) == ("A77", 180)
    html = client.get(reverse("tournaments:detail", args=[tournament.pk])).content.decode()
    assert 'id="organiser"' in html
    assert 'data-action="pair-round"' in html
    client.post(reverse("tournaments:pair-round", args=[tournament.pk]))
    html = client.get(reverse("tournaments:detail", args=[tournament.pk])).content.decode()
    assert 'data-action="start-round"' in html
    assert "Change a pairing of round 1" in html
    # The highest rated (cleo, 180) is player 1; with three players, 3 has the bye.
    assert tournament.registrations.get(user=cleo).number == 1
    response = client.post(
        reverse("tournaments:override-pairing", args=[tournament.pk]),
        {"table": "1", "first": "3", "second": "1", "reason": "swap for the demo"},
        follow=True,
    )
    assert "The pairing is changed." in response.content.decode()
    client.post(reverse("tournaments:start-round", args=[tournament.pk]))
    tournament.refresh_from_db()
    game_round = tournament.round_set.get(number=1)
    assert game_round.status == "started"
    table = game_round.pairings.get(table=1)
    assert (table.first.number, table.second.number if table.second else None) == (3, 1)
    html = client.get(reverse("tournaments:detail", args=[tournament.pk])).content.decode()
    assert reverse("games:detail", args=[table.game_id]) in html
    response = client.post(
        reverse("tournaments:override-result", args=[tournament.pk]),
        {
            "round": "1",
            "table": "1",
            "override": "scores",
            "first_score": "401",
            "second_score": "377",
            "reason": "r",
        },
        follow=True,
    )
    assert "The result is changed." in response.content.decode()
    assert "401–377" in response.content.decode()
    # A refusal comes back as a message, and changes nothing.
    response = client.post(
        reverse("tournaments:override-result", args=[tournament.pk]),
        {"round": "1", "table": "1", "override": "forfeit", "reason": "r"},
        follow=True,
    )
    assert "Say which player forfeited." in response.content.decode()
    kinds = list(tournament.events.order_by("sequence").values_list("kind", flat=True))
    assert kinds == [
        "created",
        "registered",
        "registered",
        "registered",
        "rating_set",
        "started",
        "round_paired",
        "pairing_overridden",
        "round_started",
        "result_overridden",
    ]
    log = client.get(reverse("tournaments:detail", args=[tournament.pk])).content.decode()
    assert "Reason: swap for the demo" in log
    assert "Round 1, table 1: result set to 401–377." in log


@pytest.mark.django_db
def test_round_controls_answer_the_live_refresh(client: Any, olga: Any) -> None:
    ana, ben = make_players("ana", "ben")
    tournament = make_tournament(olga, [ana, ben], rounds=1)
    services.pair_round(tournament=tournament, by=olga)
    client.force_login(olga)
    response = client.get(reverse("tournaments:round-controls", args=[tournament.pk]), headers=HX)
    html = response.content.decode()
    assert html.startswith('<div id="round-controls"')
    assert 'data-action="start-round"' in html
    assert 'data-format="bundle"' in html


@pytest.mark.django_db
def test_memberships_page_saves_member_numbers(client: Any) -> None:
    (ana,) = make_players("ana")
    client.force_login(ana)
    assert client.get(reverse("tournaments:memberships")).status_code == 200
    client.post(
        reverse("tournaments:memberships"),
        {"naspa_number": "NA55", "naspa_rating": "1500", "wespa_number": "", "wespa_rating": ""},
    )
    assert [(m.body, m.number, m.rating) for m in services.player_memberships(user=ana)] == [
        ("naspa", "NA55", 1500)
    ]
    response = client.post(reverse("tournaments:memberships"), {"naspa_rating": "-3"})
    assert response.status_code == 200
    assert services.player_memberships(user=ana)[0].rating == 1500


@pytest.mark.django_db
def test_unknown_tournament_is_404(client: Any, olga: Any) -> None:
    client.force_login(olga)
    assert client.get(reverse("tournaments:detail", args=[999999])).status_code == 404
    assert client.post(reverse("tournaments:pair-round", args=[999999])).status_code == 404
