"""The daily puzzle: one position per UTC day and game language, the same for everyone
and after a restart, scored against the engine; first answers, streaks, the calendar
and a result to share that gives nothing away."""

from __future__ import annotations

import random
from datetime import UTC, date, datetime, timedelta
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

import engine
from engine import analysis, movegen
from games.models import Game, Move, Seat, lexicon_for
from puzzles import selection, services
from puzzles.models import Attempt, Puzzle

pytestmark = pytest.mark.django_db

DAY = date(2026, 11, 27)


def at(day: date, hour: int = 12) -> datetime:
    return datetime(day.year, day.month, day.day, hour, tzinfo=UTC)


def tiles_text(tiles: list[list[Any]]) -> str:
    """A stored play's tiles in the page's form field syntax."""
    return ";".join(f"{r},{c},{ch.upper()},{'b' if ch.islower() else 'n'}" for r, c, ch in tiles)


def placements(tiles: list[list[Any]]) -> list[engine.Placement]:
    return [engine.Placement(r, c, ch.upper(), ch.islower()) for r, c, ch in tiles]


def client_for(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_same_puzzle_for_two_players_and_after_a_restart(ana: Any, ben: Any) -> None:
    puzzle = services.daily_puzzle(DAY, "en")
    assert services.daily_puzzle(DAY, "en").pk == puzzle.pk
    assert Puzzle.objects.filter(day=DAY, language="en").count() == 1
    # Worked out again from the seed (another process, after a restart): the same puzzle.
    again = services.choose(DAY, "en")
    assert (again.seed, again.rack, again.board, again.best_score, again.top) == (
        puzzle.seed,
        puzzle.rack,
        puzzle.board,
        puzzle.best_score,
        puzzle.top,
    )
    # Another day or language is another seed.
    assert services.choose(DAY + timedelta(days=1), "en").seed != puzzle.seed
    url = reverse("puzzles:day", args=["en", DAY.isoformat()])
    pages = [client_for(u).get(url) for u in (ana, ben)]
    assert all(p.status_code == 200 for p in pages)
    assert pages[0].context["rack"] == pages[1].context["rack"]
    assert "".join(t["letter"] for t in pages[0].context["rack"]) == puzzle.rack
    assert pages[0].context["squares"] == pages[1].context["squares"]
    # Nothing of the answer is on the page before the player answers.
    assert pages[0].context["result"] is None
    assert puzzle.top[0]["words"][0][0] not in pages[0].content.decode()


def test_best_score_is_the_engines_and_stands_out(ana: Any) -> None:
    puzzle = services.daily_puzzle(DAY, "fr")
    lexicon = lexicon_for("fr", puzzle.dictionary_version)
    found = movegen.best(
        puzzle.board_obj(),
        puzzle.rack,
        tileset=puzzle.tileset(),
        layout=engine.layout(puzzle.layout),
        lexicon=lexicon,
        k=2,
    )
    assert puzzle.best_score == found[0].score
    assert puzzle.second_score == found[1].score
    assert selection.qualifies(puzzle.best_score, puzzle.second_score)
    assert (
        puzzle.plays
        == movegen.count(
            puzzle.board_obj(),
            puzzle.rack,
            tileset=puzzle.tileset(),
            layout=engine.layout(puzzle.layout),
            lexicon=lexicon,
        ).count
    )
    attempt, created = services.submit(
        puzzle=puzzle, user=ana, placements=placements(puzzle.top[0]["tiles"]), now=at(DAY)
    )
    assert created
    assert attempt.score == puzzle.best_score
    assert attempt.rank == 1
    shown = services.result(puzzle, attempt, now=at(DAY))
    assert (shown.share, shown.rank, shown.top[0].yours) == (100, 1, True)
    assert len(shown.top) == 5
    assert [p.score for p in shown.top] == sorted((p.score for p in shown.top), reverse=True)


def test_first_submission_counts(ana: Any) -> None:
    puzzle = services.daily_puzzle(DAY, "en")
    second, best = puzzle.top[1], puzzle.top[0]
    client = client_for(ana)
    submit = reverse("puzzles:submit", args=["en", DAY.isoformat()])
    first = client.post(submit, {"tiles": tiles_text(second["tiles"])})
    assert first.status_code == 302
    client.post(submit, {"tiles": tiles_text(best["tiles"])})
    attempt = Attempt.objects.get(puzzle=puzzle, user=ana)
    assert attempt.score == second["score"] < puzzle.best_score
    assert attempt.rank == 1 + sum(1 for p in puzzle.top if p["score"] > second["score"])
    page = client.get(reverse("puzzles:day", args=["en", DAY.isoformat()]))
    # The answer is shown now: the best plays with their words.
    assert page.context["result"].score == second["score"]
    assert best["words"][0][0] in page.content.decode()


def test_bad_input_gets_a_clear_error_and_changes_nothing(ana: Any) -> None:
    puzzle = services.daily_puzzle(services.today(), "en")
    client = client_for(ana)
    submit = reverse("puzzles:submit", args=["en", puzzle.day.isoformat()])
    garbled = client.post(submit, {"tiles": "7,7"})
    assert garbled.status_code == 400
    assert "The tiles sent could not be read." in garbled.content.decode()
    empty = client.post(submit, {"tiles": ""})
    assert "Place at least one tile on the board." in empty.content.decode()
    off = client.post(submit, {"tiles": "0,0,Q,n;14,14,Q,n"})
    assert off.status_code == 400
    assert not Attempt.objects.exists()
    preview = client.post(
        reverse("puzzles:preview", args=["en", puzzle.day.isoformat()]), {"tiles": "0,0,Q,n"}
    )
    assert 'id="move-panel"' in preview.content.decode()
    assert "invalid" in preview.content.decode()
    assert client.get(reverse("puzzles:daily", args=["xx"])).status_code == 404
    future = (services.today() + timedelta(days=3)).isoformat()
    assert client.get(reverse("puzzles:day", args=["en", future])).status_code == 404
    assert client.get(reverse("puzzles:day", args=["en", "not-a-day"])).status_code == 404
    # A past day nobody chose is not made up on request.
    assert client.get(reverse("puzzles:day", args=["en", "2020-01-01"])).status_code == 404
    assert not Puzzle.objects.filter(day=date(2020, 1, 1)).exists()


def test_a_missed_day_ends_a_streak(ana: Any) -> None:
    days = [DAY + timedelta(days=i) for i in range(5)]
    puzzles = [services.daily_puzzle(d, "en") for d in days]

    def answer(i: int, when: date) -> None:
        services.submit(
            puzzle=puzzles[i], user=ana, placements=placements(puzzles[i].top[0]["tiles"]), now=at(when)
        )

    answer(0, days[0])
    answer(1, days[1])
    assert services.streak(ana, "en", now=at(days[1])) == 2
    # Still 2 the next morning, before today's is answered...
    assert services.streak(ana, "en", now=at(days[2], 8)) == 2
    # ...but day 2 missed (answered late, from the calendar: not rated) ends it.
    answer(2, days[3])
    assert not Attempt.objects.get(puzzle=puzzles[2]).rated
    answer(3, days[3])
    assert services.streak(ana, "en", now=at(days[3])) == 1
    assert services.streak(ana, "en", now=at(days[4] + timedelta(days=1))) == 0
    assert services.streak(ana, "fr", now=at(days[3])) == 0


def test_shared_result_holds_no_letters(ana: Any) -> None:
    for language in ("en", "de"):
        puzzle = services.daily_puzzle(DAY, language)
        attempt, _ = services.submit(
            puzzle=puzzle, user=ana, placements=placements(puzzle.top[2]["tiles"]), now=at(DAY)
        )
        text = services.result(puzzle, attempt, now=at(DAY)).share_text
        assert not any(ch.isalpha() for ch in text), text
        assert f"{services.share_of(attempt.score, puzzle.best_score)}%" in text
        assert f"#{attempt.rank}/{puzzle.plays}" in text


def test_calendar_lists_past_puzzles_playable_unrated(ana: Any) -> None:
    today = services.today()
    past = services.daily_puzzle(today - timedelta(days=2), "en")
    client = client_for(ana)
    page = client.get(reverse("puzzles:calendar", args=["en"]))
    assert [d.day for d in page.context["days"]] == [past.day]
    client.post(
        reverse("puzzles:submit", args=["en", past.day.isoformat()]),
        {"tiles": tiles_text(past.top[0]["tiles"])},
    )
    attempt = Attempt.objects.get(puzzle=past, user=ana)
    assert not attempt.rated
    assert services.streak(ana, "en") == 0


def make_source_game(players: tuple[Any, Any], seed: int, *, turns: int = 8) -> Game:
    """A finished public game the computer played through for both seats."""
    lexicon = lexicon_for("en")
    rng = random.Random(seed)
    state = engine.new_game("en", rng)
    game = Game.objects.create(
        language="en",
        mode=Game.Mode.FRIEND,
        status=Game.Status.FINISHED,
        created_by=players[0],
        seed=seed,
        inactivity_days=11,
        state=state.to_dict(),
        finished_at=at(DAY - timedelta(days=1)),
    )
    for index, user in enumerate(players):
        Seat.objects.create(game=game, index=index, user=user)
    for number in range(1, turns + 1):
        if state.over:
            break
        seat = state.turn
        rack = state.racks[seat]
        choice = analysis.computer_move(state, seat, lexicon, "hard", rng)
        played = choice.apply(state, seat, lexicon, rng)
        state = played.state
        Move.objects.create(
            game=game,
            number=number,
            seat=seat,
            user=players[seat],
            kind=choice.kind,
            tiles=[
                {"row": p.row, "col": p.col, "letter": p.letter, "blank": p.blank} for p in choice.placements
            ],
            score=choice.score,
            words=[w.to_dict() for w in played.record.words],
            rack_before=rack,
            engine_record={},
        )
    game.state = state.to_dict()
    game.save(update_fields=["state"])
    return game


def test_puzzle_comes_from_a_finished_public_game_when_there_are_enough(
    ana: Any, ben: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(services, "MIN_SOURCE_GAMES", 2)
    monkeypatch.setattr(selection, "MIN_BEST", 1)
    monkeypatch.setattr(selection, "MIN_MARGIN", 0)
    games = [make_source_game((ana, ben), seed) for seed in (11, 12)]
    private = make_source_game((ana, ben), 13)
    Game.objects.filter(pk=private.pk).update(is_public=False)
    puzzle = services.daily_puzzle(DAY, "en")
    assert puzzle.source == Puzzle.Source.GAME
    assert puzzle.game_id in {g.pk for g in games}
    game_id, number = puzzle.origin
    move = Move.objects.get(game_id=game_id, number=number)
    assert puzzle.rack == move.rack_before
    before = selection.board_before(
        engine.layout().empty_board(),
        [
            [(t["row"], t["col"], t["letter"].lower() if t["blank"] else t["letter"]) for t in m.tiles]
            for m in Move.objects.filter(game_id=game_id, number__lt=number)
        ],
    )
    assert tuple(puzzle.board) == before
    # Games that ended on the puzzle's day or later are not used: the pool is fixed.
    assert services.choose(DAY, "en").origin == puzzle.origin


def test_nightly_task_chooses_every_language_once() -> None:
    from puzzles.tasks import choose_daily_puzzles

    choose_daily_puzzles.call(DAY.isoformat())
    choose_daily_puzzles.call(DAY.isoformat())
    assert sorted(Puzzle.objects.filter(day=DAY).values_list("language", flat=True)) == sorted(
        engine.LANGUAGES
    )


def test_puzzles_open_in_the_interface_language_when_it_is_a_game_language(ana: Any) -> None:
    from django.conf import settings

    client = client_for(ana)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "de"
    assert client.get(reverse("puzzles:index"))["Location"] == reverse("puzzles:daily", args=["de"])
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "sv"
    assert client.get(reverse("puzzles:index"))["Location"] == reverse("puzzles:daily", args=["en"])


def test_two_requests_choosing_at_once_keep_one_puzzle(monkeypatch: pytest.MonkeyPatch) -> None:
    real_choose = services.choose

    def other_process_first(day: date, language: str) -> Puzzle:
        # Another process stores the day's puzzle while this one is still choosing.
        made = real_choose(day, language)
        first = real_choose(day, language)
        first.save()
        return made

    monkeypatch.setattr(services, "choose", other_process_first)
    puzzle = services.daily_puzzle(DAY, "it")
    assert Puzzle.objects.filter(day=DAY, language="it").count() == 1
    assert puzzle.pk == Puzzle.objects.get(day=DAY, language="it").pk


def test_a_players_answers_are_in_their_data_and_go_with_their_account(ana: Any) -> None:
    from puzzles.player_data import PuzzlesPlayerData

    puzzle = services.daily_puzzle(DAY, "en")
    services.submit(puzzle=puzzle, user=ana, placements=placements(puzzle.top[0]["tiles"]), now=at(DAY))
    data = PuzzlesPlayerData().export(ana)
    assert [(a["day"], a["score"], a["rated"]) for a in data["answers"]] == [
        (DAY.isoformat(), puzzle.best_score, True)
    ]
    PuzzlesPlayerData().erase(ana)
    assert not Attempt.objects.exists()


@pytest.mark.django_db
def test_the_nightly_chain_is_started_by_the_sweeps_keeper_once(settings: Any) -> None:
    """Nobody has to remember ``manage.py daily_puzzles``: wherever the sweep's chain is
    made sure of (a task worker starting, each sweep, ``setup_site``), the nightly choice
    is enqueued when none is waiting, and only then."""
    from django_tasks_db.models import DBTaskResult

    from games import tasks, worker
    from puzzles.tasks import choose_daily_puzzles

    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend", "QUEUES": ["default"]}}
    worker.recover_tasks()
    tasks.ensure_sweep()
    chain = DBTaskResult.objects.filter(task_path=choose_daily_puzzles.module_path)
    assert chain.count() == 1
    assert chain.get().args_kwargs["args"][1] is True  # it schedules the next midnight's
