"""Fair-play signals in rated games (issue 29, point 4): each analysed rated game keeps each
player's move ranks, shares of the best score and times; over a player's last rated games in
a language, figures above the thresholds file one report for the moderators, by the site."""

from __future__ import annotations

import importlib
from datetime import timedelta
from typing import Any

import pytest
from django.apps import apps as django_apps
from django.db import IntegrityError, transaction
from django.test import Client
from django.urls import reverse
from django.utils import timezone

import engine
from accounts.models import Report
from accounts.services import file_system_report, resolve_reports
from dictionaries.lexicons import for_language
from engine.lexicon import WordListLexicon
from games import analysis, fairplay, moderation, study
from games.models import FairPlayGame, Game, GameAction, Move, Seat
from scripts.fairplay_simulation import HUMAN_PROFILES, best_policy, human_policy, simulate_game

pytestmark = pytest.mark.django_db

#: The human-like fixture: the strongest of the simulated human profiles.
HUMAN_LIKE = human_policy(HUMAN_PROFILES["expert"])
#: Seconds each simulated move took, for the times the report carries.
SECONDS_PER_MOVE = 40


def rated_game_from(moves: list[analysis.PlayedMove], first: Any, second: Any, *, number: int) -> Game:
    """A finished rated game stored as the site stores one (game, seats, move rows with
    their times), from simulated ``moves``: what the ``analyse_game`` task then reads."""
    started = timezone.now() - timedelta(days=30) + timedelta(hours=number)
    game = Game.objects.create(
        language="en",
        mode=Game.Mode.RANDOM,
        status=Game.Status.FINISHED,
        created_by=first,
        seed=number,
        inactivity_days=5,
        rated=True,
        end_reason="out",
        finished_at=started + timedelta(seconds=SECONDS_PER_MOVE * len(moves)),
        version=len(moves) + 1,
    )
    users = (first, second)
    for index, user in enumerate(users):
        Seat.objects.create(game=game, index=index, user=user)
    GameAction.objects.create(game=game, version=1, kind="deal")
    GameAction.objects.filter(game=game).update(created_at=started)
    for m in moves:
        Move.objects.create(
            game=game,
            number=m.number,
            seat=m.seat,
            user=users[m.seat],
            kind=m.kind,
            tiles=list(m.tiles),
            words=[{"word": w} for w in m.words],
            score=m.score,
            bingo=m.bingo,
            rack_before=m.rack_before,
        )
    for m in moves:
        Move.objects.filter(game=game, number=m.number).update(
            created_at=started + timedelta(seconds=SECONDS_PER_MOVE * m.number)
        )
    return game


def test_an_always_best_player_is_flagged_within_ten_rated_games_and_the_human_like_is_not(
    ana: Any, ben: Any
) -> None:
    lexicon = for_language("en")
    flagged_after = None
    for number in range(20):
        human_seat = number % 2
        moves = simulate_game(HUMAN_LIKE, human_seat, language="en", lexicon=lexicon, seed=f"test:{number}")
        players = (ana, ben) if human_seat == 1 else (ben, ana)
        game = rated_game_from(moves, *players, number=number)
        assert study.store_analysis(game.pk)
        if flagged_after is None and Report.objects.filter(reported=ana).exists():
            flagged_after = number + 1
    assert flagged_after is not None
    assert flagged_after <= 10
    # ben, the human-like fixture, is never flagged over his 20 rated games.
    assert not Report.objects.filter(reported=ben).exists()
    # One open report for ana in English, however many games came after.
    (report,) = Report.objects.filter(reported=ana)
    assert report.by_system
    assert report.reporter is None
    assert report.language == "en"
    assert report.reason == Report.Reason.CHEATING
    assert (
        FairPlayGame.objects.filter(user=ana).count() == FairPlayGame.objects.filter(user=ben).count() == 20
    )


