"""Helpers for the games tests: a small lexicon and games with chosen racks."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace
from typing import Any

from django.db import transaction

import engine
from engine.lexicon import WordListLexicon
from games import live, rendering
from games.gameview import load_game, view_for
from games.live import Shown
from games.models import Game
from games.pov import Pov
from games.services import start_game

WORDS = [
    "AT",
    "TA",
    "CAT",
    "CATS",
    "ACT",
    "ACTS",
    "SAT",
    "EAT",
    "TEA",
    "ATE",
    "TEAS",
    "EATS",
    "SEAT",
    "SCAT",
    "CAST",
    "TACO",
    "COAT",
    "OAT",
    "OATS",
    "TO",
    "SO",
    "DO",
    "GO",
    "NO",
    "ON",
    "IN",
    "IT",
    "BE",
    "HE",
    "WE",
    "ME",
    "RE",
    "ER",
    "ES",
    "ET",
    "DOG",
    "DOGS",
    "GOD",
    "NOD",
]


def lexicon() -> WordListLexicon:
    return WordListLexicon(WORDS, engine.tileset("en").alphabet)


def set_racks(game: Game, racks: tuple[str, ...], *, turn: int | None = None) -> Game:
    """Give the seats exactly ``racks`` (the rest of the tiles go to the bag, shuffled
    with a fixed seed), keeping tile conservation. The board must be empty."""
    state = game.state_obj()
    pool = Counter(state.bag + "".join(state.racks))
    for rack in racks:
        pool.subtract(rack)
        assert min(pool.values()) >= 0, f"not enough tiles for {racks}"
    bag = list(pool.elements())
    random.Random(7).shuffle(bag)
    new = replace(state, racks=racks, bag="".join(bag), turn=state.turn if turn is None else turn)
    new.check()
    game.state = new.to_dict()
    if turn is not None:
        game.turn_seat = turn
    game.save()
    return game


def make_game(
    creator: Any, opponent: Any, *, racks: tuple[str, str] | None = None, language: str = "en", **options: Any
) -> Game:
    """An active friend game, ``creator`` in seat 0 to move first; ``options`` go to
    ``start_game`` (a pace, a rules preset, a challenge rule)."""
    game = start_game(
        creator=creator, mode=Game.Mode.FRIEND, language=language, opponent=opponent, first=0, **options
    )
    game.accept(opponent, version=game.version)
    if racks is not None:
        set_racks(game, racks)
    game.refresh_from_db()
    return game


def make_computer_game(
    user: Any, *, level: str = "easy", first: int = 0, racks: tuple[str, str] | None = None
) -> Game:
    game = start_game(creator=user, mode=Game.Mode.COMPUTER, language="en", level=level, first=first)
    if racks is not None:
        set_racks(game, racks)
    game.refresh_from_db()
    return game


def tiles(*placements: tuple[int, int, str]) -> str:
    """The POST format: ``(7, 7, "C")`` -> ``"7,7,C,n"``; a lowercase letter is a blank."""
    return ";".join(f"{r},{c},{ch.upper()},{'b' if ch.islower() else 'n'}" for r, c, ch in placements)


CAT_AT_CENTRE = [engine.Placement(7, 7, "C"), engine.Placement(7, 8, "A"), engine.Placement(7, 9, "T")]


def at_version(game: Game, **data: Any) -> dict[str, Any]:
    """POST data carrying the game's current version, as every page form does."""
    return {"version": Game.objects.get(pk=game.pk).version, **data}


def pov_of(game_id: int, viewer: Any) -> Pov:
    """Who ``viewer`` is to the game (read now)."""
    return load_game(game_id).pov(viewer)


def push(game_id: int, viewer: Any, since: Shown | None) -> tuple[str, Shown]:
    """What a socket of ``viewer`` would send after a change (``games.live``), with the
    socket's own action id."""
    pushed = live.shared_push(game_id, pov_of(game_id, viewer), since)
    return live.with_action_id(pushed.html), pushed.shown


def context(game: Game, viewer: Any) -> dict[str, object]:
    """The template context of ``game`` for ``viewer``."""
    return rendering.game_context(view_for(game, viewer))


def fragments(game: Game, viewer: Any) -> str:
    """The full snapshot ``viewer`` is sent."""
    return live.snapshot(view_for(game, viewer), rendering.Frame(oob=True))


def two_plays_in_one_commit(game: Game, first: Any, second: Any) -> list[int]:
    """``first`` plays CAT at the centre, then ``second`` an S after it, in one
    transaction (both broadcasts go out when it commits); the seats' scores after the
    first play."""
    with transaction.atomic():
        game.play(first, CAT_AT_CENTRE, version=game.version)
        scores = [s.score for s in game.seat_list()]
        game.play(second, [engine.Placement(7, 10, "S")], version=game.version)
    return scores
