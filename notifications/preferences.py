"""Which channels a player wants for each kind of notification. The site itself (the
bell, ``/notifications/``) always records them; the other channels are opt-ins with
defaults a player would expect: push (on the devices they subscribed) for everything,
e-mail only for what needs an answer or costs a game (invitations, friend requests, time
running out), not for every move or chat line."""

from __future__ import annotations

from typing import Any

from notifications.models import Channel, Kind, Preference

DEFAULTS: dict[str, frozenset[str]] = {
    Kind.YOUR_TURN: frozenset({Channel.PUSH}),
    Kind.INVITATION: frozenset({Channel.PUSH, Channel.EMAIL}),
    Kind.INVITATION_ANSWER: frozenset({Channel.PUSH}),
    Kind.GAME_OVER: frozenset({Channel.PUSH}),
    Kind.CHAT: frozenset({Channel.PUSH}),
    Kind.FRIEND_REQUEST: frozenset({Channel.PUSH, Channel.EMAIL}),
    Kind.DEADLINE_WARNING: frozenset({Channel.PUSH, Channel.EMAIL}),
    # One mail a day instead of one per move.
    Kind.DIGEST: frozenset({Channel.EMAIL}),
    Kind.NOTICE: frozenset({Channel.PUSH, Channel.EMAIL}),
    # A new round's game (or bye) may wait days for a player who does not look: like an
    # invitation, it is worth a mail.
    Kind.TOURNAMENT_ROUND: frozenset({Channel.PUSH, Channel.EMAIL}),
    Kind.DUEL: frozenset({Channel.PUSH}),
}


def wanted(user: Any) -> dict[str, set[str]]:
    """Kind → the channels ``user`` wants it on (defaults, then their own choices)."""
    chosen = {kind: set(channels) for kind, channels in DEFAULTS.items()}
    for kind, channel, enabled in Preference.objects.filter(user=user).values_list(
        "kind", "channel", "enabled"
    ):
        (chosen.setdefault(kind, set()).add if enabled else chosen.setdefault(kind, set()).discard)(channel)
    return chosen


def set_wanted(*, user: Any, kind: str, channel: str, enabled: bool) -> None:
    """Record ``user``'s choice (a row only where it differs from the default)."""
    if enabled == (channel in DEFAULTS.get(kind, frozenset())):
        Preference.objects.filter(user=user, kind=kind, channel=channel).delete()
    else:
        Preference.objects.update_or_create(
            user=user, kind=kind, channel=channel, defaults={"enabled": enabled}
        )


def email_address(user: Any) -> str:
    """The address mail may go to: only one the player verified (``verified_email`` is
    the address the signed link confirmed; changing the address unverifies it)."""
    email = getattr(user, "email", "") or ""
    return email if email and email == getattr(user, "verified_email", "") else ""
