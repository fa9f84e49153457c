"""The puzzle's refusals as translatable sentences (the rules' own through
``games.messages``)."""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from games.messages import error_message as game_error_message

MESSAGES: dict[str, Promise] = {
    "unknown_language": _("There is no such game language."),
    "no_puzzle": _("There is no puzzle for that day."),
    "future_day": _("That puzzle is not out yet."),
    "bad_day": _("That is not a date (use YYYY-MM-DD)."),
    "bad_tiles": _("The tiles sent could not be read."),
    "bad_kind": _("Choose the daily challenge or practice."),
    "duel_not_finished": _("A duel can only come from a finished game."),
    "duel_not_yours": _("You can only challenge a friend to one of your own moves."),
    "duel_self": _("Challenge a friend, not yourself."),
    "duel_not_friend": _("You can only challenge your friends."),
    "duel_not_for_you": _("This duel is for your friend to play."),
    "unknown_player": _("There is no player with that username."),
    "not_found": _("There is nothing here, or it is not yours to see."),
}


def error_message(code: str, *, words: tuple[str, ...] = ()) -> str:
    if code in MESSAGES:
        return str(MESSAGES[code])
    return game_error_message(code, words=words)
