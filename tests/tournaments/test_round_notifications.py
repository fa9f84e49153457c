"""A tournament round tells each paired player of their game or bye, and a player withdrawn
for not checking in hears why, through the notification path (recorded in the round's
transaction, delivered in the recipient's language and time zone on every channel they
want). The organiser's "no forfeit without a warning" reaches the round's games."""

from __future__ import annotations

import json
import zoneinfo
from datetime import timedelta
from typing import Any

import pytest
from django.core import mail
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from games.actions import SYSTEM
from games.models import Game
from notifications import preferences
from notifications.models import Channel, Kind, Notification
from notifications.texts import as_recipient, render
from tests.tournaments.helpers import make_players, make_tournament, run_round
from tournaments import services
from tournaments.models import Tournament, TournamentEvent


@pytest.fixture(autouse=True)
def _mail_in_memory(settings: Any) -> None:
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    settings.SITE_URL = "https://wordgame.example"


def verified(user: Any, **fields: Any) -> Any:
    for name, value in fields.items():
        setattr(user, name, value)
    user.verified_email = user.email
    user.save()
    return user


def round_notes(user: Any) -> list[Notification]:
    return list(Notification.objects.filter(recipient=user, kind=Kind.TOURNAMENT_ROUND).order_by("pk"))


@pytest.mark.django_db
def test_each_paired_player_and_the_bye_hear_of_their_round_once(olga: Any) -> None:
    ana, ben, cleo = make_players("ana", "ben", "cleo")
    tournament = make_tournament(olga, [ana, ben, cleo], system="swiss", rounds=2)
    services.pair_round(tournament=tournament, by=olga)
    with CaptureQueriesContext(connection) as queries:
        services.start_round(tournament=tournament, by=olga, seed=1)
    # The whole round's messages: one INSERT of notifications, in the round's transaction.
    inserts = [q["sql"] for q in queries.captured_queries if q["sql"].startswith("INSERT")]
    assert len([q for q in inserts if "notifications_notification" in q]) == 1
    (table,) = [p for p in tournament.round_set.get(number=1).pairings.all() if p.game is not None]
    bye = next(p for p in tournament.round_set.get(number=1).pairings.all() if p.game is None)
    game = table.game
    assert game is not None
    first, second = table.first.user, table.second.user  # type: ignore[union-attr]

    # One message each, nothing else: the first mover's "your turn" is part of it.
    for user in (ana, ben, cleo):
        assert len(round_notes(user)) == 1
        assert not Notification.objects.filter(recipient=user).exclude(kind=Kind.TOURNAMENT_ROUND).exists()
    (mine,) = round_notes(first)
    assert mine.path == f"/games/{game.pk}/"
    assert mine.params["variant"] == "first"
    assert mine.params["who"] == second.username
    assert mine.params["round"] == 1
    assert mine.params["deadline"] == game.turn_deadline.isoformat()  # type: ignore[union-attr]
    text = render(mine)
    assert text.title == f"Round 1 of Spring open: you play {second.username}"
    assert "You move first" in text.body
    (theirs,) = round_notes(second)
    assert (theirs.params["variant"], theirs.params["who"]) == ("second", first.username)
    assert f"{first.username} moves first" in render(theirs).body
    (byes,) = round_notes(bye.first.user)
    assert byes.params["variant"] == "bye"
    assert byes.path == reverse("tournaments:detail", args=[tournament.pk])
    assert render(byes).title == "Round 1 of Spring open: a bye for you"
    # On a device: one notification per game, and per tournament for the bye.
    from notifications.push import message_for

    assert json.loads(message_for(mine).payload)["tag"] == f"game-{game.pk}"
    assert json.loads(message_for(byes).payload)["tag"] == f"tournament-{tournament.pk}"


@pytest.mark.django_db
def test_the_round_message_in_the_players_language_and_zone_by_mail(
    olga: Any, django_capture_on_commit_callbacks: Any
) -> None:
    ana, ben = make_players("ana", "ben")
    verified(ana, interface_language="sv", time_zone="Europe/Stockholm")
    verified(ben, interface_language="fr", time_zone="America/Montreal")
    tournament = make_tournament(olga, [ana, ben], system="roundrobin", rounds=1)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        (table,) = run_round(tournament, olga)
    assert table.game is not None
    by_address = {m.to[0]: m for m in mail.outbox}
    first, second = table.first.user, table.second.user  # type: ignore[union-attr]
    to_first, to_second = by_address[first.email], by_address[second.email]
    subjects = {"sv": "Rond 1 i Spring open: du möter", "fr": "Ronde 1 de Spring open : vous jouez contre"}
    assert to_first.subject.startswith(subjects[first.interface_language])
    assert to_second.subject.startswith(subjects[second.interface_language])
    # The first mover's deadline in their own time zone, with a link to the game.
    zone = first.time_zone
    local = table.game.turn_deadline.astimezone(zoneinfo.ZoneInfo(zone)).strftime("%H:%M")  # type: ignore[union-attr]
    assert local in to_first.body
    assert zone in to_first.body
    assert f"https://wordgame.example/games/{table.game.pk}/" in to_first.body


