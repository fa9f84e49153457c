"""Live games' clocks: the arithmetic, on plain values (no model, no clock of its own).

The server's figures are the truth: ``Game.clock_ms`` (each seat's time left, in
milliseconds, at ``Game.turn_started_at``; below zero in overtime) and
``Game.turn_started_at`` (when the turn of the seat to move began). They move on only
inside ``Game.act``, with the game row locked: the mover's clock is charged the time the
turn took and given the increment. The clock of the player to move runs; the flag falls
at :func:`flag_at` (zero in sudden death, the overtime limit otherwise), as the game's
``turn_deadline``, which a deferred task on the ``clocks`` queue acts on through
``Game.act`` as the system (``games.tasks.clock_flag``). Overtime costs 10 points per
started minute (``engine.overtime_penalty``), taken off at the end of the game as time
penalties (``engine.penalize``).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

import engine

#: The task queue of everything a live clock sets off (the flag, the abort): a worker of
#: its own, so that a flag never waits behind a computer's thinking or an analysis.
CLOCK_QUEUE = "clocks"


def elapsed_ms(started: datetime, now: datetime) -> int:
    return max(0, int((now - started) / timedelta(milliseconds=1)))


def flag_at(left_ms: int, started: datetime, overtime_minutes: int) -> datetime:
    """When the flag of a player with ``left_ms`` at ``started`` falls: when the clock
    reaches zero in sudden death, or once the overtime limit is used up."""
    return started + timedelta(milliseconds=left_ms + overtime_minutes * 60_000)


def charged(
    clocks: list[int], seat: int, started: datetime, now: datetime, *, increment_ms: int
) -> list[int]:
    """``clocks`` once ``seat``'s turn, begun at ``started``, ends at ``now`` with a move
    (``increment_ms`` added; 0 for an end without a move)."""
    after = list(clocks)
    after[seat] = after[seat] - elapsed_ms(started, now) + increment_ms
    return after


def left_now(clocks: list[int], turn: int | None, started: datetime | None, now: datetime) -> list[int]:
    """Each seat's time left at ``now``: the seat to move's runs from ``started``."""
    now_clocks = list(clocks)
    if turn is not None and started is not None:
        now_clocks[turn] -= elapsed_ms(started, now)
    return now_clocks


def penalties(clocks: list[int]) -> list[int]:
    """The overtime penalty of each seat (10 points per started minute below zero)."""
    return [engine.overtime_penalty(-ms) for ms in clocks]


@dataclass(frozen=True, slots=True)
class ClockView:
    """One seat's clock as a page shows it: time left at the moment of rendering (below
    zero: overtime), whether it runs, and the overtime allowed (0: sudden death)."""

    seat: int
    left_ms: int
    running: bool
    overtime_ms: int

    @property
    def in_overtime(self) -> bool:
        return self.left_ms < 0

    @property
    def text(self) -> str:
        """``m:ss`` (``-m:ss`` in overtime), rounded up while running as clocks do."""
        ms = self.left_ms
        sign = "-" if ms < 0 else ""
        seconds = -(-abs(ms) // 1000) if ms >= 0 else abs(ms) // 1000
        return f"{sign}{seconds // 60}:{seconds % 60:02d}"


def clock_views(
    clocks: list[int] | None,
    turn: int | None,
    started: datetime | None,
    now: datetime,
    *,
    running: bool,
    overtime_minutes: int,
) -> tuple[ClockView, ...]:
    """Every seat's clock at ``now`` (none for a game without clocks)."""
    if not clocks:
        return ()
    left = left_now(clocks, turn if running else None, started, now)
    floor = -overtime_minutes * 60_000
    return tuple(
        ClockView(
            seat=i,
            left_ms=max(ms, floor),
            running=running and i == turn,
            overtime_ms=overtime_minutes * 60_000,
        )
        for i, ms in enumerate(left)
    )
