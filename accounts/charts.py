"""The rating-history chart: numbers in, SVG geometry out (the template draws it).

Pure and server-side, so the profile needs no JavaScript and no chart library. The
chart is a line through the rating after each rated game, starting at the rating
before the first, with the lowest and highest values marked on the left.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

WIDTH = 320
HEIGHT = 120
#: Room on the left for the axis labels, and above and below the line.
LEFT = 44
PAD = 10


@dataclass(frozen=True)
class Chart:
    width: int
    height: int
    points: str  # the polyline's "x,y x,y ..."
    last_x: float
    last_y: float
    low: int
    high: int
    low_y: float
    high_y: float
    left: int
    first: int
    last: int
    games: int


def rating_chart(values: Sequence[float], *, width: int = WIDTH, height: int = HEIGHT) -> Chart | None:
    """The chart of ``values`` (ratings in order), or None with fewer than two."""
    if len(values) < 2:
        return None
    low, high = min(values), max(values)
    # A flat history still gets a visible band around it.
    span = max(high - low, 20.0)
    middle = (high + low) / 2
    bottom, top = middle - span / 2, middle + span / 2
    step = (width - LEFT - PAD) / (len(values) - 1)

    def y(value: float) -> float:
        return round(PAD + (top - value) / (top - bottom) * (height - 2 * PAD), 1)

    coords = [(round(LEFT + i * step, 1), y(v)) for i, v in enumerate(values)]
    return Chart(
        width=width,
        height=height,
        points=" ".join(f"{x},{yy}" for x, yy in coords),
        last_x=coords[-1][0],
        last_y=coords[-1][1],
        low=round(low),
        high=round(high),
        low_y=y(low),
        high_y=y(high),
        left=LEFT,
        first=round(values[0]),
        last=round(values[-1]),
        games=len(values) - 1,
    )
