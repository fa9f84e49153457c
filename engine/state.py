"""The immutable game state, its rules parameters, and its JSON form.

``GameState`` is a frozen value: every action in ``engine.moves`` returns a new one.
It serialises with :meth:`GameState.to_dict` to plain JSON types, tagged with
``"schema": SCHEMA_VERSION``; bump the version and teach ``from_dict`` the old shape
whenever the shape changes, because games in progress are stored in that form.

Invariant (checked by :meth:`GameState.check`): the tiles on the board (blanks counted
as ``?``), on the racks and in the bag are exactly the tile set's full bag.
"""

from __future__ import annotations

import dataclasses
import functools
import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Literal

from engine.board import Board, board_tiles, check_board, layout
from engine.tiles import TileSet, tileset

#: Schema 2 added the rules as data (preset, tile set, board, bingo, going out, the
#: scoreless ending at 0-0, the challenge rule), the provisional play (``pending``), the
#: per-seat time penalties, and games of one seat. Schema 1 states still load.
SCHEMA_VERSION = 2
SUPPORTED_SCHEMAS = (1, 2)

EndReason = Literal["out", "scoreless", "resign", "timeout", "turns"]
END_REASONS: tuple[EndReason, ...] = ("out", "scoreless", "resign", "timeout", "turns")


GoingOut = Literal["transfer", "double"]
GOING_OUT: tuple[GoingOut, ...] = ("transfer", "double")
ChallengeRule = Literal["void", "single", "double", "five"]
CHALLENGE_RULES: tuple[ChallengeRule, ...] = ("void", "single", "double", "five")
#: Points a valid play earns its player when challenged under the ``five`` rule.
CHALLENGE_BONUS = 5


@dataclass(frozen=True, slots=True)
class Rules:
    """The rules a game is played by: data, separate from its language (RULES.md keeps
    these configurable). ``Rules()`` is this game's own rules; :func:`preset` names the
    others.

    - ``preset``: the preset's name, for people (``"wwf"`` or ``"classic"``).
    - ``tiles``: the tile-set code (``engine/data/tilesets.json``); ``""`` is the game
      language's own set. ``board``: the layout new games use; ``""`` is ``"wwf"``.
    - ``bingo_bonus``: points for playing a whole rack; None is the tile set's.
    - ``going_out``: ``"transfer"`` (the others lose their rack values, the player who
      went out gains their sum) or ``"double"`` (the player who went out gains twice
      the others' rack values; the others lose nothing: the classic rule).
    - ``scoreless_turns_to_end``: consecutive scoreless turns (every player counted)
      that end the game; ``scoreless_at_zero``: whether that also ends it while every
      score is 0. ``scoreless_rack_penalty``: on that ending each player loses the
      value of their own rack (no one gains it).
    - ``exchange_min_bag``: tiles the bag must hold for any exchange (WWF: none; the
      bag must always hold at least as many tiles as are exchanged).
    - ``challenge``: ``"void"`` checks every word when it is played (a phony is
      refused); otherwise every play stands provisionally until the next player
      moves or challenges it (``engine.moves.challenge``): a phony challenged is taken
      back, and a valid play challenged costs the challenger nothing (``"single"``),
      their turn (``"double"``), or earns its player ``CHALLENGE_BONUS`` (``"five"``).
    - ``turn_limit``: turns each seat plays before the game ends (reason ``"turns"``,
      racks left as they are: no adjustment); 0 is no limit. A short game against a
      target (a solo challenge: "score 150 in five turns") is played by it. Stored
      only when set, so the rules of every other game read and write as before.
    """

    scoreless_turns_to_end: int = 3
    scoreless_rack_penalty: bool = True
    exchange_min_bag: int = 0
    preset: str = "wwf"
    tiles: str = ""
    board: str = ""
    bingo_bonus: int | None = None
    going_out: GoingOut = "transfer"
    scoreless_at_zero: bool = False
    challenge: ChallengeRule = "void"
    turn_limit: int = 0

    def __post_init__(self) -> None:
        if self.going_out not in GOING_OUT:
            raise ValueError(f"unknown going-out rule {self.going_out!r}")
        if self.challenge not in CHALLENGE_RULES:
            raise ValueError(f"unknown challenge rule {self.challenge!r}")
        if self.scoreless_turns_to_end < 1:
            raise ValueError("scoreless_turns_to_end must be at least 1")
        if self.turn_limit < 0:
            raise ValueError("turn_limit must be 0 (no limit) or more")

    def tileset_for(self, language: str) -> TileSet:
        """The tile set a game in ``language`` is played with under these rules (with
        the bingo bonus these rules give)."""
        return _rules_tileset(self.tiles or language, self.bingo_bonus)

    def to_dict(self) -> dict[str, Any]:
        return {
            "scoreless_turns_to_end": self.scoreless_turns_to_end,
            "scoreless_rack_penalty": self.scoreless_rack_penalty,
            "exchange_min_bag": self.exchange_min_bag,
            "preset": self.preset,
            "tiles": self.tiles,
            "board": self.board,
            "bingo_bonus": self.bingo_bonus,
            "going_out": self.going_out,
            "scoreless_at_zero": self.scoreless_at_zero,
            "challenge": self.challenge,
        } | ({"turn_limit": self.turn_limit} if self.turn_limit else {})

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Rules:
        """Rebuild rules from :meth:`to_dict` output; the keys schema 1 did not have
        (every one after ``exchange_min_bag``) take today's defaults when absent."""
        going_out = data.get("going_out", "transfer")
        challenge = data.get("challenge", "void")
        if going_out not in GOING_OUT:
            raise ValueError(f"unknown going-out rule {going_out!r}")
        if challenge not in CHALLENGE_RULES:
            raise ValueError(f"unknown challenge rule {challenge!r}")
        bingo = data.get("bingo_bonus")
        return cls(
            scoreless_turns_to_end=int(data["scoreless_turns_to_end"]),
            scoreless_rack_penalty=bool(data["scoreless_rack_penalty"]),
            exchange_min_bag=int(data["exchange_min_bag"]),
            preset=str(data.get("preset", "wwf")),
            tiles=str(data.get("tiles", "")),
            board=str(data.get("board", "")),
            bingo_bonus=None if bingo is None else int(bingo),
            going_out=going_out,
            scoreless_at_zero=bool(data.get("scoreless_at_zero", False)),
            challenge=challenge,
            turn_limit=int(data.get("turn_limit", 0)),
        )


