"""``manage.py simulate_tournament`` plays whole tournaments with the computer in every
seat; the demo's finished tournament loads from its committed fixture."""

from __future__ import annotations

import io
from typing import Any

import pytest
from django.core.management import CommandError, call_command

from games.models import Game, GameAction
from tournaments import exports, services
from tournaments.demo import DEMO_NAME, load_demo_tournament
from tournaments.models import Tournament


def simulate(*args: str) -> tuple[Tournament, list[str]]:
    out, err = io.StringIO(), io.StringIO()
    call_command("simulate_tournament", *args, stdout=out, stderr=err)
    lines = out.getvalue().splitlines()
    return Tournament.objects.get(pk=int(lines[-1])), err.getvalue().splitlines()


def standings_rows(rows: list[Any]) -> list[tuple[int, int, int, int, int]]:
    return [(s.rank, s.player, s.half_points, s.spread, s.total_score) for s in rows]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("system", "players", "rounds"),
    [("roundrobin", 3, 3), ("double-roundrobin", 2, 2), ("swiss", 5, 3)],
)
def test_simulated_tournament_is_played_to_the_end(
    system: str, players: int, rounds: int, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        tournament, progress = simulate(
            "--players", str(players), "--rounds", str(rounds), "--system", system, "--seed", "7"
        )
    tournament.refresh_from_db()  # the last game's follow-up ran on leaving the block
    assert tournament.status == Tournament.Status.FINISHED
    assert tournament.registrations.count() == players
    assert len(progress) == rounds + 1
    games = Game.objects.filter(tournament_pairing__round__tournament=tournament)
    assert games.exists()
    assert not games.exclude(status=Game.Status.FINISHED).exists()
    # Every move was the player's own action (the computer deciding for a user), no
    # computer seat anywhere.
    assert not GameAction.objects.filter(game__in=games, kind="play", user=None).exists()
    assert standings_rows(services.current_standings(tournament)) == standings_rows(
        services.standings_from_events(tournament)
    )
    assert exports.preflight(exports.collect(tournament)).ok


@pytest.mark.django_db
def test_simulation_is_reproducible_from_its_seed(django_capture_on_commit_callbacks: Any) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        first, _ = simulate("--players", "3", "--rounds", "1", "--system", "swiss", "--seed", "11")
    scores = [g.final_scores for g in Game.objects.filter(tournament_pairing__round__tournament=first)]
    with django_capture_on_commit_callbacks(execute=True):
        # The same seed again: the same accounts enter a second tournament.
        again, _ = simulate("--players", "3", "--rounds", "1", "--system", "swiss", "--seed", "11")
    assert again.pk != first.pk
    assert [
        g.final_scores for g in Game.objects.filter(tournament_pairing__round__tournament=again)
    ] == scores


@pytest.mark.django_db
def test_simulation_refuses_a_round_robin_too_long() -> None:
    with pytest.raises(CommandError, match="has 3 rounds"):
        simulate("--players", "3", "--rounds", "4", "--system", "roundrobin")
    with pytest.raises(CommandError, match="at least 2"):
        simulate("--players", "1", "--rounds", "1", "--system", "swiss")


@pytest.mark.django_db
def test_demo_tournament_loads_once_finished_and_rebuilds_from_its_log() -> None:
    lines = load_demo_tournament()
    assert len(lines) == 1
    assert DEMO_NAME in lines[0]
    assert load_demo_tournament() == []
    tournament = Tournament.objects.get(name=DEMO_NAME)
    assert tournament.status == Tournament.Status.FINISHED
    assert tournament.created_by.username == "ana"
    assert tournament.run_by(tournament.created_by)
    games = Game.objects.filter(tournament_pairing__round__tournament=tournament)
    assert games.count() == 6
    assert not games.exclude(status=Game.Status.FINISHED).exists()
    assert standings_rows(services.current_standings(tournament)) == standings_rows(
        services.standings_from_events(tournament)
    )
    data = exports.collect(tournament)
    assert exports.preflight(data).ok
    assert len(data.games) == 6


@pytest.mark.django_db
def test_simulation_with_divisions_check_in_and_late_entries(django_capture_on_commit_callbacks: Any) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        event, progress = simulate(
            "--players", "9", "--rounds", "2", "--system", "swiss", "--seed", "5",
            "--divisions", "2", "--no-shows", "1", "--late", "1",
        )  # fmt: skip
    divisions = list(event.divisions.order_by("division_code"))
    assert [d.division_code for d in divisions] == ["a", "b"]
    # Eight entered on time, one never checked in and was withdrawn; one entered late.
    withdrawn = [r for d in divisions for r in d.registrations.filter(status="withdrawn")]
    assert len(withdrawn) == 1
    assert withdrawn[0].number is None
    assert any(line.startswith("late entry:") for line in progress)
    late = [e for d in divisions for e in d.events.filter(kind="registered", data__missed="loss")]
    assert len(late) == 1
    for division in divisions:
        division.refresh_from_db()
        assert division.status == Tournament.Status.FINISHED
        assert standings_rows(services.current_standings(division)) == standings_rows(
            services.standings_from_events(division)
        )
        assert exports.preflight(exports.collect(division)).ok
    # The strongest division holds the highest ratings.
    info = {
        d.division_code: [services.rating_info(d, [r])[r.pk].rating or 0 for r in d.registrations.all()]
        for d in divisions
    }
    assert min(info["a"]) > max(r for r in info["b"] if r)
