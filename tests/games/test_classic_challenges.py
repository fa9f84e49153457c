"""The classic preset and the challenge rules in the site (issue 32): a game made with
them is dealt by them, a phony stands provisionally until it is challenged off, the
challenge rules' penalties, the computer's challenges, the last play's window holding
the end, and the classic bingo, going out and scoreless ending."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from datetime import timedelta
from typing import Any

import pytest
from django.urls import reverse

import engine
from games import models
from games.gameview import view_for
from games.models import Game, GameError, Move
from games.records import gcg_text
from games.services import rematch, start_game
from tests.games.helpers import CAT_AT_CENTRE, at_version, context, push, set_racks

# Not in the small word list of tests/games/helpers.py: a phony.
CAD_AT_CENTRE = [engine.Placement(7, 7, "C"), engine.Placement(7, 8, "A"), engine.Placement(7, 9, "D")]


def rules_game(
    creator: Any,
    opponent: Any,
    *,
    preset: str = "classic",
    challenge: str = "single",
    racks: tuple[str, str] = ("CATSEOD", "DOGSEAT"),
) -> Game:
    """An active friend game under ``preset`` and ``challenge``, ``creator`` to move."""
    game = start_game(
        creator=creator,
        mode=Game.Mode.FRIEND,
        language="en",
        opponent=opponent,
        first=0,
        preset=preset,
        challenge=challenge,
    )
    game.accept(opponent, version=game.version)
    set_racks(game, racks)
    game.refresh_from_db()
    return game


def computer_rules_game(user: Any, *, challenge: str, racks: tuple[str, str]) -> Game:
    game = start_game(
        creator=user,
        mode=Game.Mode.COMPUTER,
        language="en",
        level="hard",
        first=0,
        preset="classic",
        challenge=challenge,
    )
    set_racks(game, racks)
    game.refresh_from_db()
    return game


def last_tiles(game: Game, racks: tuple[str, str]) -> None:
    """The end of a game: an empty bag, ``racks`` on the racks and every other tile on
    the top rows of the board (blanks as lowercase E), seat 0 to move."""
    state = game.state_obj()
    pool = Counter(state.tileset.full_bag())
    pool.subtract("".join(racks))
    filler = "".join("e" if t == engine.BLANK else t for t in pool.elements())
    size = len(state.board)
    rows = [filler[i : i + size].ljust(size, engine.EMPTY) for i in range(0, len(filler), size)]
    board = tuple(rows + [engine.EMPTY * size] * (size - len(rows)))
    new = replace(state, board=board, racks=racks, bag="", turn=0)
    new.check()
    game.state = new.to_dict()
    game.turn_seat = 0
    game.save()


@pytest.mark.django_db
def test_classic_game_is_dealt_with_the_classic_board_tiles_and_rule(ana: Any, ben: Any) -> None:
    game = rules_game(ana, ben, challenge="double")
    state = game.state_obj()
    assert (game.rules_preset, game.challenge_rule) == ("classic", "double")
    assert state.rules == engine.preset("classic", "en", challenge="double")
    assert state.tileset.language == "en-scrabble"
    assert state.layout == "scrabble"
    assert len(state.bag) + 14 == 100  # the classic set's 100 tiles
    page: dict[str, Any] = context(game, ana)
    assert page["rules_label"] == "Classic rules · Double challenge"
    # The board drawn is the classic one: a triple word in the corner, the centre a double.
    squares = page["squares"]
    assert squares[0][0]["premium"] == engine.layout("scrabble").premium(0, 0)
    assert [t["value"] for t in page["rack"]] == [engine.tileset("en-scrabble").value(t) for t in "CATSEOD"]


@pytest.mark.django_db
def test_classic_preset_refused_for_a_language_without_classic_tiles(ana: Any, ben: Any) -> None:
    with pytest.raises(GameError) as exc:
        start_game(creator=ana, mode=Game.Mode.FRIEND, language="es", opponent=ben, preset="classic")
    assert exc.value.code == "bad_rules"
    assert not Game.objects.exists()


@pytest.mark.django_db
def test_phony_is_accepted_provisionally_then_challenged_off_with_its_score(ana: Any, ben: Any) -> None:
    game = rules_game(ana, ben, challenge="single")
    play = game.play(ana, CAD_AT_CENTRE, version=game.version)
    # Accepted: CAD on the classic centre (a double word) with classic values C3 A1 D2.
    assert play.score == 12
    game.refresh_from_db()
    assert game.state_obj().pending is not None
    assert game.seats.get(index=0).score == 12
    assert "challenge" in game.allowed_actions(ben)
    assert "play" in game.allowed_actions(ben)

    challenge = game.challenge(ben, version=game.version)
    game.refresh_from_db()
    state = game.state_obj()
    assert challenge.kind == "challenge"
    assert challenge.invalid_words == "CAD"
    assert challenge.score == -12
    assert challenge.challenged_seat == 0
    assert state.board[7][7:10] == engine.EMPTY * 3
    assert state.racks[0] == "CATSEOD"  # the tiles are back, the drawn ones in the bag
    assert game.seats.get(index=0).score == 0
    assert game.turn_seat == 1  # single: the challenger moves
    assert Move.objects.get(pk=play.pk).withdrawn
    # The move log says what happened, the running total back to 0.
    lines = view_for(game, ana).moves
    assert lines[0].withdrawn
    assert lines[1].kind == "challenge"
    assert lines[1].invalid_words == ("CAD",)
    assert lines[1].total == 0
    assert "not in the dictionary" in lines[1].announce


@pytest.mark.django_db
def test_single_challenge_of_a_valid_play_costs_nothing(ana: Any, ben: Any) -> None:
    game = rules_game(ana, ben, challenge="single")
    game.play(ana, CAT_AT_CENTRE, version=game.version)
    challenge = game.challenge(ben, version=game.version)
    game.refresh_from_db()
    assert challenge.invalid_words == ""
    assert challenge.score == 0
    assert game.turn_seat == 1  # ben still moves
    assert game.state_obj().board[7][7:10] == "CAT"


@pytest.mark.django_db
def test_double_challenge_of_a_valid_play_costs_the_challenger_the_turn(ana: Any, ben: Any) -> None:
    game = rules_game(ana, ben, challenge="double")
    play = game.play(ana, CAT_AT_CENTRE, version=game.version)
    game.challenge(ben, version=game.version)
    game.refresh_from_db()
    assert game.turn_seat == 0  # ben lost his turn
    assert game.seats.get(index=0).score == play.score
    assert not Move.objects.get(pk=play.pk).withdrawn
    # Challenged once: the play stands and there is nothing more to challenge.
    with pytest.raises(GameError) as exc:
        game.challenge(ana, version=game.version)
    assert exc.value.code == "nothing_to_challenge"
    game.resign(ben, version=game.version)
    game.refresh_from_db()
    # A lost double challenge is the challenger's pass with Macondo's note.
    assert "#note #unsuccessful-challenge" in gcg_text(game)


@pytest.mark.django_db
def test_five_point_rule_gives_the_challenged_player_five(ana: Any, ben: Any) -> None:
    game = rules_game(ana, ben, challenge="five")
    play = game.play(ana, CAT_AT_CENTRE, version=game.version)
    challenge = game.challenge(ben, version=game.version)
    game.refresh_from_db()
    assert challenge.score == 5
    assert challenge.challenged_seat == 0
    assert game.seats.get(index=0).score == play.score + 5
    assert game.turn_seat == 1
    assert view_for(game, ben).moves[1].total == play.score + 5


@pytest.mark.django_db
def test_void_rule_has_nothing_to_challenge_and_refuses_a_phony(ana: Any, ben: Any) -> None:
    game = rules_game(ana, ben, challenge="void")
    with pytest.raises(engine.IllegalMove) as exc:
        game.play(ana, CAD_AT_CENTRE, version=game.version)
    assert exc.value.code == "word_not_in_lexicon"
    game.play(ana, CAT_AT_CENTRE, version=game.version)
    assert "challenge" not in game.allowed_actions(ben)


@pytest.mark.django_db
def test_computer_challenges_a_phony_and_never_a_valid_play(
    ana: Any, django_capture_on_commit_callbacks: Any
) -> None:
    game = computer_rules_game(ana, challenge="double", racks=("CATSEOD", "DOGSEAT"))
    with django_capture_on_commit_callbacks(execute=True):
        game.play(ana, CAD_AT_CENTRE, version=game.version)
    kinds = list(Move.objects.filter(game=game).order_by("number").values_list("kind", "invalid_words"))
    # It challenged CAD off, then played its own move (a challenge keeps its turn).
    assert kinds[:3] == [("play", ""), ("challenge", "CAD"), ("play", "")]

    valid = computer_rules_game(ana, challenge="double", racks=("CATSEOD", "DOGSEAT"))
    with django_capture_on_commit_callbacks(execute=True):
        valid.play(ana, CAT_AT_CENTRE, version=valid.version)
    assert list(Move.objects.filter(game=valid).order_by("number").values_list("kind", flat=True)) == [
        "play",
        "play",
    ]


@pytest.mark.django_db
def test_last_play_waits_for_its_window_then_a_challenge_takes_it_back(ana: Any, ben: Any) -> None:
    game = rules_game(ana, ben, challenge="single")
    last_tiles(game, ("CAT", "QZ"))
    # CAT goes under the filled rows: its down words are phonies in the small word list.
    going_out = [engine.Placement(7, 0, "C"), engine.Placement(7, 1, "A"), engine.Placement(7, 2, "T")]
    game.play(ana, going_out, version=game.version)
    game.refresh_from_db()
    # Ana went out, but the game is not over: ben may challenge or accept, nothing else.
    assert game.status == Game.Status.ACTIVE
    assert game.finished_at is None
    assert game.allowed_actions(ben) >= {"challenge", "accept_play"}
    assert "play" not in game.allowed_actions(ben)
    assert "pass" not in game.allowed_actions(ben)
    with pytest.raises(GameError) as exc:
        game.pass_turn(ben, version=game.version)
    assert exc.value.code == "challenge_window_open"
    page = context(game, ben)
    assert page["can_challenge"]
    assert page["can_accept_play"]
    assert page["pending_final"]

    game.challenge(ben, version=game.version)
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    assert game.state_obj().racks[0] == "CAT"


@pytest.mark.django_db
def test_last_play_accepted_ends_the_game_with_the_classic_double_for_going_out(ana: Any, ben: Any) -> None:
    game = rules_game(ana, ben, challenge="double")
    last_tiles(game, ("CAT", "QZ"))
    going_out = [engine.Placement(7, 0, "C"), engine.Placement(7, 1, "A"), engine.Placement(7, 2, "T")]
    play = game.play(ana, going_out, version=game.version)
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    accepted = game.accept_play(ben, version=game.version)
    game.refresh_from_db()
    assert accepted.kind == "accept"
    assert game.status == Game.Status.FINISHED
    assert game.end_reason == "out"
    # Classic going out: twice ben's rack (Q 10 + Z 10) to ana; ben loses nothing.
    assert game.final_scores == [play.score + 40, 0]
    assert game.winner_seat == 0
    record = gcg_text(game)
    assert "#note Wordgame-Language: en-scrabble" in record
    assert "(QZ) +40" in record


@pytest.mark.django_db
def test_timeout_in_the_last_plays_window_accepts_it(ana: Any, ben: Any) -> None:
    game = rules_game(ana, ben, challenge="single")
    last_tiles(game, ("CAT", "QZ"))
    going_out = [engine.Placement(7, 0, "C"), engine.Placement(7, 1, "A"), engine.Placement(7, 2, "T")]
    game.play(ana, going_out, version=game.version)
    game.refresh_from_db()
    game.warn_before_timeout = False
    game.save(update_fields=["warn_before_timeout"])
    assert game.turn_deadline is not None
    game.timeout(now=game.turn_deadline + timedelta(seconds=1))
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert game.end_reason == "out"
    assert game.winner_seat == 0


@pytest.mark.django_db
def test_classic_bingo_is_worth_fifty(ana: Any, ben: Any) -> None:
    game = rules_game(ana, ben, challenge="single")
    seven = [engine.Placement(7, 4 + i, letter) for i, letter in enumerate("CATSEOD")]
    move = game.play(ana, seven, version=game.version)
    assert move.bingo
    assert move.score == sum(w["score"] for w in move.words) + 50


@pytest.mark.django_db
def test_six_scoreless_turns_end_a_classic_game(ana: Any, ben: Any) -> None:
    game = rules_game(ana, ben, challenge="double")
    for turn in range(6):
        assert game.status == Game.Status.ACTIVE
        game.pass_turn(ana if turn % 2 == 0 else ben, version=game.version)
        game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert game.end_reason == "scoreless"
    tiles = engine.tileset("en-scrabble")
    assert game.final_scores == [-tiles.rack_value("CATSEOD"), -tiles.rack_value("DOGSEAT")]


@pytest.mark.django_db
def test_rematch_keeps_the_rules(ana: Any, ben: Any) -> None:
    game = rules_game(ana, ben, challenge="five")
    game.resign(ben, version=game.version)
    again = rematch(game=game, user=ana)
    assert (again.rules_preset, again.challenge_rule) == ("classic", "five")
    assert again.state_obj().rules.challenge == "five"


@pytest.mark.django_db
def test_new_game_form_and_challenge_button(client: Any, ana: Any, ben: Any) -> None:
    client.force_login(ana)
    response = client.post(
        reverse("games:new"),
        {"mode": "friend", "opponent": "ben", "language": "en", "preset": "classic", "challenge": "double"},
    )
    assert response.status_code == 302
    game = Game.objects.get()
    assert (game.rules_preset, game.challenge_rule) == ("classic", "double")
    game.accept(ben, version=game.version)
    set_racks(game, ("CATSEOD", "DOGSEAT"))
    game.refresh_from_db()
    game.play(game.seat_user(0), CAD_AT_CENTRE, version=game.version)
    challenger = game.seat_user(1)
    client.force_login(challenger)
    page = client.get(reverse("games:detail", args=[game.pk]))
    assert 'form="challenge-form"' in page.text
    assert "Classic rules" in page.text
    answer = client.post(
        reverse("games:challenge", args=[game.pk]), at_version(game), headers={"HX-Request": "true"}
    )
    assert answer.status_code == 200
    assert Move.objects.filter(game=game, kind="challenge", invalid_words="CAD").exists()
    # Nothing left to challenge: a second click is refused with the sentence.
    again = client.post(
        reverse("games:challenge", args=[game.pk]), at_version(game), headers={"HX-Request": "true"}
    )
    assert "There is no play to challenge now." in again.text


@pytest.mark.django_db
def test_new_game_form_refuses_classic_spanish(client: Any, ana: Any) -> None:
    client.force_login(ana)
    response = client.post(
        reverse("games:new"), {"mode": "computer", "level": "easy", "language": "es", "preset": "classic"}
    )
    assert response.status_code == 200
    assert not Game.objects.exists()


@pytest.mark.django_db
def test_hindsight_and_analysis_under_the_classic_preset(ana: Any, ben: Any) -> None:
    from games import study

    game = rules_game(ana, ben, challenge="single", racks=("CATSEOD", "DOGSEAT"))
    game.play(ana, CAD_AT_CENTRE, version=game.version)
    game.challenge(ben, version=game.version)
    game.refresh_from_db()
    game.resign(ben, version=game.version)
    game.refresh_from_db()
    # The record says it as Quackle and Macondo write it: the play, then its withdrawal.
    record = gcg_text(game)
    assert ">ana: CATSEOD 8H CAD +12 12" in record
    assert ">ana: CATSEOD -- -12 0" in record
    entries, _totals, _seconds = study.analyse(game)
    first = entries[0]
    # Ana's rack on the empty classic board: the best play is scored with classic values
    # on the classic board (CATS, ACTS... at the centre's double word).
    assert first["best"] is not None
    best = engine.evaluate(
        engine.layout("scrabble").empty_board(),
        [engine.Placement(r, c, ch.upper(), ch.islower()) for r, c, ch in first["best"]["tiles"]],
        tileset=engine.tileset("en-scrabble"),
        layout=engine.layout("scrabble"),
        lexicon=models.lexicon_for("en"),
    )
    assert first["best_score"] == best.score
    # The challenge that took CAD back left the board empty for the next move's analysis.
    assert all(e["kind"] != "challenge" for e in entries)


@pytest.mark.django_db
def test_both_pages_hear_of_a_challenge_live(ana: Any, ben: Any) -> None:
    game = rules_game(ana, ben, challenge="single")
    game.play(ana, CAD_AT_CENTRE, version=game.version)
    _html, shown_ana = push(game.pk, ana, None)
    html_ben, shown_ben = push(game.pk, ben, None)
    assert 'form="challenge-form"' in html_ben  # ben may challenge: his page offers it
    game.refresh_from_db()
    game.challenge(ben, version=game.version)
    html_ana, _ = push(game.pk, ana, shown_ana)
    # The delta: the squares emptied, the log resent with the phony marked, ana's rack
    # back (to her alone), the scores.
    assert 'id="move-log"' in html_ana
    assert "withdrawn after a challenge" in html_ana
    assert 'id="rack-tiles"' in html_ana
    html_ben, _ = push(game.pk, ben, shown_ben)
    assert "not in the dictionary" in html_ben
    assert 'id="rack-tiles"' not in html_ben  # his own rack did not change
    assert 'form="challenge-form"' not in html_ben


@pytest.mark.django_db
def test_staff_see_no_rack_in_a_provisional_play(ana: Any, ben: Any) -> None:
    from games.admin import private_view

    game = rules_game(ana, ben, challenge="single")
    game.play(ana, CAD_AT_CENTRE, version=game.version)
    game.refresh_from_db()
    shown = private_view(game, game.state)
    assert isinstance(shown, dict)
    assert "CATSEOD" not in str(shown)
    assert game.state["pending"]["drawn"] not in str(shown["pending"])


@pytest.mark.django_db
def test_preview_under_a_challenge_rule_scores_without_checking_words(ana: Any, ben: Any) -> None:
    game = rules_game(ana, ben, challenge="double")
    evaluation = game.preview(game.pov(ana), CAD_AT_CENTRE)
    assert evaluation.score == 12  # no free look-up: the phony is scored, not refused
    void = rules_game(ana, ben, challenge="void")
    with pytest.raises(engine.IllegalMove) as exc:
        void.preview(void.pov(ana), CAD_AT_CENTRE)
    assert exc.value.code == "word_not_in_lexicon"


@pytest.mark.django_db
def test_hindsight_under_the_classic_preset(ana: Any, ben: Any) -> None:
    from games.gameview import hindsight_of

    game = rules_game(ana, ben, challenge="void")
    game.play(ana, CAT_AT_CENTRE, version=game.version)
    game.refresh_from_db()
    moves = list(game.moves.order_by("number"))
    found = hindsight_of(game, moves, 1, game.state_obj())
    assert found.best is not None
    classic = engine.evaluate(
        engine.layout("scrabble").empty_board(),
        [engine.Placement(r, c, ch.upper(), ch.islower()) for r, c, ch in found.best["tiles"]],
        tileset=engine.tileset("en-scrabble"),
        layout=engine.layout("scrabble"),
        lexicon=models.lexicon_for("en"),
    )
    assert found.best["score"] == classic.score
    assert found.played["score"] == 10  # CAT: (3 + 1 + 1) x 2 on the classic centre


@pytest.mark.django_db
def test_replay_shows_the_phony_then_its_withdrawal(ana: Any, ben: Any) -> None:
    from games import rendering

    game = rules_game(ana, ben, challenge="single")
    game.play(ana, CAD_AT_CENTRE, version=game.version)
    game.challenge(ben, version=game.version)
    game.refresh_from_db()
    game.resign(ana, version=game.version)
    game.refresh_from_db()
    after_play: dict[str, Any] = rendering.replay_context(game, 1)
    assert [sq["letter"] for sq in after_play["squares"][7][7:10]] == ["C", "A", "D"]
    assert after_play["squares"][7][7]["value"] == 3  # the classic C
    assert [s.score for s in after_play["seats"]] == [12, 0]
    after_challenge: dict[str, Any] = rendering.replay_context(game, 2)
    assert [sq["letter"] for sq in after_challenge["squares"][7][7:10]] == ["", "", ""]
    assert [s.score for s in after_challenge["seats"]] == [0, 0]
    assert after_challenge["current_move"].kind == "challenge"
    assert after_challenge["rules_label"] == "Classic rules · Single challenge"
