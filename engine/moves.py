"""The actions of a game: play, exchange, pass, resign, timeout, challenge, accept,
time penalty; and ``evaluate``.

Each action takes a :class:`~engine.state.GameState` and returns :class:`Played`, the
new state with a :class:`MoveRecord` of what happened, or raises
:class:`~engine.errors.IllegalMove` and changes nothing. No action reads a clock or a
global random generator: ``exchange`` takes the caller's ``random.Random``, and
``timeout`` is called by whoever decided, from their own clock, that a player is late.

``evaluate`` validates and scores a play on a bare board, without a game: the CLI, the
live word-value preview and the move generator's tests use it, and ``play`` is built on
it. The lexicon only needs membership of normalised uppercase words (``word in lexicon``).

Challenges (``Rules.challenge`` other than ``"void"``): a play's words are not checked
when it is made; it stands provisionally (``GameState.pending``) until the next player
either challenges it (:func:`challenge`: the words are checked then) or moves, which
accepts it. When accepting it would end the game (the player went out, or the
scoreless-turns rule) the game waits: the next player may only challenge, accept
(:func:`accept`) or resign, and a timeout in that window accepts the play.
"""

from __future__ import annotations

import random
from collections.abc import Container, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal

from engine import errors
from engine.board import EMPTY, Board, Layout, Square, is_empty, layout, place, square_name
from engine.errors import IllegalMove
from engine.scoring import Direction, WordScore, main_direction, words_formed
from engine.state import (
    CHALLENGE_BONUS,
    EndOfGame,
    EndReason,
    GameState,
    Pending,
    decide_winner,
    draw,
    remove_tiles,
)
from engine.tiles import BLANK, TileSet

MoveKind = Literal["play", "exchange", "pass", "resign", "timeout", "challenge", "accept", "penalty"]
MOVE_KINDS: tuple[MoveKind, ...] = (
    "play",
    "exchange",
    "pass",
    "resign",
    "timeout",
    "challenge",
    "accept",
    "penalty",
)


@dataclass(frozen=True, slots=True)
class Placement:
    """One tile put on the board: ``letter`` is an uppercase letter of the language;
    ``blank=True`` means a blank tile standing for that letter."""

    row: int
    col: int
    letter: str
    blank: bool = False

    @property
    def board_char(self) -> str:
        """How the tile is written on a board: the letter, lowercase for a blank."""
        return self.letter.lower() if self.blank else self.letter

    @property
    def rack_tile(self) -> str:
        """The tile this placement takes from the rack: the letter, or ``?``."""
        return BLANK if self.blank else self.letter

    def to_dict(self) -> dict[str, Any]:
        return {"row": self.row, "col": self.col, "letter": self.letter, "blank": self.blank}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Placement:
        return cls(int(data["row"]), int(data["col"]), str(data["letter"]), bool(data["blank"]))


@dataclass(frozen=True, slots=True)
class Evaluation:
    """A legal play, scored. ``words`` has the main word first, then the cross words in
    board order; ``score`` is their sum plus the bingo bonus when ``bingo``."""

    placements: tuple[Placement, ...]
    words: tuple[WordScore, ...]
    score: int
    bingo: bool
    direction: Direction

    @property
    def main_word(self) -> WordScore:
        return self.words[0]


