"""Game records in the GCG format ("generic crossword game").

Spec: https://www.poslfit.com/scrabble/gcg/ (John Chew's GCG specification, as read by
Quackle and Macondo). What this module writes (the test game of ``tests/engine/test_gcg.py``,
resigned by Ben at the end)::

    #character-encoding UTF-8
    #player1 Ana_Lopez Ana Lopez          nickname (no spaces), then the full name
    #player2 Ben Ben
    #lexicon ENABLE                       only when the record names a lexicon
    #note Wordgame-Language: en           the tile set (see below)
    #note Wordgame-Layout: wwf            the board
    >Ana_Lopez: CAT?SEN 8G CAtS +6 6      play: rack, position, word, score, running total
    >Ben: HOEDRTW H6 HO.ED +8 8           "." = a tile already on the board; lowercase = blank
    >Ana_Lopez: TENYXUO -EN +0 6          exchange of E and N
    >Ben: RTWIIEE - +0 8                  pass
    #rack1 TYXUOAA                        final racks, when not empty
    #rack2 RTWIIEE
    #note Wordgame-End: resign Ben        how the game ended

Going out (the player who goes out gains the other rack's value, which the other player
loses: this project's rule) is written with the standard end-of-game rack lines::

    >Ana_Lopez: ST 8H ST +2 2
    >Ana_Lopez: (QZ) +20 22
    >Ben: QZ (QZ) -20 -20
    #note Wordgame-End: out Ana_Lopez

Coordinates are the standard ones: an across play is written row number then column
letter ("8H"), a down play column letter then row number ("H8"); rows count from 1 at
the top, columns from A at the left, and the position is the first square of the main
word (``engine.scoring`` defines the main word of a one-tile play: the across word if
it has two or more letters, else the down word).

Endings. Three scoreless turns write a "last rack penalty" line
``>nick: RACK (RACK) -N total`` for every seat with tiles left (``-0`` when the rule flag
turns the penalty off). Resignation and inactivity timeout have no GCG line, so they are
written in a ``#note`` pragma (free text to other GCG readers, Macondo included):
``#note Wordgame-End: resign ben`` or ``#note Wordgame-End: timeout ben``. The note is
written for every finished game; an unfinished game has none.

Tile sets. GCG has no standard way to name a tile distribution, so the game language
and board are given as ``#note Wordgame-Language`` and ``#note Wordgame-Layout``.
Macondo and Woogles write ``#tile-distribution english`` and ``#board-layout
CrosswordGame``, read as ``en-scrabble`` and ``scrabble``; a file that names neither
(Quackle's) is classic Scrabble too, as those programs assume. Another program's name
this engine does not know (``#board-layout SuperCrosswordGame``) is kept in
``GameRecord.pragmas`` with a note in ``GameRecord.notes``, not refused; so are the
header lines it does not use (``#title``, ``#id``, ``#incomplete``...), written back on
export. A tile set of this engine's own notes that does not exist is refused.

Games played under ``Rules`` (engine/state.py) export their challenges and time
penalties as those programs write them: a phony taken back ``>nick: RACK -- -24 55``,
a five-point bonus ``>nick: RACK (challenge) +5 60`` (the rack after the play), a
double challenge lost as a pass followed by Macondo's ``#note #unsuccessful-challenge``
(a single challenge lost has no line), the last play accepted as the opponent's pass
before the rack points, a time penalty ``>nick: RACK (time) -10 422``. The record's
``language`` is the tile set the game was played with (``state.tileset.language``:
``en-scrabble`` for the classic preset in English), and ``going_out`` its going-out
rule when it is not the tile set's own.

Import replays the moves on a board, recomputes every score with this engine and
refuses (``ValueError`` naming the line) a file whose plays, scores or totals disagree
with the rules. Words are not checked against a lexicon. The bag's order is not in GCG,
so a record can be replayed for its board, racks, moves and scores, not re-dealt. Besides
what :func:`export_gcg` writes, import reads what Quackle, Macondo and Woogles write for
a two-player game:

* the text's encoding: :func:`decode_gcg` reads the bytes (``#character-encoding``
  UTF-8 or ISO-8859-1; undeclared, UTF-8 when valid, else ISO-8859-1);
* a move line naming a player by the full name of its ``#player`` line (with spaces),
  and two players with one nickname (Quackle's ``NoName``): their lines are read in
  turn;
* an exchange written as a count of tiles (``-4``, the rack perhaps missing):
  ``MoveRecord.exchanged_count``;
* played-through letters written as the letters themselves (``8H fA.E`` or ``8H fARE``
  with the A and R on the board), or in parentheses (``8H f(AR)E``);
* a challenge bonus ``>nick: RACK (challenge) +5 37`` (the rack may be missing), a phony
  taken back ``>nick: RACK -- -24 55`` (the play leaves the board; Quackle writes
  ``-- +0``), a time penalty ``>nick: RACK (time) -10 422``: :class:`ScoreEvent` values;
* free text after the running total (a note);
* the end-of-game rack lines, checked against the rules of the tile set being imported
  (:func:`end_rules`): a rack shown must be among the tiles not on the board, and its
  points what the rules give for it. Going out is read under either rule, as the
  file's line shows it: gaining twice the other rack's value in one line (NASPA, and
  the classic preset), or gaining it while the other player loses it in a second line
  (WESPA, and this game's own rules); ``GameRecord.going_out`` keeps it when it is not
  the tile set's own. Scoreless turns: six end a classic game (``*-scrabble`` tile
  sets), three this game's. The opponent's pass between the last play and the rack
  points (Woogles, Macondo: the challenge window closed) is read as an ``accept``.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Literal

from engine.board import EMPTY, Board, Layout, board_tiles, layout, place
from engine.errors import IllegalMove
from engine.moves import MoveKind, MoveRecord, Placement, evaluate
from engine.scoring import ACROSS, DOWN, Direction
from engine.state import END_REASONS, ChallengeRule, EndOfGame, EndReason, GoingOut, decide_winner
from engine.tiles import BLANK, TileSet, tileset, tileset_codes

ENCODING_LINE = "#character-encoding UTF-8"
LANGUAGE_NOTE = "Wordgame-Language"
LAYOUT_NOTE = "Wordgame-Layout"
END_NOTE = "Wordgame-End"
#: Macondo's note after a pass that was a double challenge lost.
UNSUCCESSFUL_CHALLENGE = "#unsuccessful-challenge"
PLAYED_THROUGH = "."
#: A file that names no tile set and no board is classic Scrabble (Quackle, Macondo).
DEFAULT_LANGUAGE = "en-scrabble"
#: Macondo's and Woogles's names (``#tile-distribution``, ``#board-layout``, lowercased)
#: for this engine's tile sets and boards.
TILE_DISTRIBUTIONS = {"english": "en-scrabble"}
BOARD_LAYOUTS = {"crosswordgame": "scrabble"}


@dataclass(frozen=True)
class EndRules:
    """How a game's end is scored, as its GCG rack lines record it."""

    name: str
    #: The player who goes out gains this many times the value of the other rack.
    out_factor: int
    #: The other player also loses that value (a rack line of their own).
    out_penalty: bool
    #: Consecutive scoreless turns (both players) that end the game, each player then
    #: losing their own rack's value.
    scoreless_turns: int
    #: Whether that ending applies while every score is still 0.
    scoreless_at_zero: bool


