"""``python -m engine score`` and ``moves`` checked against an independent reference.

``reference_rules.py`` re-implements validation, scoring and a brute-force move search from
RULES.md and issues 3 and 5 alone.  These tests feed the same seeded random and hand-made
requests to both and demand identical output lines (field names, word order, scores,
error codes and their precedence, move sets, counts and ordering).  Scores worked out on
paper pin the reference itself down.
"""

from __future__ import annotations

import io
import json
import random
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

import engine.__main__ as cli
from tests.engine import reference_rules as ref

ROOT = Path(__file__).resolve().parents[2]
EMPTY = ["." * 15] * 15


def board_with(**lines: str) -> list[str]:
    """A board from keyword rows: ``r7="....CATS......."``."""
    board = list(EMPTY)
    for key, text in lines.items():
        assert len(text) == 15
        board[int(key[1:])] = text
    return board


def run_cli(
    command: str,
    requests: list[Any],
    tmp_path: Path,
    words: list[str],
    *,
    language: str = "en",
    extra: tuple[str, ...] = (),
) -> list[dict[str, Any]]:
    """Run the CLI in-process on JSON lines; every output line parsed."""
    wordlist = tmp_path / f"words-{language}.txt"
    wordlist.write_text("\n".join(words) + "\n", encoding="utf-8")
    lines = [r if isinstance(r, str) else json.dumps(r, ensure_ascii=False) for r in requests]
    stdout = io.StringIO()
    status = cli.main(
        [command, "--language", language, "--wordlist", str(wordlist), *extra],
        stdin=io.StringIO("\n".join(lines) + "\n"),
        stdout=stdout,
    )
    assert status == 0
    return [json.loads(line) for line in stdout.getvalue().splitlines()]


def without_message(out: dict[str, Any]) -> dict[str, Any]:
    """An output line minus the free-text ``message``, which must be a non-empty string."""
    if not out["legal"]:
        assert isinstance(out.pop("message"), str)
        assert out.keys() == {"id", "legal", "error"}
    else:
        assert out.keys() == {"id", "legal", "score", "words", "bingo"}
    return out


# --- random score requests -------------------------------------------------------------


def random_board(rng: random.Random, lang: ref.Language) -> list[str]:
    """A board taken as given: a few random letter strings, some of them blanks."""
    grid = [["."] * 15 for _ in range(15)]
    for _ in range(rng.choice([0, 1, 2, 3, 4, 5])):
        length = rng.randint(2, 6)
        across = rng.random() < 0.5
        r, c = rng.randrange(15 - (0 if across else length)), rng.randrange(15 - (length if across else 0))
        for i in range(length):
            letter = rng.choice(lang.alphabet)
            if rng.random() < 0.15 and letter in lang.blank_letters:
                letter = letter.lower()
            grid[r + (0 if across else i)][c + (i if across else 0)] = letter
    return ["".join(row) for row in grid]