@dataclass(frozen=True, slots=True)
class MoveRecord:
    """What one action did, for the move log, replays and game records.

    ``drawn`` is only a count: which tiles were drawn is visible in ``rack_after``,
    which only the seat's owner may see.

    A ``challenge`` record is the challenger's (``seat``); ``target`` is the seat whose
    play was challenged, ``placements`` and ``words`` that play's, ``invalid`` the words
    not in the lexicon (a phony, taken back: ``score`` is minus its score) or empty (the
    play stands: ``score`` is the bonus it earned, 0 but under the five-point rule).
    An ``accept`` record closes a challenge window on the last play of a game. A
    ``penalty`` record is a time penalty: ``score`` is the points taken off. An
    exchange read from a game file that gave only the number of tiles has
    ``exchanged_count`` and no ``exchanged``.
    """

    kind: MoveKind
    seat: int
    placements: tuple[Placement, ...] = ()
    words: tuple[WordScore, ...] = ()
    score: int = 0
    bingo: bool = False
    rack_before: str = ""
    rack_after: str = ""
    exchanged: tuple[str, ...] = ()
    drawn: int = 0
    end: EndOfGame | None = None
    target: int | None = None
    invalid: tuple[str, ...] = ()
    exchanged_count: int = 0

    def to_dict(self) -> dict[str, Any]:
        data = {
            "kind": self.kind,
            "seat": self.seat,
            "placements": [p.to_dict() for p in self.placements],
            "words": [w.to_dict() for w in self.words],
            "score": self.score,
            "bingo": self.bingo,
            "rack_before": self.rack_before,
            "rack_after": self.rack_after,
            "exchanged": list(self.exchanged),
            "drawn": self.drawn,
            "end": None if self.end is None else self.end.to_dict(),
        }
        # The keys added with challenges only when they say something, so the records
        # of plain games keep the form they were stored in.
        if self.target is not None:
            data["target"] = self.target
        if self.invalid:
            data["invalid"] = list(self.invalid)
        if self.exchanged_count:
            data["exchanged_count"] = self.exchanged_count
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> MoveRecord:
        kind = data["kind"]
        if kind not in MOVE_KINDS:
            raise ValueError(f"unknown move kind {kind!r}")
        return cls(
            kind=kind,
            seat=int(data["seat"]),
            placements=tuple(Placement.from_dict(p) for p in data["placements"]),
            words=tuple(WordScore.from_dict(w) for w in data["words"]),
            score=int(data["score"]),
            bingo=bool(data["bingo"]),
            rack_before=str(data["rack_before"]),
            rack_after=str(data["rack_after"]),
            exchanged=tuple(str(t) for t in data["exchanged"]),
            drawn=int(data["drawn"]),
            end=None if data["end"] is None else EndOfGame.from_dict(data["end"]),
            target=None if data.get("target") is None else int(data["target"]),
            invalid=tuple(str(w) for w in data.get("invalid", ())),
            exchanged_count=int(data.get("exchanged_count", 0)),
        )


@dataclass(frozen=True, slots=True)
class Played:
    """The result of an accepted action: the next state and the record of the action."""

    state: GameState
    record: MoveRecord


def evaluate(
    board: Board,
    placements: Sequence[Placement],
    *,
    tileset: TileSet,
    layout: Layout,
    lexicon: Container[str],
    rack: str | None = None,
) -> Evaluation:
    """Validate and score a play on ``board``; with ``rack``, also check the tiles come
    from it. An empty board means this is the first play of the game.

    Raises ``IllegalMove`` with the first broken rule in the order of
    ``engine.errors.PLAY_ERROR_ORDER``. ``bingo`` is true when all ``rack_size`` tiles
    are played (from a full rack, when ``rack`` is given).
    """
    if not placements:
        raise IllegalMove(errors.EMPTY_MOVE, "Place at least one tile.")
    size = layout.size
    for p in placements:
        if not (0 <= p.row < size and 0 <= p.col < size):
            raise IllegalMove(errors.OFF_BOARD, f"Square ({p.row}, {p.col}) is off the board.")
    new: dict[Square, str] = {}
    for p in placements:
        if (p.row, p.col) in new:
            raise IllegalMove(errors.DUPLICATE_SQUARE, f"Two tiles are on {square_name(p.row, p.col)}.")
        new[(p.row, p.col)] = p.board_char
    for p in placements:
        if board[p.row][p.col] != EMPTY:
            raise IllegalMove(errors.SQUARE_TAKEN, f"{square_name(p.row, p.col)} already has a tile.")
    for p in placements:
        if p.letter in ("", BLANK):
            raise IllegalMove(errors.BLANK_NEEDS_LETTER, "Choose the letter the blank stands for.")
    for p in placements:
        allowed = tileset.blank_letters if p.blank else tileset.values
        if p.letter not in allowed:
            what = "a blank cannot stand for" if p.blank else "there is no tile"
            raise IllegalMove(errors.LETTER_NOT_IN_LANGUAGE, f"In this language {what} {p.letter!r}.")
    if rack is not None and remove_tiles(rack, [p.rack_tile for p in placements]) is None:
        raise IllegalMove(errors.TILE_NOT_IN_RACK, "Those tiles are not all on your rack.")
    _check_line(board, new)
    if is_empty(board):
        if layout.center not in new:
            raise IllegalMove(
                errors.FIRST_MOVE_OFF_CENTER,
                f"The first word must cover the centre square {square_name(*layout.center)}.",
            )
        if len(new) < 2:
            raise IllegalMove(errors.FIRST_MOVE_TOO_SHORT, "The first word needs at least two tiles.")
    elif not _touches_tiles(board, new):
        raise IllegalMove(errors.NOT_CONNECTED, "The word must connect to the tiles on the board.")
    words = words_formed(board, new, tileset, layout)
    bad = tuple(dict.fromkeys(w.word for w in words if w.word not in lexicon))
    if bad:
        listed = ", ".join(bad)
        raise IllegalMove(errors.WORD_NOT_IN_LEXICON, f"Not in the dictionary: {listed}.", words=bad)
    bingo = len(new) == tileset.rack_size and (rack is None or len(rack) == tileset.rack_size)
    score = sum(w.score for w in words) + (tileset.bingo_bonus if bingo else 0)
    return Evaluation(
        placements=tuple(placements),
        words=words,
        score=score,
        bingo=bingo,
        direction=main_direction(board, new),
    )


