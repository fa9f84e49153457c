"""What the API reads and writes, as typed schemas (they make the OpenAPI document).

Request bodies are strict: integers must be JSON integers (not "7", 7.0 or true),
strings must be strings, and unknown keys are refused, so a typo is a 400 that names
the field rather than a silently ignored option. No string may hold a NUL character or
a lone surrogate (neither can be stored in PostgreSQL).
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from ninja import Schema
from pydantic import AfterValidator, ConfigDict, Field, StrictBool, StrictInt, StrictStr


def storable(text: str) -> str:
    if "\x00" in text:
        raise ValueError("NUL characters are not allowed")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise ValueError("the text is not valid Unicode (a lone surrogate)") from None
    return text


Text = Annotated[StrictStr, AfterValidator(storable)]
Coordinate = StrictInt
Letter = Annotated[StrictStr, Field(min_length=1, max_length=4), AfterValidator(storable)]
#: A tile put on the board: [row, col, letter]; rows and columns from 0, a lowercase
#: letter for a blank standing for that letter (the form of ``python -m engine score``).
TilePlacement = tuple[Coordinate, Coordinate, Letter]


class Body(Schema):
    model_config = ConfigDict(extra="forbid")


class TokenIn(Body):
    username: Annotated[Text, Field(min_length=1, max_length=150)]
    password: Annotated[Text, Field(min_length=1, max_length=4096)]
    name: Annotated[Text, Field(max_length=100)] = Field(
        default="", description="A name to tell the token apart on /accounts/tokens/."
    )


class TokenOut(Schema):
    token: str = Field(description="The personal token. Shown once: it is stored hashed.")
    name: str


class ActionIn(Body):
    version: Annotated[StrictInt, Field(ge=0)] = Field(
        description="The game's version as the client last saw it (GET /games/ID)."
    )
    action_id: Annotated[Text, Field(max_length=64)] = Field(
        default="",
        description="The client's id for this action: a retry with the same id is applied once.",
    )


class ExtraIn(Body):
    version: Annotated[StrictInt, Field(ge=0)] | None = Field(
        default=None,
        description="The game's version as the client last saw it; may be left out (a purchase is once per period).",
    )
    action_id: Annotated[Text, Field(max_length=64)] = Field(default="", description="As for the actions.")


class PlayIn(ActionIn):
    tiles: Annotated[list[TilePlacement], Field(max_length=30)]


class ExchangeIn(ActionIn):
    tiles: Annotated[Text, Field(max_length=16)] = Field(
        description='The rack tiles to swap, e.g. "AEI" ("?" for a blank).'
    )


class PreviewIn(Body):
    tiles: Annotated[list[TilePlacement], Field(max_length=30)]


class NewGameIn(Body):
    opponent: Annotated[Text, Field(min_length=1, max_length=150)] = Field(
        description='"computer", "random", or the username of the player to invite.'
    )
    language: Annotated[Text, Field(max_length=8)] = Field(
        description="A game language: en, en-GB, es, it, pt-BR, de, fr."
    )
    level: Literal["easy", "medium", "hard"] | None = Field(
        default=None, description='The computer\'s level (with opponent "computer").'
    )
    public: StrictBool = Field(default=True, description="Whether other players may watch the game.")
    extras: StrictBool = Field(default=True, description="Whether paid extras may be bought in this game.")
    rated: StrictBool = Field(
        default=False,
        description="A rated game (ratings change when it ends; no paid extras). Never against the computer.",
    )
    pace: Annotated[Text, Field(max_length=8)] | None = Field(
        default=None,
        description=(
            'The pace: "3d" (correspondence, 1, 2, 3, 5 or 7 days a move) or "10+5" (live: 1, 3, 5, 10, 15, '
            "20 or 25 minutes a player, 0 to 10 seconds added a move). By default correspondence at 5 days "
            "a move against a random opponent, 11 otherwise."
        ),
    )
    sudden_death: StrictBool = Field(
        default=False,
        description="Live games: lost when the clock reaches zero, instead of 10 minutes of overtime at "
        "10 points a started minute.",
    )
    rules: Literal["wwf", "classic"] = Field(
        default="wwf",
        description=(
            '"wwf": this game\'s own board, tiles and scoring; "classic": the classic board and tiles, '
            "50 for a bingo, going out scores twice the other rack, six scoreless turns end the game "
            "(not for es)."
        ),
    )
    challenge: Literal["void", "single", "double", "five"] = Field(
        default="void",
        description=(
            '"void": every word checked when played; otherwise plays stand provisionally until the next '
            'player challenges them ("single": a valid play challenged costs nothing, "double": the '
            'challenger loses the turn, "five": the play earns 5 points).'
        ),
    )


class PaceOut(Schema):
    code: str = Field(description='"3d" or "10+5" (see the pace of a new game).')
    speed: str = Field(description="correspondence or live")
    days: int | None = Field(description="Correspondence: days a move.")
    minutes: int | None = Field(description="Live: minutes a player.")
    increment: int | None = Field(description="Live: seconds added after each move.")
    overtime_minutes: int | None = Field(
        description="Live: minutes of overtime before losing on time; 0: sudden death."
    )
    label: str


class PlayerOut(Schema):
    seat: int
    name: str = Field(description='The username, or "computer:LEVEL" for the computer.')
    username: str | None
    bot: bool = Field(description="Whether the player's account is a bot's.")
    computer_level: str | None


class WordScoreOut(Schema):
    word: str
    score: int


class MoveOut(Schema):
    number: int = Field(description="The move's number; for a note (kind extend), the move it follows.")
    player: str
    kind: str = Field(
        description=(
            "play, exchange, pass, resign, timeout, challenge, accept (the last play accepted), or penalty "
            "(a live game's overtime penalty); or "
            "extend, a line of the log that is not a move: the system moved the player's lapsed deadline "
            "on once because no warning reached them (see note)"
        )
    )
    tiles: list[tuple[int, int, str]] = Field(description="[row, col, letter] of a play; lowercase: a blank.")
    words: list[WordScoreOut]
    score: int
    total: int
    bingo: bool
    exchanged: int = Field(description="How many tiles an exchange swapped (which ones stays private).")
    rack_before: str | None = Field(
        description="The player's rack before the move, once the game is over; null while it is on."
    )
    rack_after: str | None = Field(
        description="The player's rack after the move, once the game is over; null while it is on."
    )
    note: str | None = Field(
        None,
        description=(
            "For kind extend, why, in the request's language (\"ben's deadline extended by 24 h: "
            'no warning could be delivered."); null for a move.'
        ),
    )
    withdrawn: bool = Field(default=False, description="A play taken back after a challenge (a phony).")
    challenged: str | None = Field(
        default=None, description="A challenge: the player whose play was challenged (the score is theirs)."
    )
    invalid_words: list[str] = Field(
        default_factory=list,
        description="A challenge: the words not in the dictionary (none: the play stood).",
    )


class PendingPlayOut(Schema):
    player: str = Field(description="Whose play it is.")
    final: bool = Field(
        description="The last play of the game: the game ends once it is accepted (or its window lapses)."
    )


class GameSummaryOut(Schema):
    id: int
    language: str
    mode: str
    status: str = Field(
        description="invited, open, active, finished, declined or aborted (a live game nobody moved in)"
    )
    public: bool
    created_by: str
    players: list[PlayerOut]
    your_turn: bool
    to_move: str | None
    version: int
    scores: dict[str, int]
    allowed: list[str] = Field(description="The actions the caller may take now.")
    updated_at: datetime
    pace: PaceOut
    rules: str = Field(description='The rules preset: "wwf" or "classic".')
    challenge: str = Field(description="The challenge rule: void, single, double or five.")


class ClockOut(Schema):
    player: str
    left_ms: int
    running: bool


class AidOut(Schema):
    player: str
    turn: int = Field(description="The move the aid was for.")
    extra: str = Field(description="tile_bag, hindsight or word_strength")


class GameOut(GameSummaryOut):
    your_seat: int | None
    board: list[str] = Field(
        description='15 rows of 15 characters: "." empty, a letter, lowercase for a blank.'
    )
    rack: str | None = Field(description='The caller\'s own rack ("?" a blank); null for a spectator.')
    bag: int = Field(description="Tiles left in the bag.")
    moves: list[MoveOut]
    deadline: datetime | None
    end_reason: str | None
    winner: str | None
    aids: list[AidOut] = Field(
        description="Every paid aid bought in this game, by either player (fair play)."
    )
    clocks: list[ClockOut] = Field(
        description="A live game's clocks at the moment of this answer (none in a correspondence game): "
        "each player's time left, below zero in overtime; the running one is the player to move's. "
        "In a live game, deadline is the moment the flag falls."
    )
    pending: PendingPlayOut | None = Field(
        default=None,
        description="The play the player to move may still challenge (a challenge rule's), if any.",
    )


class PreviewOut(Schema):
    valid: bool
    score: int
    bingo: bool
    words: list[WordScoreOut]
    error: str | None = Field(description="The engine's code when the play is not valid.")
    message: str | None


class RatingOut(Schema):
    rating: float
    deviation: float


class AccountOut(Schema):
    username: str
    coins: int
    ratings: dict[str, RatingOut] = Field(
        description="Correspondence ratings, per game language the player has rated games in."
    )
    live_ratings: dict[str, RatingOut] = Field(
        description="Live ratings (games with clocks, rated apart), per game language."
    )
    active_games: int
    max_active_games: int


class TileBagOut(Schema):
    unseen: dict[str, int] = Field(
        description="Tiles not seen (bag and opponent's rack together); '?' a blank."
    )
    in_bag: int
    coins: int


class BestPlayOut(Schema):
    tiles: list[tuple[int, int, str]]
    words: list[str]


class HindsightOut(Schema):
    turn: int
    best_score: int
    best: BestPlayOut | None
    played_score: int
    coins: int


class WordStrengthOut(Schema):
    turn: int
    bought: bool
    coins: int


class StrengthOut(Schema):
    rank: int = Field(description="1 + the legal plays scoring more (equal scores share a rank).")
    of: int
    share: int = Field(description="The play's score as a percentage of the best score.")
    best_score: int


class PendingOut(Schema):
    status: str


class MeaningOut(Schema):
    base: str
    part_of_speech: str
    glosses: list[str]
    # The word looked up when ``base`` is its base form ("conozco" for "conocer"), else "".
    form: str


class WordOut(Schema):
    word: str
    language: str
    normalized: str | None = Field(description="The word as the game spells it, or null when it cannot be.")
    valid: bool | None = Field(
        description="Whether the word is playable; null when the word list is not installed."
    )
    value: int | None = Field(description="The sum of its tile values.")
    meanings: list[MeaningOut]
    definitions_available: bool


class ErrorOut(Schema):
    error: str
    message: str