PROJECT_END = EndRules("this game's rules", 1, True, 3, False)
SCRABBLE_END = EndRules("Scrabble's rules", 2, False, 6, True)


def end_rules(language: str, going_out: GoingOut | None = None) -> EndRules:
    """The end-of-game rules of a tile set: Scrabble's for the classic sets
    (``*-scrabble``), this project's (RULES.md) for the game languages. ``going_out``
    (the record's, when it says) overrides how going out is scored: ``"double"`` gains
    twice the other rack, ``"transfer"`` moves it over."""
    rules = SCRABBLE_END if language.endswith("-scrabble") else PROJECT_END
    if going_out is None:
        return rules
    if going_out == "double":
        return replace(
            rules, name=f"{rules.name} (going out doubles the other rack)", out_factor=2, out_penalty=False
        )
    return replace(
        rules, name=f"{rules.name} (going out moves the other rack over)", out_factor=1, out_penalty=True
    )


ScoreEventKind = Literal["challenge", "time", "withdrawn"]


@dataclass(frozen=True)
class ScoreEvent:
    """A GCG line that is not a move of the game but changes or explains a score.

    ``challenge``: a bonus for a play challenged in vain (``points`` > 0);
    ``time``: a time penalty (``points`` <= 0); ``withdrawn``: a phony taken back,
    whose play (``play``) left the board again, so ``points`` is 0 (the play's score
    was never kept). ``after`` counts the record's moves that came before the line;
    ``rack`` is the rack the line shows (may be empty).
    """

    kind: ScoreEventKind
    seat: int
    points: int
    after: int
    rack: str = ""
    play: MoveRecord | None = None


@dataclass(frozen=True)
class GameRecord:
    """A whole game as a sequence of move records: what GCG export and import carry.

    ``players`` are display names, one per seat (GCG holds two). ``moves`` are the
    records returned by the engine's actions, in order; the one that ended the game
    carries the ``EndOfGame``. ``events`` are the challenge bonuses, time penalties and
    withdrawn phonies of a record made by another program (none in this game's own).
    """

    language: str
    players: tuple[str, ...]
    moves: tuple[MoveRecord, ...]
    layout: str = "wwf"
    lexicon: str = ""
    events: tuple[ScoreEvent, ...] = ()
    #: How going out was scored, when the game says (a game played under ``Rules``,
    #: or a file whose end-of-game lines show it); None: the tile set's rule.
    going_out: GoingOut | None = None
    #: The challenge rule, when the game says (``Rules.challenge``, or ``"double"`` for
    #: a file with Macondo's lost-challenge note): a valid play challenged in vain costs
    #: the challenger the turn, written as a pass, only under ``"double"``.
    challenge: ChallengeRule | None = None
    #: Header lines this engine does not use (``#title``, ``#id``, ``#incomplete``, an
    #: unknown ``#board-layout``...), kept as they were and written back on export.
    pragmas: tuple[str, ...] = ()
    #: What import read differently from the file or left aside, for people.
    notes: tuple[str, ...] = ()

    def board(self) -> Board:
        """The board after every move (a phony challenged off leaves it again)."""
        board = layout(self.layout).empty_board()
        for move in self.moves:
            if move.kind == "challenge":
                if move.invalid:
                    board = place(board, ((p.row, p.col, EMPTY) for p in move.placements))
                continue
            board = place(board, ((p.row, p.col, p.board_char) for p in move.placements))
        return board

    def scores(self) -> tuple[int, ...]:
        """Each seat's total: the sum of its move scores, the end-of-game adjustments
        and the score events (challenge bonuses, time penalties)."""
        totals = [0] * len(self.players)
        for move in self.moves:
            # A challenge's points (a phony's score taken back, a bonus) are its target's.
            totals[_scored_seat(move)] += move.score
            # A time penalty after the end carries the end again: count it once.
            if move.end is not None and move.kind != "penalty":
                totals = [t + a for t, a in zip(totals, move.end.adjustments, strict=True)]
        for event in self.events:
            totals[event.seat] += event.points
        return tuple(totals)

    @property
    def end(self) -> EndOfGame | None:
        return self.moves[-1].end if self.moves else None