def _check_line(board: Board, new: Mapping[Square, str]) -> None:
    """Raise unless the new tiles share a row or a column and, with the tiles already
    on the board between them, form one unbroken run."""
    rows = {row for row, _ in new}
    cols = {col for _, col in new}
    if len(rows) > 1 and len(cols) > 1:
        raise IllegalMove(errors.NOT_IN_LINE, "All tiles must be in one row or one column.")
    if len(rows) == 1:
        (row,) = rows
        squares = [(row, col) for col in range(min(cols), max(cols) + 1)]
    else:
        (col,) = cols
        squares = [(row, col) for row in range(min(rows), max(rows) + 1)]
    for row, col in squares:
        if (row, col) not in new and board[row][col] == EMPTY:
            raise IllegalMove(errors.GAP_IN_LINE, f"There is a gap at {square_name(row, col)}.")


def _touches_tiles(board: Board, new: Mapping[Square, str]) -> bool:
    size = len(board)
    for row, col in new:
        for r, c in ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1)):
            if 0 <= r < size and 0 <= c < size and board[r][c] != EMPTY:
                return True
    return False


class _AcceptAll:
    """Under a challenge rule a play's words are checked only when it is challenged."""

    def __contains__(self, word: object) -> bool:
        return True


def _check_can_act(state: GameState, seat: int, *, on_turn: bool = True) -> None:
    if state.over:
        raise IllegalMove(errors.GAME_OVER, "The game is over.")
    if not 0 <= seat < state.players:
        # A seat that does not exist is a programming error, not a rule the player broke.
        raise ValueError(f"no seat {seat} in a {state.players}-player game")
    if on_turn and seat != state.turn:
        raise IllegalMove(errors.NOT_YOUR_TURN, "It is not your turn.")


def _finish(state: GameState, reason: EndReason, seat: int | None, adjustments: Sequence[int]) -> GameState:
    final = tuple(score + delta for score, delta in zip(state.scores, adjustments, strict=True))
    end = EndOfGame(
        reason=reason,
        seat=seat,
        adjustments=tuple(adjustments),
        final_scores=final,
        winner=decide_winner(final, reason, seat),
    )
    return replace(state, scores=final, over=True, end=end)


def _scoreless_end_due(state: GameState) -> bool:
    rules = state.rules
    if state.scoreless_turns < rules.scoreless_turns_to_end:
        return False
    return rules.scoreless_at_zero or any(state.scores)


def _after_turn(state: GameState) -> GameState:
    """End the game on the turn limit (``Rules.turn_limit``: every seat has played its
    turns, racks left as they are), or on scoreless turns if the rules say so (at all
    zeros only when ``Rules.scoreless_at_zero``)."""
    rules = state.rules
    if rules.turn_limit and state.moves_played >= rules.turn_limit * state.players:
        return _finish(state, "turns", None, [0] * state.players)
    if not _scoreless_end_due(state):
        return state
    tiles = state.tileset
    if rules.scoreless_rack_penalty:
        adjustments = [-tiles.rack_value(rack) for rack in state.racks]
    else:
        adjustments = [0] * state.players
    return _finish(state, "scoreless", None, adjustments)


def _out_adjustments(state: GameState, seat: int) -> list[int]:
    """The end-of-game points when ``seat`` went out, by the rules' going-out rule."""
    tiles = state.tileset
    others = [tiles.rack_value(r) if s != seat else 0 for s, r in enumerate(state.racks)]
    if state.rules.going_out == "double":
        adjustments = [0] * state.players
        adjustments[seat] = 2 * sum(others)
        return adjustments
    adjustments = [-value for value in others]
    adjustments[seat] = sum(others)
    return adjustments


