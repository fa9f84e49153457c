"""``python -m engine score``: JSON lines in, verdicts out (issue 3, point 7)."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import engine.__main__ as cli
from engine.lexicon import WordGraph
from engine.tiles import tileset

ROOT = Path(__file__).resolve().parents[2]
EMPTY_ROWS = ["." * 15] * 15


def rows(**lines: str) -> list[str]:
    """A board from keyword rows: ``r7="....CATS......."``."""
    board = list(EMPTY_ROWS)
    for key, text in lines.items():
        board[int(key[1:])] = text
    return board


CATS = rows(r7="....CATS.......")


def run(
    requests: list[Any], tmp_path: Path, *, language: str = "en", words: str = "cat\ncats\non\nCo\nan\n"
) -> list[dict[str, Any]]:
    wordlist = tmp_path / "words.txt"
    wordlist.write_text(words, encoding="utf-8")
    lines = [r if isinstance(r, str) else json.dumps(r) for r in requests]
    stdout = io.StringIO()
    status = cli.main(
        ["score", "--language", language, "--wordlist", str(wordlist)],
        stdin=io.StringIO("\n".join(lines) + "\n"),
        stdout=stdout,
    )
    assert status == 0
    return [json.loads(line) for line in stdout.getvalue().splitlines()]


def request(move: list[list[Any]], board: list[str] = CATS, rack: str = "ON?ABCD", ident: Any = 1) -> Any:
    return {"id": ident, "board": board, "rack": rack, "move": move}


def test_legal_play_lists_main_word_then_cross_words(tmp_path: Path) -> None:
    (out,) = run([request([[8, 4, "O"], [8, 5, "N"]])], tmp_path)
    assert out == {
        "id": 1,
        "legal": True,
        "score": 13,
        "words": [{"word": "ON", "score": 4}, {"word": "CO", "score": 6}, {"word": "AN", "score": 3}],
        "bingo": False,
    }


def test_bingo_score_includes_the_bonus(tmp_path: Path) -> None:
    move = [[7, 4 + i, letter] for i, letter in enumerate("RETAINS")]
    (out,) = run([request(move, EMPTY_ROWS, "AEINRST")], tmp_path, words="retains\n")
    assert out["bingo"] is True
    assert out["score"] == 8 + 35


def test_lowercase_move_letter_is_a_blank_from_the_rack(tmp_path: Path) -> None:
    (out,) = run([request([[8, 4, "o"], [8, 5, "N"]])], tmp_path)
    assert out["legal"] is True
    assert out["words"][0] == {"word": "ON", "score": 2}
    (refused,) = run([request([[8, 4, "o"], [8, 5, "N"]], rack="ONABCDE")], tmp_path)
    assert refused["error"] == "tile_not_in_rack"


def test_illegal_play_reports_code_and_message(tmp_path: Path) -> None:
    results = run(
        [
            request([[8, 4, "O"], [8, 5, "X"]], rack="OX"),
            request([[8, 4, "?"]]),
            request([[7, 4, "?"]]),
            request([[2, 2, "O"], [2, 3, "N"]]),
            request([[6, 6, "O"], [6, 7, "N"]], EMPTY_ROWS),
            request([]),
            request([[15, 0, "A"]]),
        ],
        tmp_path,
    )
    assert [r["error"] for r in results] == [
        "word_not_in_lexicon",
        "blank_needs_letter",
        "square_taken",
        "not_connected",
        "first_move_off_center",
        "empty_move",
        "off_board",
    ]
    assert all(r["legal"] is False and r["message"] for r in results)
    assert "OX" in results[0]["message"]


def test_letter_outside_the_language_is_judged_as_a_move(tmp_path: Path) -> None:
    # In the move it breaks a rule (reported before tile_not_in_rack); on the rack or
    # the board, which are given, it makes the request malformed.
    moved, racked = run(
        [request([[8, 4, "K"]], rack="ABCDEFG"), request([[8, 4, "A"]], rack="KABCDEF")],
        tmp_path,
        language="es",
    )
    assert moved["error"] == "letter_not_in_language"
    assert racked["error"] == "bad_input"


def test_malformed_lines_are_bad_input_and_the_run_goes_on(tmp_path: Path) -> None:
    results = run(
        [
            "{not json",
            "[1, 2]",
            {"id": "short", "board": EMPTY_ROWS[:14], "rack": "A", "move": [[7, 7, "A"]]},
            {"id": "letter", "board": rows(r7="....CA$S......."), "rack": "A", "move": []},
            {"id": "rack", "board": CATS, "rack": "AB1", "move": [[8, 4, "A"]]},
            {"id": "long-rack", "board": CATS, "rack": "ABCDEFGH", "move": [[8, 4, "A"]]},
            {"id": "coord", "board": CATS, "rack": "A", "move": [["8", 4, "A"]]},
            {"id": "char", "board": CATS, "rack": "A", "move": [[8, 4, "1"]]},
            {"id": "no-move", "board": CATS, "rack": "A"},
            "",
            request([[8, 4, "O"], [8, 5, "N"]], ident="after"),
        ],
        tmp_path,
    )
    assert [(r["id"], r.get("error")) for r in results] == [
        (None, "bad_input"),
        (None, "bad_input"),
        ("short", "bad_input"),
        ("letter", "bad_input"),
        ("rack", "bad_input"),
        ("long-rack", "bad_input"),
        ("coord", "bad_input"),
        ("char", "bad_input"),
        ("no-move", "bad_input"),
        ("after", None),
    ]
    assert results[-1]["legal"] is True


def test_word_list_is_normalised_for_the_language(tmp_path: Path) -> None:
    board = rows(r7="......AÑ.......")
    results = run(
        [
            request([[7, 8, "O"]], board, rack="OABCDEF"),
            request([[7, 5, "K"]], board, rack="ABCDEFG"),
        ],
        tmp_path,
        language="es",
        words="Año\nkiwi\n",
    )
    assert results[0]["legal"] is True
    assert results[0]["words"][0]["word"] == "AÑO"
    assert results[1]["error"] == "letter_not_in_language"


def test_without_word_list_the_built_lexicon_is_loaded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    WordGraph.build(["CATS", "ON", "CO", "AN"], tileset("en").alphabet).save(tmp_path / "en.dawg")
    monkeypatch.setattr(cli, "LEXICON_DIR", tmp_path)
    stdout = io.StringIO()
    line = json.dumps(request([[8, 4, "O"], [8, 5, "N"]]))
    assert cli.main(["score", "--language", "en"], stdin=io.StringIO(line), stdout=stdout) == 0
    assert json.loads(stdout.getvalue())["score"] == 13


def test_missing_built_lexicon_stops_with_status_2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(cli, "LEXICON_DIR", tmp_path)
    assert cli.main(["score", "--language", "fr"], stdin=io.StringIO(""), stdout=io.StringIO()) == 2
    assert "no built lexicon for fr" in capsys.readouterr().err


def test_missing_input_or_word_list_file_stops_with_status_2(tmp_path: Path) -> None:
    words = tmp_path / "w.txt"
    words.write_text("cat\n", encoding="utf-8")
    args = ["score", "--language", "en", "--wordlist"]
    assert cli.main([*args, str(tmp_path / "none.txt")], stdin=io.StringIO(""), stdout=io.StringIO()) == 2
    assert cli.main([*args, str(words), str(tmp_path / "none.jsonl")], stdout=io.StringIO()) == 2


def test_command_line_reads_a_file_argument(tmp_path: Path) -> None:
    words = tmp_path / "w.txt"
    words.write_text("cats\non\nco\nan\n", encoding="utf-8")
    plays = tmp_path / "plays.jsonl"
    plays.write_text(json.dumps(request([[8, 4, "O"], [8, 5, "N"]], ident="x")) + "\n", encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "engine", "score", "--language", "en", "--wordlist", str(words), str(plays)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {
        "id": "x",
        "legal": True,
        "score": 13,
        "words": [{"word": "ON", "score": 4}, {"word": "CO", "score": 6}, {"word": "AN", "score": 3}],
        "bingo": False,
    }