def _scored_seat(move: MoveRecord) -> int:
    return move.target if move.kind == "challenge" and move.target is not None else move.seat


class _AcceptAll:
    """Import checks the rules and the scores, not the words (the file's lexicon may
    not be loaded here)."""

    def __contains__(self, word: object) -> bool:
        return True


def nicknames(players: Sequence[str]) -> list[str]:
    """The players' GCG nicknames: names with spaces as underscores, made unique."""
    nicks: list[str] = []
    for seat, name in enumerate(players):
        nick = re.sub(r"\s+", "_", name.strip()) or f"player{seat + 1}"
        if nick in nicks:
            nick = f"{nick}_{seat + 1}"
        nicks.append(nick)
    return nicks


def position(row: int, col: int, direction: Direction) -> str:
    """GCG coordinates of a word starting at (row, col): ``"8H"`` across, ``"H8"`` down."""
    column = chr(ord("A") + col)
    return f"{row + 1}{column}" if direction == ACROSS else f"{column}{row + 1}"


def parse_position(text: str) -> tuple[int, int, Direction]:
    """The inverse of :func:`position`; raises ``ValueError``."""
    across = re.fullmatch(r"(\d+)([A-Za-z])", text)
    if across:
        return int(across[1]) - 1, ord(across[2].upper()) - ord("A"), ACROSS
    down = re.fullmatch(r"([A-Za-z])(\d+)", text)
    if down:
        return int(down[2]) - 1, ord(down[1].upper()) - ord("A"), DOWN
    raise ValueError(f"bad GCG position {text!r}")


def export_gcg(record: GameRecord) -> str:
    """The game as GCG text (UTF-8 declared); see the module docstring for the format."""
    if len(record.players) != 2:
        raise ValueError("GCG records two-player games")
    nicks = nicknames(record.players)
    lines = [ENCODING_LINE]
    for seat, (nick, name) in enumerate(zip(nicks, record.players, strict=True)):
        lines.append(f"#player{seat + 1} {nick} {name.strip() or nick}")
    if record.lexicon:
        lines.append(f"#lexicon {record.lexicon}")
    lines.extend(record.pragmas)
    lines.append(f"#note {LANGUAGE_NOTE}: {record.language}")
    lines.append(f"#note {LAYOUT_NOTE}: {record.layout}")
    board = layout(record.layout).empty_board()
    totals = [0, 0]
    final_racks = ["", ""]
    last_play: dict[int, MoveRecord] = {}

    def events(after: int, *, time: bool) -> None:
        for event in record.events:
            if event.after != after or (event.kind == "time") != time:
                continue
            nick = nicks[event.seat]
            rack = f"{event.rack} " if event.rack else ""
            if event.kind == "withdrawn" and event.play is not None:
                phony = event.play
                lines.append(_play_line(nick, phony, board, totals[event.seat] + phony.score))
                lines.append(f">{nick}: {phony.rack_before} -- -{phony.score} {totals[event.seat]}")
            elif event.kind == "challenge":
                totals[event.seat] += event.points
                lines.append(f">{nick}: {rack}(challenge) +{event.points} {totals[event.seat]}")
            elif event.kind == "time":
                totals[event.seat] += event.points
                lines.append(f">{nick}: {rack}(time) -{-event.points} {totals[event.seat]}")

    events(0, time=False)
    moves = record.moves
    for index, move in enumerate(moves):
        nick = nicks[move.seat]
        scored = _scored_seat(move)
        totals[scored] += move.score
        rack = move.rack_before
        if move.kind not in ("challenge", "penalty"):
            final_racks[move.seat] = move.rack_after
        if move.kind == "play":
            lines.append(_play_line(nick, move, board, totals[move.seat]))
            board = place(board, ((p.row, p.col, p.board_char) for p in move.placements))
            last_play[move.seat] = move
        elif move.kind == "exchange":
            exchanged = "".join(move.exchanged) or str(move.exchanged_count)
            shown = f"{rack} " if rack else ""
            lines.append(f">{nick}: {shown}-{exchanged} +0 {totals[move.seat]}")
        elif move.kind in ("pass", "accept"):
            # Accepting the last play is written as the pass Woogles and Macondo write.
            lines.append(f">{nick}: {rack} - +0 {totals[move.seat]}")
        elif move.kind == "challenge":
            phony = last_play.get(scored)
            target = nicks[scored]
            if move.invalid and phony is not None:
                # A phony taken back: its player's rack before the play, minus its score.
                lines.append(f">{target}: {phony.rack_before} -- -{phony.score} {totals[scored]}")
                board = place(board, ((p.row, p.col, EMPTY) for p in move.placements))
                final_racks[scored] = phony.rack_before
            elif move.score:
                shown = f"{phony.rack_after} " if phony is not None and phony.rack_after else ""
                lines.append(f">{target}: {shown}(challenge) +{move.score} {totals[scored]}")
            elif move.end is None and (
                record.challenge == "double"
                or (
                    record.challenge is None and index + 1 < len(moves) and moves[index + 1].seat != move.seat
                )
            ):
                # A valid play challenged in vain that cost the challenger the turn
                # (double challenge): a pass with Macondo's note.
                lines.append(f">{nick}: {rack} - +0 {totals[move.seat]}")
                lines.append(f"#note {UNSUCCESSFUL_CHALLENGE}")
        elif move.kind == "penalty":
            shown = f"{rack} " if rack else ""
            lines.append(f">{nick}: {shown}(time) -{-move.score} {totals[move.seat]}")
        events(index + 1, time=False)
        if move.end is not None and move.kind != "penalty":
            rules = end_rules(record.language, record.going_out)
            lines.extend(_end_lines(move.end, nicks, final_racks, totals, rules))
        events(index + 1, time=True)
    for seat, rack in enumerate(final_racks):
        if rack:
            lines.append(f"#rack{seat + 1} {rack}")
    end = record.end
    if end is not None:
        who = f" {nicks[end.seat]}" if end.seat is not None else ""
        lines.append(f"#note {END_NOTE}: {end.reason}{who}")
    return "\n".join(lines) + "\n"


