"""The game as read for one version, shared by the renders of a change in one process
(``games.live.loaded_games``), and the answer to a move as a delta."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from accounts.services import grant_coins, start_vacation
from games import extras, live, rendering
from games.actions import Play
from games.gameview import Loaded, load_game, view_of
from games.models import Game
from games.services import buy_extra
from tests.games.helpers import CAT_AT_CENTRE, make_game, pov_of, two_plays_in_one_commit
from tests.games.test_classic_challenges import CAD_AT_CENTRE

HX = {"HX-Request": "true"}


@pytest.mark.django_db
def test_a_copy_read_before_a_move_holds_only_its_own_versions_moves(ana: Any, ben: Any) -> None:
    game = make_game(ana, ben, racks=("CATSEOD", "AEIOULN"))
    game.play(ana, CAT_AT_CENTRE, version=game.version)
    old = load_game(game.pk)  # read at the version after CAT
    game.pass_turn(ben, version=game.version)  # one more move, after that read
    loaded = Loaded.of(old)
    assert [m.kind for m in loaded.moves] == ["play"]
    assert live.Shown.of(view_of(loaded, old.pov(ana))).moves == 1


@pytest.mark.django_db
def test_a_version_is_read_once_then_shared_until_it_is_too_old(
    ana: Any, ben: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = make_game(ana, ben, racks=("CATSEOD", "AEIOULN"))
    first = live.loaded_games.get(game.pk, game.version)
    with CaptureQueriesContext(connection) as queries:
        again = live.loaded_games.get(game.pk, game.version)
    assert again is first
    assert len(queries) == 0
    # A newer version is not answered from the entry of an older one.
    game.play(ana, CAT_AT_CENTRE, version=game.version)
    newer = live.loaded_games.get(game.pk, game.version)
    assert newer is not first
    assert newer.game.version == game.version
    # Entries are used for LoadedGames.SECONDS at most (what is not part of the game,
    # a vacation or a name, may change without a new version).
    clock = [1000.0]
    monkeypatch.setattr(live.time, "monotonic", lambda: clock[0])
    stamped = live.loaded_games.keep(Loaded.of(load_game(game.pk)))
    assert live.loaded_games.get(game.pk, game.version) is stamped
    clock[0] += live.LoadedGames.SECONDS + 0.1
    assert live.loaded_games.get(game.pk, game.version) is not stamped


@pytest.mark.django_db
def test_the_answer_keeps_the_game_it_read_for_the_pushes_of_the_same_change(
    ana: Any, ben: Any, cleo: Any
) -> None:
    game = make_game(ana, ben, racks=("CATSEOD", "AEIOULN"))
    client = Client()
    client.force_login(ana)
    tiles = ";".join(f"{p.row},{p.col},{p.letter},n" for p in CAT_AT_CENTRE)
    answer = client.post(
        f"/games/{game.pk}/play/", {"tiles": tiles, "version": game.version, "action_id": "x1"}, headers=HX
    )
    assert f'data-base="{game.version}"' in answer.text
    game.refresh_from_db()
    read = load_game(game.pk)
    before = live.Shown.of(live.page_view(read, read.pov(cleo)))
    pov = read.pov(cleo)
    # The spectators' push of this version reads nothing: the answer read the game.
    with CaptureQueriesContext(connection) as queries:
        pushed = live.shared_push(game.pk, pov, None, game.version)
    html, now = pushed.html, pushed.shown
    assert now.version == game.version
    assert now.moves == 1
    assert 'id="board"' in html
    assert [q["sql"] for q in queries.captured_queries] == []
    assert before == now


@pytest.mark.django_db
def test_a_stale_play_answers_with_the_snapshot_of_the_game_as_it_is_now(ana: Any, ben: Any) -> None:
    game = make_game(ana, ben, racks=("CATSEOD", "AEIOULN"))
    client = Client()
    client.force_login(ana)
    stale = game.version
    Game.objects.get(pk=game.pk).pass_turn(ana, version=game.version)
    tiles = ";".join(f"{p.row},{p.col},{p.letter},n" for p in CAT_AT_CENTRE)
    answer = client.post(f"/games/{game.pk}/play/", {"tiles": tiles, "version": stale}, headers=HX).text
    assert 'data-base=""' in answer
    assert 'id="board"' in answer
    assert f'data-version="{stale + 1}"' in answer
    assert "moved on" in answer or "already moved" in answer


@pytest.mark.django_db
def test_entries_past_their_time_are_let_go(ana: Any, ben: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    first = make_game(ana, ben, racks=("CATSEOD", "AEIOULN"))
    second = make_game(ben, ana, racks=("CATSEOD", "AEIOULN"))
    clock = [1000.0]
    monkeypatch.setattr(live.time, "monotonic", lambda: clock[0])
    live.loaded_games.get(first.pk, first.version)
    clock[0] += live.LoadedGames.SECONDS + 0.1
    live.loaded_games.get(second.pk, second.version)
    assert list(live.loaded_games.entries) == [(second.pk, second.version)]


@pytest.mark.django_db
def test_a_views_own_game_is_not_kept_and_a_game_changed_in_place_is_no_hit(ana: Any, ben: Any) -> None:
    game = make_game(ana, ben, racks=("CATSEOD", "AEIOULN"))
    version = game.version
    mine = load_game(game.pk)
    live.loaded_games.of_game(mine)  # a miss: read, not kept (the view may act on it)
    assert live.loaded_games.cached(game.pk, version) is None
    mine.play(ana, CAT_AT_CENTRE, version=version)  # changes ``mine`` in place
    kept = live.loaded_games.get(game.pk, version + 1)
    kept.game.version += 1  # as if changed in place after it was kept
    assert live.loaded_games.cached(game.pk, version + 1) is None


@pytest.mark.django_db
def test_the_answer_uses_what_a_push_of_the_same_change_read(ana: Any, ben: Any, cleo: Any) -> None:
    """The pushes of a change start when it commits, before the mover's answer is
    rendered: the answer takes what they read (one read of the game per change and
    process), and answers the delta all the same."""
    game = make_game(ana, ben, racks=("CATSEOD", "AEIOULN"))
    view_game = load_game(game.pk)
    pov = view_game.pov(ana)
    before = live.before_action(view_game, pov, Play.of(CAT_AT_CENTRE))
    view_game.play(ana, CAT_AT_CENTRE, version=view_game.version)
    live.shared_push(game.pk, pov_of(game.pk, cleo), None, view_game.version)
    reads = live.loaded_games.reads
    with CaptureQueriesContext(connection) as queries:
        html = live.answer(view_game, pov, before, rendering.Frame(oob=True))
    assert live.loaded_games.reads == reads
    assert [q["sql"] for q in queries.captured_queries] == []
    assert html.startswith(
        f'<div id="game-sync" hidden data-version="{view_game.version}" data-base="{game.version}"'
    )


def same_as_read(made: Loaded, viewers: list[Any]) -> None:
    """``made`` (a version made from the one before and its move) holds what reading the
    game now holds, and every viewer's page of it is the same."""
    read = Loaded.of(load_game(made.game.pk))
    assert made.game.version == read.game.version
    fields = ("pk", "number", "kind", "seat", "words", "tiles", "score", "rack_before", "withdrawn")
    assert [tuple(getattr(m, f) for f in fields) for m in made.moves] == [
        tuple(getattr(m, f) for f in fields) for m in read.moves
    ]
    assert made.purchases == read.purchases
    assert made.away == read.away
    assert made.extensions == read.extensions
    frame = rendering.Frame(oob=True, action_id="x")
    for viewer in viewers:
        pov = read.game.pov(viewer)
        assert live.snapshot(view_of(made, pov), frame) == live.snapshot(view_of(read, pov), frame)