def test_the_report_carries_the_figures_and_the_moderators_see_them(ana: Any, ben: Any, mia: Any) -> None:
    lexicon = for_language("en")
    for number in range(fairplay.THRESHOLDS.min_games):
        moves = simulate_game(HUMAN_LIKE, 1, language="en", lexicon=lexicon, seed=f"figures:{number}")
        study.store_analysis(rated_game_from(moves, ana, ben, number=number).pk)
    report = Report.objects.get(reported=ana)
    figures = report.figures
    assert figures["games"] == fairplay.THRESHOLDS.min_games
    assert figures["moves"] >= fairplay.THRESHOLDS.min_moves
    assert figures["top_share"] >= fairplay.THRESHOLDS.top_share
    assert figures["best_share"] >= fairplay.THRESHOLDS.best_share
    # The time per move, from the moves' timestamps: each took SECONDS_PER_MOVE.
    assert figures["median_seconds"] == SECONDS_PER_MOVE
    assert figures["thresholds"]["top_share"] == fairplay.THRESHOLDS.top_share
    games = list(Game.objects.order_by("-finished_at").values_list("pk", flat=True))
    assert figures["game_ids"] == games
    assert report.game_id == games[0]
    # Recomputed from the stored rows, the figures are the same.
    rows = FairPlayGame.objects.filter(user=ana).order_by("-finished_at")
    again = fairplay.figures(
        [fairplay.GameSignals(tuple(r.ranks), tuple(r.shares), tuple(r.seconds)) for r in rows]
    )
    assert again.top_share == figures["top_share"]
    assert again.best_share == figures["best_share"]

    client = Client()
    client.force_login(mia)
    page = client.get(reverse("admin:accounts_report_change", args=[report.pk])).text
    assert f"Top plays: {figures['top_share']} % of {figures['moves']} moves" in page
    assert "the site (fair-play review)" in page
    # Each game's own shares, so the moderator sees whether all games carry the total.
    assert [g["game"] for g in figures["per_game"]] == games
    assert f"Game {games[0]}: {figures['per_game'][0]['moves']} moves" in page
    listing = client.get(reverse("admin:accounts_report_changelist")).text
    assert "the site (fair-play review)" in listing


def flagged_rows(user: Any, *, games: int, first_game: int = 0, finished_at: Any = None) -> None:
    """Rated games where every move of ``user`` was the top play (rows as the analysis
    leaves them)."""
    at = finished_at or timezone.now()
    for number in range(first_game, first_game + games):
        game = Game.objects.create(
            language="en",
            mode=Game.Mode.RANDOM,
            status=Game.Status.FINISHED,
            created_by=user,
            seed=number,
            inactivity_days=5,
            rated=True,
            finished_at=at,
        )
        FairPlayGame.objects.create(
            user=user,
            game=game,
            language="en",
            finished_at=at,
            ranks=[1] * 12,
            shares=[100] * 12,
            seconds=[30] * 12,
        )


def test_no_duplicate_open_report_and_a_decision_is_not_asked_again_on_the_same_games(
    ana: Any, mia: Any
) -> None:
    flagged_rows(ana, games=fairplay.THRESHOLDS.min_games)
    first = moderation.review_fair_play(ana, "en")
    assert first is not None
    # Reviewed again (a later game, a duplicate task): no second open report.
    assert moderation.review_fair_play(ana, "en") is None
    assert file_system_report(reported=ana, reason="cheating", language="en", figures={}) is None
    assert Report.objects.filter(reported=ana).count() == 1
    # Another language is another review.
    assert file_system_report(reported=ana, reason="cheating", language="fr", figures={}) is not None
    # Once dealt with, the same games do not file it again; new games above the
    # thresholds do.
    resolve_reports(reports=[first], moderator=mia, note="looked at it")
    assert moderation.review_fair_play(ana, "en") is None
    flagged_rows(
        ana,
        games=fairplay.THRESHOLDS.min_games,
        first_game=100,
        finished_at=timezone.now() + timedelta(minutes=1),
    )
    second = moderation.review_fair_play(ana, "en")
    assert second is not None
    assert second.pk != first.pk
    assert second.figures["games"] == fairplay.THRESHOLDS.min_games


