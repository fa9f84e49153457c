"""Post-game analysis: every move of a finished game rated against what the rack allowed.

:func:`analyse_moves` is plain computation over the moves' records (board before, rack
before, what was played) with the engine's move generator: for each play, exchange or
pass, the best play and its score, the points left on the table, the rack leave, the
move's rank among all legal plays and not playing (1 + the plays that score more; equal
scores share a rank; a swap or pass scores 0) and whether a bingo was there and missed. :func:`totals` sums it per seat.
``games.tasks.analyse_game`` runs it when a game ends and stores the result
(``GameAnalysis``); the study list (``StudyItem``) is collected from it.

Free for everyone who may see the game once it is over: a study aid after the game,
not an aid during it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, TypedDict

import engine
from engine import movegen
from engine.board import square_name
from engine.lexicon import Lexicon
from engine.movegen import GeneratedMove


#: Move kinds rated (a resignation or a timeout is not a choice of play).
class TileDict(TypedDict):
    """A tile of a play as ``Move.tiles`` stores it."""

    row: int
    col: int
    letter: str
    blank: bool


def tile_of(placement: engine.Placement) -> TileDict:
    """A placement as ``Move.tiles`` stores it."""
    return {"row": placement.row, "col": placement.col, "letter": placement.letter, "blank": placement.blank}


#: One analysed move, or a seat's totals, as stored in ``GameAnalysis`` (JSON objects).
Entry = dict[str, Any]


RATED_KINDS = ("play", "exchange", "pass")


@dataclass(frozen=True, slots=True)
class PlayedMove:
    """What the analysis needs of one recorded move."""

    number: int
    seat: int
    kind: str
    rack_before: str
    tiles: tuple[TileDict, ...]  # as Move.tiles
    score: int
    bingo: bool
    words: tuple[str, ...]
    phony: bool = False  # a challenge that took its play back off the board

    @classmethod
    def of_record(cls, number: int, seat: int, record: engine.MoveRecord) -> PlayedMove:
        """The move the engine just recorded (a game played out of the database: the
        benchmark's, the fair-play simulation's)."""
        return cls(
            number=number,
            seat=seat,
            kind=record.kind,
            rack_before=record.rack_before,
            tiles=tuple(tile_of(p) for p in record.placements),
            score=record.score,
            bingo=record.bingo,
            words=tuple(w.word for w in record.words),
        )


def apply_tiles(board: list[str], tiles: Sequence[TileDict]) -> None:
    """Put a move's tiles on ``board`` (in place; a blank is a lowercase letter)."""
    for t in tiles:
        char = t["letter"].lower() if t["blank"] else t["letter"]
        line = board[t["row"]]
        board[t["row"]] = line[: t["col"]] + char + line[t["col"] + 1 :]


def apply_move(board: list[str], kind: str, tiles: Sequence[TileDict], phony: bool = False) -> None:
    """Replay one recorded move on ``board`` (in place): a play puts its tiles down, a
    challenge that found a phony takes that play's tiles (its own ``tiles``) back off."""
    if kind == "play":
        apply_tiles(board, tiles)
    elif kind == "challenge" and phony:
        for t in tiles:
            line = board[t["row"]]
            board[t["row"]] = line[: t["col"]] + engine.EMPTY + line[t["col"] + 1 :]


def rack_leave(rack: str, tiles: Sequence[TileDict]) -> str:
    """The tiles kept after playing ``tiles`` from ``rack`` (a blank is ``?``)."""
    kept = list(rack)
    for t in tiles:
        tile = engine.BLANK if t["blank"] else t["letter"]
        if tile in kept:
            kept.remove(tile)
    return "".join(kept)


def describe(move: GeneratedMove) -> Entry:
    """A generated play as stored: its tiles, words, position and score."""
    words = move.words
    main = words[0] if words else None
    position = ""
    if main is not None:
        position = f"{square_name(main.start[0], main.start[1])} {main.direction}"
    return {
        "tiles": [[r, c, ch] for r, c, ch in move.tiles],
        "word": main.word if main else "",
        "words": [w.word for w in words],
        "position": position,
        "score": move.score,
        "bingo": move.bingo,
    }