def _end_after_play(state: GameState, seat: int) -> GameState:
    """The end of the game after ``seat``'s play stood: going out, or scoreless turns."""
    if not state.racks[seat] and not state.bag:
        return _finish(state, "out", seat, _out_adjustments(state, seat))
    return _after_turn(state)


def _close_window(state: GameState) -> GameState:
    """Accept the pending play, if any: it stands, and the game ends if it should."""
    pending = state.pending
    if pending is None:
        return state
    return _end_after_play(replace(state, pending=None), pending.seat)


def _check_window(state: GameState) -> None:
    if state.pending is not None and state.pending.final:
        raise IllegalMove(
            errors.CHALLENGE_WINDOW_OPEN,
            "The last play of the game may be challenged or accepted; nothing else.",
        )


def play(state: GameState, seat: int, placements: Sequence[Placement], lexicon: Container[str]) -> Played:
    """Play tiles for ``seat``: validate, score, draw back up to a full rack.

    Ends the game when the player goes out (bag empty, rack emptied; the others' racks
    scored by ``Rules.going_out``) or, for a play scoring 0, on the scoreless-turns
    rule. Under a challenge rule other than ``"void"`` the words are not checked: the
    play stands provisionally (``GameState.pending``), a play before it that was still
    pending is accepted first, and the end of the game waits for the challenge window.
    Raises ``IllegalMove`` (see ``evaluate``, plus ``game_over``, ``not_your_turn`` and
    ``challenge_window_open``).
    """
    _check_can_act(state, seat)
    _check_window(state)
    state = _close_window(state)
    provisional = state.rules.challenge != "void" and state.players > 1
    tiles = state.tileset
    rack = state.racks[seat]
    evaluation = evaluate(
        state.board,
        placements,
        tileset=tiles,
        layout=layout(state.layout),
        lexicon=_AcceptAll() if provisional else lexicon,
        rack=rack,
    )
    rest = remove_tiles(rack, [p.rack_tile for p in placements])
    assert rest is not None  # evaluate() checked the rack
    drawn, bag = draw(state.bag, tiles.rack_size - len(rest))
    new_rack = rest + drawn
    scores = list(state.scores)
    scores[seat] += evaluation.score
    squares = tuple((p.row, p.col, p.board_char) for p in placements)
    after = replace(
        state,
        board=place(state.board, squares),
        racks=_with(state.racks, seat, new_rack),
        bag=bag,
        scores=tuple(scores),
        turn=(seat + 1) % state.players,
        scoreless_turns=0 if evaluation.score > 0 else state.scoreless_turns + 1,
        moves_played=state.moves_played + 1,
    )
    if provisional:
        after = replace(
            after,
            pending=Pending(
                seat=seat,
                placements=squares,
                score=evaluation.score,
                rack_before=rack,
                drawn=drawn,
                scoreless_before=state.scoreless_turns,
                words=tuple(dict.fromkeys(w.word for w in evaluation.words)),
                final=(not new_rack and not bag) or _scoreless_end_due(after),
            ),
        )
    else:
        after = _end_after_play(after, seat)
    record = MoveRecord(
        kind="play",
        seat=seat,
        # Board order, so that a record read back from a game file compares equal.
        placements=tuple(sorted(placements, key=lambda p: (p.row, p.col))),
        words=evaluation.words,
        score=evaluation.score,
        bingo=evaluation.bingo,
        rack_before=rack,
        rack_after=new_rack,
        drawn=len(drawn),
        end=after.end,
    )
    return Played(after, record)


