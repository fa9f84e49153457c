"""Demo data for ``make run`` (``manage.py setup_site --demo``, never by default): two
players, a game in progress between them, a game against the computer, and a moderator,
so a newcomer can log in, play and moderate at once. Idempotent.

Accounts (named in the README), all with the published password ``wordgame-demo``:
``ana`` and ``ben`` (players) and ``mod`` (staff, in the Moderators group: the word
changes in the admin, nothing else). A production site must not have them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.db import transaction

import engine
from engine import movegen
from games.models import Game, Seat
from games.services import start_game

DEMO_PASSWORD = "wordgame-demo"
DEMO_USERS = ("ana", "ben")
DEMO_MODERATOR = "mod"
MODERATORS_GROUP = "Moderators"  # made by a data migration of dictionaries
# Plays made in the demo game: enough to show a board with words on it.
DEMO_PLAYS = 4


def demo_user(username: str) -> tuple[Any, bool]:
    User = get_user_model()
    user = User.objects.named(username).first()
    if user is not None:
        return user, False
    return User.objects.create_user(
        username=username, password=DEMO_PASSWORD, email=f"{username}@example.org"
    ), True


def play_best_moves(game: Game, plays: int) -> int:
    """Let the players of ``game`` make ``plays`` real moves: the best play the move
    generator finds for each rack (a pass if there is none). Returns the moves made."""
    made = 0
    for _ in range(plays):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            break
        state = game.state_obj()
        user = game.seat_user(state.turn)
        found = movegen.best(
            state.board,
            state.racks[state.turn],
            tileset=state.tileset,
            layout=engine.layout(state.layout),
            lexicon=game.lexicon(),
            k=1,
        )
        if found:
            game.play(user, list(found[0].placements), version=game.version)
        else:
            game.pass_turn(user, version=game.version)
        made += 1
    return made


def create_demo_data() -> list[str]:
    """Create what is missing of the demo data; returns lines to report."""
    lines = []
    users = {}
    for name in DEMO_USERS:
        users[name], created = demo_user(name)
        if created:
            lines.append(f"demo account {name} (password {DEMO_PASSWORD})")
    ana, ben = users["ana"], users["ben"]
    friends = Game.objects.for_player(ana).filter(
        seats__user=ben, status__in=[Game.Status.ACTIVE, Game.Status.INVITED]
    )
    if not friends.exists():
        with transaction.atomic():
            game = start_game(creator=ana, mode=Game.Mode.FRIEND, language="en", opponent=ben, first=0)
            game.accept(ben, version=game.version)
        made = play_best_moves(game, DEMO_PLAYS)
        lines.append(f"demo game #{game.pk}: ana vs ben, {made} moves played, ana to move next")
    computer = Game.objects.for_player(ana).filter(
        mode=Game.Mode.COMPUTER, status=Game.Status.ACTIVE, seats__computer_level=Seat.Level.MEDIUM
    )
    if not Game.objects.filter(pk__in=computer.values("pk")).exists():
        game = start_game(
            creator=ana, mode=Game.Mode.COMPUTER, language="en", level=Seat.Level.MEDIUM, first=0
        )
        lines.append(f"demo game #{game.pk}: ana vs the computer (medium), ana to move")
    lines += create_demo_moderator()
    return lines


def create_demo_moderator() -> list[str]:
    """The demo moderator: staff (so the admin lets them in) and in the Moderators group
    (which grants the word changes only), not a superuser. An account of that name that
    this function did not create is left as it is."""
    user, created = demo_user(DEMO_MODERATOR)
    if not created:
        return []
    user.is_staff = True
    user.save(update_fields=["is_staff"])
    user.groups.add(Group.objects.get(name=MODERATORS_GROUP))
    return [f"demo moderator {DEMO_MODERATOR} (password {DEMO_PASSWORD}), in the {MODERATORS_GROUP} group"]


_demo_loaders: list[Callable[[], list[str]]] = []


def register_demo_loader(loader: Callable[[], list[str]]) -> None:
    """Add demo data of an app that depends on games (a finished tournament):
    ``setup_site --demo`` runs it after the games' own; games never imports that app."""
    if loader not in _demo_loaders:
        _demo_loaders.append(loader)


def demo_loaders() -> list[Callable[[], list[str]]]:
    return list(_demo_loaders)
