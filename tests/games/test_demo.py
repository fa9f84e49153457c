from __future__ import annotations

from io import StringIO
from typing import Any

import pytest
from django.contrib.auth import authenticate, get_user_model
from django.core.management import call_command

from dictionaries.models import Dictionary
from engine.tiles import LANGUAGES
from games import services
from games.demo import DEMO_PASSWORD, create_demo_data, create_demo_moderator
from games.models import Game, Move
from tests.factories import make_user


@pytest.mark.django_db
def test_demo_data_is_created_once(django_capture_on_commit_callbacks: Any, monkeypatch: Any) -> None:
    # The deal is random and these tests play with a small word list, where a dealt rack
    # can have no play at all (a run of make test once saw four turns and no play): a
    # fixed seed, under which the demo game's four turns are four plays, every run.
    monkeypatch.setattr(services.secrets, "randbits", lambda bits: 1)
    with django_capture_on_commit_callbacks(execute=True):
        lines = create_demo_data()
    assert any("ana" in line for line in lines)
    assert authenticate(username="ana", password=DEMO_PASSWORD) is not None
    assert authenticate(username="ben", password=DEMO_PASSWORD) is not None
    friends = Game.objects.get(mode=Game.Mode.FRIEND)
    assert friends.status == Game.Status.ACTIVE
    assert Move.objects.filter(game=friends, kind="play").count() >= 2
    assert friends.turn_seat is not None
    assert friends.seat_user(friends.turn_seat).username == "ana"
    assert Game.objects.filter(mode=Game.Mode.COMPUTER, status=Game.Status.ACTIVE).count() == 1
    with django_capture_on_commit_callbacks(execute=True):
        assert create_demo_data() == []
    assert Game.objects.count() == 2


@pytest.mark.django_db
def test_setup_site_without_demo_creates_no_accounts_and_no_games() -> None:
    call_command("setup_site", stdout=StringIO())
    assert get_user_model().objects.count() == 0
    assert Game.objects.count() == 0
    assert Dictionary.objects.count() == len(LANGUAGES)


@pytest.mark.django_db
def test_setup_site_with_demo_creates_players_and_a_moderator(
    django_capture_on_commit_callbacks: Any,
) -> None:
    out = StringIO()
    with django_capture_on_commit_callbacks(execute=True):
        call_command("setup_site", "--demo", stdout=out)
    # ana, ben and the moderator; the demo tournament's players are named demo_*.
    names = {u.username for u in get_user_model().objects.all()}
    assert {"ana", "ben", "mod"} <= names
    assert all(n.startswith("demo_") for n in names - {"ana", "ben", "mod"})
    mod = authenticate(username="mod", password=DEMO_PASSWORD)
    assert mod is not None
    assert mod.is_staff
    assert not mod.is_superuser
    assert list(mod.groups.values_list("name", flat=True)) == ["Moderators"]
    # The group gives the moderation of words, nothing else.
    assert mod.has_perm("dictionaries.change_wordchange")
    assert not mod.has_perm("games.change_game")
    assert not mod.has_perm("accounts.change_user")
    for name in ("ana", "ben"):
        player = get_user_model().objects.get(username=name)
        assert not player.is_staff
        # ana organises the demo tournament: Organisers is her only group, ben has none.
        expected = ["Organisers"] if name == "ana" else []
        assert list(player.groups.values_list("name", flat=True)) == expected
    assert "demo moderator mod" in out.getvalue()
    # Run again: nothing new.
    out = StringIO()
    with django_capture_on_commit_callbacks(execute=True):
        call_command("setup_site", "--demo", stdout=out)
    assert "demo" not in out.getvalue()
    assert get_user_model().objects.count() == 7  # ana, ben, mod and the demo tournament's four


@pytest.mark.django_db
def test_demo_does_not_promote_an_existing_account_named_mod() -> None:
    make_user("mod")
    create_demo_moderator()
    mod = get_user_model().objects.get(username="mod")
    assert not mod.is_staff
    assert not mod.groups.exists()