def _play_line(nick: str, move: MoveRecord, board: Board, total: int) -> str:
    """``>nick: RACK POS WORD +score total`` for a play made on ``board``."""
    main = move.words[0]
    new = {(p.row, p.col): p.board_char for p in move.placements}
    d_row, d_col = (0, 1) if main.direction == ACROSS else (1, 0)
    row, col = main.start
    word = "".join(new.get((row + i * d_row, col + i * d_col), PLAYED_THROUGH) for i in range(len(main.word)))
    return f">{nick}: {move.rack_before} {position(row, col, main.direction)} {word} +{move.score} {total}"


def _end_lines(
    end: EndOfGame, nicks: list[str], racks: list[str], totals: list[int], rules: EndRules
) -> list[str]:
    """The end-of-game rack lines; updates ``totals`` with the adjustments."""
    lines: list[str] = []
    if end.reason == "out" and end.seat is not None:
        other = 1 - end.seat
        totals[end.seat] += end.adjustments[end.seat]
        lines.append(f">{nicks[end.seat]}: ({racks[other]}) +{end.adjustments[end.seat]} {totals[end.seat]}")
        totals[other] += end.adjustments[other]
        # Scrabble's rule has no line for the other rack, unless the game was really
        # scored otherwise (then import says the rules disagree rather than lose it).
        if rules.out_penalty or end.adjustments[other]:
            lines.append(
                f">{nicks[other]}: {racks[other]} ({racks[other]}) -{-end.adjustments[other]} {totals[other]}"
            )
    elif end.reason == "scoreless":
        for seat in (0, 1):
            totals[seat] += end.adjustments[seat]
            rack = racks[seat]
            if rack:
                lines.append(f">{nicks[seat]}: {rack} ({rack}) -{-end.adjustments[seat]} {totals[seat]}")
    return lines


@dataclass
class _Reader:
    """Mutable state while reading a GCG file."""

    players: list[str] = field(default_factory=list)
    nicks: list[str] = field(default_factory=list)
    lexicon: str = ""
    language: str | None = None
    layout: str | None = None
    final_racks: dict[int, str] = field(default_factory=dict)
    end_note: tuple[EndReason, int | None] | None = None
    moves: list[MoveRecord] = field(default_factory=list)
    events: list[ScoreEvent] = field(default_factory=list)
    adjustments: list[int] = field(default_factory=lambda: [0, 0])
    # (seat, "gain" | "penalty", rack) for each end-of-game rack line
    end_lines: list[tuple[int, str, str]] = field(default_factory=list)
    totals: list[int] = field(default_factory=lambda: [0, 0])
    # Score of every turn in order (a withdrawn phony's turn scores 0).
    turn_scores: list[int] = field(default_factory=list)
    board: Board | None = None
    board_before_play: Board | None = None
    # The seat to move next (plays, passes and exchanges hand the turn over).
    turn: int = 0
    going_out: GoingOut | None = None
    challenge: ChallengeRule | None = None
    pragmas: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def tiles(self) -> TileSet:
        return tileset(self.language or DEFAULT_LANGUAGE)

    @property
    def geometry(self) -> Layout:
        return layout(self.layout or self.tiles.board)


# A nickname has no spaces by the spec, but some files write a full name there.
_EVENT = re.compile(r">(?P<nick>[^:]+?):\s*(?P<rest>.*)")
_NOTE = r"(?:\s+(?P<note>.*))?"
_TOTAL = r"(?P<total>-?\d+)"
_CHALLENGE = re.compile(rf"(?:(?P<rack>\S+)\s+)?\(challenge\)\s+\+(?P<points>\d+)\s+{_TOTAL}{_NOTE}")
_TIME = re.compile(rf"(?:(?P<rack>\S+)\s+)?\(time\)\s+\+?-(?P<points>\d+)\s+{_TOTAL}{_NOTE}")
_GAIN = re.compile(rf"\((?P<rack>[^()\sa-z]+)\)\s+\+(?P<points>\d+)\s+{_TOTAL}{_NOTE}")
_PENALTY = re.compile(rf"(?P<rack>\S+)\s+\((?P<paren>[^()\s]+)\)\s+-(?P<points>\d+)\s+{_TOTAL}{_NOTE}")
_WITHDRAWN = re.compile(rf"(?P<rack>\S+)\s+--\s+(?P<score>[+-]\d+)\s+{_TOTAL}{_NOTE}")
_PASS = re.compile(rf"(?P<rack>\S+)\s+-\s+\+0\s+{_TOTAL}{_NOTE}")
# The rack may be missing when the record's keeper did not see it (then only the
# number of tiles exchanged is known too: ``-4``).
_EXCHANGE = re.compile(rf"(?:(?P<rack>\S+)\s+)?-(?P<tiles>\S+)\s+\+0\s+{_TOTAL}{_NOTE}")
_PLAY = re.compile(
    rf"(?P<rack>\S+)\s+(?P<pos>[A-Za-z]\d+|\d+[A-Za-z])\s+(?P<word>\S+)\s+\+(?P<score>\d+)\s+{_TOTAL}{_NOTE}"
)


