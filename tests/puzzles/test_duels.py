"""Rack duels: the challenger's own move of a finished game put to a friend, the exact
position, the answer hidden until the friend has played, both told through the
notification centre, and nothing else of any game shown."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

import engine
from accounts.models import Friendship
from games.models import Game, Move
from notifications.models import Notification
from puzzles import duels, selection
from puzzles.models import Duel
from puzzles.services import PuzzleError
from tests.puzzles.test_daily import make_source_game, tiles_text

pytestmark = pytest.mark.django_db


def befriend(a: Any, b: Any) -> None:
    Friendship.objects.create(from_user=a, to_user=b, status=Friendship.Status.ACCEPTED)


def client_for(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_duel_has_the_exact_position_and_hides_the_answer(ana: Any, ben: Any) -> None:
    befriend(ana, ben)
    game = make_source_game((ana, ben), 21)
    move = Move.objects.get(game=game, number=3)
    assert move.seat == 0  # ana's move
    sent = client_for(ana).post(reverse("puzzles:duel-new", args=[game.pk, 3]), {"opponent": "BEN"})
    duel = Duel.objects.get()
    assert sent["Location"] == reverse("puzzles:duel", args=[duel.pk])
    before = selection.board_before(
        engine.layout().empty_board(),
        [
            [(t["row"], t["col"], t["letter"].lower() if t["blank"] else t["letter"]) for t in m.tiles]
            for m in Move.objects.filter(game=game, number__lt=3)
        ],
    )
    assert (tuple(duel.board), duel.rack) == (before, move.rack_before)
    assert (duel.challenger_score, duel.best_score) == (move.score, duel.top[0]["score"])
    # ben is told, in the same transaction as the duel.
    told = Notification.objects.get(recipient=ben, kind="duel")
    assert told.path == reverse("puzzles:duel", args=[duel.pk])
    page = client_for(ben).get(told.path)
    assert page.status_code == 200
    assert page.context["result"] is None  # ben plays
    html = page.content.decode()
    best_word = duel.top[0]["words"][0][0]
    assert best_word not in html
    assert 'id="duel-result"' not in html
    # ana waits and sees no answer either.
    waiting = client_for(ana).get(told.path).content.decode()
    assert "Waiting for ben to play" in waiting
    assert best_word not in waiting
    # The free preview scores ben's tiles on the duel's position, and says why bad ones fail.
    preview = reverse("puzzles:duel-preview", args=[duel.pk])
    panel = client_for(ben).post(preview, {"tiles": tiles_text(duel.top[0]["tiles"])}).content.decode()
    assert 'id="move-panel"' in panel
    assert str(duel.top[0]["score"]) in panel
    assert "invalid" in client_for(ben).post(preview, {"tiles": "0,0,Q,n"}).content.decode()
    assert Duel.objects.get().answered_at is None  # a preview changes nothing
    # ben plays the second-best play: the first answer counts.
    answer = reverse("puzzles:duel-answer", args=[duel.pk])
    assert client_for(ana).post(answer, {"tiles": tiles_text(duel.top[0]["tiles"])}).status_code == 403
    client_for(ben).post(answer, {"tiles": tiles_text(duel.top[1]["tiles"])})
    client_for(ben).post(answer, {"tiles": tiles_text(duel.top[0]["tiles"])})
    duel.refresh_from_db()
    assert (duel.score, duel.rank) == (
        duel.top[1]["score"],
        1 + sum(1 for p in duel.top if p["score"] > duel.top[1]["score"]),
    )
    result = Notification.objects.get(recipient=ana, kind="duel")
    assert result.params == {
        "variant": "answered",
        "who": "ben",
        "theirs": duel.score,
        "mine": duel.challenger_score,
        "best": duel.best_score,
    }
    assert best_word in client_for(ben).get(told.path).content.decode()


def test_a_duel_shows_only_the_challengers_rack_of_a_finished_game(ana: Any, ben: Any, cleo: Any) -> None:
    befriend(ana, ben)
    game = make_source_game((ana, ben), 22)
    # Another seat's move: never their rack.
    with pytest.raises(PuzzleError, match="duel_not_yours"):
        duels.challenge(challenger=ana, game=game, number=2, opponent_name="ben")
    # A game under way: never a live rack, even one's own.
    Game.objects.filter(pk=game.pk).update(status=Game.Status.ACTIVE)
    game.refresh_from_db()
    with pytest.raises(PuzzleError, match="duel_not_finished"):
        duels.challenge(challenger=ana, game=game, number=1, opponent_name="ben")
    assert client_for(ana).get(reverse("puzzles:duel-new", args=[game.pk, 1])).status_code == 403
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    game.refresh_from_db()
    # Only friends, not oneself.
    with pytest.raises(PuzzleError, match="duel_not_friend"):
        duels.challenge(challenger=ana, game=game, number=1, opponent_name="cleo")
    with pytest.raises(PuzzleError, match="duel_self"):
        duels.challenge(challenger=ana, game=game, number=1, opponent_name="ana")
    assert not Duel.objects.exists()
    duel = duels.challenge(challenger=ana, game=game, number=1, opponent_name="ben")
    # Only its two players see it.
    assert client_for(cleo).get(reverse("puzzles:duel", args=[duel.pk])).status_code == 404
    # The replay offers the duel on ana's own moves only, and only to her.
    replay = reverse("games:replay", args=[game.pk])
    new = reverse("puzzles:duel-new", args=[game.pk, 3])
    assert new in client_for(ana).get(replay + "?move=3").content.decode()
    assert (
        reverse("puzzles:duel-new", args=[game.pk, 2])
        not in client_for(ana).get(replay + "?move=2").content.decode()
    )
    assert new not in client_for(ben).get(replay + "?move=3").content.decode()
