"""Rounds that run themselves: the next round paired and started by the site when the
round's last game ends (exactly once, even when two games end at the same moment), and
a time limit per round with unfinished games adjudicated by the organiser's rule."""

from __future__ import annotations

import threading
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.utils import timezone

from tests.tournaments.helpers import make_players, make_tournament, resign, run_round
from tournaments import services
from tournaments.models import Pairing, Round, Tournament, TournamentEvent


def paired_rounds(tournament: Tournament) -> list[int]:
    return list(
        tournament.events.filter(kind=TournamentEvent.Kind.ROUND_PAIRED)
        .order_by("sequence")
        .values_list("data__round", flat=True)
    )


@pytest.mark.django_db
def test_the_next_round_starts_by_itself_when_the_last_game_ends(
    olga: Any, django_capture_on_commit_callbacks: Any
) -> None:
    players = make_players("ana", "ben", "cleo", "dan")
    tournament = make_tournament(olga, players, system="swiss", rounds=2, auto_rounds=True)
    first, last = run_round(tournament, olga)
    with django_capture_on_commit_callbacks(execute=True):
        resign(first.game, first.second.user)  # type: ignore[arg-type, union-attr]
    assert paired_rounds(tournament) == [1]
    with django_capture_on_commit_callbacks(execute=True):
        resign(last.game, last.second.user)  # type: ignore[arg-type, union-attr]
    assert paired_rounds(tournament) == [1, 2]
    round_two = Round.objects.get(tournament=tournament, number=2)
    assert round_two.status == Round.Status.STARTED
    assert Pairing.objects.filter(round=round_two, game__isnull=False).count() == 2
    made = tournament.events.filter(kind__in=["round_paired", "round_started"], data__round=2)
    assert [e.actor for e in made] == [None, None]
    # The log alone still rebuilds it.
    assert services.rebuild(tournament).started_rounds == {1, 2}


@pytest.mark.django_db
def test_without_the_option_the_organiser_pairs_the_next_round(
    olga: Any, django_capture_on_commit_callbacks: Any
) -> None:
    tournament = make_tournament(olga, make_players("ana", "ben"), system="swiss", rounds=2)
    (table,) = run_round(tournament, olga)
    with django_capture_on_commit_callbacks(execute=True):
        resign(table.game, table.second.user)  # type: ignore[arg-type, union-attr]
    assert paired_rounds(tournament) == [1]


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_two_games_ending_at_the_same_moment_make_the_next_round_once(postgres: None, olga: Any) -> None:
    players = make_players("ana", "ben", "cleo", "dan")
    tournament = make_tournament(olga, players, system="swiss", rounds=3, auto_rounds=True)
    tables = run_round(tournament, olga)
    barrier = threading.Barrier(len(tables))
    errors: list[Exception] = []

    def end(table: Pairing) -> None:
        try:
            barrier.wait()
            resign(table.game, table.second.user)  # type: ignore[arg-type, union-attr]
        except Exception as exc:  # noqa: BLE001 (surfaced below: a thread's failure must fail the test)
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=end, args=(t,)) for t in tables]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert errors == []
    assert paired_rounds(tournament) == [1, 2]
    assert Round.objects.filter(tournament=tournament).count() == 2
    assert (
        Pairing.objects.filter(round__tournament=tournament, round__number=2, game__isnull=False).count() == 2
    )


@pytest.mark.django_db
def test_at_the_time_limit_unfinished_games_count_as_they_stand_and_the_next_round_follows(olga: Any) -> None:
    players = make_players("ana", "ben", "cleo", "dan")
    tournament = make_tournament(
        olga, players, system="swiss", rounds=2, auto_rounds=True, round_hours=3, adjudication="standing"
    )
    tables = run_round(tournament, olga)
    round_one = Round.objects.get(tournament=tournament, number=1)
    assert round_one.deadline is not None
    assert round_one.deadline - round_one.started_at == timedelta(hours=3)  # type: ignore[operator]
    # Early (or a task run twice): nothing happens.
    assert services.close_round(tournament_id=tournament.pk, round_number=1) == 0
    later = timezone.now() + timedelta(hours=4)
    assert services.close_round(tournament_id=tournament.pk, round_number=1, now=later) == 2
    for table in tables:
        table.refresh_from_db()
        scores = [s.score for s in table.game.seat_list()]  # type: ignore[union-attr]
        assert (table.override, table.first_score, table.second_score) == ("scores", scores[0], scores[1])
    adjudicated = tournament.events.filter(kind=TournamentEvent.Kind.RESULT_OVERRIDDEN)
    assert [e.data["adjudicated"] for e in adjudicated] == [True, True]
    assert all(e.actor is None for e in adjudicated)
    assert paired_rounds(tournament) == [1, 2]
    assert services.close_round(tournament_id=tournament.pk, round_number=1, now=later) == 0
    assert [s.player for s in services.standings_from_events(tournament)] == [
        s.player for s in services.current_standings(tournament)
    ]


@pytest.mark.django_db
def test_at_the_time_limit_unfinished_games_can_be_forfeits(olga: Any) -> None:
    tournament = make_tournament(
        olga, make_players("ana", "ben"), system="swiss", rounds=2, round_hours=1, adjudication="forfeit"
    )
    (table,) = run_round(tournament, olga)
    services.close_round(tournament_id=tournament.pk, round_number=1, now=timezone.now() + timedelta(hours=2))
    table.refresh_from_db()
    assert (table.override, table.absent) == ("forfeit", "both")
    # Without the automatic option the organiser pairs round two.
    assert paired_rounds(tournament) == [1]
    services.pair_round(tournament=tournament, by=olga)
    assert paired_rounds(tournament) == [1, 2]
