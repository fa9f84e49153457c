"""Every change a game can go through, as a frozen value, and who can be its actor.

The engine's five actions (``engine.actions``: ``Play``, ``Exchange``, ``Pass``,
``Resign``, ``Timeout``) change the engine state, and so do a challenge rule's two
(``Challenge``, ``AcceptPlay``); the site's own actions here change
the game around it: ``Deal`` seats the players and deals the tiles (an invitation or a
started game), ``Accept`` starts an invitation, ``Decline`` ends an invitation or a
seek. ``Game.act`` applies any of them on one locked, version-checked path.

Actors: a user; :data:`SYSTEM` for what no person does (the first deal, a lapsed
deadline); :class:`Computer` for a computer seat.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from engine.actions import (
    ENGINE_ACTION_KINDS,
    Challenge,
    EngineAction,
    Exchange,
    Pass,
    Play,
    Resign,
    Timeout,
)
from engine.state import Rules


@dataclass(frozen=True, slots=True)
class Deal:
    """Seat ``players`` in order (a user id, or a computer level string), deal the tiles,
    and open the game as an invitation (``start=False``) or start it (``start=True``).
    ``told``: whoever paired the players tells them themselves (a tournament round's
    pairing message names the opponent and who moves first), so the deal records no
    "your turn"."""

    players: tuple[int | str, ...]
    start: bool
    told: bool = False
    #: The rules the game is dealt under (None: this game's own, ``engine.Rules()``); a
    #: solo challenge deals one seat with a turn limit.
    rules: Rules | None = None
    kind: ClassVar[str] = "deal"


@dataclass(frozen=True, slots=True)
class Accept:
    """The invited friend accepts: the game starts."""

    kind: ClassVar[str] = "accept"


@dataclass(frozen=True, slots=True)
class Decline:
    """The invitee declines an invitation, or its creator withdraws it or their seek."""

    kind: ClassVar[str] = "decline"


@dataclass(frozen=True, slots=True)
class Extend:
    """The system moves a lapsed deadline on once, because no warning reached the player
    to move during the turn (``games.rules._extend``): recorded, so the log says why."""

    kind: ClassVar[str] = "extend"


@dataclass(frozen=True, slots=True)
class Abort:
    """The system calls off a live game whose first player did not move in time
    (``LIVE_ABORT_SECONDS``): it counts for nothing (no result, rating or coins)."""

    kind: ClassVar[str] = "abort"


@dataclass(frozen=True, slots=True)
class BuyExtra:
    """Buy the paid extra ``extra`` (``games.extras``) for its period."""

    extra: str
    kind: ClassVar[str] = "buy_extra"


@dataclass(frozen=True, slots=True)
class AcceptPlay:
    """The player to move accepts the last play of the game without challenging it, so
    the game ends (the engine's ``Accept``, under a kind of its own: ``accept`` is the
    invitation's)."""

    kind: ClassVar[str] = "accept_play"


SiteAction = Deal | Accept | Decline | BuyExtra | Extend | Abort
#: The challenge rules' actions (``engine.moves.challenge`` and ``accept``).
ChallengeAction = Challenge | AcceptPlay
Action = EngineAction | SiteAction | ChallengeAction

SITE_ACTION_KINDS: tuple[str, ...] = (
    Deal.kind,
    Accept.kind,
    Decline.kind,
    BuyExtra.kind,
    Extend.kind,
    Abort.kind,
)
CHALLENGE_ACTION_KINDS: tuple[str, ...] = (Challenge.kind, AcceptPlay.kind)
ACTION_KINDS: tuple[str, ...] = ENGINE_ACTION_KINDS + SITE_ACTION_KINDS + CHALLENGE_ACTION_KINDS

#: Kinds of action that change nothing another player's action depends on (the board,
#: the racks, the scores, the turn, the status): they move the game's version on, so
#: every screen hears of them, but never make another action stale (``Game.act``).
BESIDE_THE_BOARD = frozenset({BuyExtra.kind, Extend.kind})


@dataclass(frozen=True, slots=True)
class System:
    """No person: the first deal, a lapsed deadline."""

    def __str__(self) -> str:
        return "system"


SYSTEM = System()


@dataclass(frozen=True, slots=True)
class Computer:
    """The computer player in seat ``seat``."""

    seat: int

    def __str__(self) -> str:
        return f"computer (seat {self.seat})"


__all__ = [
    "ACTION_KINDS",
    "BESIDE_THE_BOARD",
    "CHALLENGE_ACTION_KINDS",
    "SITE_ACTION_KINDS",
    "SYSTEM",
    "Abort",
    "Accept",
    "AcceptPlay",
    "Action",
    "BuyExtra",
    "Challenge",
    "ChallengeAction",
    "Computer",
    "Deal",
    "Decline",
    "EngineAction",
    "Exchange",
    "Extend",
    "Pass",
    "Play",
    "Resign",
    "SiteAction",
    "System",
    "Timeout",
]
