"""Who a person or an actor is to one game: resolved once, as a frozen value.

Every reader and writer of a game takes a :class:`Pov` instead of working a seat out
again: ``Game.act`` and the rule table (``games.rules``), the typed view of the game
(``games.gameview``), the pages, the live pushes (``games.live``), the API and the event
stream. :func:`resolve` is the only code that turns a user, ``SYSTEM`` or
``Computer(seat)`` into a role and a seat.

The roles:

- ``seat``: a person seated in the game (a player, or the invitee of an invitation);
- ``creator``: the creator of a game who holds no seat in it (an open seek);
- ``spectator``: anyone else, signed in or not;
- ``system``: no person (the first deal, a lapsed deadline);
- ``computer``: the computer player of a computer seat (``seat`` None when the seat it
  names is not one).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal, Protocol

from accounts.models import User
from games.actions import SYSTEM, Computer, System

Role = Literal["seat", "creator", "spectator", "system", "computer"]

#: Statuses from which the seats of a game never change again (``Game.Status`` values).
SETTLED = frozenset({"active", "finished", "declined", "aborted"})


class SeatLike(Protocol):
    index: int
    user_id: int | None


class GameLike(Protocol):
    """What :func:`resolve` reads of a game (a ``Game`` with its seats)."""

    pk: int
    version: int
    status: str
    created_by_id: int

    def seat_list(self) -> Iterable[SeatLike]: ...


@dataclass(frozen=True, slots=True)
class Pov:
    """Who ``user`` (or the system, or the computer) is to game ``game_id``, as resolved
    at ``version``. ``settled``: the game's seats can no longer change, so this holds
    at every later version too."""

    game_id: int
    version: int
    role: Role
    seat: int | None
    user: User | None
    settled: bool

    @property
    def user_id(self) -> int | None:
        return self.user.pk if self.user is not None else None

    @property
    def is_player(self) -> bool:
        """A seated person (not the computer)."""
        return self.role == "seat"

    @property
    def is_system(self) -> bool:
        return self.role == "system"

    @property
    def is_computer(self) -> bool:
        return self.role == "computer"

    @property
    def kind(self) -> str:
        """Which viewers see exactly the same page as this one: ``seat-N`` for the
        player in seat N, ``user-<id>`` for the creator of a game without a seat (they
        may cancel it), ``spectator`` for everyone else (the page shows them no rack, no
        chat and no action). Renders are shared by kind (``games.live``)."""
        if self.role == "seat":
            return f"seat-{self.seat}"
        if self.role == "creator":
            return f"user-{self.user_id}"
        return "spectator"

    def actor(self) -> User | System | Computer | None:
        """The actor this was resolved for (None: nobody signed in)."""
        if self.role == "system":
            return SYSTEM
        if self.role == "computer":
            return Computer(self.seat if self.seat is not None else -1)
        return self.user

    def holds_at(self, version: int, status: str) -> bool:
        """Whether this resolution still holds for the game at ``version``. A seat, the
        system and the computer hold for good (seats are never taken away); anyone else
        until the seats may change (a seek's creator is seated when it is matched)."""
        if self.role in ("seat", "system", "computer") or (self.settled and status in SETTLED):
            return True
        return version == self.version

    def __str__(self) -> str:
        return f"{self.role} {self.seat if self.seat is not None else ''}".strip()


#: How many resolutions were made in this process (what the tests count).
_made = [0]


def made() -> int:
    """Resolutions made so far in this process."""
    return _made[0]


def resolve(game: GameLike, actor: object) -> Pov:
    """Who ``actor`` is to ``game`` (read with its seats) at the game's version."""
    _made[0] += 1
    settled = game.status in SETTLED
    seats = list(game.seat_list())

    def pov(role: Role, seat: int | None, user: User | None) -> Pov:
        return Pov(game.pk, game.version, role, seat, user, settled)

    if isinstance(actor, System):
        return pov("system", None, None)
    if isinstance(actor, Computer):
        is_computer = any(s.index == actor.seat and s.user_id is None for s in seats)
        return pov("computer", actor.seat if is_computer else None, None)
    if not isinstance(actor, User) or not actor.is_authenticated:
        return pov("spectator", None, None)  # Django's anonymous user, or nobody
    user = actor
    seat = next((s.index for s in seats if s.user_id == user.pk), None)
    if seat is not None:
        return pov("seat", seat, user)
    return pov("creator" if user.pk == game.created_by_id else "spectator", None, user)
