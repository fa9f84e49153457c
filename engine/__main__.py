"""Command-line interface: ``python -m engine <command> ...``.

``score`` validates and scores plays given as JSON lines, for analysts and for checking
the engine against other implementations::

    python -m engine score --language en [--wordlist FILE] [FILE]

Each input line is ``{"id": ..., "board": [15 strings], "rack": "AEI?RST",
"move": [[row, col, "A"], ...]}`` (0-based; board ``.`` empty, uppercase tile, lowercase
blank; rack ``?`` blank; in ``move`` a lowercase letter is a blank and ``?`` a blank with
no letter chosen). Each output line is ``{"id", "legal": true, "score", "words",
"bingo"}`` or ``{"id", "legal": false, "error", "message"}``; ``error`` is an
``IllegalMove`` code, or ``bad_input`` for a line that is not a well-formed request.

What counts as ``bad_input``: a line that is not a JSON object; a board that is not 15
strings of 15 characters each ``.`` or a tile of the language (or a lowercase blank for a
letter a blank may stand for); a rack that is not a string of at most 7 of the
language's letters and ``?``; a move that is not a list of ``[int, int, one-character
string]`` whose character is a letter or ``?``. A letter that is a letter but not one of
the language's (``K`` in Spanish) is judged as a move: ``letter_not_in_language``. Blank
lines are skipped. Strings are taken in Unicode NFC form. Input and output are UTF-8
whatever the locale; a line that is not UTF-8, or holds NaN, Infinity or a number too large
for a float, is ``bad_input`` with ``id`` null, and the command goes on with the next line.

``moves`` lists every legal play of a rack on a board (same board and rack format)::

    python -m engine moves --language en [--wordlist FILE] [--top N] [--count-only] [--verbose] [FILE]

Each input line is ``{"id": ..., "board": [...], "rack": "..."}``; each output line is
``{"id", "count", "moves": [{"tiles": [[row, col, "A"], ...], "score", "words": [{"word",
"score"}, ...]}, ...]}``, best score first, ties in ascending order of their sorted tile
lists (a lowercase letter in ``tiles`` is a blank). ``--top N`` prints only the N best
(found by the pruned best-move search; ``count`` is left out); ``--count-only`` prints
``{"id", "count", "best_score"}`` (``best_score`` null when there is no play). A
malformed line gets ``{"id", "error": "bad_input", "message"}``.

It runs the compiled move generator when it is built (``make install``), else the pure
Python one (same plays; ``WORDGAME_MOVEGEN=pure|compiled`` forces either); ``--verbose``
says on standard error which one ran.

Without ``--wordlist`` the language's built lexicon ``fixtures/lexicons/<LANG>.dawg`` is
loaded; if it is missing the command stops with exit status 2.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import math
import sys
import unicodedata
from collections.abc import Callable, Container, Iterable, Sequence
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from engine.board import Board, Layout, check_board, layout
from engine.errors import IllegalMove
from engine.moves import Placement, evaluate
from engine.tiles import BLANK, LANGUAGES, TileSet, tileset

if TYPE_CHECKING:
    from engine.lexicon import Lexicon

LEXICON_DIR = Path(__file__).resolve().parent.parent / "fixtures" / "lexicons"
BAD_INPUT = "bad_input"

# Exit statuses: 0 ran (whatever the plays' verdicts), 2 could not run.
EXIT_OK = 0
EXIT_CANNOT_RUN = 2


class CannotRun(Exception):
    """A problem that stops the whole command (missing lexicon or input file)."""


def _nfc(text: str) -> str:
    return unicodedata.normalize("NFC", text)


def parse_rack(value: object, tiles: TileSet) -> str:
    """A request's rack, or ``ValueError``."""
    if not isinstance(value, str):
        raise ValueError("'rack' must be a string")
    rack = _nfc(value)
    if len(rack) > tiles.rack_size:
        raise ValueError(f"'rack' holds more than {tiles.rack_size} tiles")
    for char in rack:
        if not tiles.is_tile(char):
            raise ValueError(f"'rack': {char!r} is not a tile of {tiles.language}")
    return rack


