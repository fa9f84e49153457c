"""The one exception the rules engine raises for a refused action.

Every refusal carries a stable snake_case ``code`` that callers (the web UI, the CLI,
the move generator's tests) can switch on or translate, and a readable English
``message``. A refused action never changes any state: the engine's state is immutable,
so the caller simply keeps the state it had.
"""

from __future__ import annotations

# Turn and game status.
NOT_YOUR_TURN = "not_your_turn"
GAME_OVER = "game_over"

# Placement of tiles, in the order the engine checks them (see ``engine.moves.evaluate``).
EMPTY_MOVE = "empty_move"
OFF_BOARD = "off_board"
DUPLICATE_SQUARE = "duplicate_square"
SQUARE_TAKEN = "square_taken"
BLANK_NEEDS_LETTER = "blank_needs_letter"
LETTER_NOT_IN_LANGUAGE = "letter_not_in_language"
TILE_NOT_IN_RACK = "tile_not_in_rack"
NOT_IN_LINE = "not_in_line"
GAP_IN_LINE = "gap_in_line"
FIRST_MOVE_OFF_CENTER = "first_move_off_center"
FIRST_MOVE_TOO_SHORT = "first_move_too_short"
NOT_CONNECTED = "not_connected"
WORD_NOT_IN_LEXICON = "word_not_in_lexicon"

# Challenges (any challenge rule but "void") and time penalties.
CHALLENGE_NOT_ALLOWED = "challenge_not_allowed"
NOTHING_TO_CHALLENGE = "nothing_to_challenge"
CHALLENGE_WINDOW_OPEN = "challenge_window_open"
BAD_PENALTY = "bad_penalty"

# Exchanges.
EXCHANGE_BAG_TOO_SMALL = "exchange_bag_too_small"
EXCHANGE_COUNT_INVALID = "exchange_count_invalid"

#: The precedence order of play errors: when a play breaks several rules, the first
#: code of this tuple that applies is the one reported.
PLAY_ERROR_ORDER: tuple[str, ...] = (
    EMPTY_MOVE,
    OFF_BOARD,
    DUPLICATE_SQUARE,
    SQUARE_TAKEN,
    BLANK_NEEDS_LETTER,
    LETTER_NOT_IN_LANGUAGE,
    TILE_NOT_IN_RACK,
    NOT_IN_LINE,
    GAP_IN_LINE,
    FIRST_MOVE_OFF_CENTER,
    FIRST_MOVE_TOO_SHORT,
    NOT_CONNECTED,
    WORD_NOT_IN_LEXICON,
)

#: Every code ``IllegalMove`` can carry.
ALL_CODES: frozenset[str] = frozenset(
    (
        NOT_YOUR_TURN,
        GAME_OVER,
        EXCHANGE_BAG_TOO_SMALL,
        EXCHANGE_COUNT_INVALID,
        CHALLENGE_NOT_ALLOWED,
        NOTHING_TO_CHALLENGE,
        CHALLENGE_WINDOW_OPEN,
        BAD_PENALTY,
        *PLAY_ERROR_ORDER,
    )
)


class IllegalMove(Exception):
    """An action the rules refuse.

    ``code`` is one of the module constants (stable, for programs); ``message`` is a
    readable sentence (for people); ``words`` names the offending words for
    ``word_not_in_lexicon`` and is empty otherwise.
    """

    def __init__(self, code: str, message: str, *, words: tuple[str, ...] = ()) -> None:
        if code not in ALL_CODES:
            # A typo in a code would silently break every caller that switches on it.
            raise ValueError(f"unknown IllegalMove code {code!r}")
        super().__init__(message)
        self.code = code
        self.message = message
        self.words = words

    def __repr__(self) -> str:
        return f"IllegalMove({self.code!r}, {self.message!r}, words={self.words!r})"