@functools.cache
def _rules_tileset(code: str, bingo_bonus: int | None) -> TileSet:
    tiles = tileset(code)
    if bingo_bonus is None or bingo_bonus == tiles.bingo_bonus:
        return tiles
    return dataclasses.replace(tiles, bingo_bonus=bingo_bonus)


#: The classic tile set of each game language that has one in ``tilesets.json``.
#: Spanish has none: its classic set has the digraph tiles CH, LL and RR, which this
#: engine (one letter per tile) cannot hold.
CLASSIC_TILES: Mapping[str, str] = MappingProxyType(
    {
        "en": "en-scrabble",
        "en-GB": "en-scrabble",
        "it": "it-scrabble",
        "pt-BR": "pt-BR-scrabble",
        "de": "de-scrabble",
        "fr": "fr-scrabble",
    }
)
PRESETS: tuple[str, ...] = ("wwf", "classic")


def preset(name: str, language: str, *, challenge: ChallengeRule | None = None) -> Rules:
    """The named rules for a game in ``language``.

    ``"wwf"``: this game's own rules (``Rules()``; its challenge rule is ``"void"``
    unless ``challenge`` says otherwise). ``"classic"``: the classic board and the
    language's classic tile set (``CLASSIC_TILES``), 50 for a bingo, going out gains
    twice the other racks, six scoreless turns in a row end the game (at 0-0 too), an
    exchange needs 7 tiles in the bag, and the double challenge unless ``challenge``
    names another. Raises ``ValueError`` for an unknown preset or a language with no
    classic tile set.
    """
    if name == "wwf":
        return Rules(challenge=challenge or "void")
    if name != "classic":
        raise ValueError(f"unknown rules preset {name!r}; known: {', '.join(PRESETS)}")
    if language not in CLASSIC_TILES:
        raise ValueError(f"there is no classic tile set for {language!r}")
    return Rules(
        preset="classic",
        tiles=CLASSIC_TILES[language],
        board="scrabble",
        bingo_bonus=50,
        going_out="double",
        scoreless_turns_to_end=6,
        scoreless_at_zero=True,
        scoreless_rack_penalty=True,
        exchange_min_bag=7,
        challenge=challenge or "double",
    )


