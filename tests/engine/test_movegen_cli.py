"""``python -m engine moves``: output format, --top, --count-only, bad lines."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine.__main__ import main
from engine.board import empty_board, place
from tests.engine.helpers import movegen_implementations, use_implementation

BOARD = list(place(empty_board(15), [(7, 5, "C"), (7, 6, "A"), (7, 7, "T")]))


@pytest.fixture(autouse=True, params=movegen_implementations())
def implementation(request: pytest.FixtureRequest) -> Iterator[str]:
    """Every test here runs with both move generators (compiled and pure)."""
    yield from use_implementation(request.param)


def run(tmp_path: Path, *args: str, lines: list[str]) -> list[dict[str, object]]:
    words = tmp_path / "words.txt"
    words.write_text("cat\ncats\nscat\nat\nta\nact\nacts\n", encoding="utf-8")
    out = io.StringIO()
    status = main(
        ["moves", "--language", "en", "--wordlist", str(words), *args], io.StringIO("\n".join(lines)), out
    )
    assert status == 0
    return [json.loads(line) for line in out.getvalue().splitlines()]


def test_moves_lists_every_play_best_first(tmp_path: Path) -> None:
    (result,) = run(tmp_path, lines=[json.dumps({"id": "p1", "board": BOARD, "rack": "S?"})])
    assert result["id"] == "p1"
    moves = result["moves"]
    assert isinstance(moves, list)
    assert result["count"] == len(moves) > 0
    assert moves[0] == {"tiles": [[7, 4, "S"]], "score": 7, "words": [{"word": "SCAT", "score": 7}]}
    keys = [(-m["score"], m["tiles"]) for m in moves]
    assert keys == sorted(keys)
    blanks = [m for m in moves if any(t[2].islower() for t in m["tiles"])]
    assert blanks  # a blank is written as the lowercase letter


def test_top_prints_the_best_without_count(tmp_path: Path) -> None:
    line = json.dumps({"id": 2, "board": BOARD, "rack": "S?"})
    (full,) = run(tmp_path, lines=[line])
    (top,) = run(tmp_path, "--top", "2", lines=[line])
    assert "count" not in top
    assert top["moves"] == full["moves"][:2]  # type: ignore[index]


def test_count_only_and_bad_lines_go_on(tmp_path: Path) -> None:
    lines = [
        "not json",
        json.dumps({"id": 3, "board": BOARD[:3], "rack": "S"}),
        json.dumps({"id": 4, "board": BOARD, "rack": "S?"}),
        json.dumps({"id": 5, "board": BOARD, "rack": "QQ"}),
    ]
    results = run(tmp_path, "--count-only", lines=lines)
    assert [r.get("error") for r in results] == ["bad_input", "bad_input", None, None]
    assert results[0]["id"] is None
    assert results[1]["id"] == 3
    (full,) = run(tmp_path, lines=[lines[2]])
    assert results[2] == {"id": 4, "count": full["count"], "best_score": 7}
    assert results[3] == {"id": 5, "count": 0, "best_score": None}


def test_verbose_names_the_generator_that_ran_on_standard_error(
    tmp_path: Path, implementation: str, capsys: pytest.CaptureFixture[str]
) -> None:
    line = json.dumps({"id": 6, "board": BOARD, "rack": "S"})
    (quiet,) = run(tmp_path, "--top", "1", lines=[line])
    assert capsys.readouterr().err == ""
    (verbose,) = run(tmp_path, "--top", "1", "--verbose", lines=[line])
    assert verbose == quiet
    assert capsys.readouterr().err == f"python -m engine moves: {implementation} move generator\n"
