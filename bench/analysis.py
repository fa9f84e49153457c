"""How long the post-game analysis of a game takes (issue 17: under 5 s for a 20-move game).

What: ``games.analysis.analyse_moves`` (what the ``analyse_game`` task runs: every play,
exchange or pass rated against every legal play of its rack) over seeded 20-move games
between computer players (levels drawn per turn), with each language's built lexicon
(``fixtures/lexicons/<lang>.dawg``). Worst case beside the median: the whole game and the
slowest single position.

Run: ``.venv/bin/python bench/analysis.py [--games 5] [--languages en,de]``
(``WORDGAME_MOVEGEN=pure|compiled`` picks the move generator where both exist).
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine import layout, movegen, new_game, tileset  # noqa: E402
from engine.analysis import LEVELS, computer_move  # noqa: E402
from engine.lexicon import WordGraph  # noqa: E402

# games.analysis imports only the engine: no Django set-up needed.
from games.analysis import PlayedMove, analyse_moves, apply_tiles  # noqa: E402

LANGUAGES = ("en", "en-GB", "es", "it", "pt-BR", "de", "fr")


def seeded_game(language: str, lexicon: WordGraph, seed: int, turns: int) -> list[PlayedMove]:
    rng = random.Random(f"analysis-bench-{language}-{seed}")
    state = new_game(language, rng)
    moves: list[PlayedMove] = []
    for number in range(1, turns + 1):
        if state.over:
            break
        seat = state.turn
        choice = computer_move(state, seat, lexicon, rng.choice(LEVELS), rng)
        result = choice.apply(state, seat, lexicon, rng)
        moves.append(PlayedMove.of_record(number, seat, result.record))
        state = result.state
    return moves


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--turns", type=int, default=20)
    parser.add_argument("--languages", default=",".join(LANGUAGES))
    args = parser.parse_args()
    print(f"# {time.strftime('%Y-%m-%d')} {platform.machine()} {platform.python_version()}")
    print("language games moves  game s: median max   position ms: median max")
    for language in args.languages.split(","):
        lexicon = WordGraph.load(str(ROOT / "fixtures" / "lexicons" / f"{language}.dawg"))
        tiles = tileset(language)
        game_times: list[float] = []
        position_times: list[float] = []
        rated = 0
        for seed in range(args.games):
            moves = seeded_game(language, lexicon, seed, args.turns)
            started = time.perf_counter()
            analyse_moves(moves, language=language, layout_name="wwf", lexicon=lexicon)
            game_times.append(time.perf_counter() - started)
            # Each position alone (its move generation, the whole of its cost), for the worst case.
            board = list(layout("wwf").empty_board())
            for move in moves:
                one_started = time.perf_counter()
                movegen.generate(
                    tuple(board), move.rack_before, tileset=tiles, layout=layout("wwf"), lexicon=lexicon
                )
                position_times.append(time.perf_counter() - one_started)
                if move.kind == "play":
                    apply_tiles(board, move.tiles)
            rated += len(moves)
        print(
            f"{language:7} {args.games:5} {rated:5}  "
            f"{statistics.median(game_times):7.2f} {max(game_times):6.2f}   "
            f"{1000 * statistics.median(position_times):8.1f} {1000 * max(position_times):6.1f}"
        )


if __name__ == "__main__":
    main()
