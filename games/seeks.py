"""Open seeks matched by rating (issue 28, point 5): who may meet whom, and how the
window widens with the wait. Reads only; the workflows that start games from seeks are
in ``games.services`` (``_join_or_open_seek``, ``accept_seek``, ``match_waiting``,
``computer_instead``).

A random request (an ``OPEN`` game of mode ``random``) carries its player's rating in its
language at its speed when it was opened (``Game.seek_rating``). Two players meet when
their ratings are within the window of either request: ``SEEK_WINDOW`` (200) each way at
first, ``SEEK_WIDEN`` (100) more for every minute waited (live) or hour (correspondence).
Blocked players never meet; a rated request pairs people with people and bots with bots.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import QuerySet

from accounts import glicko2
from accounts.models import Rating, User
from accounts.moderation import suspended_ids
from accounts.services import blocked_ids
from games.models import Game
from games.pace import Pace


def rating_of(user: User, language: str, speed: str) -> float:
    """``user``'s rating in ``language`` at ``speed`` (a newcomer's default without one)."""
    row = Rating.objects.filter(user=user, language=language, speed=speed).first()
    return row.rating if row is not None else glicko2.DEFAULT_RATING


def widen_step(live: bool) -> timedelta:
    """How long a request waits for its window to widen once more."""
    return timedelta(minutes=1) if live else timedelta(hours=1)


def window(seek: Game, now: datetime) -> float:
    """The rating distance ``seek`` accepts at ``now``: the start window, widened once for
    every full step waited."""
    waited = max(timedelta(0), now - seek.created_at)
    steps = int(waited / widen_step(seek.is_live))
    return float(settings.SEEK_WINDOW + settings.SEEK_WIDEN * steps)


def seek_rating(seek: Game) -> float:
    return seek.seek_rating if seek.seek_rating is not None else glicko2.DEFAULT_RATING


def within(seek: Game, rating: float, now: datetime, *, own_window: float | None = None) -> bool:
    """Whether a player rated ``rating`` (whose own window is ``own_window``) and ``seek``'s
    player are close enough at ``now``: within either's window."""
    distance = abs(seek_rating(seek) - rating)
    return distance <= max(window(seek, now), own_window if own_window is not None else settings.SEEK_WINDOW)


def open_seeks() -> QuerySet[Game]:
    """Every open random request, oldest first, its creator read."""
    return (
        Game.objects.filter(status=Game.Status.OPEN, mode=Game.Mode.RANDOM)
        .select_related("created_by")
        .order_by("created_at", "pk")
    )


def eligible_for(user: User, seeks: QuerySet[Game]) -> QuerySet[Game]:
    """``seeks`` that ``user`` may be paired with, the rating window aside: not their own,
    not a player either of them blocked, not a suspended player's, and for a rated request
    a person with a person and a bot with a bot."""
    return (
        seeks.exclude(created_by=user)
        .exclude(created_by__in=blocked_ids(user))
        .exclude(rated=True, created_by__is_bot=not user.is_bot)
        .exclude(created_by__in=suspended_ids())
    )


@dataclass(frozen=True)
class SeekItem:
    """One open request as the seeks page lists it for a viewer."""

    id: int
    version: int
    player: str
    language: str
    pace_code: str
    pace_label: str
    is_live: bool
    rated: bool
    rating: int
    low: int
    high: int
    created_at: datetime
    is_mine: bool
    can_accept: bool
    computer_offered: bool
    # The rules the game will be played by (``Game.rules_preset``, ``Game.challenge_rule``),
    # and their label for players ("" for this game's own rules without challenges),
    # filled in by ``rendering.seeks_context``.
    player_bot: bool = False  # the request's player is a bot (its name says so too)
    rules_preset: str = Game.Preset.WWF
    challenge_rule: str = Game.ChallengeRule.VOID
    rules: str = ""


def items_for(user: User, now: datetime) -> list[SeekItem]:
    """The open requests ``user`` sees: their own, and everyone's they could be paired with
    (``can_accept`` when their rating is within the request's window now)."""
    seeks = list(open_seeks()[:200])
    allowed = set(eligible_for(user, open_seeks()).values_list("pk", flat=True))
    items = []
    for seek in seeks:
        mine = seek.created_by_id == user.pk
        if not mine and seek.pk not in allowed:
            continue
        rating = seek_rating(seek)
        width = window(seek, now)
        own = rating_of(user, seek.language, seek.speed) if not mine else rating
        waited = now - seek.created_at
        items.append(
            SeekItem(
                id=seek.pk,
                version=seek.version,
                player=seek.created_by.shown_name,
                language=seek.language,
                pace_code=Pace.of(seek).code,
                pace_label=Pace.of(seek).label(),
                is_live=seek.is_live,
                rated=seek.rated,
                rating=round(rating),
                low=round(rating - width),
                high=round(rating + width),
                created_at=seek.created_at,
                is_mine=mine,
                can_accept=not mine and within(seek, own, now),
                computer_offered=mine
                and seek.is_live
                and waited >= timedelta(seconds=settings.SEEK_COMPUTER_AFTER_SECONDS),
                player_bot=seek.created_by.is_bot,
                rules_preset=seek.rules_preset,
                challenge_rule=seek.challenge_rule,
            )
        )
    return items