def decode_gcg(data: bytes) -> str:
    """A GCG file's bytes as text. ``#character-encoding`` on the first line names
    UTF-8 or ISO-8859-1 (any other is refused with ``ValueError``, as Macondo does);
    without it the file is read as UTF-8 when it is valid UTF-8, else as ISO-8859-1,
    the spec's default."""
    first = data.split(b"\n", 1)[0].strip()
    if first.startswith(b"#character-encoding"):
        declared = first.removeprefix(b"#character-encoding").strip().decode("ascii", "replace")
        codec = declared.upper().replace("_", "-").replace("ISO8859", "ISO-8859")
        if codec in ("UTF-8", "UTF8"):
            return data.decode("utf-8-sig")
        if codec in ("ISO-8859-1", "LATIN-1", "LATIN1"):
            return data.decode("latin-1")
        raise ValueError(f"unsupported GCG character encoding {declared!r} (UTF-8 or ISO-8859-1)")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def import_gcg(text: str) -> GameRecord:
    """Read a two-player GCG file: this module's own, or one written by Quackle,
    Macondo or Woogles (see the module docstring for what is understood).

    Replays each play on the board and recomputes its score; raises ``ValueError``
    naming the line when the file is malformed or disagrees with the rules, and for a
    file with more than two players or a tile set or board this engine does not have.
    """
    reader = _Reader()
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        try:
            if line.startswith("#"):
                _pragma(reader, line)
            elif line.startswith(">"):
                if reader.board is None:
                    if len(reader.players) != 2:
                        raise ValueError("two #player lines must come before the moves")
                    reader.board = reader.geometry.empty_board()
                _event(reader, line)
            elif line and not reader.moves and not reader.events:
                raise ValueError("unexpected text")
            # Other non-empty lines continue a multi-line #note: ignored.
        except (ValueError, KeyError, IllegalMove) as exc:
            detail = exc.message if isinstance(exc, IllegalMove) else str(exc).strip("'\"")
            raise ValueError(f"GCG line {number}: {detail}") from exc
    if len(reader.players) != 2:
        raise ValueError("a GCG record needs #player1 and #player2")
    moves = _with_racks_after(reader)
    language = reader.language or DEFAULT_LANGUAGE
    return GameRecord(
        language=language,
        players=tuple(reader.players),
        moves=tuple(moves),
        layout=reader.layout or tileset(language).board,
        lexicon=reader.lexicon,
        events=tuple(reader.events),
        going_out=reader.going_out,
        challenge=reader.challenge,
        pragmas=tuple(reader.pragmas),
        notes=tuple(reader.notes),
    )


def _set_tile_set(reader: _Reader, code: str, *, pragma: str = "") -> None:
    if reader.board is not None:
        raise ValueError("the tile set must be named before the moves")
    if code not in tileset_codes() and pragma:
        # Another program's name for a distribution: kept, and the moves are read with
        # the default set (a letter it lacks is then refused on its line).
        reader.pragmas.append(pragma)
        reader.notes.append(f"{pragma}: not a tile set this engine knows; read with {DEFAULT_LANGUAGE}")
        return
    if code not in tileset_codes():
        raise ValueError(
            f"unknown tile set {code!r}: this game has {', '.join(tileset_codes())} "
            f"(and reads Macondo's {', '.join(TILE_DISTRIBUTIONS)})"
        )
    reader.language = code


def _set_layout(reader: _Reader, name: str, *, pragma: str = "") -> None:
    if reader.board is not None:
        raise ValueError("the board must be named before the moves")
    try:
        layout(name)
    except KeyError:
        if pragma:
            reader.pragmas.append(pragma)
            reader.notes.append(f"{pragma}: not a board this engine knows; read on the tile set's board")
            return
        raise ValueError(f"unknown board {name!r}: this game has wwf and scrabble") from None
    reader.layout = name


def _pragma(reader: _Reader, line: str) -> None:
    name, _, value = line.partition(" ")
    value = value.strip()
    player = re.fullmatch(r"#player(\d+)", name)
    if player:
        if int(player[1]) > 2:
            raise ValueError(f"this game imports two-player records; the file has {name}")
        nick, _, full = value.partition(" ")
        if int(player[1]) != len(reader.players) + 1 or not nick:
            raise ValueError("#player1 then #player2, each with a nickname")
        if nick in reader.nicks:
            # Quackle writes "NoName" for both players of an unnamed game: the move
            # lines are then told apart by whose turn it is.
            reader.notes.append(f"both players are called {nick!r}: their lines are read in turn")
        reader.nicks.append(nick)
        reader.players.append(full.strip() or nick)
    elif name == "#lexicon":
        reader.lexicon = value
    elif name == "#tile-distribution":
        _set_tile_set(reader, TILE_DISTRIBUTIONS.get(value.lower(), value), pragma=line)
    elif name == "#board-layout":
        _set_layout(reader, BOARD_LAYOUTS.get(value.lower(), value), pragma=line)
    elif name == "#game-type" and value.lower() not in ("", "classic"):
        raise ValueError(f"game type {value!r} is not classic: its rules are not this game's")
    elif re.fullmatch(r"#rack[12]", name):
        reader.final_racks[int(name[-1]) - 1] = value
    elif name == "#note":
        if value == UNSUCCESSFUL_CHALLENGE:
            _lost_challenge(reader)
            return
        key, sep, note = value.partition(":")
        note = note.strip()
        if not sep:
            return
        if key == LANGUAGE_NOTE:
            _set_tile_set(reader, note)
        elif key == LAYOUT_NOTE:
            _set_layout(reader, note)
        elif key == END_NOTE:
            reason, _, nick = note.partition(" ")
            if reason not in END_REASONS:
                raise ValueError(f"unknown end {reason!r}")
            seat = _seat(reader, nick.strip()) if nick.strip() else None
            reader.end_note = (next(r for r in END_REASONS if r == reason), seat)
    elif name not in ("#character-encoding", "#game-type"):
        # #title, #description, #id, #incomplete, #tile... carry nothing the engine
        # needs: kept as they are, and written back on export.
        reader.pragmas.append(line)


