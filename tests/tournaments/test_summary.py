"""The one-page results summary: standings, prizes by rating band, high game and play."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from tests.tournaments.helpers import make_players, make_tournament, run_round
from tournaments import services
from tournaments.simulate import play_out
from tournaments.standings import Standing
from tournaments.summary import BandPrize, band_prizes, summary


def test_band_prizes_go_to_the_best_player_below_each_cap_once() -> None:
    ranked = [Standing(p, rank=i) for i, p in enumerate([1, 2, 3, 4, 5], start=1)]
    ratings = {1: 1500, 2: 1250, 3: None, 4: 1100, 5: 1000}
    # Player 1 wins the main prize; 2 is best below 1600; 4 best below 1300 (2 has one).
    assert band_prizes(ranked, ratings, [1300, 1600], prize_places=1) == [
        BandPrize(1600, 2, 2),
        BandPrize(1300, 4, 4),
    ]
    assert band_prizes(ranked, ratings, [900], prize_places=1) == [BandPrize(900, None, None)]


@pytest.mark.django_db
def test_the_results_page_shows_standings_prizes_and_the_highs(olga: Any, client: Any) -> None:
    players = make_players("ana", "ben", "cleo", "dan")
    for user, rating in zip(players, (1800, 1700, 1400, 1200), strict=True):
        services.set_membership(user=user, body="naspa", number="N", rating=rating)
    tournament = make_tournament(
        olga, players, system="swiss", rounds=1, rating_body="naspa", prize_bands=[1500], prize_places=1
    )
    for table in run_round(tournament, olga):
        play_out(table.game, {})  # type: ignore[arg-type]
    data = summary(tournament)
    assert data["prizes"][0]["cap"] == 1500
    assert data["prizes"][0]["name"] in {"cleo", "dan"}
    best = max(r.score or 0 for s in services.current_standings(tournament) for r in s.results)
    assert data["high_game"].score == best
    assert data["high_play"] is not None
    assert data["high_play"].score > 0
    page = client.get(reverse("tournaments:summary", args=[tournament.pk])).content.decode()
    assert 'id="results-summary"' in page
    assert "Best rated below 1500" in page
    assert f"{best}" in page
    assert data["high_play"].words in page


@pytest.mark.django_db
def test_an_events_results_page_has_a_section_per_division(olga: Any, client: Any) -> None:
    event = make_tournament(olga, name="Club weekend", system="swiss", rounds=1)
    services.add_division(event=event, by=olga, name="Premier", rating_min=1500)
    services.add_division(event=event, by=olga, name="Open", rating_max=1499)
    page = client.get(reverse("tournaments:summary", args=[event.pk])).content.decode()
    assert page.count('class="summary-division"') == 2
    assert "A · Premier" in page
    assert "B · Open" in page


@pytest.mark.django_db
def test_the_organiser_sets_the_prize_bands_later_and_the_log_keeps_them(olga: Any, client: Any) -> None:
    tournament = make_tournament(olga, make_players("ana", "ben"), rounds=1)
    client.force_login(olga)
    url = reverse("tournaments:prize-bands", args=[tournament.pk])
    client.post(url, {"prize_bands": "1300, 1600", "reason": "sponsor"}, headers={"HX-Request": "true"})
    tournament.refresh_from_db()
    assert tournament.prize_bands == [1600, 1300]
    assert services.rebuild(tournament).settings["prize_bands"] == [1600, 1300]
    client.post(url, {"prize_bands": "abc"}, headers={"HX-Request": "true"})
    tournament.refresh_from_db()
    assert tournament.prize_bands == [1600, 1300]
    client.force_login(make_players("ana")[0])
    assert client.post(url, {"prize_bands": "1000"}).status_code == 403
