"""Live clocks under a challenge rule (issues 28 and 32 together): in a challenge window
the clock of the player who may challenge runs; a challenge or an accept after their flag
is refused like any move; a challenge earns no increment; and the flag falling in the last
play's window accepts the play (the game ends as scored, with the overtime penalty)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

import engine
from games import services, tasks
from games.actions import AcceptPlay, Challenge
from games.models import Game, GameError, Move
from games.pace import Pace
from games.services import start_game
from tests.games.helpers import make_game
from tests.games.test_classic_challenges import CAD_AT_CENTRE, last_tiles
from tests.games.test_live_clocks import run_back, started

GOING_OUT = [engine.Placement(7, 0, "C"), engine.Placement(7, 1, "A"), engine.Placement(7, 2, "T")]


def live_rules_game(ana: Any, ben: Any, code: str, *, sudden_death: bool = False) -> Game:
    """ana (seat 0, to move) against ben, live at ``code``, classic rules, single challenge."""
    return make_game(
        ana,
        ben,
        racks=("CATSEOD", "DOGSEAT"),
        pace=Pace.parse(code, sudden_death=sudden_death),
        preset="classic",
        challenge="single",
    )


@pytest.mark.django_db
def test_a_challenge_runs_the_challengers_clock_without_an_increment(ana: Any, ben: Any) -> None:
    game = live_rules_game(ana, ben, "5+5")
    game = run_back(game, 10)
    game.play(ana, CAD_AT_CENTRE, version=game.version)
    game.refresh_from_db()
    assert game.clock_ms is not None
    assert 295_000 - 1_000 <= game.clock_ms[0] <= 295_000  # ten seconds less, five added
    assert (game.turn_seat, game.clock_ms[1]) == (1, 300_000)
    game = run_back(game, 20)  # ben thinks twenty seconds, then challenges the phony
    challenge = game.challenge(ben, version=game.version)
    game.refresh_from_db()
    assert challenge.kind == "challenge"
    assert challenge.invalid_words == "CAD"
    # Ben's twenty seconds charged, no increment for a challenge; his clock runs again.
    assert game.clock_ms is not None
    assert 280_000 - 1_000 <= game.clock_ms[1] <= 280_000
    assert Move.objects.get(pk=challenge.pk).clock_ms == game.clock_ms
    assert game.turn_seat == 1
    assert game.turn_deadline == started(game) + timedelta(milliseconds=game.clock_ms[1], minutes=10)


@pytest.mark.django_db
def test_a_challenge_or_accept_after_the_flag_is_refused(ana: Any, ben: Any) -> None:
    game = live_rules_game(ana, ben, "1+0", sudden_death=True)
    last_tiles(game, ("CAT", "QZ"))
    game.play(ana, GOING_OUT, version=game.version)
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE  # the last play's window: ben's clock runs
    assert game.turn_seat == 1
    game = run_back(game, 61)  # ben's flag fell a second ago; its task has not run yet
    version = game.version
    for action in (Challenge(), AcceptPlay()):
        with pytest.raises(GameError) as refused:
            game.act(ben, action, version=version)
        assert refused.value.code == "time_up"
    game.refresh_from_db()
    assert (game.version, game.status) == (version, Game.Status.ACTIVE)


@pytest.mark.django_db
def test_the_flag_in_the_last_plays_window_accepts_it_with_the_overtime_penalty(ana: Any, ben: Any) -> None:
    game = live_rules_game(ana, ben, "1+0")
    last_tiles(game, ("CAT", "QZ"))
    play = game.play(ana, GOING_OUT, version=game.version)
    game.refresh_from_db()
    game = run_back(game, 60 + 10 * 60)  # ben used his minute and the ten of overtime
    flag = game.turn_deadline
    assert tasks.clock_flag.call(game.pk, game.version) is True
    game.refresh_from_db()
    # Accepted, not lost on time: ana went out, the classic double of ben's rack to her.
    assert (game.status, game.end_reason, game.winner_seat) == (Game.Status.FINISHED, "out", 0)
    assert game.finished_at == flag
    assert Move.objects.filter(game=game, kind=Move.Kind.ACCEPT).count() == 1
    assert not Move.objects.filter(game=game, kind=Move.Kind.TIMEOUT).exists()
    assert Move.objects.get(game=game, kind=Move.Kind.PENALTY, seat=1).score == -100
    assert game.final_scores == [play.score + 40, -100]


def rules_seek(user: Any, challenge: str) -> Game:
    return start_game(
        creator=user,
        mode=Game.Mode.RANDOM,
        language="en",
        pace=Pace.parse("5+0"),
        preset="classic",
        challenge=challenge,
    )


@pytest.mark.django_db
def test_open_requests_meet_only_under_the_same_rules_and_say_which(ana: Any, ben: Any, cleo: Any) -> None:
    first = rules_seek(ana, "double")
    other = rules_seek(ben, "single")  # same pace and rating, other rules: a request of his own
    assert other.pk != first.pk
    Game.objects.filter(pk__in=[first.pk, other.pk]).update(created_at=timezone.now() - timedelta(hours=10))
    assert services.match_waiting(game_id=first.pk) is None
    client = Client()
    client.force_login(cleo)
    page = client.get(reverse("games:seeks")).content.decode()
    assert "Classic rules · Double challenge" in page
    assert "Classic rules · Single challenge" in page
    listed = {s["id"]: (s["rules"], s["challenge"]) for s in seeks_api(cleo)}
    assert listed == {first.pk: ("classic", "double"), other.pk: ("classic", "single")}
    # Waited long enough, a live seeker plays the computer under the request's rules.
    game = services.computer_instead(user=ana, game_id=first.pk)
    assert (game.rules_preset, game.challenge_rule, game.is_live) == ("classic", "double", True)
    assert game.state_obj().rules.challenge == "double"


def seeks_api(user: Any) -> list[dict[str, Any]]:
    from api.models import ApiToken

    token = ApiToken.issue(user, "test")[1]
    answer = Client().get("/api/v1/games/seeks", headers={"Authorization": f"Bearer {token}"})
    assert answer.status_code == 200
    return list(answer.json())
