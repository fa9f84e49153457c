"""The archive: a player's finished games, searched, paged by keyset, summed up against
one opponent and downloaded (``games.archive``, ``/players/<name>/games/``)."""

from __future__ import annotations

import io
import json
import zipfile
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from accounts.services import export_data
from games import archive
from games.archive import Filters
from games.models import Game
from games.records import gcg_text
from tests.games.helpers import make_game
from tests.players.helpers import make_finished_game

pytestmark = pytest.mark.django_db


def resigned(first: Any, second: Any, *, public: bool = True) -> Game:
    """A game played on the one path: dealt, then resigned by ``second`` (a real record)."""
    game = make_game(first, second)
    game.resign(second, version=game.version)
    Game.objects.filter(pk=game.pk).update(is_public=public)
    return Game.objects.get(pk=game.pk)


def streamed(client: Client, fmt: str) -> bytes:
    response: Any = client.get(reverse("archive:download", args=["ana", fmt]))
    assert response.status_code == 200
    return b"".join(response.streaming_content)


def ids(player: Any, viewer: Any, filters: Filters) -> list[int]:
    return [item.game_id for item in archive.page(player, viewer, filters, size=500).items]


def test_filters_combine(ana: Any, ben: Any, cleo: Any) -> None:
    now = timezone.now()
    won_en = make_finished_game(ana, ben, winner=0, finished_at=now - timedelta(days=3))
    lost_en = make_finished_game(ana, ben, winner=1, finished_at=now - timedelta(days=2))
    won_de = make_finished_game(ana, ben, language="de", winner=0, finished_at=now - timedelta(days=1))
    unrated = make_finished_game(ana, cleo, rated=False, winner=0, end_reason="resign", finished_at=now)
    computer = make_finished_game(ana, None, rated=False, mode=Game.Mode.COMPUTER, winner=1, finished_at=now)

    assert ids(ana, ana, Filters()) == [computer.pk, unrated.pk, won_de.pk, lost_en.pk, won_en.pk]
    assert ids(ana, ana, Filters(opponent="BEN", result="win")) == [won_de.pk, won_en.pk]
    assert ids(ana, ana, Filters(opponent="ben", result="win", language="en")) == [won_en.pk]
    assert ids(ana, ana, Filters(rated=False, result="win")) == [unrated.pk]
    assert ids(ana, ana, Filters(opponent="computer")) == [computer.pk]
    assert ids(ana, ana, Filters(mode=Game.Mode.COMPUTER, result="loss")) == [computer.pk]
    assert ids(ana, ana, Filters(end_reason="resign", opponent="ben")) == []
    day = (now - timedelta(days=2)).date()
    assert ids(ana, ana, Filters(since=day, until=day)) == [lost_en.pk]
    assert ids(ana, ana, Filters(tournament=True)) == []
    assert len(ids(ana, ana, Filters(tournament=False))) == 5
    # ben's side of the same games: his wins are ana's losses.
    assert ids(ben, ben, Filters(result="win")) == [lost_en.pk]


def test_a_draw_is_neither_won_nor_lost(ana: Any, ben: Any) -> None:
    draw = make_finished_game(ana, ben, winner=None, scores=(200, 200))
    assert ids(ana, ana, Filters(result="draw")) == [draw.pk]
    assert ids(ana, ana, Filters(result="win")) == ids(ana, ana, Filters(result="loss")) == []


def test_contains_the_word_any_case_and_either_side(ana: Any, ben: Any) -> None:
    quixotic = make_finished_game(
        ana, ben, moves=[(0, "play", "CAT", 10, False), (1, "play", "QUIXOTIC", 90, True)]
    )
    make_finished_game(ana, ben, moves=[(0, "play", "QUIXOTICS", 90, True)])  # another word
    assert ids(ana, ana, Filters(word="quixotic")) == [quixotic.pk]
    assert ids(ana, ana, Filters(word="QuIxOtIc", opponent="ben")) == [quixotic.pk]
    assert ids(ana, ana, Filters(word="XOTIC")) == []  # a whole word, not a part of one
    assert ids(ana, ana, Filters(word="qu!xotic")) == []  # no language spells it


