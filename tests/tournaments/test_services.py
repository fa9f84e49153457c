"""Running a tournament through its services: registration, rounds and their games,
overrides, live completion through the games hook, and the append-only log from which
the standings are rebuilt."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from dictionaries.models import Dictionary
from engine.analysis import Level
from games.models import Game
from tests.tournaments.helpers import finish_round, make_players, make_tournament, resign, run_round
from tournaments import services
from tournaments.models import Pairing, Registration, Round, Tournament, TournamentEvent
from tournaments.services import TournamentError
from tournaments.simulate import play_out


def kinds(tournament: Tournament) -> list[str]:
    return list(tournament.events.order_by("sequence").values_list("kind", flat=True))


@pytest.mark.django_db
def test_players_register_until_the_start_and_the_organiser_adds_anyone(olga: Any) -> None:
    ana, ben, cleo = make_players("ana", "ben", "cleo")
    tournament = make_tournament(olga)
    services.register_player(tournament=tournament, user=ana, by=ana)
    with pytest.raises(TournamentError) as refused:
        services.register_player(tournament=tournament, user=ana, by=ana)
    assert refused.value.code == "already_registered"
    # A player cannot register someone else.
    with pytest.raises(TournamentError) as refused:
        services.register_player(tournament=tournament, user=cleo, by=ana)
    assert refused.value.code == "not_organiser"
    services.register_player(tournament=tournament, user=ben, by=olga)
    # Past the start time, players can no longer register themselves; the organiser can.
    Tournament.objects.filter(pk=tournament.pk).update(starts_at=timezone.now() - timedelta(minutes=1))
    tournament.refresh_from_db()
    with pytest.raises(TournamentError) as refused:
        services.register_player(tournament=tournament, user=cleo, by=cleo)
    assert refused.value.code == "registration_closed"
    services.register_player(tournament=tournament, user=cleo, by=olga)
    assert tournament.registrations.count() == 3
    assert kinds(tournament) == ["created", "registered", "registered", "registered"]


@pytest.mark.django_db
def test_a_player_cannot_create_or_run_a_tournament(olga: Any) -> None:
    ana, ben = make_players("ana", "ben")
    with pytest.raises(TournamentError) as refused:
        services.create_tournament(
            organiser=ana,
            name="Mine",
            language="en",
            system="swiss",
            rounds=3,
            days_per_move=3,
            starts_at=timezone.now(),
        )
    assert refused.value.code == "not_allowed_to_create"
    tournament = make_tournament(olga, [ana, ben])
    registration = tournament.registrations.get(user=ben)
    for attempt in (
        lambda: services.pair_round(tournament=tournament, by=ana),
        lambda: services.withdraw_player(tournament=tournament, registration=registration, by=ana),
        lambda: services.set_registration_rating(
            tournament=tournament, registration=registration, by=ana, member_number="1", rating=1
        ),
    ):
        with pytest.raises(TournamentError) as refused:
            attempt()
        assert refused.value.code == "not_organiser"
    # Another organiser cannot run olga's tournament either.
    from tests.tournaments.helpers import make_organiser

    oscar = make_organiser("oscar")
    with pytest.raises(TournamentError):
        services.pair_round(tournament=tournament, by=oscar)
    assert tournament.round_set.count() == 0
    assert kinds(tournament) == ["created", "registered", "registered"]


@pytest.mark.django_db
def test_starting_numbers_players_by_rating_freezes_the_dictionary_and_creates_the_games(olga: Any) -> None:
    ana, ben, cleo, dan = make_players("ana", "ben", "cleo", "dan")
    Dictionary.objects.create(language="en", graph_file="en.dawg", version=7)
    tournament = make_tournament(olga, [ana, ben, cleo, dan], rating_body="naspa", days_per_move=5)
    for user, rating in ((ana, 1500), (ben, 1800), (cleo, 1200), (dan, 1650)):
        services.set_registration_rating(
            tournament=tournament,
            registration=tournament.registrations.get(user=user),
            by=olga,
            member_number=f"N{rating}",
            rating=rating,
        )
    round_ = services.pair_round(tournament=tournament, by=olga)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING
    assert tournament.dictionary_version == 7
    numbers = dict(tournament.registrations.values_list("user__username", "number"))
    assert numbers == {"ben": 1, "dan": 2, "ana": 3, "cleo": 4}
    # Paired, not started: no game yet.
    assert round_.status == Round.Status.PAIRED
    assert not Game.objects.exists()
    # Moderation during the event changes nothing in its games.
    Dictionary.objects.filter(language="en").update(version=8)
    services.start_round(tournament=tournament, by=olga)
    tables = list(round_.pairings.select_related("first__user", "second__user", "game"))
    assert len(tables) == 2
    for table in tables:
        game = table.game
        assert game is not None
        assert game.status == Game.Status.ACTIVE
        assert game.dictionary_version == 7
        assert game.inactivity_days == 5
        # The player going first holds seat 0 and is to move.
        assert game.seat_user(0) == table.first.user
        assert game.turn_seat == 0
        # The game is in both players' lobbies.
        for player in (table.first.user, table.second.user):  # type: ignore[union-attr]
            assert Game.objects.for_player(player).filter(pk=game.pk).exists()
    # A late entry into a round robin is numbered next (its rounds are regenerated:
    # tests/tournaments/test_late_entries.py).
    late = services.register_player(tournament=tournament, user=make_players("eve")[0], by=olga)
    assert late.number == 5


@pytest.mark.django_db
def test_next_round_waits_for_every_result_and_the_last_game_ends_the_tournament(
    olga: Any, django_capture_on_commit_callbacks: Any
) -> None:
    players = make_players("ana", "ben", "cleo")
    tournament = make_tournament(olga, players, rounds=3)
    with django_capture_on_commit_callbacks(execute=True):
        tables = run_round(tournament, olga)
    assert [t.is_bye for t in tables] == [False, True]
    with pytest.raises(TournamentError) as refused:
        services.pair_round(tournament=tournament, by=olga)
    assert refused.value.code == "round_not_finished"
    for number in (1, 2, 3):
        with django_capture_on_commit_callbacks(execute=True):
            finish_round(tables)
        tournament.refresh_from_db()
        if number < 3:
            assert tournament.status == Tournament.Status.RUNNING
            with django_capture_on_commit_callbacks(execute=True):
                tables = run_round(tournament, olga)
    assert tournament.status == Tournament.Status.FINISHED
    assert kinds(tournament)[-1] == "finished"
    assert tournament.events.get(kind="finished").actor is None
    with pytest.raises(TournamentError) as refused:
        services.pair_round(tournament=tournament, by=olga)
    assert refused.value.code == "tournament_finished"
    # Everyone had one bye in a round robin of three.
    table = services.current_standings(tournament)
    assert sorted(s.byes for s in table) == [1, 1, 1]


@pytest.mark.django_db
def test_first_and_second_alternate_across_a_round_robin(olga: Any) -> None:
    players = make_players("ana", "ben", "cleo", "dan")
    tournament = make_tournament(olga, players, rounds=3)
    for _ in range(3):
        tables = run_round(tournament, olga)
        finish_round(tables)
    firsts: dict[str, int] = {}
    for p in Pairing.objects.filter(round__tournament=tournament).select_related("first__user"):
        firsts[p.first.user.username] = firsts.get(p.first.user.username, 0) + 1
    assert sorted(firsts.get(p.username, 0) for p in players) == [1, 1, 2, 2]


@pytest.mark.django_db
def test_round_robin_asks_for_too_many_rounds_is_refused(olga: Any) -> None:
    tournament = make_tournament(olga, make_players("ana", "ben", "cleo", "dan"), rounds=4)
    with pytest.raises(TournamentError) as refused:
        services.pair_round(tournament=tournament, by=olga)
    assert (refused.value.code, refused.value.params) == ("too_many_rounds", {"players": 4, "length": 3})
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.REGISTRATION
    assert kinds(tournament) == ["created", *["registered"] * 4]


@pytest.mark.django_db
def test_withdrawn_players_opponent_gets_a_bye_and_reinstated_player_plays_again(olga: Any) -> None:
    ana, ben, cleo, dan = make_players("ana", "ben", "cleo", "dan")
    tournament = make_tournament(olga, [ana, ben, cleo, dan], rounds=3)
    finish_round(run_round(tournament, olga))
    dan_reg = tournament.registrations.get(user=dan)
    services.withdraw_player(tournament=tournament, registration=dan_reg, by=olga, reason="ill")
    tables = run_round(tournament, olga)
    assert dan_reg.number not in {
        n for t in tables for n in (t.first.number, t.second.number if t.second else None)
    }
    assert sum(t.is_bye for t in tables) == 1
    finish_round(tables)
    services.reinstate_player(tournament=tournament, registration=dan_reg, by=olga, reason="better")
    tables = run_round(tournament, olga)
    assert any(dan_reg.number in (t.first.number, t.second.number if t.second else None) for t in tables)
    withdrawn = tournament.events.get(kind="withdrawn")
    assert (withdrawn.actor, withdrawn.reason, withdrawn.data["name"]) == (olga, "ill", "dan")


@pytest.mark.django_db
def test_player_withdraws_before_the_start_but_not_after(olga: Any) -> None:
    ana, ben, cleo = make_players("ana", "ben", "cleo")
    tournament = make_tournament(olga, [ana, ben, cleo], system="swiss")
    services.withdraw_player(
        tournament=tournament, registration=tournament.registrations.get(user=cleo), by=cleo
    )
    services.register_player(tournament=tournament, user=cleo, by=cleo)  # comes back: reinstated
    assert tournament.registrations.get(user=cleo).is_active
    services.pair_round(tournament=tournament, by=olga)
    with pytest.raises(TournamentError) as refused:
        services.withdraw_player(
            tournament=tournament, registration=tournament.registrations.get(user=ana), by=ana
        )
    assert refused.value.code == "started_withdraw"


@pytest.mark.django_db
def test_late_entry_in_swiss_is_numbered_and_paired_next_round(olga: Any) -> None:
    ana, ben, cleo, dan = make_players("ana", "ben", "cleo", "dan")
    tournament = make_tournament(olga, [ana, ben, cleo], system="swiss", rounds=2)
    finish_round(run_round(tournament, olga))
    late = services.register_player(tournament=tournament, user=dan, by=olga, reason="arrived late")
    assert late.number == 4
    tables = run_round(tournament, olga)
    assert sorted(
        n for t in tables for n in (t.first.number, t.second.number if t.second else None) if n
    ) == [
        1,
        2,
        3,
        4,
    ]


@pytest.mark.django_db
def test_pairing_override_swaps_players_and_keeps_everyone_at_one_table(olga: Any) -> None:
    players = make_players("ana", "ben", "cleo", "dan", "eve")
    tournament = make_tournament(olga, players, system="swiss", rounds=2)
    round_ = services.pair_round(tournament=tournament, by=olga)
    before = {p.table: (p.first.number, p.second.number if p.second else None) for p in round_.pairings.all()}
    assert before == {1: (1, 3), 2: (4, 2), 3: (5, None)}
    with pytest.raises(TournamentError) as refused:
        services.override_pairing(tournament=tournament, by=olga, table=1, first=1, second=2, reason=" ")
    assert refused.value.code == "reason_required"
    services.override_pairing(tournament=tournament, by=olga, table=1, first=2, second=1, reason="club rule")
    after = {p.table: (p.first.number, p.second.number if p.second else None) for p in round_.pairings.all()}
    assert after[1] == (2, 1)
    seated = sorted(n for pair in after.values() for n in pair if n is not None)
    assert seated == [1, 2, 3, 4, 5]
    # Give player 4 the bye.
    services.override_pairing(tournament=tournament, by=olga, table=3, first=4, second=None, reason="asked")
    after = {p.table: (p.first.number, p.second.number if p.second else None) for p in round_.pairings.all()}
    assert after[3] == (4, None)
    assert sorted(n for pair in after.values() for n in pair if n is not None) == [1, 2, 3, 4, 5]
    run = services.start_round(tournament=tournament, by=olga)
    with pytest.raises(TournamentError) as refused:
        services.override_pairing(tournament=tournament, by=olga, table=1, first=1, second=2, reason="late")
    assert refused.value.code == "round_already_started"
    assert run.pairings.exclude(game=None).count() == 2


@pytest.mark.django_db
def test_result_override_replaces_the_game_and_can_be_undone(olga: Any) -> None:
    ana, ben = make_players("ana", "ben")
    tournament = make_tournament(olga, [ana, ben], rounds=1)
    (table,) = run_round(tournament, olga)
    with pytest.raises(TournamentError) as refused:
        services.override_result(
            tournament=tournament,
            by=olga,
            round_number=1,
            table=1,
            override="scores",
            reason="x",
            first_score=3,
        )
    assert refused.value.code == "bad_scores"
    services.override_result(
        tournament=tournament,
        by=olga,
        round_number=1,
        table=1,
        override="forfeit",
        absent="second",
        reason="no show",
    )
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    standings = {s.player: (s.half_points, s.spread) for s in services.current_standings(tournament)}
    assert standings == {table.first.number: (2, 50), table.second.number: (0, -50)}  # type: ignore[union-attr]
    services.override_result(
        tournament=tournament, by=olga, round_number=1, table=1, override="", reason="they played after all"
    )
    assert all(not o.is_done() for o in services.outcomes(tournament))
    event = tournament.events.filter(kind="result_overridden").order_by("sequence").last()
    assert event is not None
    assert (event.reason, event.data["override"]) == ("they played after all", "")


@pytest.mark.django_db
def test_events_are_append_only(olga: Any) -> None:
    tournament = make_tournament(olga)
    event = tournament.events.get()
    event.reason = "rewritten"
    with pytest.raises(TypeError):
        event.save()
    with pytest.raises(TypeError):
        event.delete()
    with pytest.raises(TypeError):
        tournament.events.all().delete()
    with pytest.raises(TypeError):
        TournamentEvent.objects.filter(pk=event.pk).update(reason="x")
    assert TournamentEvent.objects.get(pk=event.pk).reason == ""


@pytest.mark.django_db
def test_standings_rebuilt_from_the_events_and_the_games_alone(
    olga: Any, django_capture_on_commit_callbacks: Any
) -> None:
    players = make_players("ana", "ben", "cleo", "dan", "eve")
    tournament = make_tournament(olga, players, system="swiss", rounds=3)
    chosen: list[Level] = ["easy", "medium", "hard", "hard", "easy"]
    levels = {p.pk: level for p, level in zip(players, chosen, strict=True)}
    with django_capture_on_commit_callbacks(execute=True):
        for number in (1, 2, 3):
            services.pair_round(tournament=tournament, by=olga)
            if number == 2:
                services.override_pairing(
                    tournament=tournament, by=olga, table=1, first=5, second=1, reason="r"
                )
                services.withdraw_player(
                    tournament=tournament, registration=tournament.registrations.get(number=3), by=olga
                )
            services.start_round(tournament=tournament, by=olga, seed=number)
            tables = list(
                Pairing.objects.filter(round__tournament=tournament, round__number=number).exclude(game=None)
            )
            for table in tables[1:]:
                assert table.game is not None
                play_out(table.game, levels)
            first = tables[0]
            services.override_result(
                tournament=tournament,
                by=olga,
                round_number=number,
                table=first.table,
                override="scores" if number != 2 else "forfeit",
                first_score=321,
                second_score=333,
                absent="both",
                reason="adjudicated",
            )
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    live = services.current_standings(tournament)
    rebuilt = services.standings_from_events(tournament)
    as_rows = [(s.rank, s.player, s.half_points, s.spread, s.total_score, s.byes, s.forfeits) for s in live]
    assert as_rows == [
        (s.rank, s.player, s.half_points, s.spread, s.total_score, s.byes, s.forfeits) for s in rebuilt
    ]
    assert sum(s.played for s in live) > 0
    # The log alone says which tables existed, who sat where and which game they played.
    snapshot = services.rebuild(tournament)
    assert snapshot.status == "finished"
    rows = [
        (
            p.round.number,
            p.table,
            p.first.number,
            p.second.number if p.second else None,
            p.game_id,
            p.override,
        )
        for p in Pairing.objects.filter(round__tournament=tournament).select_related(
            "round", "first", "second"
        )
    ]
    assert sorted(rows, key=lambda r: (r[0], r[1])) == [
        (t.round, t.table, t.first, t.second, t.game, t.override) for t in snapshot.tables()
    ]
    withdrawn = snapshot.players[tournament.registrations.get(number=3).pk]
    assert not withdrawn.active


@pytest.mark.django_db
def test_a_finished_tournament_game_updates_the_standings(
    olga: Any, django_capture_on_commit_callbacks: Any
) -> None:
    ana, ben = make_players("ana", "ben")
    tournament = make_tournament(olga, [ana, ben], rounds=1)
    (table,) = run_round(tournament, olga)
    assert services.current_standings(tournament)[0].half_points == 0
    assert table.game is not None
    with django_capture_on_commit_callbacks(execute=True):
        play_out(table.game, {ana.pk: "hard", ben.pk: "hard"})
    table.game.refresh_from_db()
    assert table.game.status == Game.Status.FINISHED
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    standings = services.current_standings(tournament)
    assert sum(s.half_points for s in standings) == 2
    assert sorted(s.total_score for s in standings) == sorted(table.game.final_scores or [])


@pytest.mark.django_db
def test_resigning_a_game_the_scores_contradict_counts_as_a_forfeit(olga: Any) -> None:
    ana, ben = make_players("ana", "ben")
    tournament = make_tournament(olga, [ana, ben], rounds=1)
    (table,) = run_round(tournament, olga)
    assert table.game is not None
    resign(table.game, table.first.user)  # at 0-0: the resigner was not behind
    (outcome,) = services.outcomes(tournament)
    assert (outcome.kind, outcome.absent) == ("forfeit", "first")


@pytest.mark.django_db
def test_memberships_feed_the_registration_unless_overridden(olga: Any) -> None:
    ana, ben = make_players("ana", "ben")
    services.set_membership(user=ana, body="naspa", number="AB123", rating=1712)
    services.set_membership(user=ben, body="absp", number="9", rating=150)
    tournament = make_tournament(olga, [ana, ben], rating_body="naspa")
    regs = list(tournament.registrations.all())
    info = services.rating_info(tournament, regs)
    by_user = {r.user_id: info[r.pk] for r in regs}
    assert (by_user[ana.pk].member_number, by_user[ana.pk].rating) == ("AB123", 1712)
    assert (by_user[ben.pk].member_number, by_user[ben.pk].rating) == ("", None)
    services.set_registration_rating(
        tournament=tournament,
        registration=tournament.registrations.get(user=ben),
        by=olga,
        member_number="X1",
        rating=999,
    )
    info = services.rating_info(tournament, tournament.registrations.all())
    assert info[tournament.registrations.get(user=ben).pk] == services.RatingInfo("X1", 999)
    assert [m.body for m in services.player_memberships(user=ana)] == ["naspa"]
    services.set_membership(user=ana, body="naspa", number="", rating=None)
    assert services.player_memberships(user=ana) == []


@pytest.mark.django_db
def test_organisers_group_holds_the_tournament_permissions() -> None:
    from django.contrib.auth.models import Group

    group = Group.objects.get(name="Organisers")
    codenames = set(group.permissions.values_list("codename", flat=True))
    assert {"add_tournament", "change_tournament", "view_tournament"} <= codenames
    assert not any(c.startswith("delete_") for c in codenames)
    assert Registration.objects.count() == 0


@pytest.mark.django_db
def test_start_paired_game_refuses_bad_input_and_creates_nothing() -> None:
    from games.models import GameError
    from games.services import start_paired_game

    ana, ben = make_players("ana", "ben")
    with pytest.raises(GameError) as refused:
        start_paired_game(first=ana, second=ana, language="en", inactivity_days=3, dictionary_version=None)
    assert refused.value.code == "bad_opponent"
    with pytest.raises(GameError) as refused:
        start_paired_game(first=ana, second=ben, language="xx", inactivity_days=3, dictionary_version=None)
    assert refused.value.code == "bad_language"
    assert not Game.objects.exists()
    game = start_paired_game(
        first=ben, second=ana, language="en", inactivity_days=2, dictionary_version=None, seed=5
    )
    assert (game.status, game.mode, game.seed, game.seat_user(0), game.version) == (
        "active",
        "friend",
        5,
        ben,
        1,
    )
    assert game.actions.get().kind == "deal"
