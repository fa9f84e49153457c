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

Tile sets. GCG has no standard way to name a tile distribution (Macondo uses
``#note`` pragmas in the same "Key: value" form), so the game language and board are
given as ``#note Wordgame-Language`` and ``#note Wordgame-Layout``; missing, they
default to ``en`` and ``wwf``.

Import replays the moves on a board, recomputes every score with this engine and
refuses (``ValueError``) a file whose plays or scores disagree with the rules. Words
are not checked against a lexicon. The bag's order is not in GCG, so a record can be
replayed for its board, racks, moves and scores, not re-dealt.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from engine.board import EMPTY, Board, Layout, layout, place
from engine.errors import IllegalMove
from engine.moves import MoveKind, MoveRecord, Placement, evaluate
from engine.scoring import ACROSS, DOWN, Direction
from engine.state import END_REASONS, EndOfGame, EndReason, decide_winner
from engine.tiles import BLANK, tileset

ENCODING_LINE = "#character-encoding UTF-8"
LANGUAGE_NOTE = "Wordgame-Language"
LAYOUT_NOTE = "Wordgame-Layout"
END_NOTE = "Wordgame-End"
PLAYED_THROUGH = "."


@dataclass(frozen=True)
class GameRecord:
    """A whole game as a sequence of move records: what GCG export and import carry.

    ``players`` are display names, one per seat (GCG holds two). ``moves`` are the
    records returned by the engine's actions, in order; the one that ended the game
    carries the ``EndOfGame``.
    """

    language: str
    players: tuple[str, ...]
    moves: tuple[MoveRecord, ...]
    layout: str = "wwf"
    lexicon: str = ""

    def board(self) -> Board:
        """The board after every move."""
        board = layout(self.layout).empty_board()
        for move in self.moves:
            board = place(board, ((p.row, p.col, p.board_char) for p in move.placements))
        return board

    def scores(self) -> tuple[int, ...]:
        """Each seat's total: the sum of its move scores plus the end-of-game adjustments."""
        totals = [0] * len(self.players)
        for move in self.moves:
            totals[move.seat] += move.score
            if move.end is not None:
                totals = [t + a for t, a in zip(totals, move.end.adjustments, strict=True)]
        return tuple(totals)

    @property
    def end(self) -> EndOfGame | None:
        return self.moves[-1].end if self.moves else None


class _AcceptAll:
    """Import checks the rules and the scores, not the words (the file's lexicon may
    not be loaded here)."""

    def __contains__(self, word: object) -> bool:
        return True


def _nicknames(players: Sequence[str]) -> list[str]:
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
    nicks = _nicknames(record.players)
    lines = [ENCODING_LINE]
    for seat, (nick, name) in enumerate(zip(nicks, record.players, strict=True)):
        lines.append(f"#player{seat + 1} {nick} {name.strip() or nick}")
    if record.lexicon:
        lines.append(f"#lexicon {record.lexicon}")
    lines.append(f"#note {LANGUAGE_NOTE}: {record.language}")
    lines.append(f"#note {LAYOUT_NOTE}: {record.layout}")
    board = layout(record.layout).empty_board()
    totals = [0, 0]
    final_racks = ["", ""]
    for move in record.moves:
        nick = nicks[move.seat]
        totals[move.seat] += move.score
        final_racks[move.seat] = move.rack_after
        rack = move.rack_before
        if move.kind == "play":
            main = move.words[0]
            new = {(p.row, p.col): p.board_char for p in move.placements}
            d_row, d_col = (0, 1) if main.direction == ACROSS else (1, 0)
            row, col = main.start
            word = "".join(
                new.get((row + i * d_row, col + i * d_col), PLAYED_THROUGH) for i in range(len(main.word))
            )
            where = position(row, col, main.direction)
            lines.append(f">{nick}: {rack} {where} {word} +{move.score} {totals[move.seat]}")
            board = place(board, ((p.row, p.col, p.board_char) for p in move.placements))
        elif move.kind == "exchange":
            lines.append(f">{nick}: {rack} -{''.join(move.exchanged)} +0 {totals[move.seat]}")
        elif move.kind == "pass":
            lines.append(f">{nick}: {rack} - +0 {totals[move.seat]}")
        if move.end is not None:
            lines.extend(_end_lines(move.end, nicks, final_racks, totals))
    for seat, rack in enumerate(final_racks):
        if rack:
            lines.append(f"#rack{seat + 1} {rack}")
    end = record.end
    if end is not None:
        who = f" {nicks[end.seat]}" if end.seat is not None else ""
        lines.append(f"#note {END_NOTE}: {end.reason}{who}")
    return "\n".join(lines) + "\n"


def _end_lines(end: EndOfGame, nicks: list[str], racks: list[str], totals: list[int]) -> list[str]:
    """The end-of-game rack lines; updates ``totals`` with the adjustments."""
    lines: list[str] = []
    if end.reason == "out" and end.seat is not None:
        other = 1 - end.seat
        totals[end.seat] += end.adjustments[end.seat]
        lines.append(f">{nicks[end.seat]}: ({racks[other]}) +{end.adjustments[end.seat]} {totals[end.seat]}")
        totals[other] += end.adjustments[other]
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
    language: str = "en"
    layout: str = "wwf"
    final_racks: dict[int, str] = field(default_factory=dict)
    end_note: tuple[EndReason, int | None] | None = None
    moves: list[MoveRecord] = field(default_factory=list)
    adjustments: list[int] = field(default_factory=lambda: [0, 0])
    end_lines: list[tuple[int, str]] = field(default_factory=list)  # (seat, "gain"|"penalty")
    totals: list[int] = field(default_factory=lambda: [0, 0])


_EVENT = re.compile(r">(?P<nick>\S+):\s*(?P<rest>.*)")


def import_gcg(text: str) -> GameRecord:
    """Read a GCG file written by :func:`export_gcg` (or a compatible two-player file).

    Replays each play on the board and recomputes its score; raises ``ValueError``
    naming the line when the file is malformed or disagrees with the rules.
    """
    reader = _Reader()
    board: Board | None = None
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        try:
            if line.startswith("#"):
                _pragma(reader, line)
            elif line.startswith(">"):
                if board is None:
                    if len(reader.players) != 2:
                        raise ValueError("two #player lines must come before the moves")
                    board = layout(reader.layout).empty_board()
                board = _event(reader, line, board)
            elif line and not reader.moves:
                raise ValueError("unexpected text")
            # Other non-empty lines continue a multi-line #note: ignored.
        except (ValueError, KeyError, IllegalMove) as exc:
            detail = exc.message if isinstance(exc, IllegalMove) else str(exc)
            raise ValueError(f"GCG line {number}: {detail}") from exc
    if len(reader.players) != 2:
        raise ValueError("a GCG record needs #player1 and #player2")
    moves = _with_racks_after(reader)
    return GameRecord(
        language=reader.language,
        players=tuple(reader.players),
        moves=tuple(moves),
        layout=reader.layout,
        lexicon=reader.lexicon,
    )


def _pragma(reader: _Reader, line: str) -> None:
    name, _, value = line.partition(" ")
    value = value.strip()
    player = re.fullmatch(r"#player([12])", name)
    if player:
        nick, _, full = value.partition(" ")
        if int(player[1]) != len(reader.players) + 1 or not nick:
            raise ValueError("#player1 then #player2, each with a nickname")
        reader.nicks.append(nick)
        reader.players.append(full.strip() or nick)
    elif name == "#lexicon":
        reader.lexicon = value
    elif re.fullmatch(r"#rack[12]", name):
        reader.final_racks[int(name[-1]) - 1] = value
    elif name == "#note":
        key, sep, note = value.partition(":")
        note = note.strip()
        if not sep:
            return
        if key == LANGUAGE_NOTE:
            tileset(note)  # raises KeyError for an unknown tile set
            reader.language = note
        elif key == LAYOUT_NOTE:
            layout(note)
            reader.layout = note
        elif key == END_NOTE:
            reason, _, nick = note.partition(" ")
            if reason not in END_REASONS:
                raise ValueError(f"unknown end {reason!r}")
            seat = _seat(reader, nick.strip()) if nick.strip() else None
            reader.end_note = (next(r for r in END_REASONS if r == reason), seat)
    # Other pragmas (#title, #description, #id, #character-encoding...) carry nothing
    # the engine needs.


def _seat(reader: _Reader, nick: str) -> int:
    if nick not in reader.nicks:
        raise ValueError(f"unknown player {nick!r}")
    return reader.nicks.index(nick)


def _event(reader: _Reader, line: str, board: Board) -> Board:
    match = _EVENT.fullmatch(line)
    if match is None:
        raise ValueError("malformed move line")
    seat = _seat(reader, match["nick"])
    tokens = match["rest"].split()
    tiles = tileset(reader.language)
    geometry = layout(reader.layout)
    if len(tokens) == 3 and tokens[0].startswith("(") and tokens[0] != "(challenge)":
        # ">nick: (RACK) +N total": the player who went out gains the rack's value.
        _end_points(reader, seat, tokens[1], tokens[2], "gain")
        return board
    if len(tokens) == 4 and tokens[1].startswith("(") and tokens[1] != "(time)":
        # ">nick: RACK (RACK) -N total": the value of a rack lost at the end.
        _end_points(reader, seat, tokens[2], tokens[3], "penalty")
        return board
    if len(tokens) == 4 and tokens[1].startswith("-") and tokens[1] != "--":
        exchanged = tuple(tokens[1][1:])
        if tokens[2] != "+0":
            raise ValueError("a pass or exchange scores +0")
        kind: MoveKind = "exchange" if exchanged else "pass"
        reader.moves.append(MoveRecord(kind=kind, seat=seat, rack_before=tokens[0], exchanged=exchanged))
        _check_total(reader, seat, 0, tokens[3])
        return board
    if len(tokens) != 5:
        raise ValueError("unsupported move line (challenges and time penalties are not part of this game)")
    rack, where, word, score, total = tokens
    placements = _placements(board, geometry, where, word)
    result = evaluate(board, placements, tileset=tiles, layout=geometry, lexicon=_AcceptAll(), rack=rack)
    if f"+{result.score}" != score:
        raise ValueError(f"{word} scores {result.score} by the rules, the file says {score}")
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
    _check_total(reader, seat, result.score, total)
    return place(board, ((p.row, p.col, p.board_char) for p in placements))


def _placements(board: Board, geometry: Layout, where: str, word: str) -> list[Placement]:
    row, col, direction = parse_position(where)
    d_row, d_col = (0, 1) if direction == ACROSS else (1, 0)
    # "(AB)" is an older way to write played-through letters; treat it like "..".
    word = re.sub(r"\(([^)]*)\)", lambda m: PLAYED_THROUGH * len(m[1]), word)
    placements = []
    for i, char in enumerate(word):
        r, c = row + i * d_row, col + i * d_col
        if char == PLAYED_THROUGH:
            if not geometry.on_board(r, c) or board[r][c] == EMPTY:
                raise ValueError(f"{where} {word}: no tile to play through at letter {i + 1}")
            continue
        if char == BLANK:
            raise ValueError("a played blank must be written as the lowercase letter it stands for")
        placements.append(Placement(r, c, char.upper(), blank=char != char.upper()))
    return placements


def _check_total(reader: _Reader, seat: int, points: int, total: str) -> None:
    reader.totals[seat] += points
    if str(reader.totals[seat]) != total:
        raise ValueError(f"running total {total} should be {reader.totals[seat]}")


def _end_points(reader: _Reader, seat: int, amount: str, total: str, kind: str) -> None:
    if not reader.moves:
        raise ValueError("end-of-game points before any move")
    match = re.fullmatch(r"([+-])(\d+)", amount)
    if match is None or (match[1] == "+") != (kind == "gain"):
        raise ValueError(f"bad end-of-game points {amount!r}")
    points = int(match[2]) if kind == "gain" else -int(match[2])
    reader.adjustments[seat] += points
    reader.end_lines.append((seat, kind))
    _check_total(reader, seat, points, total)


def _with_racks_after(reader: _Reader) -> list[MoveRecord]:
    """Fill in each move's rack after, draw count and the end of the game."""
    moves = reader.moves
    end_seat: int | None
    reason: EndReason | None
    if reader.end_note is not None:
        reason, end_seat = reader.end_note
    elif any(kind == "gain" for _, kind in reader.end_lines):
        reason, end_seat = "out", next(s for s, kind in reader.end_lines if kind == "gain")
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
        if later is not None:
            rack_after = later.rack_before
        elif move.kind in ("resign", "timeout"):
            rack_after = move.rack_before
        else:
            rack_after = reader.final_racks.get(move.seat, "")
        used = len(move.placements) if move.kind == "play" else len(move.exchanged)
        drawn = max(0, len(rack_after) - (len(move.rack_before) - used)) if move.kind != "pass" else 0
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
