"""A player's action as a value, and the one entry point that applies it.

``Play``, ``Exchange``, ``Pass``, ``Resign`` and ``Timeout`` are frozen values: a view
builds one from its form, the computer player decides one, a deadline produces a
``Timeout``; :func:`apply` turns any of them into the next state (or raises
``IllegalMove``). The site's own actions (accepting an invitation, the first deal)
live in ``games.actions``; only these five change the engine's state.

``Challenge``, ``Accept`` and ``TimePenalty`` (:data:`RuleAction`) belong to games under
a challenge rule or with clocks; :func:`apply` takes them too. They are kept out of
:data:`EngineAction` and :data:`ENGINE_ACTION_KINDS`: the site offers the first two as its
own kinds (``games.actions``: ``challenge``, and ``accept_play`` since its ``accept`` is an
invitation's), each with a rule of its own in its rule table.
"""

from __future__ import annotations

import random
from collections.abc import Container, Sequence
from dataclasses import dataclass
from typing import ClassVar

from engine.analysis import ComputerChoice
from engine.moves import (
    Placement,
    Played,
    accept,
    challenge,
    exchange,
    pass_turn,
    penalize,
    play,
    resign,
    timeout,
)
from engine.state import GameState


@dataclass(frozen=True, slots=True)
class Play:
    """Put ``placements`` on the board."""

    placements: tuple[Placement, ...]
    kind: ClassVar[str] = "play"

    @classmethod
    def of(cls, placements: Sequence[Placement]) -> Play:
        return cls(tuple(placements))


@dataclass(frozen=True, slots=True)
class Exchange:
    """Return ``tiles`` (rack letters, ``?`` for a blank) to the bag and draw as many."""

    tiles: tuple[str, ...]
    kind: ClassVar[str] = "exchange"

    @classmethod
    def of(cls, tiles: Sequence[str] | str) -> Exchange:
        return cls(tuple(tiles))


@dataclass(frozen=True, slots=True)
class Pass:
    """Pass the turn."""

    kind: ClassVar[str] = "pass"


@dataclass(frozen=True, slots=True)
class Resign:
    """Give the game up (allowed on either player's turn)."""

    kind: ClassVar[str] = "resign"


@dataclass(frozen=True, slots=True)
class Timeout:
    """The player to move let their time run out: they lose."""

    kind: ClassVar[str] = "timeout"


@dataclass(frozen=True, slots=True)
class Challenge:
    """Challenge the play just made (under a challenge rule other than ``"void"``)."""

    kind: ClassVar[str] = "challenge"


@dataclass(frozen=True, slots=True)
class Accept:
    """Accept the last play of the game without challenging it: the game ends."""

    kind: ClassVar[str] = "accept"


@dataclass(frozen=True, slots=True)
class TimePenalty:
    """Take ``points`` off the acting seat's score for time used past its clock."""

    points: int
    kind: ClassVar[str] = "penalty"


EngineAction = Play | Exchange | Pass | Resign | Timeout
RuleAction = Challenge | Accept | TimePenalty

#: The kinds of :data:`EngineAction`, as their ``kind`` strings.
ENGINE_ACTION_KINDS: tuple[str, ...] = (Play.kind, Exchange.kind, Pass.kind, Resign.kind, Timeout.kind)
#: The kinds of :data:`RuleAction`.
RULE_ACTION_KINDS: tuple[str, ...] = (Challenge.kind, Accept.kind, TimePenalty.kind)


def apply(
    state: GameState,
    seat: int,
    action: EngineAction | RuleAction,
    *,
    lexicon: Container[str],
    rng: random.Random,
) -> Played:
    """Apply ``action`` for ``seat`` and return the next state with its record.

    ``lexicon`` checks a play's words (a challenged play's, under a challenge rule);
    ``rng`` shuffles the bag after an exchange (the
    caller derives it, so a replay gives the same bag). Raises ``IllegalMove`` when the
    action breaks a rule (``Timeout`` applies to the seat to move, whatever ``seat``
    says, as a lapsed deadline is always the mover's).
    """
    match action:
        case Play(placements=placements):
            return play(state, seat, placements, lexicon)
        case Exchange(tiles=tiles):
            return exchange(state, seat, list(tiles), rng)
        case Pass():
            return pass_turn(state, seat)
        case Resign():
            return resign(state, seat)
        case Timeout():
            return timeout(state, state.turn)
        case Challenge():
            return challenge(state, seat, lexicon)
        case Accept():
            return accept(state, seat)
        case TimePenalty(points=points):
            return penalize(state, seat, points)
    raise TypeError(f"not an engine action: {action!r}")


def computer_action(choice: ComputerChoice) -> EngineAction:
    """The computer player's choice (``engine.analysis.computer_move``) as an action."""
    if choice.kind == "play":
        return Play(choice.placements)
    if choice.kind == "exchange":
        return Exchange(choice.tiles)
    return Pass()
