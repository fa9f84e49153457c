"""Divisions: one event, several divisions by rating band or by hand, each with its own
pairings, standings and log, and TSH's files per division with a ``config.tsh`` naming
them (checked by a validator written from TSH's manual)."""

from __future__ import annotations

import io
import zipfile
from typing import Any

import pytest
from django.urls import reverse

from tests.tournaments.helpers import finish_round, make_players, make_tournament, run_round
from tests.tournaments.tsh_validator import config_problems, t_file_problems
from tournaments import exports, services
from tournaments.models import Tournament
from tournaments.services import TournamentError


def event_with_two_divisions(olga: Any) -> tuple[Tournament, Tournament, Tournament]:
    event = make_tournament(olga, name="Club weekend", system="swiss", rounds=2, rating_body="naspa")
    upper = services.add_division(event=event, by=olga, name="Premier", rating_min=1500)
    lower = services.add_division(event=event, by=olga, name="Open", rating_max=1499)
    return event, upper, lower


def register_rated(event: Tournament, ratings: dict[str, int | None]) -> None:
    for user in make_players(*ratings):
        if ratings[user.username] is not None:
            services.set_membership(user=user, body="naspa", number="N1", rating=ratings[user.username])
        services.register_player(tournament=event, user=user, by=user)


def usernames(division: Tournament) -> set[str]:
    return set(division.registrations.values_list("user__username", flat=True))


@pytest.mark.django_db
def test_players_go_to_the_division_of_their_rating_and_each_division_pairs_alone(olga: Any) -> None:
    event, upper, lower = event_with_two_divisions(olga)
    assert (upper.division_code, lower.division_code) == ("a", "b")
    register_rated(event, {"ana": 1800, "ben": 1600, "cleo": 1200, "dan": None})
    assert usernames(upper) == {"ana", "ben"}
    assert usernames(lower) == {"cleo", "dan"}
    assert not event.registrations.exists()
    with pytest.raises(TournamentError) as refused:
        services.register_player(tournament=upper, user=make_players("cleo")[0], by=make_players("cleo")[0])
    assert refused.value.code == "already_registered"
    with pytest.raises(TournamentError) as refused:
        services.pair_round(tournament=event, by=olga)
    assert refused.value.code == "pair_each_division"
    for division in (upper, lower):
        finish_round(run_round(division, olga))
    # Each division's standings hold its own players only, numbered from 1.
    for division in (upper, lower):
        assert sorted(s.player for s in services.current_standings(division)) == [1, 2]
        assert (
            services.standings_from_events(division)[0].player
            == services.current_standings(division)[0].player
        )


@pytest.mark.django_db
def test_two_divisions_give_two_t_files_and_a_config_tsh_that_tsh_reads(olga: Any, client: Any) -> None:
    event, upper, lower = event_with_two_divisions(olga)
    register_rated(event, {"ana": 1800, "ben": 1600, "eve": 1550, "cleo": 1200, "dan": None})
    for division in (upper, lower):
        finish_round(run_round(division, olga))
    client.force_login(olga)
    response = client.get(reverse("tournaments:export-event", args=[event.pk]))
    assert response.status_code == 200
    archive = zipfile.ZipFile(io.BytesIO(b"".join(response.streaming_content)))
    top = sorted(n for n in archive.namelist() if "/" not in n)
    assert top == ["a.t", "b.t", "config.tsh"]
    # Each division's own bundle beside TSH's folder.
    for code in ("a", "b"):
        assert {f"{code}/standings.csv", f"{code}/results.csv", f"{code}/warnings.txt"} <= set(
            archive.namelist()
        )
    files = {name: archive.read(name).decode("utf-8") for name in top}
    assert config_problems(files["config.tsh"], files) == []
    assert "division a a.t" in files["config.tsh"]
    assert "division b b.t" in files["config.tsh"]
    assert len(files["a.t"].splitlines()) == 3
    assert len(files["b.t"].splitlines()) == 2
    assert "ana" in files["a.t"]
    assert "ana" not in files["b.t"]