def parse_move(value: object) -> list[Placement]:
    """A request's move as placements, or ``ValueError``. Letters are not checked
    against the language here: that is ``evaluate``'s ``letter_not_in_language``."""
    if not isinstance(value, list):
        raise ValueError("'move' must be a list of [row, col, letter]")
    placements = []
    for item in value:
        if not (isinstance(item, list) and len(item) == 3):
            raise ValueError("each 'move' item must be [row, col, letter]")
        row, col, letter = item
        # bool is an int subclass; true/false as a coordinate is a malformed request.
        if not all(isinstance(n, int) and not isinstance(n, bool) for n in (row, col)):
            raise ValueError("row and col must be integers")
        if not isinstance(letter, str):
            raise ValueError("the letter must be a string")
        letter = _nfc(letter)
        if letter == BLANK:
            placements.append(Placement(row, col, BLANK, blank=True))
        elif len(letter) == 1 and letter.isalpha():
            blank = letter != letter.upper()
            placements.append(Placement(row, col, letter.upper(), blank=blank))
        else:
            raise ValueError(f"{letter!r} is not a letter or '?'")
    return placements


def _not_json(name: str) -> object:
    """``json.loads`` takes NaN and Infinity, which JSON does not have: refuse them."""
    raise ValueError(f"{name} is not a JSON value")


def _finite(text: str) -> float:
    """A JSON number as a float; one too large for a float (1e999) could not be echoed."""
    value = float(text)
    if math.isinf(value):
        raise ValueError(f"{text} is out of range")
    return value


class _BadLine(Exception):
    """A request line that cannot be read; answered with ``bad_input``."""

    def __init__(self, ident: object, message: str) -> None:
        super().__init__(message)
        self.ident = ident
        self.message = message


def _read_position(line: str, tiles: TileSet, geometry: Layout) -> tuple[object, dict[str, Any], Board, str]:
    """The ``id``, the whole object, the board and the rack of one request line (both
    subcommands share this format). Raises :class:`_BadLine`."""
    try:
        data = json.loads(line, parse_constant=_not_json, parse_float=_finite)
    except ValueError as exc:
        raise _BadLine(None, f"not JSON: {exc}") from exc
    if not isinstance(data, dict):
        raise _BadLine(None, "each line must be a JSON object")
    ident = data.get("id")
    try:
        rows = data.get("board")
        if isinstance(rows, list):
            rows = [_nfc(row) if isinstance(row, str) else row for row in rows]
        board = check_board(rows, tiles, geometry.size)
        rack = parse_rack(data.get("rack"), tiles)
    except ValueError as exc:
        raise _BadLine(ident, str(exc)) from exc
    return ident, data, board, rack


def score_request(line: str, tiles: TileSet, geometry: Layout, lexicon: Container[str]) -> dict[str, Any]:
    """The output object for one input line."""
    try:
        ident, data, board, rack = _read_position(line, tiles, geometry)
        try:
            placements = parse_move(data.get("move"))
        except ValueError as exc:
            raise _BadLine(ident, str(exc)) from exc
    except _BadLine as bad:
        return _bad(bad.ident, bad.message)
    try:
        result = evaluate(board, placements, tileset=tiles, layout=geometry, lexicon=lexicon, rack=rack)
    except IllegalMove as exc:
        return {"id": ident, "legal": False, "error": exc.code, "message": exc.message}
    return {
        "id": ident,
        "legal": True,
        "score": result.score,
        "words": [{"word": word.word, "score": word.score} for word in result.words],
        "bingo": result.bingo,
    }


def _bad(ident: object, message: str) -> dict[str, Any]:
    return {"id": ident, "legal": False, "error": BAD_INPUT, "message": message}


