"""Benchmark: the move generator on the classic board and tiles (the classic preset).

    .venv/bin/python bench/movegen_classic.py [--games 4] [--repeat 3]
        [--implementation compiled,pure]

Positions come from seeded games played under ``preset("classic", "en")`` (the classic
board ``scrabble``, the 100-tile English set, 50 for a bingo) by computer players
(``engine.analysis.computer_move``, hard against medium) with the real English lexicon
``fixtures/lexicons/en.dawg``: every position of every game (the board and the rack of
the player to move), and the same boards with that rack given one and two blanks (made
from the rack the player really had). Per implementation and position it times full
enumeration (``engine.movegen.generate``) and the best-move search
(``engine.movegen.best``, k=1), each the fastest of ``--repeat`` runs after a warm-up
run; it prints the median and the worst case per number of blanks. The same positions
are then timed on this game's own board (``wwf``) with the same racks, for comparison:
the classic board has other premium squares but the same geometry, so the search
should cost the same.
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine import analysis, movegen  # noqa: E402
from engine.board import Board, board_tiles, layout  # noqa: E402
from engine.lexicon import WordGraph  # noqa: E402
from engine.state import GameState, new_game, preset  # noqa: E402
from engine.tiles import BLANK, TileSet  # noqa: E402

LEXICON = ROOT / "fixtures" / "lexicons" / "en.dawg"


def _with_blanks(rack: str, blanks: int, unseen: Counter[str], rng: random.Random) -> str:
    """``rack`` with exactly ``blanks`` blanks (letters turned into blanks, or blanks
    into unseen letters)."""
    want = len(rack) - min(blanks, len(rack))
    letters = [t for t in rack if t != BLANK]
    pool = [t for t, n in unseen.items() if t != BLANK for _ in range(n)]
    while len(letters) < want:
        letters.append(pool.pop(rng.randrange(len(pool))))
    return "".join(letters[:want]) + BLANK * (len(rack) - want)


def positions(lexicon: WordGraph, games: int) -> list[tuple[Board, str, int]]:
    """(board, rack, blanks) for every position of ``games`` seeded classic games."""
    rules = preset("classic", "en", challenge="void")
    rng = random.Random("classic-bench")
    found: list[tuple[Board, str, int]] = []
    for game in range(games):
        state: GameState = new_game("en", random.Random(f"classic-{game}"), rules=rules)
        while not state.over:
            seat = state.turn
            rack = state.racks[seat]
            unseen = Counter(state.tileset.full_bag()) - Counter(board_tiles(state.board)) - Counter(rack)
            for blanks in (0, 1, 2):
                found.append((state.board, _with_blanks(rack, blanks, unseen, rng), blanks))
            level: analysis.Level = "hard" if seat == 0 else "medium"
            choice = analysis.computer_move(state, seat, lexicon, level, rng)
            state = choice.apply(state, seat, lexicon, rng).state
    return found


def _time(call: Any, repeat: int) -> float:
    call()  # warm-up
    runs = []
    for _ in range(repeat):
        start = time.perf_counter()
        call()
        runs.append(time.perf_counter() - start)
    return min(runs) * 1000


def measure(
    found: list[tuple[Board, str, int]], lexicon: WordGraph, tiles: TileSet, board_name: str, repeat: int
) -> dict[tuple[str, int], list[float]]:
    geometry = layout(board_name)
    times: dict[tuple[str, int], list[float]] = {}
    for board, rack, blanks in found:
        kw: dict[str, Any] = {"tileset": tiles, "layout": geometry, "lexicon": lexicon}
        times.setdefault(("generate", blanks), []).append(
            _time(lambda: movegen.generate(board, rack, **kw), repeat)  # noqa: B023
        )
        times.setdefault(("best", blanks), []).append(
            _time(lambda: movegen.best(board, rack, k=1, **kw), repeat)  # noqa: B023
        )
    return times


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--implementation", default=",".join(movegen.IMPLEMENTATIONS))
    args = parser.parse_args()
    lexicon = WordGraph.load(LEXICON)
    found = positions(lexicon, args.games)
    tiles = preset("classic", "en").tileset_for("en")
    print(f"{platform.python_implementation()} {platform.python_version()}, {len(found)} positions")
    print(
        f"from {args.games} classic games ({len(found) // 3} boards x 0/1/2 blanks), fastest of {args.repeat}"
    )
    for name in args.implementation.split(","):
        movegen.set_implementation(name)
        # The first search of a process also builds the generator's per-graph facts.
        board, rack, _ = next(p for p in found if p[2] == 2)
        movegen.best(board, rack, tileset=tiles, layout=layout("scrabble"), lexicon=lexicon, k=1)
        for board_name in ("scrabble", "wwf"):
            times = measure(found, lexicon, tiles, board_name, args.repeat)
            for (mode, blanks), values in sorted(times.items()):
                print(
                    f"{name:8} {board_name:8} {mode:8} {blanks} blank(s): "
                    f"median {statistics.median(values):7.2f} ms, worst {max(values):8.2f} ms (n={len(values)})"
                )


if __name__ == "__main__":
    main()
