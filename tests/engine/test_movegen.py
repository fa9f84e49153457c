"""The move generator against the rules engine and against a brute-force search.

Most tests use a small world so that the brute force stays fast: a 7x7 board with every
kind of premium, eight letters, a rack of 5 (so a bingo is possible) and a few hundred
real English words over those letters.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Container, Iterator, Sequence
from types import MappingProxyType

import pytest

from engine import movegen
from engine.board import EMPTY, Board, Layout, empty_board, is_empty, layout, place
from engine.errors import IllegalMove
from engine.lexicon import OverlayLexicon, WordGraph, WordListLexicon
from engine.moves import Placement, evaluate
from engine.tiles import TileSet, tileset
from tests.engine.helpers import movegen_implementations, use_implementation

_WORD_TEXT = """
AA AAS AD ADD ADDER ADO ADORE ADOS ADS AE AERO AN ANA AND ANE ANENT ANNAS ANOAS ANSAE ANT ANTA
ANTAE ANTRA AR ARE AROSE ARRAS ARS ART AS ASANA ASEA ASS AT ATE ATONE ATT DAD DADA DADOS DART DARTS
DATO DATTO DE DEAD DEE DEED DEN DENE DO DOE DOERS DOEST DON DOOR DOR DORSA DOS DOT DOTE DOTED DREAD
DREST DRONE EAR EASED EAST EAT ED EDDO EDS EN END ENDED ENDER ENDS ENS EON EONS ER ERA ERAS ERE ERN
EROS EROSE ERR ERS ERSES ES ESES ESS ET ETA ETNA ETNAS NA NADAS NAE NAN NANA NANS NAOS NE NEE NENES
NEONS NESS NESTS NET NO NOD NODES NONES NONET NOO NOR NOS NOT OAR OAST OAT OD ODD ODE ODORS ODS OE
OES ON ONE ONS OOT OOTS OR ORA ORAD ORDO ORE ORS ORT OS OSAR OSE OSES RAD RADAR RADS RAN RANEE
RARES RAS RAT RATED RE REARS RED REDE REDON REDS REE REED REND RENDS RERAN RES RESOD REST RET RETE
ROD ROE ROODS ROSES ROT ROTES ROTO SAD SAE SAND SANER SANTO SARAN SARD SARDS SAT SATE SEA SEAS SEAT
SEDER SEE SEEDS SEES SEN SENE SENT SENTE SER SERA SET SETS SNEDS SNORE SNOT SO SOD SODAS SON SONE
SORES SOS SOT STATS STEED STETS STORE TA TAD TAE TAN TANS TAO TAOS TAR TARDO TARN TARO TAROS TAROT
TARRE TAS TAT TATAR TATER TEA TED TEE TEEN TEES TEN TENOR TENSE TENT TERSE TET TETRA TO TOD TOE
TOEAS TON TOO TOON TOR TORA TORN TOROS TORSE TORT TOT TRANS TREAT TRONE
"""
WORDS = _WORD_TEXT.split()

ALPHABET = ("A", "D", "E", "N", "O", "R", "S", "T")
VALUES = {"A": 1, "D": 3, "E": 1, "N": 2, "O": 1, "R": 2, "S": 1, "T": 4}
# A blank may not stand for D here, to check that the generator respects blank_letters.
SMALL = TileSet(
    language="en",
    name="test: eight letters",
    alphabet=ALPHABET,
    counts=MappingProxyType(dict.fromkeys(ALPHABET, 8)),
    values=MappingProxyType(VALUES),
    blanks=2,
    blank_letters=frozenset(ALPHABET) - {"D"},
    rack_size=5,
    bingo_bonus=20,
)
SEVEN = Layout(
    name="test7",
    size=7,
    center=(3, 3),
    premiums=MappingProxyType(
        {(0, 0): "TW", (0, 3): "DL", (1, 1): "DW", (1, 5): "TL", (2, 4): "DL", (3, 0): "DL",
         (3, 6): "TW", (4, 2): "TL", (5, 5): "DW", (6, 3): "DW", (6, 6): "TL", (5, 1): "DL"}
    ),
)  # fmt: skip
LEX = WordListLexicon(WORDS, ALPHABET)


@pytest.fixture(autouse=True, params=movegen_implementations())
def implementation(request: pytest.FixtureRequest) -> Iterator[str]:
    """Every test here runs with both move generators (compiled and pure)."""
    yield from use_implementation(request.param)


def key(placements: tuple[Placement, ...] | list[Placement]) -> frozenset[Placement]:
    return frozenset(placements)


def brute_force(
    board: Board,
    rack: str,
    tiles: TileSet,
    geometry: Layout,
    lexicon: Container[str],
    words: set[str] | None = None,
) -> dict[frozenset[Placement], int]:
    """Every legal play found by trying every placement of rack tiles, judged by
    ``evaluate``: {frozenset(placements): score}.

    A play's squares are the first t empty squares from its first square along a row
    or column (no gaps), so trying every start square, direction and tile count, then
    every ordering of rack tiles with every letter for a blank, tries every play. Only
    the main word is pre-checked against ``words`` (a superset of the valid words), to
    skip hopeless calls.
    """
    n = geometry.size
    words = set(WORDS) if words is None else words
    first = is_empty(board)
    found: dict[frozenset[Placement], int] = {}
    for d_row, d_col in ((0, 1), (1, 0)):
        for r0 in range(n):
            for c0 in range(n):
                if board[r0][c0] != EMPTY:
                    continue
                for t in range(1, len(rack) + 1):
                    squares: list[tuple[int, int]] = []
                    r, c = r0, c0
                    while len(squares) < t and r < n and c < n:
                        if board[r][c] == EMPTY:
                            squares.append((r, c))
                        r, c = r + d_row, c + d_col
                    if len(squares) < t:
                        break
                    if first and geometry.center not in squares:
                        continue
                    if not first and not any(
                        0 <= r + dr < n and 0 <= c + dc < n and board[r + dr][c + dc] != EMPTY
                        for r, c in squares
                        for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0))
                    ):
                        continue
                    # The main word's extent: the squares plus adjoining board tiles.
                    r, c = squares[0]
                    while r - d_row >= 0 and c - d_col >= 0 and board[r - d_row][c - d_col] != EMPTY:
                        r, c = r - d_row, c - d_col
                    span = []
                    while r < n and c < n and (board[r][c] != EMPTY or (r, c) in squares):
                        span.append((r, c))
                        r, c = r + d_row, c + d_col
                    for order in set(itertools.permutations(rack, t)):
                        # Every letter of the alphabet for a blank: evaluate must refuse
                        # the ones the language does not allow.
                        choices = [tiles.alphabet if tile == "?" else (tile,) for tile in order]
                        for letters in itertools.product(*choices):
                            new = dict(zip(squares, letters, strict=True))
                            if t > 1:
                                word = "".join(new.get(sq) or board[sq[0]][sq[1]].upper() for sq in span)
                                if word not in words:
                                    continue
                            placements = [
                                Placement(r, c, letter, blank=tile == "?")
                                for (r, c), letter, tile in zip(squares, letters, order, strict=True)
                            ]
                            try:
                                result = evaluate(
                                    board,
                                    placements,
                                    tileset=tiles,
                                    layout=geometry,
                                    lexicon=lexicon,
                                    rack=rack,
                                )
                            except IllegalMove:
                                continue
                            found[key(placements)] = result.score
    return found


def random_board(rng: random.Random, plays: int, tiles: TileSet = SMALL, geometry: Layout = SEVEN) -> Board:
    """A board after up to ``plays`` random legal plays (some with blanks)."""
    board = empty_board(geometry.size)
    letters = "".join(letter * 2 for letter in tiles.alphabet)
    for _ in range(plays):
        rack = "".join(rng.choice(letters) for _ in range(tiles.rack_size - 1)) + rng.choice("?" + letters)
        moves = movegen.generate(board, rack, tileset=tiles, layout=geometry, lexicon=LEX)
        if moves:
            move = rng.choice(moves)
            board = place(board, ((p.row, p.col, p.board_char) for p in move.placements))
    return board


def random_rack(rng: random.Random, size: int, blanks: int) -> str:
    return "".join(rng.choice("AADEENORSTT") for _ in range(size - blanks)) + "?" * blanks


def check_against_engine(board: Board, rack: str, moves: Sequence[movegen.GeneratedMove]) -> None:
    for move in moves:
        result = evaluate(board, move.placements, tileset=SMALL, layout=SEVEN, lexicon=LEX, rack=rack)
        assert result.score == move.score
        assert result.words == move.words
        assert result.bingo == move.bingo


def test_random_boards_same_plays_and_scores_as_brute_force() -> None:
    rng = random.Random(20261122)
    compared = 0
    for case in range(16):
        board = random_board(rng, plays=case % 5)
        size = 5 if case % 3 == 0 else 4
        rack = random_rack(rng, size, blanks=case % 2)
        moves = movegen.generate(board, rack, tileset=SMALL, layout=SEVEN, lexicon=LEX)
        expected = brute_force(board, rack, SMALL, SEVEN, LEX)
        assert {key(m.placements): m.score for m in moves} == expected, (board, rack)
        assert len(moves) == len(expected)  # no play listed twice
        check_against_engine(board, rack, moves)
        compared += len(expected)
    assert compared > 500  # the boards were not trivially empty of plays


def test_board_with_blanks_same_plays_as_brute_force() -> None:
    board = place(
        empty_board(7), [(3, 1, "t"), (3, 2, "O"), (3, 3, "N"), (3, 4, "e"), (2, 3, "O"), (4, 3, "E")]
    )
    rack = "RA?S"
    moves = movegen.generate(board, rack, tileset=SMALL, layout=SEVEN, lexicon=LEX)
    assert {key(m.placements): m.score for m in moves} == brute_force(board, rack, SMALL, SEVEN, LEX)
    assert moves


def test_moves_are_ranked_by_score_then_sorted_tile_list() -> None:
    rng = random.Random(7)
    board = random_board(rng, plays=3)
    moves = movegen.generate(board, "SEAT?", tileset=SMALL, layout=SEVEN, lexicon=LEX)
    assert len(moves) > 20
    order = [(-m.score, sorted([p.row, p.col, p.board_char] for p in m.placements)) for m in moves]
    assert order == sorted(order)


def test_best_is_the_head_of_the_full_list() -> None:
    rng = random.Random(11)
    for case in range(6):
        board = random_board(rng, plays=1 + case % 4)
        rack = random_rack(rng, 5, blanks=case % 3)
        full = movegen.generate(board, rack, tileset=SMALL, layout=SEVEN, lexicon=LEX)
        for k in (1, 3, 10, 1000):
            top = movegen.best(board, rack, tileset=SMALL, layout=SEVEN, lexicon=LEX, k=k)
            assert [m.placements for m in top] == [m.placements for m in full[:k]]
            assert [m.score for m in top] == [m.score for m in full[:k]]


def test_count_agrees_with_generate() -> None:
    rng = random.Random(3)
    board = random_board(rng, plays=2)
    full = movegen.generate(board, "NOTE?", tileset=SMALL, layout=SEVEN, lexicon=LEX)
    counted = movegen.count(board, "NOTE?", tileset=SMALL, layout=SEVEN, lexicon=LEX)
    assert counted == movegen.MoveCount(len(full), full[0].score)


def test_first_move_covers_centre_with_two_tiles_across_and_down() -> None:
    moves = movegen.generate(empty_board(7), "TOE", tileset=SMALL, layout=SEVEN, lexicon=LEX)
    assert all(any((p.row, p.col) == (3, 3) for p in m.placements) for m in moves)
    assert all(len(m.placements) >= 2 for m in moves)
    across = {m.placements for m in moves if m.direction == "across"}
    down = {m.placements for m in moves if m.direction == "down"}
    # Each across play has its mirror image down: both are moves.
    mirror = {tuple(Placement(p.col, p.row, p.letter, p.blank) for p in ps) for ps in across}
    assert mirror == down
    assert len(moves) == 2 * len(across) > 0


def test_one_tile_play_making_two_words_counts_once() -> None:
    board = place(empty_board(7), [(3, 3, "T"), (3, 4, "A"), (4, 3, "O")])
    moves = movegen.generate(board, "E", tileset=SMALL, layout=SEVEN, lexicon=LEX)
    # E at (4,4) makes OE across and AE down: one move, across main word.
    corner = [m for m in moves if m.placements == (Placement(4, 4, "E"),)]
    assert len(corner) == 1
    assert [w.word for w in corner[0].words] == ["OE", "AE"]
    assert len({m.placements for m in moves}) == len(moves)


def test_blank_as_different_letters_gives_different_moves() -> None:
    board = place(empty_board(7), [(3, 2, "A"), (3, 3, "T")])
    moves = movegen.generate(board, "?", tileset=SMALL, layout=SEVEN, lexicon=LEX)
    after = {m.placements[0].letter for m in moves if m.placements[0].col == 4 and m.placements[0].row == 3}
    # AT + blank: ATE, ATT (ATS is not a word here).
    assert after == {"E", "T"}
    assert all(m.placements[0].blank and m.score >= 0 for m in moves)


def test_blank_never_stands_for_a_letter_the_language_forbids() -> None:
    # ADD is a word; D may not be a blank's letter in SMALL.
    board = place(empty_board(7), [(3, 2, "A"), (3, 3, "D")])
    with_blank = movegen.generate(board, "?", tileset=SMALL, layout=SEVEN, lexicon=LEX)
    assert not any(p.letter == "D" for m in with_blank for p in m.placements)
    with_tile = movegen.generate(board, "D", tileset=SMALL, layout=SEVEN, lexicon=LEX)
    assert Placement(3, 4, "D") in {p for m in with_tile for p in m.placements}


def test_no_legal_play_gives_nothing() -> None:
    # Only consonants on the board and the rack, and no word of the list is vowel-free.
    board = place(empty_board(7), [(3, 2, "T"), (3, 3, "N"), (3, 4, "T")])
    rack = "DRS"
    assert brute_force(board, rack, SMALL, SEVEN, LEX) == {}
    assert movegen.generate(board, rack, tileset=SMALL, layout=SEVEN, lexicon=LEX) == []
    assert movegen.best(board, rack, tileset=SMALL, layout=SEVEN, lexicon=LEX, k=5) == []
    assert movegen.count(board, rack, tileset=SMALL, layout=SEVEN, lexicon=LEX) == movegen.MoveCount(0, None)
    # One vowel is enough to play again.
    assert movegen.generate(board, rack + "O", tileset=SMALL, layout=SEVEN, lexicon=LEX)


def test_empty_rack_gives_nothing() -> None:
    board = place(empty_board(7), [(3, 3, "T"), (3, 4, "O")])
    assert movegen.generate(board, "", tileset=SMALL, layout=SEVEN, lexicon=LEX) == []


def test_endgame_short_racks_match_brute_force() -> None:
    rng = random.Random(5)
    for rack in ("S", "E?", "RD"):
        board = random_board(rng, plays=4)
        moves = movegen.generate(board, rack, tileset=SMALL, layout=SEVEN, lexicon=LEX)
        assert {key(m.placements): m.score for m in moves} == brute_force(board, rack, SMALL, SEVEN, LEX)


def test_bingo_bonus_when_the_whole_rack_is_played() -> None:
    moves = movegen.generate(empty_board(7), "STORE", tileset=SMALL, layout=SEVEN, lexicon=LEX)
    bingos = [m for m in moves if len(m.placements) == 5]
    assert bingos
    for m in bingos:
        assert m.bingo
        assert m.score == sum(w.score for w in m.words) + 20


def test_overlay_additions_and_removals_are_respected() -> None:
    base = WordGraph.build(WORDS, ALPHABET)
    # Add a word, remove a main word (ATE) and a cross word (TA), add one already in base.
    overlay = OverlayLexicon(base, added=["ATES", "TOAD", "ANT"], removed=["ATE", "TA"])
    board = place(empty_board(7), [(3, 2, "A"), (3, 3, "T")])
    for rack in ("ES", "E?D", "OAD"):
        moves = movegen.generate(board, rack, tileset=SMALL, layout=SEVEN, lexicon=overlay)
        expected = brute_force(board, rack, SMALL, SEVEN, overlay, words={*WORDS, "ATES", "TOAD"})
        assert {key(m.placements): m.score for m in moves} == expected
        assert len(moves) == len(expected)
        for m in moves:
            assert all(w.word in overlay for w in m.words)
    words = {
        w.word
        for m in movegen.generate(board, "ES", tileset=SMALL, layout=SEVEN, lexicon=overlay)
        for w in m.words
    }
    assert "ATES" in words
    assert "ATE" not in words
    assert "TA" not in words


def test_standard_board_moves_all_accepted_by_the_engine() -> None:
    en = tileset("en")
    wwf = layout("wwf")
    lexicon = WordListLexicon(WORDS, en.alphabet)
    board = empty_board(15)
    rng = random.Random(99)
    for rack in ("STONED?", "RATE??", "ADORE", "TOTE?"):
        moves = movegen.generate(board, rack, tileset=en, layout=wwf, lexicon=lexicon)
        for m in moves:
            result = evaluate(board, m.placements, tileset=en, layout=wwf, lexicon=lexicon, rack=rack)
            assert (result.score, result.words) == (m.score, m.words)
        assert movegen.best(board, rack, tileset=en, layout=wwf, lexicon=lexicon, k=5) == moves[:5]
        if moves:
            move = rng.choice(moves[:10])
            board = place(board, ((p.row, p.col, p.board_char) for p in move.placements))


def test_rack_tile_not_in_the_language_is_refused() -> None:
    with pytest.raises(ValueError, match="not a tile"):
        movegen.generate(empty_board(7), "AX", tileset=SMALL, layout=SEVEN, lexicon=LEX)
