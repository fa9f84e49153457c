"""Every refusal a player can meet, as a translatable sentence, in one place.

Keys are the engine's ``IllegalMove`` codes (``engine.errors``) and the site's own
``GameError`` codes (``games.models``). Views and rendering call :func:`error_message`.
"""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from engine import errors

ERROR_MESSAGES: dict[str, Promise] = {
    # The rules (engine.errors).
    errors.NOT_YOUR_TURN: _("It is not your turn."),
    errors.GAME_OVER: _("The game is over."),
    errors.EMPTY_MOVE: _("Place at least one tile on the board."),
    errors.OFF_BOARD: _("A tile is off the board."),
    errors.DUPLICATE_SQUARE: _("Two tiles are on the same square."),
    errors.SQUARE_TAKEN: _("A square you used already has a tile."),
    errors.BLANK_NEEDS_LETTER: _("Choose the letter your blank stands for."),
    errors.LETTER_NOT_IN_LANGUAGE: _("That letter is not part of this game's language."),
    errors.TILE_NOT_IN_RACK: _("Those tiles are not all on your rack."),
    errors.NOT_IN_LINE: _("Place your tiles in one row or one column."),
    errors.GAP_IN_LINE: _("Your tiles must form one word without gaps."),
    errors.FIRST_MOVE_OFF_CENTER: _("The first word must cover the centre star."),
    errors.FIRST_MOVE_TOO_SHORT: _("The first word needs at least two letters."),
    errors.NOT_CONNECTED: _("Your word must connect to the words on the board."),
    errors.WORD_NOT_IN_LEXICON: _("Not in the dictionary: %(words)s."),
    errors.EXCHANGE_BAG_TOO_SMALL: _("There are not enough tiles left in the bag to swap that many."),
    errors.EXCHANGE_COUNT_INVALID: _("Choose between one and seven tiles to swap."),
    errors.CHALLENGE_NOT_ALLOWED: _(
        "This game checks every word when it is played: there is nothing to challenge."
    ),
    errors.NOTHING_TO_CHALLENGE: _("There is no play to challenge now."),
    errors.CHALLENGE_WINDOW_OPEN: _(
        "Your opponent's last play ends the game: challenge it or accept it before anything else."
    ),
    # The site (games.models.GameError and the forms).
    "game_moved_on": _("The game moved on: your opponent played first. Have a look and try again."),
    "game_changed": _("The game changed meanwhile. Have a look and try again."),
    "already_moved": _(
        "You already moved in this game from another tab or window (or this was sent twice). "
        "Here is the game as it is now."
    ),
    "missing_version": _("This page is out of date. Reload it and try again."),
    "not_due": _("The time for this turn has not run out yet."),
    "already_dealt": _("The tiles of this game are already dealt."),
    "not_allowed": _("That is not allowed."),
    "already_bought": _("You already have this extra for this turn."),
    "not_enough_coins": _("You do not have enough coins for this extra."),
    "extras_off": _("Paid extras are switched off in this game."),
    "bad_extra": _("There is no such extra."),
    "extra_not_now": _(
        "This extra is not for now: the tile bag and word strength are for your turn, "
        "hindsight for your last move until your next one."
    ),
    "analysis_not_finished": _("The analysis is there once the game is over."),
    "not_a_player": _("Only the players of this game can do that."),
    "bad_study_word": _("That word was not played in that move."),
    "not_started": _("The game has not started yet."),
    "declined": _("This game was declined."),
    "not_invited": _("This invitation is not for you, or it is no longer open."),
    "too_many_games": _(
        "You already have the maximum number of games going (%(limit)s). Finish one before starting another."
    ),
    "too_many_invitations": _(
        "You already have the maximum number of invitations waiting for an answer (%(limit)s). "
        "Wait for an answer, or cancel one, before inviting someone else."
    ),
    "bad_quiz_answer": _("This answer could not be read. Reload the quiz and try again."),
    "chat_too_fast": _("You are sending messages too fast. Wait a minute, then write again."),
    "bad_opponent": _("Choose another player (not yourself) by their username."),
    "unknown_opponent": _("There is no player with that username."),
    "blocked": _("You cannot play with this player."),
    "bad_language": _("Choose one of the game languages."),
    "bad_level": _("Choose easy, medium or hard."),
    "bad_mode": _("Choose a friend, a random opponent or the computer."),
    "bad_tiles": _("These tiles could not be read."),
    "empty_chat": _("Write a message first."),
    "confirm_resign": _("Confirm that you want to resign."),
    "not_finished": _("The game record can be downloaded once the game is over."),
    "rematch_not_finished": _("A rematch can be asked for once the game is over."),
    # Moderation and the players' own chat settings.
    "chat_muted": _(
        "A moderator has muted your chat for now: your message was not sent. It ends on its own."
    ),
    "chat_blocked": _("One of you blocked the other: your message was not sent."),
    "chat_off": _("Your chat is turned off in your preferences: your message was not sent."),
    "suspended": _(
        "A moderator has suspended you from starting or joining games for now (your games under way go "
        "on). It ends on its own."
    ),
    "bot_rated_human": _("Bots play rated games only against other bots, and people only against people."),
    "rematch_player_gone": _("This player has deleted their account: no rematch is possible."),
    "bad_cursor": _("This page of the list could not be found: start again from the first page."),
    "bad_filters": _("These filters could not be read."),
    # Paces and live clocks (games.pace, games.clocks).
    "bad_pace": _(
        "Choose a pace: 1, 2, 3, 5 or 7 days a move, or a live game of 1, 3, 5, 10, 15, 20 or 25 minutes "
        "with 0 to 10 seconds added a move."
    ),
    "time_up": _("Your time ran out before this move arrived: the game is lost on time."),
    "seek_gone": _("This request is no longer open: someone else took it up, or its player withdrew it."),
    "seek_out_of_range": _(
        "Your rating is outside this request's window for now; the window widens the longer it waits."
    ),
    "aborted": _("This live game was called off: nobody moved within a minute. It counts for nothing."),
    "clock_flag": _("The clock of the player to move ran out: the game is over on time."),
    "bad_rules": _("Choose the rules and a challenge rule this game language can be played with."),
}


def error_message(code: str, *, words: tuple[str, ...] = (), limit: int | None = None) -> str:
    """The translated sentence for ``code`` (a generic one for an unknown code)."""
    message = ERROR_MESSAGES.get(code)
    if message is None:
        return gettext("That is not allowed.")
    if code == errors.WORD_NOT_IN_LEXICON:
        return str(message) % {"words": ", ".join(words)}
    if code == "too_many_games":
        from django.conf import settings

        return str(message) % {"limit": limit if limit is not None else settings.MAX_ACTIVE_GAMES}
    if code == "too_many_invitations":
        from django.conf import settings

        return str(message) % {"limit": limit if limit is not None else settings.MAX_PENDING_INVITATIONS}
    return str(message)