def _seat(reader: _Reader, nick: str) -> int:
    seats = _seats(reader, nick)
    if len(seats) > 1:
        raise ValueError(f"both players are called {nick!r}")
    return seats[0]


def _seats(reader: _Reader, nick: str) -> list[int]:
    """The seats a move line's name may be: its nickname's, else a full name's."""
    nick = nick.strip()
    seats = [seat for seat, name in enumerate(reader.nicks) if name == nick]
    if not seats:
        seats = [seat for seat, name in enumerate(reader.players) if name == nick]
    if not seats:
        raise ValueError(f"unknown player {nick!r}")
    return seats


def _expected_seat(reader: _Reader, pattern: re.Pattern[str]) -> int:
    """Whose line this must be, for a file that gives both players the same name."""
    last = reader.moves[-1] if reader.moves else None
    if pattern in (_PLAY, _PASS, _EXCHANGE) or last is None:
        return reader.turn
    if pattern in (_CHALLENGE, _WITHDRAWN, _GAIN):
        # The bonus, the phony and the rack points are the last play's player's.
        plays = [m for m in reader.moves if m.kind == "play"]
        return plays[-1].seat if plays else last.seat
    gains = [s for s, kind, _ in reader.end_lines if kind == "gain"]
    if pattern is _PENALTY and gains:
        return 1 - gains[0]
    penalised = {s for s, kind, _ in reader.end_lines if kind == "penalty"}
    return next(s for s in (reader.turn, 1 - reader.turn) if s not in penalised) if len(penalised) < 2 else 0


def _event(reader: _Reader, line: str) -> None:
    match = _EVENT.fullmatch(line)
    if match is None:
        raise ValueError("malformed move line")
    seats = _seats(reader, match["nick"])
    rest = match["rest"].strip()
    for pattern, handler in (
        (_CHALLENGE, _challenge),
        (_TIME, _time_penalty),
        (_GAIN, _rack_gain),
        (_PENALTY, _rack_penalty),
        (_WITHDRAWN, _withdrawn),
        (_PASS, _pass),
        (_EXCHANGE, _exchange),
        (_PLAY, _play),
    ):
        found = pattern.fullmatch(rest)
        if found is not None:
            if reader.end_lines and pattern not in (_TIME, _PENALTY):
                raise ValueError("only rack lines and time penalties may follow the end of the game")
            seat = seats[0] if len(seats) == 1 else _expected_seat(reader, pattern)
            handler(reader, seat, found)
            _check_total(reader, seat, found["total"])
            return
    raise ValueError("unsupported move line")


def _check_total(reader: _Reader, seat: int, total: str) -> None:
    if str(reader.totals[seat]) != total:
        raise ValueError(f"running total {total} should be {reader.totals[seat]}")


def _check_rack(reader: _Reader, rack: str) -> None:
    bad = [tile for tile in rack if not reader.tiles.is_tile(tile)]
    if bad:
        raise ValueError(f"rack {rack!r} has {''.join(bad)!r}, not a tile of {reader.tiles.language}")


def _play(reader: _Reader, seat: int, found: re.Match[str]) -> None:
    assert reader.board is not None
    rack, where, word = found["rack"], found["pos"], found["word"]
    _check_rack(reader, rack)
    placements = _placements(reader.board, reader.geometry, where, word)
    result = evaluate(
        reader.board,
        placements,
        tileset=reader.tiles,
        layout=reader.geometry,
        lexicon=_AcceptAll(),
        rack=rack,
    )
    if result.score != int(found["score"]):
        raise ValueError(f"{word} scores {result.score} by the rules, the file says +{found['score']}")
    reader.moves.append(
        MoveRecord(
            kind="play",
            seat=seat,
            placements=tuple(sorted(placements, key=lambda p: (p.row, p.col))),
            words=result.words,
            score=result.score,
            bingo=result.bingo,
            rack_before=rack,
        )
    )
    reader.totals[seat] += result.score
    reader.turn_scores.append(result.score)
    reader.turn = 1 - seat
    reader.board_before_play = reader.board
    reader.board = place(reader.board, ((p.row, p.col, p.board_char) for p in placements))


def _pass(reader: _Reader, seat: int, found: re.Match[str]) -> None:
    _check_rack(reader, found["rack"])
    reader.moves.append(MoveRecord(kind="pass", seat=seat, rack_before=found["rack"]))
    reader.turn_scores.append(0)
    reader.turn = 1 - seat