def load_lexicon(language: str, wordlist: Path | None) -> Container[str]:
    """The word list given, normalised for the language, or the built lexicon."""
    # Imported here so that `python -m engine --help` works without the lexicon code.
    from engine.lexicon import WordGraph, WordListLexicon
    from engine.normalize import normalize_word

    if wordlist is not None:
        try:
            text = wordlist.read_text(encoding="utf-8")
        except OSError as exc:
            raise CannotRun(f"cannot read word list {wordlist}: {exc.strerror}") from exc
        except UnicodeDecodeError as exc:
            raise CannotRun(f"word list {wordlist} is not UTF-8 text: {exc.reason}") from exc
        words = (normalize_word(language, line) for line in text.splitlines())
        return WordListLexicon((w for w in words if w), tileset(language).alphabet)
    path = LEXICON_DIR / f"{language}.dawg"
    if not path.is_file():
        raise CannotRun(f"no built lexicon for {language} at {path}; pass --wordlist FILE")
    return WordGraph.load(path)


def _input_lines(file: Path | None, stdin: IO[str]) -> Iterable[str]:
    """The input lines, from FILE or standard input. Bytes that are not UTF-8 come through
    as lone surrogates (``surrogateescape``) so that only their line is refused."""
    if file is None:
        return stdin
    try:
        return file.read_text(encoding="utf-8", errors="surrogateescape").splitlines()
    except OSError as exc:
        raise CannotRun(f"cannot read {file}: {exc.strerror}") from exc


def _undecodable(line: str) -> bool:
    """Whether a line held bytes that are not UTF-8 (see ``_input_lines``)."""
    try:
        line.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def _dump(result: dict[str, Any]) -> str:
    """One output line: UTF-8 JSON, or ASCII escapes when an echoed ``id`` holds a lone
    surrogate (valid as a JSON escape, not encodable as UTF-8)."""
    text = json.dumps(result, ensure_ascii=False)
    return json.dumps(result) if _undecodable(text) else text


def run_score(args: argparse.Namespace, stdin: IO[str], stdout: IO[str]) -> int:
    tiles = tileset(args.language)
    geometry = layout(tiles.board)
    lexicon = load_lexicon(args.language, args.wordlist)
    for line in _input_lines(args.file, stdin):
        if not line.strip():
            continue
        if _undecodable(line):
            result = _bad(None, "the line is not UTF-8 text")
        else:
            result = score_request(line, tiles, geometry, lexicon)
        stdout.write(_dump(result) + "\n")
    return EXIT_OK


def moves_request(
    line: str, tiles: TileSet, geometry: Layout, lexicon: Lexicon, top: int | None, count_only: bool
) -> dict[str, Any]:
    """The output object of ``moves`` for one input line."""
    from engine import movegen

    try:
        ident, _data, board, rack = _read_position(line, tiles, geometry)
    except _BadLine as bad:
        return _bad_moves(bad.ident, bad.message)
    if count_only:
        counted = movegen.count(board, rack, tileset=tiles, layout=geometry, lexicon=lexicon)
        return {"id": ident, "count": counted.count, "best_score": counted.best_score}
    found: Sequence[movegen.GeneratedMove]
    if top is not None:
        found = movegen.best(board, rack, tileset=tiles, layout=geometry, lexicon=lexicon, k=top)
    else:
        found = movegen.generate(board, rack, tileset=tiles, layout=geometry, lexicon=lexicon)
    listed = [
        {
            "tiles": [[p.row, p.col, p.board_char] for p in move.placements],
            "score": move.score,
            "words": [{"word": word.word, "score": word.score} for word in move.words],
        }
        for move in found
    ]
    if top is not None:
        return {"id": ident, "moves": listed}
    return {"id": ident, "count": len(listed), "moves": listed}


def _bad_moves(ident: object, message: str) -> dict[str, Any]:
    return {"id": ident, "error": BAD_INPUT, "message": message}


