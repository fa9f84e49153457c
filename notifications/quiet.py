"""Quiet hours: a player's night, in their own time zone, when push notifications that are
not urgent wait until morning (``notifications.tasks``). Urgent: time running out."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from notifications.models import Kind
from notifications.texts import time_zone_of

URGENT = frozenset({Kind.DEADLINE_WARNING})


def quiet_until(user: Any, now: datetime) -> datetime | None:
    """When ``user``'s quiet hours end, if ``now`` falls in them (``None`` otherwise)."""
    start, end = getattr(user, "quiet_hours_start", None), getattr(user, "quiet_hours_end", None)
    if start is None or end is None or start == end:
        return None
    local = now.astimezone(time_zone_of(user))
    hour = local.hour
    inside = start <= hour < end if start < end else (hour >= start or hour < end)
    if not inside:
        return None
    ends = local.replace(hour=end, minute=0, second=0, microsecond=0)
    if ends <= local:
        ends += timedelta(days=1)
    return ends