def test_private_game_never_reaches_a_third_player(ana: Any, ben: Any, cleo: Any) -> None:
    public = resigned(ana, ben)
    private = resigned(ana, ben, public=False)

    assert ids(ana, ana, Filters()) == [private.pk, public.pk]
    assert ids(ana, ben, Filters(end_reason="resign")) == [private.pk, public.pk]
    assert ids(ana, cleo, Filters()) == [public.pk]
    assert ids(ana, cleo, Filters(end_reason="resign", opponent="ben")) == [public.pk]

    client = Client()
    client.force_login(cleo)
    page = client.get(reverse("archive:games", args=["ana"]))
    assert page.status_code == 200
    assert reverse("games:detail", args=[public.pk]) in page.text
    assert reverse("games:detail", args=[private.pk]) not in page.text
    lines = streamed(client, "ndjson")
    assert [json.loads(line)["id"] for line in lines.splitlines()] == [public.pk]
    data = streamed(client, "zip")
    assert zipfile.ZipFile(io.BytesIO(data)).namelist() == [f"wordgame-{public.pk}.gcg"]
    summary = archive.head_to_head(ana, cleo, ben, Filters())
    assert summary.games == 1
    # Nor through the API (the archive and the game itself) or cleo's own data export.
    from api.models import ApiToken

    bearer = {"Authorization": f"Bearer {ApiToken.issue(cleo, 'test')[1]}"}
    listed = Client().get("/api/v1/players/ana/games", headers=bearer).json()
    assert [g["id"] for g in listed["games"]] == [public.pk]
    assert listed["head_to_head"] is None
    assert Client().get(f"/api/v1/games/{private.pk}/gcg", headers=bearer).status_code == 404
    assert (
        Client().get("/api/v1/players/ana/games?opponent=ben", headers=bearer).json()["head_to_head"]["games"]
        == 1
    )
    assert export_data(cleo)["games"]["games"] == []


def test_cursor_pages_without_repeats_or_gaps_while_games_finish(ana: Any, ben: Any) -> None:
    start = timezone.now() - timedelta(days=1)
    made = [make_finished_game(ana, ben, finished_at=start + timedelta(minutes=i)).pk for i in range(7)]
    # Two games finished in the same instant: the id breaks the tie.
    made.append(make_finished_game(ana, ben, finished_at=start + timedelta(minutes=6)).pk)
    seen: list[int] = []
    cursor = ""
    pages = 0
    while True:
        found = archive.page(ana, ana, Filters(), cursor=cursor, size=3)
        seen.extend(item.game_id for item in found.items)
        pages += 1
        # A game finishing now sorts before the first page: never into a later one.
        make_finished_game(ana, ben, finished_at=timezone.now())
        if not found.next_cursor:
            break
        cursor = found.next_cursor
    assert pages == 3
    assert len(seen) == len(set(seen))
    assert sorted(seen) == sorted(made)


def test_a_page_costs_the_same_queries_whatever_the_filters_and_depth(ana: Any, ben: Any) -> None:
    for i in range(12):
        make_finished_game(ana, ben, finished_at=timezone.now() - timedelta(hours=i))
    counts = []
    first = archive.page(ana, ana, Filters(), size=4)
    for filters, cursor in (
        (Filters(), ""),
        (Filters(), first.next_cursor),
        (
            Filters(
                opponent="ben",
                result="win",
                word="cat",
                language="en",
                rated=True,
                tournament=False,
                pace="correspondence",
            ),
            "",
        ),
    ):
        with CaptureQueriesContext(connection) as queries:
            archive.page(ana, ana, filters, cursor=cursor, size=4)
        counts.append(len(queries))
    assert counts == [2, 2, 2]