# Committed: a version is made when its move commits.
@pytest.mark.django_db(transaction=True)
def test_the_next_version_is_made_from_the_one_held_and_the_move(ana: Any, ben: Any, cleo: Any) -> None:
    game = make_game(ana, ben, racks=("CATSEOD", "AEIOULN"))
    live.loaded_games.get(game.pk, game.version)  # held, as after a push or an answer
    reads, made = live.loaded_games.reads, live.loaded_games.made
    game.play(ana, CAT_AT_CENTRE, version=game.version)
    game.pass_turn(ben, version=game.version)
    game.exchange(ana, "EOD", version=game.version)
    assert (live.loaded_games.reads, live.loaded_games.made) == (reads, made + 3)
    kept = live.loaded_games.cached(game.pk, game.version)
    assert kept is not None
    assert [m.kind for m in kept.moves] == ["play", "pass", "exchange"]
    same_as_read(kept, [ana, ben, cleo])
    # The pushes of the change read nothing.
    pov = pov_of(game.pk, cleo)
    with CaptureQueriesContext(connection) as queries:
        live.shared_push(game.pk, pov, None, game.version)
    assert queries.captured_queries == []


# Committed: a version is made when its move commits.
@pytest.mark.django_db(transaction=True)
def test_a_version_held_longer_than_its_time_reads_the_vacations_again(
    ana: Any, ben: Any, cleo: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = make_game(ana, ben, racks=("CATSEOD", "AEIOULN"))
    clock = [1000.0]
    monkeypatch.setattr(live.time, "monotonic", lambda: clock[0])
    live.loaded_games.get(game.pk, game.version)
    # Ben goes on vacation (no new version of the game) while nobody looks at it.
    start_vacation(user=ben)
    clock[0] += live.LoadedGames.SECONDS + 0.1
    with CaptureQueriesContext(connection) as queries:
        game.play(ana, CAT_AT_CENTRE, version=game.version)
    kept = live.loaded_games.cached(game.pk, game.version)
    assert kept is not None
    assert list(kept.away) == [ben.pk]  # read again: the version held had nobody away
    after = next(i for i, q in enumerate(queries.captured_queries) if q["sql"] == "COMMIT")
    read_after = [q["sql"] for q in queries.captured_queries[after + 1 :]]
    game_tables = ('"games_move"', '"games_extrapurchase"', '"games_gameaction"', '"games_game"')
    assert not [q for q in read_after if any(t in q for t in game_tables)]
    same_as_read(kept, [ana, ben, cleo])


# Committed: a version is made when its move commits.
@pytest.mark.django_db(transaction=True)
def test_no_version_is_made_without_the_one_before_or_after_a_challenge_or_an_end(ana: Any, ben: Any) -> None:
    game = make_game(ana, ben, racks=("CATSEOD", "AEIOULN"))
    # Not held here (another worker's game): nothing is made.
    game.play(ana, CAT_AT_CENTRE, version=game.version)
    assert live.loaded_games.cached(game.pk, game.version) is None
    # Held, then an extra bought (a version without a move): the play after it reads.
    live.loaded_games.get(game.pk, game.version)
    grant_coins(user=ben, amount=20, reason="test")
    buy_extra(game=game, user=ben, extra=extras.TILE_BAG, version=game.version)
    game.refresh_from_db()
    game.pass_turn(ben, version=game.version)
    assert live.loaded_games.cached(game.pk, game.version) is None
    # The end refunds extras bought for the turn: read, never made.
    live.loaded_games.get(game.pk, game.version)
    made = live.loaded_games.made
    game.resign(ana, version=game.version)
    assert live.loaded_games.made == made
    assert live.loaded_games.cached(game.pk, game.version) is None

    classic = make_game(ana, ben, racks=("CATSEOD", "DOGSEAT"), preset="classic", challenge="single")
    live.loaded_games.get(classic.pk, classic.version)
    classic.play(ana, CAD_AT_CENTRE, version=classic.version)  # a phony, made from the one held
    assert live.loaded_games.cached(classic.pk, classic.version) is not None
    made = live.loaded_games.made
    classic.challenge(ben, version=classic.version)  # marks CAD withdrawn: read, not made
    assert live.loaded_games.made == made
    assert live.loaded_games.cached(classic.pk, classic.version) is None
    kept = live.loaded_games.get(classic.pk, classic.version)
    assert [m.withdrawn for m in kept.moves] == [True, False]


@pytest.mark.django_db(transaction=True)
def test_two_moves_in_one_transaction_make_each_version_as_it_was(ana: Any, ben: Any) -> None:
    game = make_game(ana, ben, racks=("CATSEOD", "SJQXZKV"))
    start = game.version
    live.loaded_games.get(game.pk, start)
    first_scores = two_plays_in_one_commit(game, ana, ben)
    first, second = (live.loaded_games.cached(game.pk, start + n) for n in (1, 2))
    assert first is not None
    assert second is not None
    # The later move changed neither the scores nor the state of the version before it.
    assert [s.score for s in first.game.seat_list()] == first_scores
    assert first.game.state["moves_played"] == 1
    assert len(first.moves) == 1
    assert [s.score for s in second.game.seat_list()] == [s.score for s in game.seat_list()]
    same_as_read(second, [ana, ben])
