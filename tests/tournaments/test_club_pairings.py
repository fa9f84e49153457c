"""The pairings clubs use, chosen per tournament: King of the Hill in the last round,
Gibsonisation, and a Swiss that says when it could not avoid a rematch."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from tests.factories import make_user
from tests.tournaments.helpers import finish_round, make_players, make_tournament, run_round
from tournaments import rendering, services
from tournaments.models import TournamentEvent
from tournaments.services import TournamentError


@pytest.mark.django_db
def test_king_of_the_hill_is_refused_for_a_round_robin(olga: Any) -> None:
    with pytest.raises(TournamentError) as refused:
        make_tournament(olga, system="roundrobin", king_of_the_hill=True)
    assert refused.value.code == "options_need_swiss"
    with pytest.raises(TournamentError) as refused:
        make_tournament(olga, system="swiss", gibsonize=True, prize_places=0)
    assert refused.value.code == "bad_prize_places"


@pytest.mark.django_db
def test_last_round_of_a_king_of_the_hill_swiss_pairs_first_with_second(olga: Any) -> None:
    players = make_players("ana", "ben", "cleo", "dan")
    tournament = make_tournament(olga, players, system="swiss", rounds=3, king_of_the_hill=True)
    for _ in range(2):
        finish_round(run_round(tournament, olga))
    table = services.current_standings(tournament)
    tables = run_round(tournament, olga)
    top_two = {table[0].player, table[1].player}
    assert {tables[0].first.number, tables[0].second.number} == top_two  # type: ignore[union-attr]
    # After two rounds of four, the leader has met both players on one win and only the
    # last one is new: a plain Swiss would pair the leader with the last; King of the
    # Hill pairs them with second place, a rematch, and the log says so.
    paired = tournament.events.filter(kind=TournamentEvent.Kind.ROUND_PAIRED).order_by("-sequence")[0]
    assert sorted(top_two) in [sorted(pair) for pair in paired.data["repeats"]]


@pytest.mark.django_db
def test_a_swiss_that_must_repeat_says_so_in_the_log(olga: Any) -> None:
    players = make_players("ana", "ben")
    tournament = make_tournament(olga, players, system="swiss", rounds=2)
    finish_round(run_round(tournament, olga))
    run_round(tournament, olga)
    paired = tournament.events.filter(kind=TournamentEvent.Kind.ROUND_PAIRED).order_by("sequence")
    assert paired[0].data["repeats"] == []
    assert sorted(paired[1].data["repeats"][0]) == [1, 2]
    text = rendering.event_text(paired[1], {1: "ana", 2: "ben"})
    assert "rematch" in text
    assert "ana–ben" in text or "ben–ana" in text


@pytest.mark.django_db
def test_the_admin_shows_the_new_settings_without_letting_anyone_edit_them(olga: Any, client: Any) -> None:
    tournament = make_tournament(olga, system="swiss", king_of_the_hill=True, auto_rounds=True)
    client.force_login(make_user("root", is_staff=True, is_superuser=True))
    page = client.get(reverse("admin:tournaments_tournament_change", args=[tournament.pk])).content.decode()
    for field in ("king_of_the_hill", "gibsonize", "auto_rounds", "round_hours", "checkin_opens_at", "event"):
        assert f'name="{field}"' not in page
    assert "King of the Hill in the last round" in page
