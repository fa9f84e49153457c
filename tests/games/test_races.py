"""Concurrent submissions on PostgreSQL (row locks): exactly one wins."""

from __future__ import annotations

import threading
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse

from games.models import Game, Move
from games.services import start_game
from tests.games.helpers import CAT_AT_CENTRE, make_game, tiles

HX = {"HX-Request": "true"}


def run_together(*calls: Callable[[], str]) -> list[str]:
    """Run ``calls`` in threads released at the same moment; each gets its own
    database connection, closed at the end."""
    barrier = threading.Barrier(len(calls))
    results: list[str] = [""] * len(calls)

    def worker(index: int, call: Callable[[], str]) -> None:
        try:
            barrier.wait()
            results[index] = call()
        finally:
            connection.close()

    threads = [threading.Thread(target=worker, args=(i, c)) for i, c in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    return results


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_two_racing_plays_apply_exactly_one(postgres: None, ana: Any, ben: Any) -> None:
    game = make_game(ana, ben, racks=("CATSEOD", "JQXZKVW"))
    version = game.version

    def submit(move: str, action_id: str) -> Callable[[], str]:
        def call() -> str:
            client = Client()
            client.force_login(ana)
            data = {"tiles": move, "version": version, "action_id": action_id}
            return client.post(reverse("games:play", args=[game.pk]), data, headers=HX).text

        return call

    cat = tiles((7, 7, "C"), (7, 8, "A"), (7, 9, "T"))
    do = tiles((6, 7, "D"), (7, 7, "O"))
    answers = run_together(submit(cat, "tab-1"), submit(do, "tab-2"))
    assert Move.objects.filter(game=game).count() == 1
    # The same player in two tabs: the second is told so, not that the opponent played first.
    assert sum("You already moved in this game from another tab" in answer for answer in answers) == 1
    assert not any("your opponent played first" in answer for answer in answers)
    assert Game.objects.get(pk=game.pk).version == version + 1


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_same_action_posted_twice_at_once_is_applied_once(postgres: None, ana: Any, ben: Any) -> None:
    game = make_game(ana, ben, racks=("CATSEOD", "JQXZKVW"))
    version = game.version

    def submit() -> str:
        played = Game.objects.get(pk=game.pk).play(
            ana, CAT_AT_CENTRE, version=version, action_id="double-click"
        )
        return str(played.pk)

    answers = run_together(submit, submit)
    assert Move.objects.filter(game=game).count() == 1
    assert answers[0] == answers[1]


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_two_players_answering_one_seek_do_not_share_it(
    postgres: None, ana: Any, ben: Any, cleo: Any
) -> None:
    seek = start_game(creator=ana, mode="random", language="en")

    def join(user: Any) -> Callable[[], str]:
        return lambda: str(start_game(creator=user, mode="random", language="en").pk)

    results = run_together(join(ben), join(cleo))
    game = Game.objects.get(pk=seek.pk)
    assert game.status == Game.Status.ACTIVE
    assert str(seek.pk) in results
    seated = {s.user for s in game.seat_list()}
    assert len(seated) == 2
    assert ana in seated
    assert Game.objects.filter(status=Game.Status.OPEN).count() == 1  # the other one waits


def consistent(game: Game) -> None:
    """The invariants a race must never break: one Move per version step, numbered
    1..n with no gap, and an engine state that passes its own check."""
    numbers = list(Move.objects.filter(game=game).order_by("number").values_list("number", flat=True))
    assert numbers == list(range(1, len(numbers) + 1))
    assert game.state_obj().moves_played == len(numbers)
    game.state_obj().check()


def poster(user: Any, name: str, game: Game, data: dict[str, Any]) -> Callable[[], str]:
    """A POST by ``user``, signed in now so that the threads race on the POST alone."""
    client = Client()
    client.force_login(user)

    def call() -> str:
        response = client.post(reverse(f"games:{name}", args=[game.pk]), data, headers=HX)
        return f"{response.status_code} {response.text}"

    return call


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_play_racing_resign_leaves_a_consistent_finished_game(postgres: None, ana: Any, ben: Any) -> None:
    game = make_game(ana, ben, racks=("CATSEOD", "JQXZKVW"))
    cat = tiles((7, 7, "C"), (7, 8, "A"), (7, 9, "T"))
    answers = run_together(
        poster(ana, "play", game, {"tiles": cat, "version": game.version, "action_id": "play-1"}),
        poster(ben, "resign", game, {"confirm": "yes", "version": game.version, "action_id": "resign-1"}),
    )
    assert all(answer.startswith("200 ") for answer in answers)
    game.refresh_from_db()
    kinds = list(Move.objects.filter(game=game).order_by("number").values_list("kind", flat=True))
    # Both acted on the same version (required on every action): whichever came second
    # was told that the game moved on. Either the play stands and the game goes on, or
    # the resignation ended it.
    assert kinds in (["play"], ["resign"])
    assert sum("The game moved on" in answer for answer in answers) == 1
    if kinds == ["resign"]:
        assert game.status == Game.Status.FINISHED
        assert game.end_reason == Game.EndReason.RESIGN
    else:
        assert game.status == Game.Status.ACTIVE
    assert game.version == version_after(kinds)
    consistent(game)


def version_after(kinds: list[str]) -> int:
    return 2 + len(kinds)  # make_game: dealt (1), accepted (2), then one per move


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_play_racing_exchange_applies_exactly_one(postgres: None, ana: Any, ben: Any) -> None:
    game = make_game(ana, ben, racks=("CATSEOD", "JQXZKVW"))
    cat = tiles((7, 7, "C"), (7, 8, "A"), (7, 9, "T"))
    answers = run_together(
        poster(ana, "play", game, {"tiles": cat, "version": game.version, "action_id": "tab-1"}),
        poster(ana, "exchange", game, {"exchange": "CAT", "version": game.version, "action_id": "tab-2"}),
    )
    game.refresh_from_db()
    assert Move.objects.filter(game=game).count() == 1
    assert sum("You already moved in this game from another tab" in answer for answer in answers) == 1
    assert game.version == version_after(["one"])
    consistent(game)


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_accept_racing_cancel_ends_in_exactly_one_of_them(postgres: None, ana: Any, ben: Any) -> None:
    game = start_game(creator=ana, mode="friend", language="en", opponent=ben, first=0)
    version = {"version": game.version}
    answers = run_together(poster(ben, "accept", game, version), poster(ana, "decline", game, version))
    game.refresh_from_db()
    assert game.status in (Game.Status.ACTIVE, Game.Status.DECLINED)
    accepted = game.status == Game.Status.ACTIVE
    # The cancel is refused (403) exactly when the acceptance went first.
    assert answers[1].startswith("403 ") == accepted, answers
    # The accepted snapshot, or (both acted on one version, and the invitation was
    # withdrawn: nobody moved) "the game changed".
    assert ("The game changed meanwhile" in answers[0]) != accepted
    assert game.version == 2  # dealt, then exactly one of accept or decline


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_two_friends_inviting_each_other_at_once_do_not_deadlock(postgres: None, ana: Any, ben: Any) -> None:
    def invite(creator: Any, friend: Any) -> Callable[[], str]:
        client = Client()
        client.force_login(creator)  # before the threads start: the posts race closely
        data = {"mode": "friend", "opponent": friend.username, "language": "en"}
        return lambda: str(client.post(reverse("games:new"), data).status_code)

    answers = run_together(invite(ana, ben), invite(ben, ana))
    assert answers == ["302", "302"]
    assert Game.objects.filter(status=Game.Status.INVITED).count() == 2


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_resign_posted_twice_at_once_is_applied_once(postgres: None, ana: Any, ben: Any) -> None:
    game = make_game(ana, ben, racks=("CATSEOD", "JQXZKVW"))
    run_together(
        poster(ben, "resign", game, {"confirm": "yes", "version": game.version, "action_id": "tab-1"}),
        poster(ben, "resign", game, {"confirm": "yes", "version": game.version, "action_id": "tab-2"}),
    )
    game.refresh_from_db()
    assert list(Move.objects.filter(game=game).values_list("kind", flat=True)) == ["resign"]
    assert game.winner_seat == 0
    consistent(game)


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_both_players_asking_for_a_rematch_at_once_get_one_game(postgres: None, ana: Any, ben: Any) -> None:
    game = make_game(ana, ben, racks=("CATSEOD", "JQXZKVW"))
    game.resign(ben, version=game.version)
    answers = run_together(poster(ana, "rematch", game, {}), poster(ben, "rematch", game, {}))
    assert all(answer.startswith("200 ") for answer in answers), answers
    assert Game.objects.filter(rematch_of=game).count() == 1


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_timeout_racing_a_play_ends_in_exactly_one_of_them(postgres: None, ana: Any, ben: Any) -> None:
    game = make_game(ana, ben, racks=("CATSEOD", "JQXZKVW"))
    assert game.turn_deadline is not None
    lapsed = game.turn_deadline + timedelta(minutes=1)
    Game.objects.filter(pk=game.pk).update(turn_noticed_at=lapsed)  # ana was warned
    cat = tiles((7, 7, "C"), (7, 8, "A"), (7, 9, "T"))

    def expire() -> str:
        return str(Game.objects.get(pk=game.pk).timeout(now=lapsed))

    run_together(poster(ana, "play", game, {"tiles": cat, "version": game.version}), expire)
    game.refresh_from_db()
    kinds = list(Move.objects.filter(game=game).values_list("kind", flat=True))
    # The sweep re-checks the deadline under the lock: a play made first resets it.
    assert kinds in (["play"], ["timeout"])
    assert game.status == (Game.Status.ACTIVE if kinds == ["play"] else Game.Status.FINISHED)
    consistent(game)


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_joining_a_seek_racing_its_cancellation_never_seats_anyone_in_a_cancelled_game(
    postgres: None, ana: Any, ben: Any
) -> None:
    seek = start_game(creator=ana, mode="random", language="en")
    client = Client()
    client.force_login(ben)
    join = lambda: str(client.post(reverse("games:new"), {"mode": "random", "language": "en"}).status_code)  # noqa: E731
    answers = run_together(join, poster(ana, "decline", seek, {}))
    seek.refresh_from_db()
    if seek.status == Game.Status.ACTIVE:  # ben took it first; the cancel came too late
        assert answers[1].startswith("403 ")
        assert {s.user for s in seek.seat_list()} == {ana, ben}
    else:  # cancelled first: ben opened a seek of his own
        assert seek.status == Game.Status.DECLINED
        assert not seek.seats.exists()
        assert Game.objects.filter(created_by=ben, status=Game.Status.OPEN).count() == 1


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_two_players_seeking_at_once_are_matched_with_each_other(postgres: None, ana: Any, ben: Any) -> None:
    # No seek is open: without serialising the matching, both would open a seek and wait.
    for _ in range(5):
        Game.objects.all().delete()
        results = run_together(
            lambda: str(start_game(creator=ana, mode="random", language="en").pk),
            lambda: str(start_game(creator=ben, mode="random", language="en").pk),
        )
        assert results[0] == results[1]
        game = Game.objects.get()
        assert game.status == Game.Status.ACTIVE
        assert {s.user for s in game.seat_list()} == {ana, ben}
