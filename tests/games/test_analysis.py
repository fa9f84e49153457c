"""Post-game analysis and the study list (issue 17)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine.analysis import LEVELS, computer_move
from engine.lexicon import WordListLexicon
from games import analysis, models, study
from games.models import Game, GameAnalysis, StudyItem
from tests.engine import reference_rules as ref
from tests.games.helpers import CAT_AT_CENTRE, WORDS, make_game

# The small test words plus one seven-letter word: ana's usual rack CATSEOD makes COASTED.
STUDY_WORDS = [*WORDS, "COASTED"]


@pytest.fixture
def study_lexicon(monkeypatch: pytest.MonkeyPatch) -> WordListLexicon:
    words = WordListLexicon(STUDY_WORDS, engine.tileset("en").alphabet)
    monkeypatch.setattr(models, "lexicon_for", lambda language, version=None: words)
    return words


def random_game(seed: int, lexicon: WordListLexicon, turns: int = 12) -> list[analysis.PlayedMove]:
    """A game between two computer players on the small word list, as recorded moves."""
    rng = random.Random(seed)
    state = engine.new_game("en", rng)
    played: list[analysis.PlayedMove] = []
    for number in range(1, turns + 1):
        if state.over:
            break
        seat = state.turn
        level = rng.choice(LEVELS)
        choice = computer_move(state, seat, lexicon, level, rng)
        result = choice.apply(state, seat, lexicon, rng)
        record = result.record
        played.append(
            analysis.PlayedMove(
                number=number,
                seat=seat,
                kind=record.kind,
                rack_before=record.rack_before,
                tiles=tuple(analysis.tile_of(p) for p in record.placements),
                score=record.score,
                bingo=record.bingo,
                words=tuple(w.word for w in record.words),
            )
        )
        state = result.state
    return played


def test_best_play_and_rank_equal_an_exhaustive_search() -> None:
    lexicon = WordListLexicon(STUDY_WORDS, engine.tileset("en").alphabet)
    moves = random_game(3, lexicon, turns=6)
    entries = analysis.analyse_moves(moves, language="en", layout_name="wwf", lexicon=lexicon)
    board = list(engine.layout("wwf").empty_board())
    checked = 0
    for move, entry in zip((m for m in moves if m.kind in analysis.RATED_KINDS), entries, strict=True):
        brute = ref.brute_force_moves(ref.language("en"), board, move.rack_before, STUDY_WORDS)
        assert entry["of"] == len(brute) + 1  # every play, and not playing
        assert entry["best_score"] == (brute[0]["score"] if brute else 0)
        assert entry["rank"] == 1 + sum(1 for b in brute if b["score"] > entry["played"]["score"])
        checked += 1
        if move.kind == "play":
            analysis.apply_tiles(board, move.tiles)
    assert checked >= 3


@settings(max_examples=25, deadline=None)
@given(st.integers(min_value=0, max_value=10_000))
def test_points_left_are_never_negative_and_rank_one_is_the_best(seed: int) -> None:
    lexicon = WordListLexicon(STUDY_WORDS, engine.tileset("en").alphabet)
    entries = analysis.analyse_moves(
        random_game(seed, lexicon), language="en", layout_name="wwf", lexicon=lexicon
    )
    for entry in entries:
        assert entry["points_left"] >= 0
        assert entry["best_score"] >= entry["played"]["score"]
        assert 1 <= entry["rank"] <= entry["of"]
        assert (entry["rank"] == 1) == (entry["points_left"] == 0)
        assert 0 <= entry["share"] <= 100
    for total in analysis.totals(entries):
        assert total["points_left"] >= 0


@pytest.mark.parametrize("kind", ["exchange", "pass"])
def test_a_swap_or_pass_ranks_among_the_choices_not_below_them(kind: str) -> None:
    lexicon = WordListLexicon(STUDY_WORDS, engine.tileset("en").alphabet)
    move = analysis.PlayedMove(
        number=1, seat=0, kind=kind, rack_before="CATSEOD", tiles=(), score=0, bingo=False, words=()
    )
    (entry,) = analysis.analyse_moves([move], language="en", layout_name="wwf", lexicon=lexicon)
    plays = entry["of"] - 1
    assert plays > 10
    # Every play scores something on an empty board: not playing is the last choice.
    assert entry["rank"] == entry["of"] == plays + 1


def finish_with_a_missed_bingo(ana: Any, ben: Any) -> Game:
    """ana holds CATSEOD (COASTED is a bingo) and plays CAT; ben can only pass; ana resigns."""
    game = make_game(ana, ben, racks=("CATSEOD", "JQXZKVW"))
    game.play(ana, CAT_AT_CENTRE, version=game.version)
    game.pass_turn(ben, version=game.version)
    game.resign(ana, version=game.version)
    return Game.objects.get(pk=game.pk)


@pytest.mark.django_db
def test_the_study_list_collects_exactly_the_missed_bingos(
    ana: Any, ben: Any, study_lexicon: WordListLexicon, settings: Any
) -> None:
    settings.STUDY_MIN_POINTS_LEFT = 10_000  # only bingos
    game = finish_with_a_missed_bingo(ana, ben)
    assert study.store_analysis(game.pk) is True
    assert study.store_analysis(game.pk) is False  # once
    stored = GameAnalysis.objects.get(game=game)
    missed = [(e["seat"], e["number"]) for e in stored.moves if e["missed_bingo"]]
    assert missed == [(0, 1)]
    items = list(StudyItem.objects.values_list("user__username", "kind", "word", "move_number", "rack"))
    assert items == [("ana", "bingo", "COASTED", 1, "CATSEOD")]
    [ana_totals, ben_totals] = stored.totals
    assert ana_totals["bingos_missed"] == 1
    assert ben_totals["bingos_missed"] == 0


@pytest.mark.django_db
def test_high_scoring_misses_are_collected_and_the_quiz_remembers(
    ana: Any, ben: Any, study_lexicon: WordListLexicon, settings: Any
) -> None:
    settings.STUDY_MIN_POINTS_LEFT = 15
    game = finish_with_a_missed_bingo(ana, ben)
    study.store_analysis(game.pk)
    item = study.next_item(ana, "en")
    assert item is not None
    assert item.word == "COASTED"
    assert study.check_answer(item, "coasted") is True
    assert study.check_answer(item, "COATED") is False
    item.refresh_from_db()
    assert (item.right, item.wrong) == (1, 1)
    client = Client()
    client.force_login(ana)
    response = client.post(reverse("games:quiz", args=["en"]), {"item": item.pk, "answer": "coasted"})
    assert "Right: COASTED." in response.text
    csv_text = client.get(reverse("games:study-export", args=["en", "csv"])).content.decode()
    assert csv_text.splitlines()[1].startswith("COASTED,bingo,CATSEOD,,")
    anki = client.get(reverse("games:study-export", args=["en", "txt"])).content.decode().splitlines()
    assert anki[0] == "#separator:tab"
    assert anki[3].startswith("CATSEOD\tCOASTED (")
    # Someone else's item cannot be answered.
    other = Client()
    other.force_login(ben)
    assert other.post(reverse("games:quiz", args=["en"]), {"item": item.pk, "answer": "x"}).status_code == 404
    assert other.get(reverse("games:study", args=["xx"])).status_code == 404


@pytest.mark.django_db
def test_the_game_ending_runs_the_analysis_task(
    ana: Any, ben: Any, study_lexicon: WordListLexicon, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        game = finish_with_a_missed_bingo(ana, ben)
    assert GameAnalysis.objects.filter(game=game).exists()


@pytest.mark.django_db
def test_the_analysis_page_says_when_it_is_not_ready_and_shows_it_when_it_is(
    ana: Any, ben: Any, cleo: Any, study_lexicon: WordListLexicon
) -> None:
    game = make_game(ana, ben, racks=("CATSEOD", "JQXZKVW"))
    client = Client()
    client.force_login(ana)
    assert client.get(reverse("games:analysis", args=[game.pk])).status_code == 403  # not over
    game = finish_with_a_missed_bingo(ana, ben)
    page = client.get(reverse("games:analysis", args=[game.pk])).text
    assert "The analysis is being computed" in page
    study.store_analysis(game.pk)
    page = client.get(reverse("games:analysis", args=[game.pk])).text
    assert "Missed bingo: COASTED" in page
    assert "rank" in page
    # A spectator of a public game sees it too; the board steps like the replay.
    watcher = Client()
    watcher.force_login(cleo)
    assert "Missed bingo: COASTED" in watcher.get(reverse("games:analysis", args=[game.pk])).text
    step = watcher.get(reverse("games:analysis", args=[game.pk]) + "?move=1", headers={"HX-Request": "true"})
    assert 'id="replay"' in step.text
    assert 'data-step="1"' in step.text


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("close_db_connection")
async def test_the_analysis_page_is_pushed_when_the_analysis_is_ready(
    ana: Any, ben: Any, study_lexicon: WordListLexicon, settings: Any
) -> None:
    from asgiref.sync import sync_to_async

    from tests.games.test_game_consumer import connect

    # Finished with the database task backend and no worker: the analysis waits.
    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend", "QUEUES": ["default"]}}
    game = await sync_to_async(finish_with_a_missed_bingo)(ana, ben)
    communicator, connected = await connect(f"/ws/games/{game.pk}/analysis/", ana)
    assert connected
    first = await communicator.receive_from(timeout=5)
    assert "The analysis is being computed" in first
    await sync_to_async(study.store_analysis)(game.pk)
    pushed = await communicator.receive_from(timeout=5)
    assert 'id="analysis"' in pushed
    assert "Missed bingo: COASTED" in pushed
    await communicator.disconnect()
