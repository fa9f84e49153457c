"""Check-in: players who have not checked in when the first round is paired are
withdrawn (logged, told on the tournament page) and never paired."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.urls import reverse
from django.utils import timezone

from tests.tournaments.helpers import finish_round, make_players, make_tournament, run_round
from tournaments import services
from tournaments.models import Pairing, Registration, Tournament, TournamentEvent
from tournaments.services import TournamentError


def open_checkin(tournament: Tournament) -> None:
    Tournament.objects.filter(pk=tournament.pk).update(checkin_opens_at=timezone.now() - timedelta(minutes=5))
    tournament.refresh_from_db()


@pytest.mark.django_db
def test_a_player_who_did_not_check_in_is_never_paired(olga: Any, client: Any) -> None:
    ana, ben, cleo, dan = make_players("ana", "ben", "cleo", "dan")
    tournament = make_tournament(
        olga,
        [ana, ben, cleo, dan],
        system="swiss",
        rounds=2,
        checkin_opens_at=timezone.now() + timedelta(hours=1),
    )
    open_checkin(tournament)
    for player in (ana, ben):
        services.check_in(
            tournament=tournament, registration=tournament.registrations.get(user=player), by=player
        )
    services.check_in(tournament=tournament, registration=tournament.registrations.get(user=cleo), by=olga)
    run_round(tournament, olga)
    dans = tournament.registrations.get(user=dan)
    assert dans.status == Registration.Status.WITHDRAWN
    assert dans.number is None
    seated = {
        r for p in Pairing.objects.filter(round__tournament=tournament) for r in (p.first_id, p.second_id)
    }
    assert dans.pk not in seated
    withdrawn = tournament.events.get(kind=TournamentEvent.Kind.WITHDRAWN)
    assert withdrawn.actor is None
    assert withdrawn.data == {"registration": dans.pk, "name": "dan", "not_checked_in": True}
    # The log alone says the same.
    snapshot = services.rebuild(tournament)
    assert not snapshot.players[dans.pk].active
    assert snapshot.players[tournament.registrations.get(user=ana).pk].checked_in
    # Dan is told on the tournament page; ana sees her pairing.
    client.force_login(dan)
    page = client.get(reverse("tournaments:detail", args=[tournament.pk])).content.decode()
    assert "you had not checked in" in page
    client.force_login(ana)
    page = client.get(reverse("tournaments:detail", args=[tournament.pk])).content.decode()
    assert "Round 1 is paired" in page


@pytest.mark.django_db
def test_check_in_only_while_the_window_is_open(olga: Any) -> None:
    ana, ben = make_players("ana", "ben")
    tournament = make_tournament(
        olga, [ana, ben], system="swiss", checkin_opens_at=timezone.now() + timedelta(hours=1)
    )
    anas = tournament.registrations.get(user=ana)
    with pytest.raises(TournamentError) as refused:
        services.check_in(tournament=tournament, registration=anas, by=ana)
    assert refused.value.code == "checkin_closed"
    # Someone else cannot check a player in; the organiser can, even before the window.
    with pytest.raises(TournamentError) as refused:
        services.check_in(tournament=tournament, registration=anas, by=ben)
    assert refused.value.code == "not_organiser"
    services.check_in(tournament=tournament, registration=anas, by=olga)
    with pytest.raises(TournamentError) as refused:
        services.check_in(tournament=tournament, registration=anas, by=olga)
    assert refused.value.code == "already_checked_in"
    open_checkin(tournament)
    services.check_in(tournament=tournament, registration=tournament.registrations.get(user=ben), by=ben)
    services.pair_round(tournament=tournament, by=olga)
    with pytest.raises(TournamentError) as refused:
        services.check_in(tournament=tournament, registration=anas, by=olga)
    assert refused.value.code == "checkin_closed"
    assert tournament.registrations.filter(status=Registration.Status.ACTIVE).count() == 2


@pytest.mark.django_db
def test_a_tournament_without_check_in_refuses_it_and_withdraws_nobody(olga: Any) -> None:
    ana, ben = make_players("ana", "ben")
    tournament = make_tournament(olga, [ana, ben], rounds=1)
    with pytest.raises(TournamentError) as refused:
        services.check_in(tournament=tournament, registration=tournament.registrations.get(user=ana), by=ana)
    assert refused.value.code == "no_checkin"
    with pytest.raises(TournamentError) as refused:
        make_tournament(olga, checkin_opens_at=timezone.now() + timedelta(days=2))
    assert refused.value.code == "bad_checkin"
    run_round(tournament, olga)
    assert not tournament.events.filter(kind=TournamentEvent.Kind.WITHDRAWN).exists()


@pytest.mark.django_db
def test_check_in_button_checks_the_player_in(olga: Any, client: Any) -> None:
    ana, ben = make_players("ana", "ben")
    tournament = make_tournament(olga, [ana, ben], checkin_opens_at=timezone.now() + timedelta(hours=1))
    open_checkin(tournament)
    client.force_login(ana)
    page = client.get(reverse("tournaments:detail", args=[tournament.pk])).content.decode()
    assert reverse("tournaments:check-in", args=[tournament.pk]) in page
    response = client.post(
        reverse("tournaments:check-in", args=[tournament.pk]), headers={"HX-Request": "true"}
    )
    assert response.status_code == 200
    assert tournament.registrations.get(user=ana).checked_in_at is not None
    assert tournament.events.filter(kind=TournamentEvent.Kind.CHECKED_IN).count() == 1


@pytest.mark.django_db
def test_the_pairing_notice_shows_until_the_table_has_its_result(olga: Any, client: Any) -> None:
    ana, ben = make_players("ana", "ben")
    tournament = make_tournament(olga, [ana, ben], system="swiss", rounds=2, auto_rounds=True)
    tables = run_round(tournament, olga)
    client.force_login(ana)
    url = reverse("tournaments:detail", args=[tournament.pk])
    assert "Round 1 is paired: you play ben" in client.get(url).content.decode()
    finish_round(tables)
    page = client.get(url).content.decode()
    assert "Round 1 is paired" not in page
    assert "Next round by itself" in page