def run_moves(args: argparse.Namespace, stdin: IO[str], stdout: IO[str]) -> int:
    tiles = tileset(args.language)
    geometry = layout(tiles.board)
    from engine.lexicon import Lexicon

    # Loaded once; every position reuses it (and the move generator's cached tables).
    lexicon = load_lexicon(args.language, args.wordlist)
    if not isinstance(lexicon, Lexicon):  # pragma: no cover - load_lexicon returns graphs
        raise CannotRun("the lexicon cannot be walked by the move generator")
    if args.verbose:
        from engine import movegen

        print(f"python -m engine moves: {movegen.implementation()} move generator", file=sys.stderr)
    for line in _input_lines(args.file, stdin):
        if not line.strip():
            continue
        if _undecodable(line):
            result = _bad_moves(None, "the line is not UTF-8 text")
        else:
            result = moves_request(line, tiles, geometry, lexicon, args.top, args.count_only)
        stdout.write(_dump(result) + "\n")
    return EXIT_OK


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value


def _add_common_arguments(command: argparse.ArgumentParser) -> None:
    """What ``score`` and ``moves`` both take: the language, a word list and the input."""
    command.add_argument("--language", required=True, choices=LANGUAGES, help="game language")
    command.add_argument(
        "--wordlist",
        type=Path,
        help="plain word list, one word per line, any case (default: the built lexicon)",
    )
    command.add_argument("file", nargs="?", type=Path, help="JSON lines input (default: standard input)")


def _add_moves_command(commands: Any) -> None:
    moves = commands.add_parser(
        "moves",
        help="list every legal play of a rack on a board, best first",
        description="List the legal plays for positions read as JSON lines from FILE or standard input.",
    )
    _add_common_arguments(moves)
    output = moves.add_mutually_exclusive_group()
    output.add_argument("--top", type=_positive, metavar="N", help="only the N best plays (pruned search)")
    output.add_argument(
        "--count-only", action="store_true", help="only the number of plays and the best score"
    )
    moves.add_argument(
        "--verbose",
        action="store_true",
        help="say on standard error which move generator runs (compiled or pure)",
    )
    moves.set_defaults(handler=run_moves)


Handler = Callable[[argparse.Namespace, IO[str], IO[str]], int]


def _add_score_command(commands: Any) -> None:
    score = commands.add_parser(
        "score",
        help="validate and score plays given as JSON lines",
        description="Validate and score plays read as JSON lines from FILE or standard input.",
    )
    _add_common_arguments(score)
    score.set_defaults(handler=run_score)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m engine", description="Wordgame rules engine tools.")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    _add_score_command(commands)
    _add_moves_command(commands)
    # Each further command adds itself the same way: an _add_<name>_command(commands)
    # function that sets `handler` to a Handler (args, stdin, stdout) -> exit status.
    return parser


def _utf8(stream: IO[str], errors: str) -> IO[str]:
    """The process's own stdin or stdout switched to UTF-8 whatever the locale says: JSON
    text is UTF-8 (RFC 8259), as FILE and the word list are read. Standard input keeps bytes
    that are not UTF-8 as lone surrogates so that only their line is refused."""
    if isinstance(stream, io.TextIOWrapper):
        # A stream already read from cannot change its encoding: keep it as it is.
        with contextlib.suppress(io.UnsupportedOperation):
            stream.reconfigure(encoding="utf-8", errors=errors)
    return stream


def main(
    argv: Sequence[str] | None = None, stdin: IO[str] | None = None, stdout: IO[str] | None = None
) -> int:
    """Run the CLI; returns the exit status (0, or 2 when the command could not run)."""
    args = build_parser().parse_args(argv)
    handler: Handler = args.handler
    if stdin is None:
        stdin = _utf8(sys.stdin, "surrogateescape")
    if stdout is None:
        stdout = _utf8(sys.stdout, "strict")
    try:
        return handler(args, stdin, stdout)
    except CannotRun as exc:
        print(f"python -m engine {args.command}: {exc}", file=sys.stderr)
        return EXIT_CANNOT_RUN


if __name__ == "__main__":
    sys.exit(main())