def _lost_challenge(reader: _Reader) -> None:
    """Macondo's note after a pass: the pass was a double challenge lost, which the
    record keeps as a challenge of the play before it (a valid play, 0 points)."""
    last = reader.moves[-1] if reader.moves else None
    plays = [m for m in reader.moves[:-1] if m.kind == "play"]
    if last is None or last.kind != "pass" or not plays or plays[-1].seat == last.seat:
        raise ValueError(f"{UNSUCCESSFUL_CHALLENGE} follows the pass of the player who challenged")
    play = plays[-1]
    reader.challenge = "double"
    reader.moves[-1] = replace(
        last, kind="challenge", target=play.seat, placements=play.placements, words=play.words
    )


def _exchange(reader: _Reader, seat: int, found: re.Match[str]) -> None:
    rack, exchanged = found["rack"] or "", found["tiles"]
    _check_rack(reader, rack)
    if not rack and not exchanged.isdigit():
        raise ValueError("an exchange of named tiles shows the rack they came from")
    if exchanged.isdigit():
        # Only the number of tiles is known (the exchanger's opponent kept the record).
        count = int(exchanged)
        if not 1 <= count <= reader.tiles.rack_size or (rack and count > len(rack)):
            raise ValueError(f"an exchange of {count} tiles from {rack or 'an unknown rack'}")
        move = MoveRecord(kind="exchange", seat=seat, rack_before=rack, exchanged_count=count)
    else:
        if Counter(exchanged) - Counter(rack):
            raise ValueError(f"exchanges {exchanged}, which is not on the rack {rack}")
        move = MoveRecord(kind="exchange", seat=seat, rack_before=rack, exchanged=tuple(exchanged))
    reader.moves.append(move)
    reader.turn_scores.append(0)
    reader.turn = 1 - seat


def _withdrawn(reader: _Reader, seat: int, found: re.Match[str]) -> None:
    last = reader.moves[-1] if reader.moves else None
    if last is None or last.kind != "play" or last.seat != seat or reader.board_before_play is None:
        raise ValueError("a phony can be taken back only right after that player's play")
    if found["score"] not in (f"-{last.score}", "+0", "-0"):
        raise ValueError(f"the phony scored {last.score}: taking it back is -{last.score}")
    if found["rack"] != last.rack_before:
        raise ValueError(f"the phony was played from {last.rack_before}, not {found['rack']}")
    reader.moves.pop()
    reader.board = reader.board_before_play
    reader.board_before_play = None
    reader.totals[seat] -= last.score
    reader.turn_scores[-1] = 0
    reader.events.append(
        ScoreEvent("withdrawn", seat, 0, after=len(reader.moves), rack=found["rack"], play=last)
    )


def _challenge(reader: _Reader, seat: int, found: re.Match[str]) -> None:
    last = reader.moves[-1] if reader.moves else None
    if last is None or last.kind != "play" or last.seat != seat:
        raise ValueError("a challenge bonus goes to the player whose play was just challenged")
    points = int(found["points"])
    reader.totals[seat] += points
    rack = found["rack"] or ""
    reader.events.append(ScoreEvent("challenge", seat, points, after=len(reader.moves), rack=rack))


def _time_penalty(reader: _Reader, seat: int, found: re.Match[str]) -> None:
    points = -int(found["points"])
    reader.totals[seat] += points
    rack = found["rack"] or ""
    reader.events.append(ScoreEvent("time", seat, points, after=len(reader.moves), rack=rack))


def _unplayed_tiles(reader: _Reader) -> Counter[str]:
    """The tiles on no board square: in the bag or on the racks."""
    assert reader.board is not None
    return Counter(reader.tiles.full_bag()) - Counter(board_tiles(reader.board))


def _rack_gain(reader: _Reader, seat: int, found: re.Match[str]) -> None:
    rack, points = found["rack"], int(found["points"])
    last = reader.moves[-1] if reader.moves else None
    if (
        last is not None
        and last.kind in ("pass", "challenge")
        and last.seat != seat
        and len(reader.moves) > 1
    ):
        # Woogles and Macondo write the opponent's pass that closed the challenge
        # window on the last play (or the double challenge it lost): it accepted it.
        if last.kind == "pass":
            reader.moves[-1] = replace(last, kind="accept")
            reader.turn_scores.pop()
        last = reader.moves[-2]
    if last is None or last.kind != "play" or last.seat != seat:
        raise ValueError("the rack points go to the player who went out with the last play")
    if any(kind == "gain" for _, kind, _ in reader.end_lines):
        raise ValueError("a second going-out line")
    _check_rack(reader, rack)
    if Counter(rack) - _unplayed_tiles(reader):
        raise ValueError(f"{rack} is not among the tiles left off the board")
    value = reader.tiles.rack_value(rack)
    # Either going-out rule: the file's line says which the game was played by.
    if value and points in (value, 2 * value):
        going_out: GoingOut = "double" if points == 2 * value else "transfer"
        # Kept only when it is not the tile set's own rule, so a record this engine
        # wrote reads back equal.
        default = "double" if end_rules(reader.tiles.language).out_factor == 2 else "transfer"
        reader.going_out = None if going_out == default else going_out
    rules = end_rules(reader.tiles.language, reader.going_out)
    if points != rules.out_factor * value:
        raise ValueError(
            f"{rack} is worth {value}: going out gains {value} (the rack moved over) or "
            f"{2 * value} (doubled), the file says +{points}"
        )
    reader.adjustments[seat] += points
    reader.totals[seat] += points
    reader.end_lines.append((seat, "gain", rack))
    reader.final_racks.setdefault(1 - seat, rack)