def analyse_moves(
    moves: Sequence[PlayedMove], *, language: str, layout_name: str, lexicon: Lexicon
) -> list[Entry]:
    """One entry per rated move, in order. Plays the moves forward on an empty board
    (a phony challenged off leaves it again). ``language`` is the tile set's code: the
    game's rules' (``GameState.tileset``), which may be a classic set."""
    tileset = engine.tileset(language)
    geometry = engine.layout(layout_name)
    board = list(geometry.empty_board())
    out: list[Entry] = []
    for move in moves:
        if move.kind in RATED_KINDS and move.rack_before:
            every = movegen.generate(
                tuple(board), move.rack_before, tileset=tileset, layout=geometry, lexicon=lexicon
            )
            out.append(_entry(move, every))
        apply_move(board, move.kind, move.tiles, move.phony)
    return out


def _entry(move: PlayedMove, every: Sequence[GeneratedMove]) -> Entry:
    played = move.score if move.kind == "play" else 0
    best = every[0] if every else None
    best_score = best.score if best else 0
    bingos = [m for m in every if m.bingo]
    return {
        "number": move.number,
        "seat": move.seat,
        "kind": move.kind,
        "rack": move.rack_before,
        "played": {
            "words": list(move.words),
            "word": move.words[0] if move.words else "",
            "score": played,
            "bingo": move.bingo,
        },
        "leave": rack_leave(move.rack_before, move.tiles) if move.kind == "play" else move.rack_before,
        "best": describe(best) if best else None,
        "best_score": best_score,
        "points_left": max(0, best_score - played),
        # Plays scoring more than this one, plus one: equal scores share a rank. The
        # choices are every legal play and not playing (a swap or a pass, worth 0, ranked
        # with any play worth 0): so a swap is never ranked below the last of them.
        "rank": 1 + sum(1 for m in every if m.score > played),
        "of": len(every) + 1,
        "share": round(100 * played / best_score) if best_score else 100,
        "bingo_available": bool(bingos),
        "best_bingo": describe(bingos[0]) if bingos else None,
        "missed_bingo": bool(bingos) and not move.bingo,
    }


def totals(entries: Sequence[dict[str, Any]], seats: int = 2) -> list[Entry]:
    """Per seat: moves rated, average share of the best score, points left, bingos
    played and missed."""
    out = []
    for seat in range(seats):
        mine = [e for e in entries if e["seat"] == seat]
        out.append(
            {
                "seat": seat,
                "moves": len(mine),
                "average_share": round(sum(e["share"] for e in mine) / len(mine)) if mine else 0,
                "points_left": sum(e["points_left"] for e in mine),
                "best_moves": sum(1 for e in mine if e["rank"] == 1),
                "bingos_found": sum(1 for e in mine if e["played"]["bingo"]),
                "bingos_missed": sum(1 for e in mine if e["missed_bingo"]),
            }
        )
    return out


def letters_of(word: str) -> str:
    """The letters of ``word`` in alphabetical order (the quiz's prompt)."""
    return "".join(sorted(word))


def study_candidates(entries: Sequence[dict[str, Any]], *, min_points_left: int) -> list[Entry]:
    """What a player could have made and did not: every missed bingo (its best bingo)
    and every play that left at least ``min_points_left`` points on the table (its best
    play). One item per move at most; the bingo wins when both apply."""
    items = []
    for e in entries:
        if e["missed_bingo"]:
            pick, kind = e["best_bingo"], "bingo"
        elif e["best"] is not None and e["points_left"] >= min_points_left:
            pick, kind = e["best"], "play"
        else:
            continue
        rack_tiles = Counter(ch.upper() for _r, _c, ch in pick["tiles"])
        items.append(
            {
                "seat": e["seat"],
                "number": e["number"],
                "kind": kind,
                "word": pick["word"],
                "score": pick["score"],
                "rack": e["rack"],
                # Letters of the word already on the board (the rest came from the rack).
                "board_letters": "".join(sorted((Counter(pick["word"]) - rack_tiles).elements())),
            }
        )
    return items