def test_head_to_head(ana: Any, ben: Any, cleo: Any) -> None:
    make_finished_game(ana, ben, scores=(300, 200), winner=0, moves=[(0, "play", "QUIZ", 64, False)])
    make_finished_game(ben, ana, scores=(250, 150), winner=0, moves=[(0, "play", "JINX", 50, False)])
    make_finished_game(ana, ben, scores=(220, 220), winner=None, moves=[(1, "play", "OX", 20, False)])
    make_finished_game(ana, cleo, scores=(500, 100), winner=0, moves=[(0, "play", "ZAX", 99, False)])
    summary = archive.head_to_head(ana, ana, ben, Filters())
    assert (summary.games, summary.wins, summary.losses, summary.draws) == (3, 1, 1, 1)
    assert summary.average_score == pytest.approx((300 + 150 + 220) / 3)
    assert summary.opponent_average_score == pytest.approx((200 + 250 + 220) / 3)
    assert (summary.best_word, summary.best_word_score) == ("QUIZ", 64)
    assert (summary.opponent_best_word, summary.opponent_best_word_score) == ("JINX", 50)


def test_archive_page_filters_and_pages(ana: Any, ben: Any) -> None:
    for i in range(3):
        make_finished_game(ana, ben, finished_at=timezone.now() - timedelta(hours=i))
    client = Client()
    client.force_login(ana)
    mine: Any = client.get(reverse("games:my-archive"))
    assert mine.url == reverse("archive:games", args=["ana"])
    page = client.get(reverse("archive:games", args=["ana"]), {"opponent": "ben", "result": "win"})
    assert page.status_code == 200
    assert 'id="head-to-head"' in page.text
    assert page.text.count("/games/") >= 3
    bad = client.get(reverse("archive:games", args=["ana"]), {"since": "yesterday"})
    assert bad.status_code == 400
    assert client.get(reverse("archive:games", args=["ana"]), {"cursor": "nonsense!"}).status_code == 400


def test_gcg_zip_holds_each_game_record(ana: Any, ben: Any) -> None:
    games = [resigned(ana, ben) for _ in range(3)]
    data = b"".join(archive.gcg_zip_chunks(ana, ana, Filters()))
    with zipfile.ZipFile(io.BytesIO(data)) as zipped:
        assert sorted(zipped.namelist()) == sorted(f"wordgame-{g.pk}.gcg" for g in games)
        text = zipped.read(f"wordgame-{games[0].pk}.gcg").decode()
    assert "#player1" in text
    assert text == gcg_text(games[0])


def test_tournament_filter(ana: Any, ben: Any) -> None:
    from tests.tournaments.helpers import make_organiser, make_tournament, resign, run_round

    olga = make_organiser("olga")
    tournament = make_tournament(olga, [ana, ben], rounds=1, starts_at=timezone.now())
    tables = run_round(tournament, olga)
    played = next(t.game for t in tables if t.game is not None)
    assert played is not None
    loser = ben if played.seat_list()[0].user_id == ana.pk else ana
    resign(played, loser)
    friendly = make_finished_game(ana, ben)
    assert ids(ana, ana, Filters(tournament=True)) == [played.pk]
    assert ids(ana, ana, Filters(tournament=False)) == [friendly.pk]
    assert ids(ana, ana, Filters(tournament=True, result="win" if loser == ben else "loss")) == [played.pk]


def test_the_pace_filter_keeps_live_or_correspondence_games(ana: Any, ben: Any) -> None:
    now = timezone.now()
    correspondence = make_finished_game(ana, ben, winner=0, finished_at=now - timedelta(days=1))
    live = make_finished_game(ana, ben, winner=1, finished_at=now)
    Game.objects.filter(pk=live.pk).update(speed="live", clock_seconds=300, increment_seconds=5)
    assert ids(ana, ana, Filters(pace="live")) == [live.pk]
    assert ids(ana, ana, Filters(pace="correspondence", opponent="ben")) == [correspondence.pk]
    assert ids(ana, ana, Filters()) == [live.pk, correspondence.pk]
    client = Client()
    client.force_login(ana)
    page = client.get(reverse("archive:games", args=["ana"]), {"pace": "live"}).content.decode()
    assert f"/games/{live.pk}/" in page
    assert f"/games/{correspondence.pk}/" not in page
    assert "5 min + 5 s" in page or "5+5" in page or "Live" in page  # the pace's label
    refused = client.get(reverse("archive:games", args=["ana"]), {"pace": "blitz"})
    assert f"/games/{live.pk}/" not in refused.content.decode()