def challenge(state: GameState, seat: int, lexicon: Container[str]) -> Played:
    """``seat`` challenges the pending play (before making a move of their own).

    Each word the play formed is checked in ``lexicon``. A phony is taken back: its
    tiles leave the board and go back to its player's rack, the tiles drawn after it
    go back to the bag (to be drawn again next), its score is taken off, it counts as
    a scoreless turn, and the challenger moves. A valid play stands, and by the rule:
    ``single``, the challenger moves; ``double``, the challenger loses their turn (a
    scoreless turn); ``five``, its player gains ``CHALLENGE_BONUS`` and the challenger
    moves. A valid last play then ends the game. Raises ``IllegalMove``
    (``game_over``, ``not_your_turn``, ``challenge_not_allowed`` under ``"void"``,
    ``nothing_to_challenge``).
    """
    _check_can_act(state, seat)
    rule = state.rules.challenge
    if rule == "void":
        raise IllegalMove(errors.CHALLENGE_NOT_ALLOWED, "This game checks every word when it is played.")
    pending = state.pending
    if pending is None:
        raise IllegalMove(errors.NOTHING_TO_CHALLENGE, "There is no play to challenge.")
    target = pending.seat
    rack = state.racks[seat]
    invalid = tuple(word for word in pending.words if word not in lexicon)
    words = words_formed(
        place(state.board, ((r, c, EMPTY) for r, c, _ in pending.placements)),
        {(r, c): ch for r, c, ch in pending.placements},
        state.tileset,
        layout(state.layout),
    )
    placements = tuple(
        sorted(
            (Placement(r, c, ch.upper(), blank=not ch.isupper()) for r, c, ch in pending.placements),
            key=lambda p: (p.row, p.col),
        )
    )
    scores = list(state.scores)
    if invalid:
        scores[target] -= pending.score
        after = replace(
            state,
            board=place(state.board, ((r, c, EMPTY) for r, c, _ in pending.placements)),
            racks=_with(state.racks, target, pending.rack_before),
            # ``draw`` takes from the end of the bag: putting the drawn tiles back there
            # in reverse restores the bag exactly as it was before the play.
            bag=state.bag + pending.drawn[::-1],
            scores=tuple(scores),
            scoreless_turns=pending.scoreless_before + 1,
            moves_played=state.moves_played + 1,
            pending=None,
        )
        after = _after_turn(after)
        points = -pending.score
    else:
        points = CHALLENGE_BONUS if rule == "five" else 0
        scores[target] += points
        after = replace(state, scores=tuple(scores), moves_played=state.moves_played + 1)
        if rule == "double":
            after = replace(after, turn=(seat + 1) % state.players, scoreless_turns=after.scoreless_turns + 1)
        after = _close_window(after)
    record = MoveRecord(
        kind="challenge",
        seat=seat,
        placements=placements,
        words=words,
        score=points,
        rack_before=rack,
        rack_after=rack,
        end=after.end,
        target=target,
        invalid=invalid,
    )
    return Played(after, record)


def accept(state: GameState, seat: int) -> Played:
    """``seat`` accepts the pending last play of the game without challenging it: the
    game ends as that play left it. (Any other pending play is accepted by moving.)
    Raises ``IllegalMove`` (``game_over``, ``not_your_turn``, ``nothing_to_challenge``
    when no play is waiting)."""
    _check_can_act(state, seat)
    if state.pending is None:
        raise IllegalMove(errors.NOTHING_TO_CHALLENGE, "There is no play to accept.")
    rack = state.racks[seat]
    after = _close_window(replace(state, moves_played=state.moves_played + 1))
    return Played(
        after, MoveRecord(kind="accept", seat=seat, rack_before=rack, rack_after=rack, end=after.end)
    )


