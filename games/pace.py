"""A game's pace: correspondence (so many days a move) or live (a clock per player).

Chosen when a game is made (the new-game form, an invitation, a rematch, the API; a
tournament keeps its own days) and stored on the game (``Game.speed``,
``inactivity_days`` for correspondence, ``clock_seconds``, ``increment_seconds`` and
``overtime_minutes`` for live). Written as a short code the form and the API share:
``"3d"`` (three days a move) or ``"10+5"`` (ten minutes each, five seconds added after
every move). Pure: no model, no clock.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

CORRESPONDENCE = "correspondence"
LIVE = "live"
SPEEDS = (CORRESPONDENCE, LIVE)
SPEED_CHOICES = [(CORRESPONDENCE, _("Correspondence")), (LIVE, _("Live"))]

#: Days a move a correspondence game may be made at.
CORRESPONDENCE_DAYS = (1, 2, 3, 5, 7)
#: Minutes a player a live game may be made with (the form offers these).
LIVE_MINUTES = (1, 3, 5, 10, 15, 20, 25)
#: The most seconds added to a live clock after each move.
MAX_INCREMENT = 10
#: Overtime in club play: so many minutes past zero before the game is lost on time.
DEFAULT_OVERTIME_MINUTES = 10

_CODE = re.compile(r"(?:(?P<days>[0-9])d|(?P<minutes>[0-9]{1,2})\+(?P<increment>[0-9]{1,2}))")


@dataclass(frozen=True, slots=True)
class Pace:
    """How fast a game goes. ``overtime`` (live only): minutes a player may go past
    zero, losing 10 points per started minute, before losing on time; 0 is sudden
    death (the game is lost when the clock reaches zero)."""

    speed: str
    days: int = 0
    minutes: int = 0
    increment: int = 0
    overtime: int = DEFAULT_OVERTIME_MINUTES

    @classmethod
    def parse(cls, code: str, *, sudden_death: bool = False) -> Pace:
        """``"3d"`` or ``"10+5"`` (``ValueError`` for anything else, or a number not
        offered: 1, 2, 3, 5 or 7 days; the minutes of ``LIVE_MINUTES``; 0 to 10 s)."""
        found = _CODE.fullmatch(code.strip())
        if found is None:
            raise ValueError(f"not a pace: {code!r}")
        if found["days"] is not None:
            days = int(found["days"])
            if days not in CORRESPONDENCE_DAYS:
                raise ValueError(f"not a correspondence pace: {days} days")
            return cls(CORRESPONDENCE, days=days)
        minutes, increment = int(found["minutes"]), int(found["increment"])
        if minutes not in LIVE_MINUTES or not 0 <= increment <= MAX_INCREMENT:
            raise ValueError(f"not a live pace: {minutes}+{increment}")
        return cls(
            LIVE,
            minutes=minutes,
            increment=increment,
            overtime=0 if sudden_death else DEFAULT_OVERTIME_MINUTES,
        )

    @classmethod
    def correspondence(cls, days: int) -> Pace:
        return cls(CORRESPONDENCE, days=days)

    @classmethod
    def of(cls, game: Any) -> Pace:
        """The pace a game (a ``Game`` row) was made with."""
        if game.speed == LIVE:
            return cls(
                LIVE,
                minutes=game.clock_seconds // 60,
                increment=game.increment_seconds,
                overtime=game.overtime_minutes,
            )
        return cls(CORRESPONDENCE, days=game.inactivity_days)

    @property
    def is_live(self) -> bool:
        return self.speed == LIVE

    @property
    def code(self) -> str:
        return f"{self.minutes}+{self.increment}" if self.is_live else f"{self.days}d"

    @property
    def sudden_death(self) -> bool:
        return self.is_live and self.overtime == 0

    def fields(self) -> dict[str, Any]:
        """The game's columns for this pace (``clock_seconds`` before any test override)."""
        if not self.is_live:
            return {"speed": CORRESPONDENCE, "inactivity_days": self.days}
        return {
            "speed": LIVE,
            # A live game never waits days: no deadline warnings, no extension.
            "inactivity_days": 0,
            "clock_seconds": self.minutes * 60,
            "increment_seconds": self.increment,
            "overtime_minutes": self.overtime,
            "warn_before_timeout": False,
            "vacation_pauses": False,
        }

    def label(self) -> str:
        """ "3 days a move", "Live 10 min + 5 s, overtime up to 10 min", "Live 5 min,
        sudden death" (in the active language)."""
        if not self.is_live:
            return ngettext("%(days)s day a move", "%(days)s days a move", self.days) % {"days": self.days}
        clock = (
            gettext("Live %(minutes)s min + %(increment)s s")
            % {"minutes": self.minutes, "increment": self.increment}
            if self.increment
            else gettext("Live %(minutes)s min") % {"minutes": self.minutes}
        )
        if self.overtime:
            return gettext("%(clock)s, overtime up to %(limit)s min (10 points a minute)") % {
                "clock": clock,
                "limit": self.overtime,
            }
        return gettext("%(clock)s, sudden death") % {"clock": clock}


def choices() -> list[tuple[str, Any]]:
    """The paces the new-game form offers, correspondence first."""
    days = [(f"{d}d", Pace.correspondence(d).label()) for d in CORRESPONDENCE_DAYS]
    live = [(f"{m}+0", gettext("Live %(minutes)s min") % {"minutes": m}) for m in LIVE_MINUTES if m >= 5]
    return days + live