@dataclass(frozen=True, slots=True)
class Pending:
    """A play that stands provisionally until the next player moves or challenges it
    (any challenge rule but ``"void"``). It holds what taking it back needs: the
    placements (already on the board), their score (already counted), the rack before
    the play, the tiles drawn after it (already on the rack, in draw order), the
    scoreless-turn count before it, and the words to check. ``final``: accepting the
    play ends the game (the player went out, or the scoreless-turns rule), so the
    game's end waits for the window to close.
    """

    seat: int
    placements: tuple[tuple[int, int, str], ...]
    score: int
    rack_before: str
    drawn: str
    scoreless_before: int
    words: tuple[str, ...]
    final: bool

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "placements": [list(p) for p in self.placements],
            "score": self.score,
            "rack_before": self.rack_before,
            "drawn": self.drawn,
            "scoreless_before": self.scoreless_before,
            "words": list(self.words),
            "final": self.final,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Pending:
        return cls(
            seat=int(data["seat"]),
            placements=tuple((int(r), int(c), str(ch)) for r, c, ch in data["placements"]),
            score=int(data["score"]),
            rack_before=str(data["rack_before"]),
            drawn=str(data["drawn"]),
            scoreless_before=int(data["scoreless_before"]),
            words=tuple(str(w) for w in data["words"]),
            final=bool(data["final"]),
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
    challenges, time penalties, and the resignation or timeout that ends a game).
    ``pending`` is the play the seat to move may still challenge (None under the
    ``"void"`` rule). ``penalties`` are each seat's time penalties so far, in points
    (already taken off ``scores``); ``()`` while there are none (see
    :meth:`penalty_of`). A game may have a single seat (a solo game).
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
    pending: Pending | None = None
    penalties: tuple[int, ...] = ()

    @property
    def tileset(self) -> TileSet:
        """The tile set this game is played with: its rules' (the language's own by
        default), with the rules' bingo bonus."""
        return self.rules.tileset_for(self.language)

    @property
    def players(self) -> int:
        return len(self.racks)

    def penalty_of(self, seat: int) -> int:
        """The time penalties ``seat`` has had so far, in points."""
        return self.penalties[seat] if self.penalties else 0

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
            "pending": None if self.pending is None else self.pending.to_dict(),
            "penalties": list(self.penalties) if self.penalties else [0] * len(self.racks),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GameState:
        """Rebuild a state from :meth:`to_dict` output.

        Schema 1 (before the rules as data) loads as the same game under ``Rules()``
        with its three stored rule fields, nothing pending and no penalties: it plays on
        exactly as before. Raises ``ValueError`` for an unknown schema version or a
        state that breaks the tile-conservation invariant, and ``KeyError`` for a
        missing field.
        """
        schema = data.get("schema")
        if schema not in SUPPORTED_SCHEMAS:
            raise ValueError(f"unsupported game state schema {schema!r}")
        language = str(data["language"])
        layout_name = str(data["layout"])
        size = layout(layout_name).size
        rules = Rules.from_dict(data["rules"])
        pending = data.get("pending")
        racks = tuple(str(rack) for rack in data["racks"])
        penalties = tuple(int(p) for p in data.get("penalties") or ())
        if not any(penalties):
            # No penalty is stored as (), as a new game has it, so a state compares
            # equal to itself read back.
            penalties = ()
        state = cls(
            language=language,
            layout=layout_name,
            board=check_board(data["board"], rules.tileset_for(language), size),
            racks=racks,
            bag=str(data["bag"]),
            scores=tuple(int(score) for score in data["scores"]),
            turn=int(data["turn"]),
            scoreless_turns=int(data["scoreless_turns"]),
            moves_played=int(data["moves_played"]),
            over=bool(data["over"]),
            end=None if data["end"] is None else EndOfGame.from_dict(data["end"]),
            rules=rules,
            pending=None if pending is None else Pending.from_dict(pending),
            penalties=penalties,
        )
        state.check()
        return state

    def check(self) -> None:
        """Raise ``ValueError`` unless the board, racks and bag hold exactly the tile
        set's tiles and the per-seat fields agree in length."""
        if len(self.scores) != len(self.racks) or not 0 <= self.turn < len(self.racks):
            raise ValueError("scores, racks and turn disagree on the number of seats")
        if self.penalties and len(self.penalties) != len(self.racks):
            raise ValueError("penalties and racks disagree on the number of seats")
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
    reasons) loses whatever the scores, so the winner is the best of the others. A
    solo game that ended otherwise is its one player's; one given up has no winner.
    """
    eligible = [s for s in range(len(final_scores)) if reason not in ("resign", "timeout") or s != seat]
    if not eligible:
        return None
    best = max(final_scores[s] for s in eligible)
    leaders = [s for s in eligible if final_scores[s] == best]
    return leaders[0] if len(leaders) == 1 else None


def new_game(
    language: str,
    rng: random.Random,
    *,
    layout: str | None = None,
    players: int = 2,
    rules: Rules | None = None,
) -> GameState:
    """A fresh game: the bag shuffled with ``rng``, racks dealt seat by seat, seat 0
    to move. The same ``rng`` seed always gives the same game.

    The board is ``layout``, else the rules' board, else ``"wwf"``. One player is a
    solo game, which has no one to challenge a play: its rules must be ``"void"``.
    """
    rules = rules if rules is not None else Rules()
    if players < 1:
        raise ValueError("a game needs at least one player")
    if players == 1 and rules.challenge != "void":
        raise ValueError("a solo game has no one to challenge: its challenge rule must be void")
    layout = layout or rules.board or "wwf"
    tiles = rules.tileset_for(language)
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
        rules=rules,
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
