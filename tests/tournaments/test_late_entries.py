"""Late entries: byes or losses for the rounds missed (TSH's convention), a Swiss pairs
the entrant from the next round, a round robin regenerates the rounds not yet played;
the log alone rebuilds all of it."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from tests.tournaments.helpers import finish_round, make_players, make_tournament, run_round
from tournaments import exports, pairing, services
from tournaments.models import Pairing, Tournament
from tournaments.services import TournamentError


def standing_of(tournament: Tournament, number: int) -> Any:
    return next(s for s in services.current_standings(tournament) if s.player == number)


def assert_log_agrees(tournament: Tournament) -> None:
    rebuilt = services.standings_from_events(tournament)
    rows = services.current_standings(tournament)
    assert [(s.player, s.rank, s.half_points, s.spread, s.forfeits, s.byes) for s in rebuilt] == [
        (s.player, s.rank, s.half_points, s.spread, s.forfeits, s.byes) for s in rows
    ]


@pytest.mark.django_db
def test_late_entry_in_a_swiss_takes_losses_for_the_missed_rounds(olga: Any) -> None:
    ana, ben, cleo, dan, eve = make_players("ana", "ben", "cleo", "dan", "eve")
    tournament = make_tournament(olga, [ana, ben, cleo, dan], system="swiss", rounds=4)
    for _ in range(2):
        finish_round(run_round(tournament, olga))
    late = services.register_player(tournament=tournament, user=eve, by=olga, missed="loss", reason="traffic")
    assert late.number == 5
    line = standing_of(tournament, 5)
    assert (line.losses, line.forfeits, line.spread, line.half_points) == (2, 2, -100, 0)
    # A loss is not a bye: the bye of the next round (five players) may go to eve.
    assert all(h.byes == 0 for h in pairing.histories([5], services.past_rounds(tournament)).values())
    tables = run_round(tournament, olga)
    seated = Counter(n for t in tables for n in (t.first.number, t.second.number if t.second else None) if n)
    assert sorted(seated) == [1, 2, 3, 4, 5]
    assert set(seated.values()) == {1}
    finish_round(tables)
    assert_log_agrees(tournament)
    # The TSH file has eve's missed rounds as -50 against nobody.
    lines = list(exports.tsh_lines(exports.collect(tournament, with_games=False)))
    eve_line = next(line for line in lines if line.startswith("eve"))
    assert " 0 0 " in eve_line
    assert "-50 -50" in eve_line


@pytest.mark.django_db
def test_late_entry_in_a_swiss_with_byes_counts_them_as_byes(olga: Any) -> None:
    ana, ben, cleo, dan = make_players("ana", "ben", "cleo", "dan")
    tournament = make_tournament(olga, [ana, ben, cleo], system="swiss", rounds=3)
    finish_round(run_round(tournament, olga))
    services.register_player(tournament=tournament, user=dan, by=olga, missed="bye")
    line = standing_of(tournament, 4)
    assert (line.wins, line.byes, line.spread) == (1, 1, tournament.bye_spread)
    assert_log_agrees(tournament)
    with pytest.raises(TournamentError) as refused:
        services.register_player(tournament=tournament, user=make_players("fay")[0], by=olga, missed="win")
    assert refused.value.code == "bad_missed"


@pytest.mark.django_db
def test_late_entry_waits_while_a_round_is_paired_but_not_started(olga: Any) -> None:
    ana, ben, cleo = make_players("ana", "ben", "cleo")
    tournament = make_tournament(olga, [ana, ben], system="swiss", rounds=2)
    services.pair_round(tournament=tournament, by=olga)
    with pytest.raises(TournamentError) as refused:
        services.register_player(tournament=tournament, user=cleo, by=olga)
    assert refused.value.code == "late_entry_paired_round"
    assert not tournament.registrations.filter(user=cleo).exists()


@pytest.mark.django_db
def test_late_entry_in_a_round_robin_regenerates_the_rounds_not_yet_played(olga: Any) -> None:
    players = make_players("ana", "ben", "cleo", "dan", "eve", "fay")
    gus = make_players("gus")[0]
    tournament = make_tournament(olga, players, system="roundrobin", rounds=5)
    met: Counter[frozenset[int | None]] = Counter()
    for _ in range(2):
        tables = run_round(tournament, olga)
        met.update(frozenset((t.first.number, t.second.number if t.second else None)) for t in tables)
        finish_round(tables)
    services.register_player(tournament=tournament, user=gus, by=olga, missed="bye")
    tournament.refresh_from_db()
    assert [n for n, _tables in tournament.schedule] == [3, 4, 5]
    gus_games = 0
    for number in (3, 4, 5):
        tables = run_round(tournament, olga)
        planned = dict(tournament.schedule)[number]
        assert {frozenset((t.first.number, t.second.number if t.second else None)) for t in tables} == {
            frozenset(pair) for pair in planned
        }
        for t in tables:
            if t.second is None:
                continue
            pair = frozenset((t.first.number, t.second.number))
            met[pair] += 1
            gus_games += 7 in pair
        finish_round(tables)
    # Nobody meets anyone twice; gus plays every round he did not miss but for one bye.
    assert max(met.values()) == 1
    assert gus_games >= 2
    assert_log_agrees(tournament)
    snapshot = services.rebuild(tournament)
    assert snapshot.schedule == tournament.schedule
    byes = Pairing.objects.filter(round__tournament=tournament, round__number__lte=2, second__isnull=True)
    assert [p.first.user for p in byes] == [gus, gus]