def random_squares(rng: random.Random, board: list[str]) -> list[tuple[int, int]]:
    """Squares for a move: mostly a gap-free run along a line near the board's tiles."""
    occupied = [(r, c) for r in range(15) for c in range(15) if board[r][c] != "."]
    across = rng.random() < 0.5
    if occupied and rng.random() < 0.85:
        r, c = rng.choice(occupied)
        r, c = (
            (r + rng.choice([-1, 0, 1]), c - rng.randint(0, 3))
            if across
            else (r - rng.randint(0, 3), c + rng.choice([-1, 0, 1]))
        )
    else:
        r, c = 7 + rng.choice([0, 0, -1, 1]) * rng.randint(0, 2), 7 - rng.randint(0, 4)
        if not across:
            r, c = c, r
    want = rng.choice([1, 1, 2, 2, 3, 3, 4, 5, 7, 7])
    squares: list[tuple[int, int]] = []
    while len(squares) < want and 0 <= r < 15 and 0 <= c < 15:
        if board[r][c] == ".":
            squares.append((r, c))
        r, c = (r, c + 1) if across else (r + 1, c)
    if len(squares) >= 3 and rng.random() < 0.08:
        del squares[len(squares) // 2]  # a gap, unless the board fills it
    if squares and rng.random() < 0.06:
        r, c = squares[-1]
        squares[-1] = (r + 1, c + 1)  # out of line
    if squares and rng.random() < 0.05:
        squares.append(rng.choice(squares))  # duplicate square
    if squares and rng.random() < 0.05:
        r, c = squares[0]
        squares[0] = rng.choice([(r, 15), (-1, c), (15, c), (r, -1)])  # off the board
    if occupied and rng.random() < 0.05:
        squares.append(rng.choice(occupied))  # a taken square
    return squares


ABSENT_CANDIDATES = "KWYJXQ"


def random_request(rng: random.Random, lang: ref.Language, ident: int) -> dict[str, Any]:
    board = random_board(rng, lang)
    move: list[tuple[int, int, str]] = []
    for r, c in random_squares(rng, board):
        roll = rng.random()
        letter = rng.choice(lang.alphabet)
        if roll < 0.12:
            letter = letter.lower()  # a blank
        elif roll < 0.15:
            letter = "?"  # a blank with no letter chosen
        elif roll < 0.18:
            letter = rng.choice(ABSENT_CANDIDATES)  # absent from some languages
            if rng.random() < 0.3:
                letter = letter.lower()
        move.append((r, c, letter))
    needed = ["?" if (ch == "?" or ch != ch.upper()) else ch for _, _, ch in move]
    if rng.random() < 0.97:
        # A letter absent from the language on the rack is bad input, not a play error.
        needed = [ch for ch in needed if ch == "?" or ch in lang.alphabet]
    rack = needed + [rng.choice([*lang.alphabet, "?"]) for _ in range(rng.randint(0, 3))]
    rng.shuffle(rack)
    if needed and rng.random() < 0.08:
        rack.remove(rng.choice(needed))
    return {"id": ident, "board": board, "rack": "".join(rack[:7]), "move": move}


def formed_words(lang: ref.Language, request: dict[str, Any]) -> list[str]:
    """The words a request would form if the lexicon held everything ([] if refused)."""
    try:
        scored = ref.score_play(
            lang, request["board"], request["rack"], [tuple(t) for t in request["move"]], None
        )
    except ref.PlayError:
        return []
    return [w for w, _ in scored.words]


@pytest.mark.parametrize(
    ("language", "seed"), [("en", 1), ("de", 2), ("es", 3), ("pt-BR", 4), ("it", 5), ("fr", 6), ("en-GB", 7)]
)
def test_random_score_requests_match_reference(language: str, seed: int, tmp_path: Path) -> None:
    rng = random.Random(seed)
    lang = ref.language(language)
    requests = [random_request(rng, lang, i) for i in range(400)]
    lexicon: set[str] = set()
    for request in requests:
        words = formed_words(lang, request)
        if words and rng.random() < 0.3:
            words.remove(rng.choice(words))  # leave one out: word_not_in_lexicon
        lexicon.update(words)
    # The word list is "any case": write some words in lowercase.
    listed = sorted(w.lower() if rng.random() < 0.5 else w for w in lexicon)
    outputs = run_cli("score", requests, tmp_path, listed, language=language)
    assert len(outputs) == len(requests)
    codes: Counter[str] = Counter()
    for request, out in zip(requests, outputs, strict=True):
        expected = ref.verdict(lang, request, lexicon)
        assert without_message(out) == expected, request
        codes["legal" if expected["legal"] else expected["error"]] += 1
    # The sample exercises the rules, not just one outcome.
    assert codes["legal"] >= 60
    assert codes["word_not_in_lexicon"] >= 10
    assert len(codes) >= 11


# --- error precedence -------------------------------------------------------------------


def test_every_pair_of_errors_reports_the_earlier_one(tmp_path: Path) -> None:
    """For many moves breaking several rules at once, the first in the issue's order wins."""
    rng = random.Random(11)
    lang = ref.language("es")
    board = board_with(r7="......GATO.....", r8=".........SO....")
    requests = []
    for i in range(600):
        squares = random_squares(rng, board)
        if len(squares) >= 2 and rng.random() < 0.2:
            r, c = squares[0]
            squares[0] = (r + rng.choice([-2, 2]), c + rng.choice([-2, 2]))  # out of line
        move = []
        for r, c in squares:
            letter = rng.choice(["A", "O", "S", "T", "Ñ"] * 3 + ["K", "?", "a", "k"])
            move.append([r, c, letter])
        rack = "".join(rng.sample("AOS?TÑAO", rng.randint(0, 7)))
        requests.append({"id": i, "board": board, "rack": rack, "move": move})
    requests.append({"id": "empty", "board": board, "rack": "A", "move": []})
    words = ["gato", "gatos", "so", "os", "as", "ta"]
    outputs = run_cli("score", requests, tmp_path, words, language="es")
    seen: Counter[str] = Counter()
    for request, out in zip(requests, outputs, strict=True):
        expected = ref.verdict(lang, request, {w.upper() for w in words})
        assert without_message(out) == expected, request
        seen[expected.get("error", "legal")] += 1
    # Every code but the first-move ones is reached on this non-empty board.
    assert set(seen) >= set(ref.ERROR_ORDER) - {"first_move_off_center", "first_move_too_short"}


FIRST_MOVES: list[tuple[list[list[Any]], str]] = [
    ([[7, 7, "A"]], "first_move_too_short"),
    ([[7, 6, "A"]], "first_move_off_center"),  # both rules broken: off centre comes first
    ([[6, 6, "A"], [6, 7, "T"]], "first_move_off_center"),
    ([[7, 6, "A"], [7, 8, "T"]], "gap_in_line"),  # comes before first_move_off_center
    ([[7, 7, "A"], [8, 8, "T"]], "not_in_line"),
    ([[7, 7, "T"], [7, 8, "A"]], "word_not_in_lexicon"),
    ([[7, 7, "A"], [7, 8, "T"]], "legal"),
    ([[6, 7, "A"], [7, 7, "T"]], "legal"),
]


@pytest.mark.parametrize(("move", "outcome"), FIRST_MOVES)
def test_first_move_rules_follow_the_order(move: list[list[Any]], outcome: str, tmp_path: Path) -> None:
    (out,) = run_cli("score", [{"id": 1, "board": EMPTY, "rack": "AT", "move": move}], tmp_path, ["at"])
    assert out.get("error", "legal") == outcome


# --- hand-worked scores -----------------------------------------------------------------
# WWF premiums used below (0-based [row, col]): TW (0,3) (0,11) (3,0); DW (1,5) (1,9) (3,7)
# (7,3); TL (0,6) (0,8) (3,3) (5,5); DL (8,4).  The centre (7,7) has none.
# en values: A1 B4 C4 D2 E1 H3 I1 O1 R1 S1 T1 X8.  de: Ä6 Ö8 Ü6.  es: Ñ8.
# The word lists are arbitrary strings: the CLI only asks whether a word is listed.

PaperCase = tuple[str, list[str], str, list[list[Any]], list[tuple[str, int]], bool]

PAPER: list[PaperCase] = [
    # CAT through the centre: 4 + 1 + 1.
    ("en", EMPTY, "CAT", [[7, 6, "C"], [7, 7, "A"], [7, 8, "T"]], [("CAT", 6)], False),
    # C on DW (7,3) before HAT: (4 + 3 + 1 + 1) x 2.
    ("en", board_with(r7="....HAT........"), "C", [[7, 3, "C"]], [("CHAT", 18)], False),
    # The DW under the old C at (7,3) no longer counts: 4 + 3 + 1 + 1 + 1.
    ("en", board_with(r7="...CHAT........"), "S", [[7, 7, "S"]], [("CHATS", 10)], False),
    # A blank c on DW (7,3) still doubles the word: (0 + 3 + 1 + 1) x 2.
    ("en", board_with(r7="....HAT........"), "?", [[7, 3, "c"]], [("CHAT", 10)], False),
    # Two DW, (1,5) and (1,9): BOXED = (4+1+8+1+2) x 4 = 64; the X over the old O makes XO
    # down: 8 + 1 = 9 (no premium on (1,7)).
    (
        "en",
        board_with(r2=".......O......."),
        "BOXED",
        [[1, 5, "B"], [1, 6, "O"], [1, 7, "X"], [1, 8, "E"], [1, 9, "D"]],
        [("BOXED", 64), ("XO", 9)],
        False,
    ),
    # TW x TW on row 0, (0,3) and (0,11), around seven old tiles (the TL under the old
    # tiles at (0,6) and (0,8) no longer count): (4 + (1+1+1+1+2+1+1) + 4) x 9 = 144.
    (
        "en",
        board_with(r0="....AEIOUAE...."),
        "BC",
        [[0, 3, "B"], [0, 11, "C"]],
        [("BAEIOUAEC", 144)],
        False,
    ),
    # TW (3,0) x DW (3,7) = x6, the TL (3,3) under an old A not counted: (4 + 6 + 2) x 6.
    ("en", board_with(r3=".AAAAAA........"), "BD", [[3, 0, "B"], [3, 7, "D"]], [("BAAAAAAD", 72)], False),
    # The same with the TL square (3,3) also new: B on TW, X on TL, D on DW:
    # (4 + 1 + 1 + 24 + 1 + 1 + 1 + 2) x 6 = 210.
    (
        "en",
        board_with(r3=".AA.AAA........"),
        "BXD",
        [[3, 0, "B"], [3, 3, "X"], [3, 7, "D"]],
        [("BAAXAAAD", 210)],
        False,
    ),
    # X on TL (5,5) makes XI across (main word: the across word has 2+ letters) and AX down:
    # XI = 24 + 1 = 25, AX = 1 + 24 = 25.
    (
        "en",
        board_with(r4=".....A.........", r5="......I........"),
        "X",
        [[5, 5, "X"]],
        [("XI", 25), ("AX", 25)],
        False,
    ),
    # A blank x on that TL is worth nothing: XI = 0 + 1, AX = 1 + 0.
    (
        "en",
        board_with(r4=".....A.........", r5="......I........"),
        "?",
        [[5, 5, "x"]],
        [("XI", 1), ("AX", 1)],
        False,
    ),
    # One tile with no across word: the down word is the main word.
    ("en", board_with(r6=".......A.......", r7=".......T......."), "S", [[8, 7, "S"]], [("ATS", 3)], False),
    # Three cross words under CAT, H on DL (8,4): main HBE = 6 + 4 + 1 = 11; cross words in
    # board order CH = 4 + 6 = 10, AB = 1 + 4 = 5, TE = 1 + 1 = 2.  Total 28.
    (
        "en",
        board_with(r7="....CAT........"),
        "HBE",
        [[8, 6, "E"], [8, 4, "H"], [8, 5, "B"]],
        [("HBE", 11), ("CH", 10), ("AB", 5), ("TE", 2)],
        False,
    ),
    # A down main word with cross words in board order: the column-7 play of O, X beside
    # old tiles A (5,6) and E (6,8): main OX down = 1 + 8 = 9 ((5,7), (6,7) no premium);
    # cross AO = 1 + 1 = 2 on row 5, XE = 8 + 1 = 9 on row 6.  Total 20.
    (
        "en",
        board_with(r5="......A........", r6="........E......"),
        "XO",
        [[6, 7, "X"], [5, 7, "O"]],
        [("OX", 9), ("AO", 2), ("XE", 9)],
        False,
    ),
    # Bingo: EXHORTS from (7,1) over DW (7,3): (1+8+3+1+1+1+1) x 2 = 32, + 35 = 67.
    (
        "en",
        EMPTY,
        "EXHORTS",
        [[7, c, ch] for c, ch in zip(range(1, 8), "EXHORTS", strict=True)],
        [("EXHORTS", 32)],
        True,
    ),
    # German umlauts as tiles and a lowercase blank ü on the board: ÄÜ...: Ä on DW (7,3)
    # before the old blank ü and Ö: (6 + 0 + 8) x 2 = 28.
    ("de", board_with(r7="....üÖ........."), "Ä", [[7, 3, "Ä"]], [("ÄÜÖ", 28)], False),
    # Spanish Ñ: a blank ñ on the DW (7,3) and an old Ñ tile: (0 + 8 + 1) x 2 = 18.
    ("es", board_with(r7="....ÑA........."), "?", [[7, 3, "ñ"]], [("ÑÑA", 18)], False),
    # Seven tiles from a rack of seven with a blank: bingo counts a blank too.
    # SeXTANT.. keep it simple: ABCDEFG across from the centre: no premiums on (7,7)..(7,13)
    # except DW (7,11): (1+4+4+2+1+4+0) x 2 = 32, + 35.
    (
        "en",
        EMPTY,
        "ABCDEF?",
        [[7, 7 + i, ch] for i, ch in enumerate("ABCDEFg")],
        [("ABCDEFG", 32)],
        True,
    ),
]


@pytest.mark.parametrize("case", PAPER, ids=[f"paper{i}" for i in range(len(PAPER))])
def test_paper_scores_match_reference_and_cli(case: PaperCase, tmp_path: Path) -> None:
    language, board, rack, move, scored_words, bingo = case
    paper = {
        "id": "p",
        "legal": True,
        "score": sum(s for _, s in scored_words) + (35 if bingo else 0),
        "words": [{"word": w, "score": s} for w, s in scored_words],
        "bingo": bingo,
    }
    request = {"id": "p", "board": board, "rack": rack, "move": move}
    words = [w for w, _ in scored_words]
    assert ref.verdict(ref.language(language), request, set(words)) == paper
    (out,) = run_cli("score", [request], tmp_path, [w.lower() for w in words], language=language)
    assert out == paper


# --- moves ---------------------------------------------------------------------------

SMALL_WORDS = [
    "at",
    "ta",
    "as",
    "sat",
    "tas",
    "eat",
    "tea",
    "ate",
    "eta",
    "sea",
    "set",
    "tes",
    "east",
    "eats",
    "seat",
    "teas",
    "rat",
    "tar",
    "art",
    "arts",
    "rats",
    "star",
    "tsar",
    "rate",
    "tear",
    "rest",
    "tree",
    "ore",
    "roe",
    "toe",
    "tor",
    "rot",
    "sort",
    "rots",
    "ores",
    "rose",
    "tone",
    "note",
    "not",
    "ton",
    "nose",
    "ones",
    "son",
    "on",
    "no",
    "one",
    "eon",
    "neon",
    "tension",
    "si",
    "is",
    "it",
    "its",
    "sit",
    "tis",
    "tie",
    "ties",
    "site",
    "rite",
    "tire",
    "tires",
    "tries",
    "er",
    "re",
    "en",
    "ne",
    "ens",
    "ten",
    "tens",
    "nest",
    "sent",
    "net",
    "nets",
    "stern",
    "tern",
    "terns",
    "resent",
    "oast",
    "oat",
    "oats",
    "stoat",
    "toast",
    "xi",
    "ax",
    "ox",
    "ex",
    "zoa",
    "za",
    "qi",
    "aa",
    "ae",
    "ai",
]


def bag_for(lang: ref.Language) -> list[str]:
    """Letters weighted towards the small word list's letters, plus blanks."""
    return list("AAAEEEEIIOONNRRSSSTTTXZQ??")


def built_board(rng: random.Random, lang: ref.Language, plays: int) -> list[str]:
    """A board reached by ``plays`` random legal plays that the reference found."""
    board = list(EMPTY)
    bag = bag_for(lang)
    for _ in range(plays):
        rack = "".join(rng.sample([t for t in bag if t != "?"], 5))
        moves = ref.brute_force_moves(lang, board, rack, SMALL_WORDS_UP)
        if not moves:
            continue
        grid = [list(row) for row in board]
        for r, c, letter in rng.choice(moves)["tiles"]:
            grid[r][c] = letter.lower() if rng.random() < 0.2 else letter  # some old blanks
        board = ["".join(row) for row in grid]
    return board


SMALL_WORDS_UP = frozenset(w.upper() for w in SMALL_WORDS)


def position_requests(seed: int, count: int) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    lang = ref.language("en")
    requests = []
    for i in range(count):
        board = built_board(rng, lang, rng.choice([0, 1, 2, 3, 4]))
        size = rng.choice([1, 2, 3, 4, 5, 5])
        letters = rng.sample([t for t in bag_for(lang) if t != "?"], size)
        if rng.random() < 0.5:
            letters[0] = "?"  # at most one blank, as issue 5 asks of the brute force
        requests.append({"id": f"pos{i}", "board": board, "rack": "".join(letters)})
    return requests


@pytest.mark.parametrize("seed", [21, 22])
def test_random_positions_list_exactly_the_brute_force_moves(seed: int, tmp_path: Path) -> None:
    lang = ref.language("en")
    requests = position_requests(seed, 6)
    full = run_cli("moves", requests, tmp_path, SMALL_WORDS)
    top = run_cli("moves", requests, tmp_path, SMALL_WORDS, extra=("--top", "3"))
    counts = run_cli("moves", requests, tmp_path, SMALL_WORDS, extra=("--count-only",))
    total = 0
    for request, out, best, counted in zip(requests, full, top, counts, strict=True):
        expected = ref.brute_force_moves(lang, request["board"], request["rack"], SMALL_WORDS_UP)
        assert out == {"id": request["id"], "count": len(expected), "moves": expected}, request
        assert best == {"id": request["id"], "moves": expected[:3]}, request
        assert counted == {
            "id": request["id"],
            "count": len(expected),
            "best_score": expected[0]["score"] if expected else None,
        }
        total += len(expected)
    assert total >= 60


def test_empty_board_lists_across_and_down_plays_in_tie_order(tmp_path: Path) -> None:
    """Both directions count on the empty board; equal scores in ascending sorted tiles."""
    (out,) = run_cli("moves", [{"id": 1, "board": EMPTY, "rack": "AT"}], tmp_path, ["at", "ta"])
    tiles = [m["tiles"] for m in out["moves"]]
    assert out["count"] == 8
    assert tiles == [
        [[6, 7, "A"], [7, 7, "T"]],
        [[6, 7, "T"], [7, 7, "A"]],
        [[7, 6, "A"], [7, 7, "T"]],
        [[7, 6, "T"], [7, 7, "A"]],
        [[7, 7, "A"], [7, 8, "T"]],
        [[7, 7, "A"], [8, 7, "T"]],
        [[7, 7, "T"], [7, 8, "A"]],
        [[7, 7, "T"], [8, 7, "A"]],
    ]
    assert {m["score"] for m in out["moves"]} == {2}


def test_one_tile_play_forming_two_words_counts_once(tmp_path: Path) -> None:
    board = board_with(r6="........A......", r7="......AT.......")
    words = ["at", "ats", "as"]
    (out,) = run_cli("moves", [{"id": 1, "board": board, "rack": "S"}], tmp_path, words)
    # S at (7,8) makes ATS across (the main word) and AS down: one move, listed once.
    assert out["moves"][0] == {
        "tiles": [[7, 8, "S"]],
        "score": 5,
        "words": [{"word": "ATS", "score": 3}, {"word": "AS", "score": 2}],
    }
    assert [m["tiles"] for m in out["moves"]].count([[7, 8, "S"]]) == 1
    expected = ref.brute_force_moves(ref.language("en"), board, "S", {w.upper() for w in words})
    assert out == {"id": 1, "count": len(expected), "moves": expected}


def test_position_without_a_play_reports_zero(tmp_path: Path) -> None:
    request = {"id": "none", "board": board_with(r7="......AT......."), "rack": "QZ"}
    words = ["at", "ta"]
    assert run_cli("moves", [request], tmp_path, words) == [{"id": "none", "count": 0, "moves": []}]
    assert run_cli("moves", [request], tmp_path, words, extra=("--top", "5")) == [{"id": "none", "moves": []}]
    counted = run_cli("moves", [request], tmp_path, words, extra=("--count-only",))
    assert counted == [{"id": "none", "count": 0, "best_score": None}]


def test_seven_tile_plays_include_the_bingo_in_the_score(tmp_path: Path) -> None:
    lang = ref.language("en")
    request = {"id": 7, "board": EMPTY, "rack": "EXHORTS"}
    (out,) = run_cli("moves", [request], tmp_path, ["exhorts"])
    expected = ref.brute_force_moves(lang, EMPTY, "EXHORTS", {"EXHORTS"})
    assert out == {"id": 7, "count": 14, "moves": expected}
    # Across from (7,1) over the DW at (7,3), worked out above: 32 + 35.
    scores = {tuple(m["tiles"][0][:2]): m["score"] for m in out["moves"]}
    assert scores[(7, 1)] == 67


@pytest.mark.parametrize(
    ("language", "board", "rack", "words"),
    [
        # A blank may be Ñ in Spanish, next to old Ñ and ñ tiles.
        ("es", board_with(r7="......Ña......."), "?O", ["ñañ", "ño", "año", "ñaño"]),
        # German umlauts, an old blank ö.
        ("de", board_with(r7="......Äö......."), "Ü?", ["äöü", "üä", "öl", "äöl"]),
        # Ç in Portuguese.
        ("pt-BR", board_with(r7="......ÇA......."), "?Ç", ["çaç", "aça", "ça"]),
    ],
)
def test_national_letters_and_blanks_match_brute_force(
    language: str, board: list[str], rack: str, words: list[str], tmp_path: Path
) -> None:
    lang = ref.language(language)
    upper = {w.upper() for w in words}
    (out,) = run_cli("moves", [{"id": 1, "board": board, "rack": rack}], tmp_path, words, language=language)
    expected = ref.brute_force_moves(lang, board, rack, upper)
    assert expected
    assert out == {"id": 1, "count": len(expected), "moves": expected}
    for move in expected:
        request = {"id": 1, "board": board, "rack": rack, "move": move["tiles"]}
        (scored,) = run_cli("score", [request], tmp_path, words, language=language)
        assert scored == {
            "id": 1,
            "legal": True,
            "score": move["score"],
            "words": move["words"],
            "bingo": False,
        }


def test_blank_never_stands_for_a_letter_absent_from_the_language(tmp_path: Path) -> None:
    """Italian has no K, W, X, Y, J: words with them are not in the list, no blank plays them."""
    board = board_with(r7="......A........")
    (out,) = run_cli(
        "moves", [{"id": 1, "board": board, "rack": "?"}], tmp_path, ["ax", "ak", "ai"], language="it"
    )
    assert [m["tiles"] for m in out["moves"]] == [[[7, 7, "i"]], [[8, 6, "i"]]]


def test_command_line_exit_statuses_and_bad_lines(tmp_path: Path) -> None:
    """Bad lines are answered and skipped over with status 0; a missing file is status 2."""
    wordlist = tmp_path / "words.txt"
    wordlist.write_text("At\r\nta\n", encoding="utf-8")
    good = {"id": "ok", "board": EMPTY, "rack": "AT", "move": [[7, 7, "A"], [7, 8, "T"]]}
    lines = [
        "not json",
        json.dumps([1, 2]),
        json.dumps({"id": "short", "board": EMPTY[:14], "rack": "AT", "move": []}),
        json.dumps({"id": "letter", "board": ["1" + "." * 14, *EMPTY[1:]], "rack": "AT", "move": []}),
        json.dumps(good),
    ]
    source = tmp_path / "in.jsonl"
    source.write_text("\n".join(lines) + "\n", encoding="utf-8")
    base = [sys.executable, "-m", "engine", "score", "--language", "en", "--wordlist", str(wordlist)]
    done = subprocess.run([*base, str(source)], cwd=ROOT, capture_output=True, text=True, check=False)
    assert done.returncode == 0
    outs = [json.loads(line) for line in done.stdout.splitlines()]
    assert [(o["id"], o["legal"], o.get("error")) for o in outs] == [
        (None, False, "bad_input"),
        (None, False, "bad_input"),
        ("short", False, "bad_input"),
        ("letter", False, "bad_input"),
        ("ok", True, None),
    ]
    assert outs[-1] == {
        "id": "ok",
        "legal": True,
        "score": 2,
        "words": [{"word": "AT", "score": 2}],
        "bingo": False,
    }
    missing = subprocess.run(
        [*base, str(tmp_path / "absent.jsonl")], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert missing.returncode == 2
    assert missing.stdout == ""


def test_undecodable_and_non_json_lines_are_bad_input_and_the_run_goes_on(tmp_path: Path) -> None:
    """Bytes that are not UTF-8, NaN and out-of-range numbers are lines that cannot be read:
    ``bad_input`` and the next line, whether the lines come from FILE or standard input and
    whatever the locale's encoding; the output is UTF-8."""
    wordlist = tmp_path / "words.txt"
    wordlist.write_text("ñañ\n", encoding="utf-8")
    board = ["." * 15] * 7 + ["......Ña......."] + ["." * 15] * 7
    good = json.dumps({"id": "ñ", "board": board, "rack": "?", "move": [[7, 8, "ñ"]]}, ensure_ascii=False)
    data = b"\n".join(
        [
            b'{"id": 1, "rack": "\xff"}',
            b'{"id": NaN}',
            b'{"id": 1e999}',
            b'{"id": "\\udcff"}',
            good.encode("utf-8"),
        ]
    )
    source = tmp_path / "in.jsonl"
    source.write_bytes(data + b"\n")
    base = [sys.executable, "-m", "engine", "score", "--language", "es", "--wordlist", str(wordlist)]
    env = {"PATH": "/usr/bin:/bin", "PYTHONIOENCODING": "latin-1"}
    by_file = subprocess.run([*base, str(source)], cwd=ROOT, capture_output=True, env=env, check=False)
    by_stdin = subprocess.run(base, cwd=ROOT, input=data, capture_output=True, env=env, check=False)
    for done in (by_file, by_stdin):
        assert done.returncode == 0, done.stderr
        outs = [json.loads(line) for line in done.stdout.decode("utf-8").splitlines()]
        assert [(o["id"], o.get("error")) for o in outs] == [
            (None, "bad_input"),
            (None, "bad_input"),
            (None, "bad_input"),
            ("\udcff", "bad_input"),
            ("ñ", None),
        ]
        assert outs[-1]["words"] == [{"word": "ÑAÑ", "score": 8}]
