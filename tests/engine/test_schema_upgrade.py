"""Game states stored at schema 1 load and play on exactly as they did.

``data/schema1_game.json`` was written by the engine as it was at schema 1 (the commit
before the rules as data): a state mid-game, the sixteen actions that followed it
(plays, an exchange, two passes) with the record each produced, and the final state.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from engine.actions import EngineAction, Exchange, Pass, Play, apply
from engine.moves import MoveRecord, Placement
from engine.state import SCHEMA_VERSION, GameState, Rules

pytestmark = pytest.mark.pure

DATA = json.loads(
    (Path(__file__).resolve().parent / "data" / "schema1_game.json").read_text(encoding="utf-8")
)


class AnyWord:
    def __contains__(self, word: object) -> bool:
        return True


def action_of(data: dict[str, Any]) -> EngineAction:
    if data["kind"] == "play":
        return Play.of([Placement.from_dict(p) for p in data["placements"]])
    if data["kind"] == "exchange":
        return Exchange.of(data["tiles"])
    return Pass()


def test_the_fixture_is_schema_one() -> None:
    assert DATA["stored"]["schema"] == DATA["final"]["schema"] == 1
    assert SCHEMA_VERSION == 2


def test_a_schema_one_state_loads_under_todays_rules() -> None:
    state = GameState.from_dict(DATA["stored"])
    assert state.rules == Rules()
    assert state.pending is None
    assert state.penalties == ()
    assert state.tileset.total_tiles == 104


def test_a_schema_one_game_plays_on_exactly_as_before() -> None:
    state = GameState.from_dict(DATA["stored"])
    for step in DATA["actions"]:
        played = apply(
            state, step["seat"], action_of(step), lexicon=AnyWord(), rng=random.Random(step["rng"])
        )
        # Every record is the one the old engine wrote, in the same stored form.
        assert played.record.to_dict() == step["record"]
        assert MoveRecord.from_dict(step["record"]) == played.record
        state = played.state
    final = state.to_dict()
    old = DATA["final"]
    assert final["schema"] == 2
    assert {key: final[key] for key in old if key not in ("schema", "rules")} == {
        key: value for key, value in old.items() if key not in ("schema", "rules")
    }
    assert {key: final["rules"][key] for key in old["rules"]} == old["rules"]
    assert (final["pending"], final["penalties"]) == (None, [0, 0])
    # And the state written at schema 2 reads back equal.
    assert GameState.from_dict(final) == state