def _rack_penalty(reader: _Reader, seat: int, found: re.Match[str]) -> None:
    rules = end_rules(reader.tiles.language, reader.going_out)
    rack, points = found["rack"], int(found["points"])
    if found["paren"] != rack:
        raise ValueError(f"a rack penalty line shows the same rack twice, not {rack} and {found['paren']}")
    _check_rack(reader, rack)
    if any(s == seat and kind == "penalty" for s, kind, _ in reader.end_lines):
        raise ValueError("a second rack penalty for the same player")
    gains = [(s, r) for s, kind, r in reader.end_lines if kind == "gain"]
    if gains:
        out_seat, out_rack = gains[0]
        if not rules.out_penalty:
            raise ValueError(f"by {rules.name} the player who did not go out loses nothing")
        if seat == out_seat or Counter(rack) != Counter(out_rack):
            raise ValueError(f"the rack left when the other player went out is {out_rack}")
    else:
        scoreless = 0
        for score in reversed(reader.turn_scores):
            if score:
                break
            scoreless += 1
        if scoreless != rules.scoreless_turns:
            raise ValueError(
                f"a rack penalty ends the game after {rules.scoreless_turns} scoreless turns "
                f"by {rules.name}; this game had {scoreless}"
            )
        if not rules.scoreless_at_zero and not any(reader.totals):
            raise ValueError(f"by {rules.name} scoreless turns do not end a game at 0-0")
        penalised = Counter(rack)
        for _, _kind, other in reader.end_lines:
            penalised += Counter(other)
        if penalised - _unplayed_tiles(reader):
            raise ValueError(f"{rack} is not among the tiles left off the board")
    value = reader.tiles.rack_value(rack)
    if points != value:
        raise ValueError(f"{rack} is worth {value}, the file says -{points}")
    reader.adjustments[seat] -= points
    reader.totals[seat] -= points
    reader.end_lines.append((seat, "penalty", rack))
    reader.final_racks.setdefault(seat, rack)


def _placements(board: Board, geometry: Layout, where: str, word: str) -> list[Placement]:
    row, col, direction = parse_position(where)
    d_row, d_col = (0, 1) if direction == ACROSS else (1, 0)
    # "(AB)" is an older way to write played-through letters.
    word = re.sub(r"\(([^)]*)\)", lambda m: m[1], word)
    placements = []
    for i, char in enumerate(word):
        r, c = row + i * d_row, col + i * d_col
        if not geometry.on_board(r, c):
            raise ValueError(f"{where} {word}: letter {i + 1} is off the board")
        on_board = board[r][c]
        if on_board != EMPTY:
            # A played-through tile: "." or the letter itself (as Quackle writes it).
            if char != PLAYED_THROUGH and char.upper() != on_board.upper():
                raise ValueError(f"{where} {word}: letter {i + 1} is {char}, the board has {on_board}")
            continue
        if char == PLAYED_THROUGH:
            raise ValueError(f"{where} {word}: no tile to play through at letter {i + 1}")
        if char == BLANK:
            raise ValueError("a played blank must be written as the lowercase letter it stands for")
        placements.append(Placement(r, c, char.upper(), blank=char != char.upper()))
    return placements


def _with_racks_after(reader: _Reader) -> list[MoveRecord]:
    """Fill in each move's rack after, draw count and the end of the game."""
    moves = reader.moves
    end_seat: int | None
    reason: EndReason | None
    gains = [s for s, kind, _ in reader.end_lines if kind == "gain"]
    rules = end_rules(reader.tiles.language, reader.going_out)
    if gains and rules.out_penalty and not any(kind == "penalty" for _, kind, _ in reader.end_lines):
        raise ValueError(
            f"by {rules.name} the player who did not go out loses their rack: that line is missing"
        )
    if reader.end_note is not None:
        reason, end_seat = reader.end_note
    elif gains:
        reason, end_seat = "out", gains[0]
    elif reader.end_lines:
        reason, end_seat = "scoreless", None
    else:
        reason, end_seat = None, None
    if reason in ("resign", "timeout"):
        if end_seat is None:
            raise ValueError(f"{END_NOTE}: {reason} needs the player's nickname")
        rack = reader.final_racks.get(end_seat, "")
        kind: MoveKind = "resign" if reason == "resign" else "timeout"
        moves.append(MoveRecord(kind=kind, seat=end_seat, rack_before=rack))
    result: list[MoveRecord] = []
    for index, move in enumerate(moves):
        later = next((m for m in moves[index + 1 :] if m.seat == move.seat), None)
        if move.kind in ("challenge", "accept"):
            # Neither moves a tile of the challenger's rack.
            rack_after = move.rack_before
        elif later is not None:
            rack_after = later.rack_before
        elif move.kind in ("resign", "timeout"):
            rack_after = move.rack_before
        else:
            rack_after = reader.final_racks.get(move.seat, "")
        used = len(move.placements) if move.kind == "play" else len(move.exchanged) or move.exchanged_count
        drawn = (
            max(0, len(rack_after) - (len(move.rack_before) - used))
            if move.kind in ("play", "exchange")
            else 0
        )
        result.append(replace(move, rack_after=rack_after, drawn=drawn))
    if reason is not None and result:
        final = reader.totals
        end = EndOfGame(
            reason=reason,
            seat=end_seat,
            adjustments=tuple(reader.adjustments),
            final_scores=tuple(final),
            winner=decide_winner(final, reason, end_seat),
        )
        result[-1] = replace(result[-1], end=end)
    return result