def test_the_validator_refuses_what_tsh_would_not_read() -> None:
    good = "Ana 1500 2; 400\nBen 1400 1; 350\n"
    assert t_file_problems(good) == []
    assert t_file_problems("Ana 1500 2; 400\nBen 1400 0; 350\n") == [
        "player 1: round 1 pairing is not reciprocal"
    ]
    assert config_problems("division a a.t\ndivision A b.t\n", {"a.t": good, "b.t": good}) == [
        "line 2: division a declared twice"
    ]
    assert config_problems("classes a 3\ndivision a a.t\n", {"a.t": good}) == [
        "line 1: classes names a division not declared before it"
    ]
    assert config_problems("config max_rounds 7\n", {}) == [
        "line 1: a config line is 'config <name> = <value>'",
        "no division is declared",
    ]
    assert exports.event_tsh_config("X", []).count("division") == 0


@pytest.mark.django_db
def test_the_organiser_moves_a_player_by_hand_and_both_logs_agree(olga: Any, client: Any) -> None:
    event, upper, lower = event_with_two_divisions(olga)
    register_rated(event, {"ana": 1800, "cleo": 1200, "dan": 1100})
    cleo = lower.registrations.get(user__username="cleo")
    client.force_login(olga)
    response = client.post(
        reverse("tournaments:move-player", args=[lower.pk, cleo.pk]),
        {"division": upper.pk, "reason": "plays up"},
        headers={"HX-Request": "true"},
    )
    assert response.status_code == 200
    assert usernames(upper) == {"ana", "cleo"}
    assert usernames(lower) == {"dan"}
    assert cleo.pk not in services.rebuild(lower).players
    assert cleo.pk in services.rebuild(upper).players
    # An event whose players registered before it had divisions keeps them.
    single = make_tournament(olga, make_players("eve"), name="Single")
    with pytest.raises(TournamentError) as refused:
        services.add_division(event=single, by=olga, name="Late")
    assert refused.value.code == "event_has_players"
    other = make_tournament(olga, name="Elsewhere")
    with pytest.raises(TournamentError) as refused:
        services.move_to_division(registration=cleo, division=other, by=olga)
    assert refused.value.code == "not_same_event"


@pytest.mark.django_db
def test_the_event_page_lists_its_divisions(olga: Any, client: Any) -> None:
    event, upper, _lower = event_with_two_divisions(olga)
    client.force_login(olga)
    page = client.get(reverse("tournaments:detail", args=[event.pk])).content.decode()
    assert 'id="divisions"' in page
    assert "Premier" in page
    assert "Open" in page
    division_page = client.get(reverse("tournaments:detail", args=[upper.pk])).content.decode()
    assert "Club weekend" in division_page
    # A player registered for the event is sent to their division's page.
    ana = make_players("ana")[0]
    services.set_membership(user=ana, body="naspa", number="N1", rating=1800)
    services.register_player(tournament=event, user=ana, by=ana)
    client.force_login(ana)
    page = client.get(reverse("tournaments:detail", args=[event.pk])).content.decode()
    assert "You play in division A · Premier." in page
    assert reverse("tournaments:detail", args=[upper.pk]) in page


@pytest.mark.django_db
def test_the_event_closes_registration_once_a_division_has_started(olga: Any) -> None:
    event, upper, lower = event_with_two_divisions(olga)
    register_rated(event, {"ana": 1800, "ben": 1700, "cleo": 1200, "dan": 1100})
    assert services.registration_open(event)
    run_round(upper, olga)
    assert not services.registration_open(event)
    eve = make_players("eve")[0]
    with pytest.raises(TournamentError) as refused:
        services.register_player(tournament=event, user=eve, by=eve)
    assert refused.value.code == "registration_closed"
    assert lower.status == Tournament.Status.REGISTRATION