def overtime_penalty(overtime_ms: int) -> int:
    """Points lost for using ``overtime_ms`` milliseconds past a clock's end: 10 per
    started minute (club play), 0 when the clock did not run out."""
    if overtime_ms <= 0:
        return 0
    return 10 * -(-overtime_ms // 60_000)


def penalize(state: GameState, seat: int, points: int) -> Played:
    """Take a time penalty of ``points`` (> 0) off ``seat``'s score, during the game or
    once it is over (the final scores and the winner follow). The caller's clock
    decides it (see :func:`overtime_penalty`). Raises ``IllegalMove(bad_penalty)``."""
    if not 0 <= seat < state.players:
        raise ValueError(f"no seat {seat} in a {state.players}-player game")
    if points <= 0:
        raise IllegalMove(errors.BAD_PENALTY, "A time penalty takes off a positive number of points.")
    scores = list(state.scores)
    scores[seat] -= points
    penalties = list(state.penalties or (0,) * state.players)
    penalties[seat] += points
    end = state.end
    if end is not None:
        final = tuple(scores)
        end = replace(end, final_scores=final, winner=decide_winner(final, end.reason, end.seat))
    after = replace(
        state,
        scores=tuple(scores),
        penalties=tuple(penalties),
        end=end,
        moves_played=state.moves_played + 1,
    )
    rack = state.racks[seat]
    record = MoveRecord(kind="penalty", seat=seat, score=-points, rack_before=rack, rack_after=rack, end=end)
    return Played(after, record)


def exchange(state: GameState, seat: int, tiles: Sequence[str], rng: random.Random) -> Played:
    """Return ``tiles`` (letters, ``?`` for a blank) to the bag and draw as many.

    The replacements are drawn first, then the old tiles go back and the bag is
    shuffled with ``rng``. Raises ``IllegalMove``: ``exchange_count_invalid`` (not 1 to
    ``rack_size`` tiles), ``tile_not_in_rack``, ``exchange_bag_too_small`` (the bag holds
    fewer tiles than exchanged, or fewer than the rules' minimum).
    """
    _check_can_act(state, seat)
    _check_window(state)
    state = _close_window(state)
    tileset = state.tileset
    returned = tuple(tiles)
    if not 1 <= len(returned) <= tileset.rack_size:
        raise IllegalMove(errors.EXCHANGE_COUNT_INVALID, f"Exchange between 1 and {tileset.rack_size} tiles.")
    rack = state.racks[seat]
    rest = remove_tiles(rack, returned)
    if rest is None:
        raise IllegalMove(errors.TILE_NOT_IN_RACK, "Those tiles are not all on your rack.")
    needed = max(len(returned), state.rules.exchange_min_bag, tileset.exchange_min_bag)
    if len(state.bag) < needed:
        raise IllegalMove(
            errors.EXCHANGE_BAG_TOO_SMALL,
            f"The bag has {len(state.bag)} tiles; exchanging needs at least {needed}.",
        )
    drawn, bag = draw(state.bag, len(returned))
    refilled = list(bag + "".join(returned))
    rng.shuffle(refilled)
    new_rack = rest + drawn
    after = replace(
        state,
        racks=_with(state.racks, seat, new_rack),
        bag="".join(refilled),
        turn=(seat + 1) % state.players,
        scoreless_turns=state.scoreless_turns + 1,
        moves_played=state.moves_played + 1,
    )
    after = _after_turn(after)
    record = MoveRecord(
        kind="exchange",
        seat=seat,
        rack_before=rack,
        rack_after=new_rack,
        exchanged=returned,
        drawn=len(drawn),
        end=after.end,
    )
    return Played(after, record)


def pass_turn(state: GameState, seat: int) -> Played:
    """Pass: the turn goes to the next seat; counts as a scoreless turn (a play still
    pending is accepted first)."""
    _check_can_act(state, seat)
    _check_window(state)
    state = _close_window(state)
    rack = state.racks[seat]
    after = replace(
        state,
        turn=(seat + 1) % state.players,
        scoreless_turns=state.scoreless_turns + 1,
        moves_played=state.moves_played + 1,
    )
    after = _after_turn(after)
    return Played(after, MoveRecord(kind="pass", seat=seat, rack_before=rack, rack_after=rack, end=after.end))


def _give_up(state: GameState, seat: int, reason: Literal["resign", "timeout"]) -> Played:
    rack = state.racks[seat]
    # A play still pending stands: giving up is not a challenge.
    state = replace(state, pending=None)
    after = _finish(replace(state, moves_played=state.moves_played + 1), reason, seat, [0] * state.players)
    return Played(after, MoveRecord(kind=reason, seat=seat, rack_before=rack, rack_after=rack, end=after.end))


def resign(state: GameState, seat: int) -> Played:
    """Resign for ``seat``, on any player's turn: the game ends and that seat loses
    whatever the scores. Raises ``IllegalMove(game_over)`` if the game already ended."""
    _check_can_act(state, seat, on_turn=False)
    return _give_up(state, seat, "resign")


def timeout(state: GameState, seat: int) -> Played:
    """End the game because ``seat`` did not act in time on their turn; it counts as a
    resignation. The caller decides, from its own clock, that the time is up. Raises
    ``IllegalMove`` (``game_over``, or ``not_your_turn`` if it is not that seat's turn).

    In the challenge window of the game's last play, the time running out accepts the
    play (an ``accept`` record): the game ends as scored, and no one loses on time.
    """
    _check_can_act(state, seat)
    if state.pending is not None and state.pending.final:
        return accept(state, seat)
    return _give_up(state, seat, "timeout")


def _with(values: tuple[str, ...], index: int, value: str) -> tuple[str, ...]:
    return (*values[:index], value, *values[index + 1 :])
