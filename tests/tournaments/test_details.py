"""What a player and an organiser saw wrong: the status before the start, the lobby's
tournament games and overridden results, the log's doubled name, making an organiser."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import Group
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from games.rendering import lobby_context
from tests.factories import make_user
from tests.tournaments.helpers import make_players, make_tournament, resign, run_round
from tournaments import services
from tournaments.rendering import status_label, tournament_context

pytestmark = pytest.mark.django_db


def test_a_paired_tournament_is_not_in_progress_before_a_round_starts(olga: Any) -> None:
    tournament = make_tournament(olga, make_players("ana", "ben"), rounds=1)
    assert status_label(tournament) == "Open for registration"
    services.pair_round(tournament=tournament, by=olga)
    tournament.refresh_from_db()
    assert tournament.status == "running"
    assert status_label(tournament) == "Round 1 paired, not started yet"
    listed = Client()
    listed.force_login(olga)
    assert "Round 1 paired, not started yet" in listed.get(reverse("tournaments:list")).text
    services.start_round(tournament=tournament, by=olga, seed=1)
    assert status_label(tournament) == "In progress"
    assert "Round 1 paired, not started yet" not in listed.get(reverse("tournaments:list")).text


def test_registration_is_shown_closed_once_the_start_time_is_past(olga: Any) -> None:
    tournament = make_tournament(olga, make_players("ana", "ben"))
    later = tournament.starts_at + timedelta(minutes=1)
    assert status_label(tournament, now=later) == "Registration closed, waiting for round 1"


def test_lobby_marks_tournament_games_and_shows_an_overridden_result(client: Client, olga: Any) -> None:
    ana, ben = make_players("ana", "ben")
    tournament = make_tournament(olga, [ana, ben], rounds=1)
    (table,) = run_round(tournament, olga)
    assert table.game is not None
    items = lobby_context(ana)["your_turn"] + lobby_context(ana)["their_turn"]
    assert [getattr(item.get("tournament"), "label", None) for item in items] == ["Spring open, round 1"]
    client.force_login(ana)
    page = client.get(reverse("games:lobby")).text
    assert "tournament-badge" in page
    assert "Spring open, round 1" in page
    # The game says one thing; the organiser's override says another, and wins.
    loser = table.first.user
    resign(table.game, loser)
    finished = lobby_context(loser)["finished"]
    assert finished[0]["result"] == "lost"
    services.override_result(
        tournament=tournament,
        by=olga,
        round_number=1,
        table=table.table,
        override="scores",
        first_score=400,
        second_score=300,
        reason="A disconnection, agreed by both",
    )
    assert lobby_context(loser)["finished"][0]["result"] == "won"
    winner = table.second.user  # type: ignore[union-attr]
    assert lobby_context(winner)["finished"][0]["result"] == "lost"
    ordinary = lobby_context(make_user("cleo"))
    assert ordinary["finished"] == []


def test_the_log_names_a_player_who_entered_themselves_once(olga: Any) -> None:
    tournament = make_tournament(olga, make_players("ana"))
    bob = make_user("bob0545")
    services.register_player(tournament=tournament, user=bob, by=bob)
    log = tournament_context(tournament, olga)["log"]
    mine = next(entry for entry in log if entry["who"] == "bob0545")
    assert mine["what"] == "Entered."
    by_organiser = next(entry for entry in log if "ana" in entry["what"])
    assert (by_organiser["who"], by_organiser["what"]) == ("olga", "ana entered.")


def test_an_administrator_makes_an_organiser_in_the_admin(client: Client) -> None:
    admin = User.objects.create_superuser("root", "root@example.org", "a-long-pass-9")
    dora = make_user("dora")
    group = Group.objects.get(name="Organisers")
    client.force_login(dora)
    assert client.get(reverse("tournaments:new")).status_code == 403
    client.force_login(admin)
    url = reverse("admin:accounts_user_change", args=[dora.pk])
    page = client.get(url)
    form = page.context["adminform"].form
    data = {
        k: v for k, v in form.initial.items() if v is not None and k not in {"groups", "user_permissions"}
    }
    # The user page's inlines (the moderation log) post their management forms too.
    for inline in page.context["inline_admin_formsets"]:
        management = inline.formset.management_form
        data |= {f"{management.prefix}-{k}": v for k, v in management.initial.items()}
    data.update(
        {
            "username": "dora",
            "groups": [group.pk],
            "date_joined_0": timezone.now().strftime("%Y-%m-%d"),
            "date_joined_1": "10:00:00",
            "is_active": "on",
        }
    )
    data.pop("date_joined", None)
    data.pop("last_login", None)
    response = client.post(url, data)
    assert response.status_code == 302, response.context["adminform"].form.errors if response.context else ""
    client.force_login(User.objects.get(pk=dora.pk))
    assert client.get(reverse("tournaments:new")).status_code == 200


def test_readme_says_how_an_administrator_makes_an_organiser() -> None:
    from django.conf import settings

    readme = (settings.BASE_DIR / "README.md").read_text(encoding="utf-8")
    accounts = readme.split("## Accounts", 1)[1].split("\n## ", 1)[0]
    assert "**Organisers**" in accounts
    assert "add the group\n  *Organisers*" in accounts