def test_too_few_games_or_moves_file_nothing(ana: Any) -> None:
    flagged_rows(ana, games=fairplay.THRESHOLDS.min_games - 1)
    assert moderation.review_fair_play(ana, "en") is None
    assert not Report.objects.exists()


def test_a_swap_with_plays_on_offer_is_not_a_top_play_and_a_forced_one_is_not_counted() -> None:
    words = WordListLexicon(["CAT", "CATS", "ACT", "AT", "TA", "SAT"], engine.tileset("en").alphabet)
    moves = [
        # A swap while plays were there: ranked below every scoring play, 0 % of the best.
        analysis.PlayedMove(1, 0, "exchange", "CATSEOD", (), 0, False, ()),
        # No legal play at all: a pass is the only choice, and says nothing.
        analysis.PlayedMove(2, 1, "pass", "JQXZKVW", (), 0, False, ()),
    ]
    entries = analysis.analyse_moves(moves, language="en", layout_name="wwf", lexicon=words)
    swap, forced = entries
    assert swap["rank"] == swap["of"] > 1
    assert swap["share"] == 0
    assert forced["rank"] == forced["of"] == 1
    assert fairplay.signals_of(entries, 0, {1: 12}) == fairplay.GameSignals(
        ranks=(swap["rank"],), shares=(0,), seconds=(12,)
    )
    assert fairplay.signals_of(entries, 1, {2: 5}).moves == 0


def test_unrated_games_and_bots_are_not_reviewed(ana: Any, ben: Any) -> None:
    lexicon = for_language("en")
    moves = simulate_game(best_policy, 0, language="en", lexicon=lexicon, seed="unrated")
    game = rated_game_from(moves, ana, ben, number=0)
    Game.objects.filter(pk=game.pk).update(rated=False)
    assert study.store_analysis(game.pk)
    assert not FairPlayGame.objects.exists()
    ben.is_bot = True
    ben.save()
    rated = rated_game_from(moves, ana, ben, number=1)
    assert study.store_analysis(rated.pk)
    assert list(FairPlayGame.objects.values_list("user__username", flat=True)) == ["ana"]


def test_the_database_holds_one_open_system_report_per_player_and_language(ana: Any, ben: Any) -> None:
    """Two reviews racing both pass the check before either files: the constraint refuses
    the second (``file_system_report`` then answers None)."""
    fields = {"reported": ana, "reason": "cheating", "language": "en", "by_system": True}
    Report.objects.create(**fields)
    with pytest.raises(IntegrityError), transaction.atomic():
        Report.objects.create(**fields)
    # Players' own reports and resolved ones are not held by it.
    Report.objects.create(reporter=ben, reported=ana, reason="cheating")
    Report.objects.create(**{**fields, "resolved": True})
    assert Report.objects.filter(reported=ana).count() == 3


def test_rated_games_analysed_before_keep_their_signals_through_the_migration(ana: Any, ben: Any) -> None:
    migration = importlib.import_module("games.migrations.0013_fair_play_signals_from_stored_analyses")
    moves = simulate_game(HUMAN_LIKE, 1, language="en", lexicon=for_language("en"), seed="before")
    game = rated_game_from(moves, ana, ben, number=0)
    study.store_analysis(game.pk)
    kept = {r.user_id: (r.ranks, r.shares, r.seconds) for r in FairPlayGame.objects.all()}
    FairPlayGame.objects.all().delete()
    migration.keep_signals(django_apps, None)
    assert {r.user_id: (r.ranks, r.shares, r.seconds) for r in FairPlayGame.objects.all()} == kept
    assert kept[ana.pk][0]
    assert not Report.objects.exists()
