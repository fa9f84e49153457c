"""The immutable game state, its rules parameters, and its JSON form.

``GameState`` is a frozen value: every action in ``engine.moves`` returns a new one.
It serialises with :meth:`GameState.to_dict` to plain JSON types, tagged with
``"schema": SCHEMA_VERSION``; bump the version and teach ``from_dict`` the old shape
whenever the shape changes, because games in progress are stored in that form.

Invariant (checked by :meth:`GameState.check`): the tiles on the board (blanks counted
as ``?``), on the racks and in the bag are exactly the tile set's full bag.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from engine.board import Board, board_tiles, check_board, layout
from engine.tiles import TileSet, tileset

SCHEMA_VERSION = 1

EndReason = Literal["out", "scoreless", "resign", "timeout"]
END_REASONS: tuple[EndReason, ...] = ("out", "scoreless", "resign", "timeout")


@dataclass(frozen=True, slots=True)
class Rules:
    """Rule parameters a game is created with (RULES.md keeps these configurable).

    - ``scoreless_turns_to_end``: consecutive scoreless turns (both players counted)
      that end the game, unless the score is still all zeros.
    - ``scoreless_rack_penalty``: on that ending each player loses the value of their
      own rack (no one gains it).
    - ``exchange_min_bag``: tiles the bag must hold for any exchange (WWF: none; the
      bag must always hold at least as many tiles as are exchanged).
    """

    scoreless_turns_to_end: int = 3
    scoreless_rack_penalty: bool = True
    exchange_min_bag: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "scoreless_turns_to_end": self.scoreless_turns_to_end,
            "scoreless_rack_penalty": self.scoreless_rack_penalty,
            "exchange_min_bag": self.exchange_min_bag,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Rules:
        return cls(
            scoreless_turns_to_end=int(data["scoreless_turns_to_end"]),
            scoreless_rack_penalty=bool(data["scoreless_rack_penalty"]),
            exchange_min_bag=int(data["exchange_min_bag"]),
        )


@dataclass(frozen=True, slots=True)
class EndOfGame:
    """How a game ended.

    ``seat`` is the seat that caused the end: went out, resigned or timed out (None
    for the scoreless ending). ``adjustments`` are the per-seat points added at the
    end (rack transfers and penalties; zeros for resign/timeout). ``final_scores``
    include them. ``winner`` is a seat, or None for a draw.
    """

    reason: EndReason
    seat: int | None
    adjustments: tuple[int, ...]
    final_scores: tuple[int, ...]
    winner: int | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "reason": self.reason,
            "seat": self.seat,
            "adjustments": list(self.adjustments),
            "final_scores": list(self.final_scores),
            "winner": self.winner,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> EndOfGame:
        reason = data["reason"]
        if reason not in END_REASONS:
            raise ValueError(f"unknown end reason {reason!r}")
        return cls(
            reason=reason,
            seat=None if data["seat"] is None else int(data["seat"]),
            adjustments=tuple(int(x) for x in data["adjustments"]),
            final_scores=tuple(int(x) for x in data["final_scores"]),
            winner=None if data["winner"] is None else int(data["winner"]),
        )


@dataclass(frozen=True, slots=True)
class GameState:
    """A game at one moment. Immutable; actions in ``engine.moves`` return new states.

    ``racks`` hold one string per seat (letters, ``?`` for a blank). ``bag`` is in
    draw order: the next tiles drawn are taken from its end. ``turn`` is the seat to
    move. ``moves_played`` counts every recorded action (plays, exchanges, passes,
    and the resignation or timeout that ends a game).
    """

    language: str
    layout: str
    board: Board
    racks: tuple[str, ...]
    bag: str
    scores: tuple[int, ...]
    turn: int = 0
    scoreless_turns: int = 0
    moves_played: int = 0
    over: bool = False
    end: EndOfGame | None = None
    rules: Rules = field(default_factory=Rules)

    @property
    def tileset(self) -> TileSet:
        return tileset(self.language)

    @property
    def players(self) -> int:
        return len(self.racks)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON types, tagged with the schema version."""
        return {
            "schema": SCHEMA_VERSION,
            "language": self.language,
            "layout": self.layout,
            "board": list(self.board),
            "racks": list(self.racks),
            "bag": self.bag,
            "scores": list(self.scores),
            "turn": self.turn,
            "scoreless_turns": self.scoreless_turns,
            "moves_played": self.moves_played,
            "over": self.over,
            "end": None if self.end is None else self.end.to_dict(),
            "rules": self.rules.to_dict(),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GameState:
        """Rebuild a state from :meth:`to_dict` output.

        Raises ``ValueError`` for an unknown schema version or a state that breaks the
        tile-conservation invariant, and ``KeyError`` for a missing field.
        """
        if data.get("schema") != SCHEMA_VERSION:
            raise ValueError(f"unsupported game state schema {data.get('schema')!r}")
        language = str(data["language"])
        layout_name = str(data["layout"])
        size = layout(layout_name).size
        state = cls(
            language=language,
            layout=layout_name,
            board=check_board(data["board"], tileset(language), size),
            racks=tuple(str(rack) for rack in data["racks"]),
            bag=str(data["bag"]),
            scores=tuple(int(score) for score in data["scores"]),
            turn=int(data["turn"]),
            scoreless_turns=int(data["scoreless_turns"]),
            moves_played=int(data["moves_played"]),
            over=bool(data["over"]),
            end=None if data["end"] is None else EndOfGame.from_dict(data["end"]),
            rules=Rules.from_dict(data["rules"]),
        )
        state.check()
        return state

    def check(self) -> None:
        """Raise ``ValueError`` unless the board, racks and bag hold exactly the tile
        set's tiles and the per-seat fields agree in length."""
        if len(self.scores) != len(self.racks) or not 0 <= self.turn < len(self.racks):
            raise ValueError("scores, racks and turn disagree on the number of seats")
        seen = Counter(board_tiles(self.board))
        for rack in self.racks:
            seen.update(rack)
        seen.update(self.bag)
        expected = Counter(self.tileset.full_bag())
        if seen != expected:
            extra = seen - expected
            missing = expected - seen
            raise ValueError(f"tiles not conserved: extra {dict(extra)}, missing {dict(missing)}")


def decide_winner(final_scores: Sequence[int], reason: EndReason, seat: int | None) -> int | None:
    """The winning seat for a game that ended with ``final_scores``, or None for a draw.

    The highest score wins; a seat that resigned or timed out (``seat`` for those
    reasons) loses whatever the scores, so the winner is the best of the others.
    """
    eligible = [s for s in range(len(final_scores)) if reason not in ("resign", "timeout") or s != seat]
    best = max(final_scores[s] for s in eligible)
    leaders = [s for s in eligible if final_scores[s] == best]
    return leaders[0] if len(leaders) == 1 else None


def new_game(
    language: str,
    rng: random.Random,
    *,
    layout: str = "wwf",
    players: int = 2,
    rules: Rules | None = None,
) -> GameState:
    """A fresh game: the bag shuffled with ``rng``, racks dealt seat by seat, seat 0
    to move. The same ``rng`` seed always gives the same game."""
    if players < 2:
        raise ValueError("a game needs at least two players")
    tiles = tileset(language)
    geometry = _layout(layout)
    shuffled = list(tiles.full_bag())
    rng.shuffle(shuffled)
    bag = "".join(shuffled)
    racks: list[str] = []
    for _ in range(players):
        rack, bag = draw(bag, tiles.rack_size)
        racks.append(rack)
    return GameState(
        language=language,
        layout=layout,
        board=geometry.empty_board(),
        racks=tuple(racks),
        bag=bag,
        scores=(0,) * players,
        rules=rules if rules is not None else Rules(),
    )


# ``new_game`` has a ``layout`` parameter (the contract's name), which shadows the
# module-level function inside it.
_layout = layout


def draw(bag: str, count: int) -> tuple[str, str]:
    """Take ``count`` tiles (or all that remain) from the end of the bag.

    Returns ``(drawn, rest)``; ``drawn`` is in the order the tiles came out.
    """
    count = min(count, len(bag))
    if count <= 0:
        return "", bag
    return bag[: -count - 1 : -1], bag[:-count]


def remove_tiles(rack: str, tiles: Sequence[str]) -> str | None:
    """The rack without ``tiles`` (a multiset), or None if the rack lacks one of them."""
    remaining = list(rack)
    for tile in tiles:
        try:
            remaining.remove(tile)
        except ValueError:
            return None
    return "".join(remaining)