@pytest.mark.django_db
def test_a_player_can_turn_the_round_messages_off_by_mail(
    olga: Any, client: Any, django_capture_on_commit_callbacks: Any
) -> None:
    ana, ben = make_players("ana", "ben")
    verified(ana)
    verified(ben)
    assert Channel.EMAIL in preferences.wanted(ana)[Kind.TOURNAMENT_ROUND]  # on by default
    # The settings page offers the kind on each channel.
    client.force_login(ana)
    page = client.get(reverse("notifications:settings")).content.decode()
    assert "Tournament rounds: your pairing" in page
    assert 'name="email__tournament_round"' in page
    assert 'name="push__tournament_round"' in page
    preferences.set_wanted(user=ana, kind=Kind.TOURNAMENT_ROUND, channel=Channel.EMAIL, enabled=False)
    tournament = make_tournament(olga, [ana, ben], system="roundrobin", rounds=1)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        run_round(tournament, olga)
    assert [m.to for m in mail.outbox] == [[ben.email]]
    assert len(round_notes(ana)) == 1  # the bell still has it


@pytest.mark.django_db
def test_a_player_withdrawn_for_not_checking_in_is_told(olga: Any) -> None:
    ana, ben, cleo, dan = make_players("ana", "ben", "cleo", "dan")
    tournament = make_tournament(
        olga,
        [ana, ben, cleo, dan],
        system="swiss",
        rounds=2,
        checkin_opens_at=timezone.now() + timedelta(hours=1),
    )
    Tournament.objects.filter(pk=tournament.pk).update(checkin_opens_at=timezone.now() - timedelta(minutes=5))
    tournament.refresh_from_db()
    for player in (ana, ben, cleo):
        services.check_in(
            tournament=tournament, registration=tournament.registrations.get(user=player), by=player
        )
    dan.interface_language = "de"
    dan.save()
    services.pair_round(tournament=tournament, by=olga)
    (note,) = round_notes(dan)
    assert note.params["variant"] == "withdrawn"
    assert note.path == reverse("tournaments:detail", args=[tournament.pk])
    with as_recipient(dan):
        text = render(note)
    assert text.title == "Sie wurden aus Spring open zurückgezogen"
    # Nobody else is told anything at the pairing: the players hear of it when the round starts.
    assert not Notification.objects.filter(recipient__in=[ana, ben, cleo]).exists()


@pytest.mark.django_db
@pytest.mark.parametrize("on", [False, True])
def test_the_organisers_switch_decides_whether_a_lapsed_turn_is_extended(olga: Any, on: bool) -> None:
    ana, ben = make_players("ana", "ben")
    tournament = make_tournament(
        olga, [ana, ben], system="roundrobin", rounds=1, no_forfeit_without_warning=on
    )
    created = tournament.events.get(kind=TournamentEvent.Kind.CREATED)
    assert created.data["no_forfeit_without_warning"] is on  # the log records the setting
    (table,) = run_round(tournament, olga)
    assert table.game is not None
    game = Game.objects.get(pk=table.game.pk)
    assert game.warn_before_timeout is on
    # The turn lapses with no warning delivered and no look at the game.
    assert game.turn_deadline is not None
    later = game.turn_deadline + timedelta(minutes=1)
    forfeit = game.timeout(now=later)
    assert (forfeit is None) is on
    game.refresh_from_db()
    if on:
        assert game.status == Game.Status.ACTIVE
        assert game.deadline_extended
        assert "extend" not in game.allowed_actions(SYSTEM, now=later)
    else:
        assert game.status == Game.Status.FINISHED


@pytest.mark.django_db
def test_the_organiser_turns_it_on_in_the_form(olga: Any, client: Any) -> None:
    client.force_login(olga)
    page = client.get(reverse("tournaments:new")).content.decode()
    assert 'name="no_forfeit_without_warning"' in page
    answer = client.post(
        reverse("tournaments:new"),
        {
            "name": "Warned open",
            "language": "en",
            "system": "swiss",
            "rounds": 2,
            "days_per_move": 3,
            "starts_at": (timezone.now() + timedelta(days=2)).strftime("%Y-%m-%dT%H:%M"),
            "no_forfeit_without_warning": "on",
            "prize_places": 1,
        },
    )
    assert answer.status_code in (200, 302)
    tournament = Tournament.objects.get(name="Warned open")
    assert tournament.no_forfeit_without_warning
    page = client.get(reverse("tournaments:detail", args=[tournament.pk])).content.decode()
    assert "No forfeit without a warning" in page


@pytest.mark.django_db
def test_a_round_that_starts_by_itself_tells_its_players_too(
    olga: Any, django_capture_on_commit_callbacks: Any
) -> None:
    players = make_players("ana", "ben", "cleo", "dan")
    tournament = make_tournament(olga, players, system="swiss", rounds=2, auto_rounds=True)
    tables = run_round(tournament, olga)
    for table in tables:
        assert table.game is not None
        with django_capture_on_commit_callbacks(execute=True):  # the finished game's hook
            table.game.resign(table.second.user, version=table.game.version)  # type: ignore[union-attr]
    assert tournament.round_set.filter(number=2).exists()  # made by the last game's end
    for player in players:
        rounds = [n.params["round"] for n in round_notes(player)]
        assert rounds == [1, 2]
