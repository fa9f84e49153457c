"""What a notification says, rendered for its recipient: in their interface language and
their time zone, never the sender's (STYLE.md 3.3c). One title and one body per kind (and
per variant, for the kinds that have them: a game won, lost or drawn)."""

from __future__ import annotations

import zoneinfo
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.conf import settings
from django.utils import formats, timezone, translation
from django.utils.functional import Promise
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from notifications.models import Kind, Notification

#: (kind, variant) → (title, body).
SENTENCES: dict[tuple[str, str], tuple[Promise, Promise]] = {
    (Kind.YOUR_TURN, ""): (
        _("Your turn against %(who)s"),
        _("%(who)s has moved in game #%(game)s. Your turn runs until %(deadline)s."),
    ),
    (Kind.INVITATION, ""): (
        _("%(who)s invites you to a game"),
        _("Accept or decline the invitation on the game's page (game #%(game)s)."),
    ),
    (Kind.INVITATION_ANSWER, "accepted"): (
        _("%(who)s accepted your invitation"),
        _("Game #%(game)s has begun."),
    ),
    (Kind.INVITATION_ANSWER, "declined"): (
        _("%(who)s declined your invitation"),
        _("Game #%(game)s will not be played."),
    ),
    (Kind.GAME_OVER, "won"): (
        _("You won against %(who)s"),
        _("Game #%(game)s is over: %(mine)s to %(theirs)s."),
    ),
    (Kind.GAME_OVER, "lost"): (
        _("You lost against %(who)s"),
        _("Game #%(game)s is over: %(mine)s to %(theirs)s."),
    ),
    (Kind.GAME_OVER, "draw"): (
        _("A draw against %(who)s"),
        _("Game #%(game)s is over: %(mine)s to %(theirs)s."),
    ),
    (Kind.CHAT, ""): (_("%(who)s wrote in game #%(game)s"), _("“%(text)s”")),
    (Kind.FRIEND_REQUEST, ""): (
        _("%(who)s asks to be your friend"),
        _("Accept or decline on your friends page."),
    ),
    (Kind.DEADLINE_WARNING, "extended"): (
        _("Your turn against %(who)s was extended by a day"),
        _(
            "No warning reached you before your time ran out in game #%(game)s, so your turn now "
            "runs until %(deadline)s. It will not be extended again."
        ),
    ),
    (Kind.TOURNAMENT_ROUND, "first"): (
        _("Round %(round)s of %(tournament)s: you play %(who)s"),
        _("You move first in game #%(game)s. Your turn runs until %(deadline)s."),
    ),
    (Kind.TOURNAMENT_ROUND, "second"): (
        _("Round %(round)s of %(tournament)s: you play %(who)s"),
        _("%(who)s moves first in game #%(game)s. You will be told when it is your turn."),
    ),
    (Kind.TOURNAMENT_ROUND, "bye"): (
        _("Round %(round)s of %(tournament)s: a bye for you"),
        _("You have no game in this round."),
    ),
    (Kind.TOURNAMENT_ROUND, "withdrawn"): (
        _("You were withdrawn from %(tournament)s"),
        _("You had not checked in when the first round was paired."),
    ),
    (Kind.DUEL, "challenged"): (
        _("%(who)s challenges you to a rack duel"),
        _("Play the best move you can find with %(who)s's rack from one of their games."),
    ),
    (Kind.DUEL, "answered"): (
        _("%(who)s played your rack duel"),
        _("%(who)s scored %(theirs)s, you %(mine)s; the best play was worth %(best)s."),
    ),
    (Kind.DEADLINE_WARNING, ""): (
        _("Time is running out in your game against %(who)s"),
        _(
            "It is your turn in game #%(game)s. If you do not play, pass or swap by %(deadline)s, "
            "the game ends as a loss by timeout."
        ),
    ),
}


@dataclass(frozen=True, slots=True)
class Rendered:
    title: str
    body: str
    path: str


def language_of(user: Any) -> str:
    """The player's interface language; without one, the language active now (the page's,
    when a request sends it: a sign-up in French gets its mail in French)."""
    code = getattr(user, "interface_language", "") or translation.get_language() or ""
    try:
        return translation.get_supported_language_variant(code) if code else settings.LANGUAGE_CODE
    except LookupError:
        return settings.LANGUAGE_CODE


def time_zone_of(user: Any) -> zoneinfo.ZoneInfo:
    name = getattr(user, "time_zone", "") or settings.TIME_ZONE
    try:
        return zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return zoneinfo.ZoneInfo(settings.TIME_ZONE)


@contextmanager
def as_recipient(user: Any) -> Iterator[None]:
    """Render in ``user``'s interface language and time zone."""
    with translation.override(language_of(user)), timezone.override(time_zone_of(user)):
        yield


def _when(value: str) -> str:
    when = timezone.localtime(datetime.fromisoformat(value))
    return f"{formats.date_format(when, 'DATETIME_FORMAT')} ({timezone.get_current_timezone_name()})"


def render(notification: Notification) -> Rendered:
    """The notification's text in the active language and time zone (wrap in
    :func:`as_recipient` when it is not the recipient's own request)."""
    if notification.kind == Kind.DIGEST:
        return _digest(notification)
    if notification.kind == Kind.NOTICE:
        return _notice(notification)
    params: dict[str, Any] = dict(notification.params)
    if params.get("deadline"):
        params["deadline"] = _when(params["deadline"])
    title, body = SENTENCES.get(
        (notification.kind, str(params.get("variant", ""))), SENTENCES[(Kind.YOUR_TURN, "")]
    )
    return Rendered(title=str(title) % params, body=str(body) % params, path=notification.path)


def _digest(notification: Notification) -> Rendered:
    """The daily summary: one line per game waiting for the recipient."""
    games = [g for g in notification.params.get("games", []) if isinstance(g, dict)]
    title = ngettext(
        "%(count)s game is waiting for your move", "%(count)s games are waiting for your move", len(games)
    ) % {"count": len(games)}
    lines = [
        gettext("Game #%(game)s against %(who)s: your turn runs until %(deadline)s.")
        % {
            "game": g.get("game"),
            "who": g.get("who", ""),
            "deadline": _when(g["deadline"]) if g.get("deadline") else "–",
        }
        for g in games
    ]
    return Rendered(title=title, body="\n".join(lines), path=notification.path)


def _notice(notification: Notification) -> Rendered:
    """A notice of ``accounts.notices``: its own sentence, in the active language."""
    from accounts.models import Notice
    from accounts.notices import notice_text

    notice = Notice.objects.filter(pk=notification.params.get("notice")).first()
    body = notice_text(notice) if notice is not None else ""
    return Rendered(title=gettext("News about your account"), body=body, path=notification.path)
