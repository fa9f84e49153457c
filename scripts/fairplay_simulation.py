#!/usr/bin/env python3
"""Simulated rated games to tune and measure the fair-play thresholds (``games.fairplay``).

    python scripts/fairplay_simulation.py [--players 10] [--games 20] [--language en] [--seed 1]

Each simulated player plays ``--games`` games against the computer at its top level
(``engine.analysis.computer_move`` at ``"hard"``); every game is analysed by the site's own
post-game analysis (``games.analysis.analyse_moves``) and reduced to the fair-play signals
(``games.fairplay.signals_of``), exactly what the ``analyse_game`` task stores. After each
game, the player's last ``WINDOW`` games are checked against ``THRESHOLDS`` as the site does.

The policies:

- ``best``: the computer at its top level (the opponent's side of every game): what a player
  copying the engine's best play does.
- ``casual``, ``club``, ``expert``: human-like play. A human sees some of the good plays, not
  all: the policy picks one of the best distinct scores, with weights skewed toward good
  but not best plays (``HUMAN_PROFILES``), sometimes exchanges a few tiles although it could
  play, and rarely passes.
- ``assisted-N``: the engine's best play on N % of the moves, ``expert`` play otherwise.

Printed: per policy, the players flagged within 10 games and within all games, the first
game each was flagged at, and the highest (human-like) or lowest (``best``) figures seen
in any window of at least ``min_games`` games, with the thresholds these suggest.
Everything is seeded: the same arguments print the same figures. ``docs/fair-play.md``
holds a run.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import engine  # noqa: E402
from engine import movegen  # noqa: E402
from engine.analysis import computer_move  # noqa: E402
from engine.lexicon import Lexicon, WordGraph  # noqa: E402
from engine.moves import Played, exchange, pass_turn, play  # noqa: E402
from engine.state import GameState  # noqa: E402
from engine.tiles import BLANK  # noqa: E402

# Both modules below are plain computation over the engine: no Django set-up needed.
from games.analysis import PlayedMove, analyse_moves  # noqa: E402
from games.fairplay import THRESHOLDS, WINDOW, Figures, GameSignals, Thresholds, figures, flagged, signals_of  # noqa: E402


@dataclass(frozen=True)
class HumanProfile:
    """Weights of choosing the best, second best... distinct score among the legal plays;
    the chance of exchanging although a play was there, and of passing."""

    weights: tuple[float, ...]
    exchange: float
    pass_: float


#: Human-like play, weakest to strongest. ``expert`` takes the top play about 40 % of the
#: time (before swaps), which is about what strong human players manage against an engine.
HUMAN_PROFILES: dict[str, HumanProfile] = {
    "casual": HumanProfile(weights=(1, 2, 3, 3, 3, 2, 2, 2, 1, 1, 1, 1), exchange=0.04, pass_=0.01),
    "club": HumanProfile(weights=(3, 4, 4, 3, 2, 2, 1, 1, 1), exchange=0.03, pass_=0.005),
    "expert": HumanProfile(weights=(8, 5, 3, 2, 1, 1), exchange=0.03, pass_=0.005),
}

Policy = Callable[[GameState, int, Lexicon, random.Random], Played]


def best_policy(state: GameState, seat: int, lexicon: Lexicon, rng: random.Random) -> Played:
    """The computer at its top level."""
    return computer_move(state, seat, lexicon, "hard", rng).apply(state, seat, lexicon, rng)


def _can_exchange(state: GameState) -> bool:
    minimum = max(1, state.rules.exchange_min_bag, state.tileset.exchange_min_bag)
    return len(state.bag) >= minimum


def _exchange_some(state: GameState, seat: int, rng: random.Random) -> Played:
    """Return one to four tiles (never a blank), as many as the bag allows."""
    rack = [t for t in state.racks[seat] if t != BLANK]
    count = min(len(rack), len(state.bag), rng.randint(1, 4))
    if count < 1:
        return pass_turn(state, seat)
    return exchange(state, seat, rng.sample(rack, count), rng)


def human_policy(profile: HumanProfile) -> Policy:
    def choose(state: GameState, seat: int, lexicon: Lexicon, rng: random.Random) -> Played:
        rack = state.racks[seat]
        moves = movegen.generate(
            state.board, rack, tileset=state.tileset, layout=engine.layout(state.layout), lexicon=lexicon
        )
        roll = rng.random()
        if not moves or roll < profile.pass_ + profile.exchange:
            if _can_exchange(state) and (not moves or roll >= profile.pass_):
                return _exchange_some(state, seat, rng)
            if not moves or roll < profile.pass_:
                return pass_turn(state, seat)
        # The first index of each distinct score, best first, as far as the weights reach.
        starts: list[int] = []
        for i in range(len(moves)):
            if not starts or moves.score(i) != moves.score(starts[-1]):
                if len(starts) == len(profile.weights):
                    break
                starts.append(i)
        level = rng.choices(range(len(starts)), weights=profile.weights[: len(starts)])[0]
        start = starts[level]
        stop = start + 1
        while stop < len(moves) and moves.score(stop) == moves.score(start):
            stop += 1
        chosen = moves[rng.randrange(start, stop)]
        return play(state, seat, chosen.placements, lexicon)

    return choose


def assisted_policy(share: float) -> Policy:
    """The engine's best play on ``share`` of the moves, expert play otherwise."""
    human = human_policy(HUMAN_PROFILES["expert"])

    def choose(state: GameState, seat: int, lexicon: Lexicon, rng: random.Random) -> Played:
        if rng.random() < share:
            return best_policy(state, seat, lexicon, rng)
        return human(state, seat, lexicon, rng)

    return choose


def policy(name: str) -> Policy:
    if name == "best":
        return best_policy
    if name.startswith("assisted-"):
        return assisted_policy(int(name.removeprefix("assisted-")) / 100)
    return human_policy(HUMAN_PROFILES[name])


def simulate_game(
    tested: Policy, seat: int, *, language: str, lexicon: Lexicon, seed: str
) -> list[PlayedMove]:
    """One game of ``tested`` (at ``seat``) against the computer at its top level, as the
    recorded moves the analysis reads. Deterministic for a ``seed``."""
    rng = random.Random(f"fairplay:{seed}")
    state = engine.new_game(language, rng)
    moves: list[PlayedMove] = []
    number = 0
    while not state.over and number < 200:
        number += 1
        mover = state.turn
        played = (tested if mover == seat else best_policy)(state, mover, lexicon, rng)
        moves.append(PlayedMove.of_record(number, mover, played.record))
        state = played.state
    return moves


def game_signals(
    moves: Sequence[PlayedMove], *, language: str, lexicon: Lexicon
) -> tuple[GameSignals, GameSignals]:
    """Both seats' fair-play signals, from the site's post-game analysis of ``moves``."""
    entries = analyse_moves(moves, language=language, layout_name="wwf", lexicon=lexicon)
    return signals_of(entries, 0, {}), signals_of(entries, 1, {})


@dataclass(frozen=True)
class PlayerRun:
    """One simulated player's games: the windows' figures after each game, and the
    first game (1-based) after which the player was flagged, if any."""

    windows: tuple[Figures, ...]
    first_flagged: int | None


def run_player(history: Sequence[GameSignals], thresholds: Thresholds) -> PlayerRun:
    windows = tuple(figures(history[max(0, n - WINDOW) : n]) for n in range(1, len(history) + 1))
    first = next((n for n, w in enumerate(windows, start=1) if flagged(w, thresholds)), None)
    return PlayerRun(windows=windows, first_flagged=first)


def simulate(
    names: Sequence[str], *, players: int, games: int, language: str, lexicon: Lexicon, seed: int
) -> dict[str, list[list[GameSignals]]]:
    """Per policy, per simulated player, the signals of their games in order. The
    top-level computer's side of every game makes the ``best`` players' histories."""
    histories: dict[str, list[list[GameSignals]]] = {name: [] for name in names}
    histories["best"] = []
    for name in names:
        tested = policy(name)
        for player in range(players):
            mine, best = [], []
            for game in range(games):
                seat = game % 2
                moves = simulate_game(
                    tested, seat, language=language, lexicon=lexicon, seed=f"{seed}:{name}:{player}:{game}"
                )
                signals = game_signals(moves, language=language, lexicon=lexicon)
                mine.append(signals[seat])
                best.append(signals[1 - seat])
            histories[name].append(mine)
            histories["best"].append(best)
    return histories


def suggested(
    histories: dict[str, list[list[GameSignals]]], thresholds: Thresholds, margin: float
) -> tuple[float, float]:
    """The lowest thresholds above every human-like window (of ``min_games`` games or
    more), plus ``margin`` points: the highest top-play share and best-score share seen."""
    top = share = 0.0
    for name, runs in histories.items():
        if name == "best" or name.startswith("assisted-"):
            continue
        for history in runs:
            for w in run_player(history, Thresholds(min_games=10**6)).windows:
                if w.games >= thresholds.min_games:
                    top, share = max(top, w.top_share), max(share, w.best_share)
    return round(top + margin, 1), round(share + margin, 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=10, help="simulated players per policy")
    parser.add_argument("--games", type=int, default=20, help="rated games per player")
    parser.add_argument("--language", default="en")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--margin", type=float, default=5.0, help="points above the highest human-like window"
    )
    parser.add_argument(
        "--policies", default="casual,club,expert,assisted-50,assisted-75,assisted-90", help="besides best"
    )
    args = parser.parse_args()
    lexicon = WordGraph.load(str(ROOT / "fixtures" / "lexicons" / f"{args.language}.dawg"))
    started = time.perf_counter()
    names = args.policies.split(",")
    histories = simulate(
        names, players=args.players, games=args.games, language=args.language, lexicon=lexicon, seed=args.seed
    )
    t = THRESHOLDS
    print(
        f"# {args.players} players x {args.games} games per policy, language {args.language}, seed {args.seed}"
    )
    print(
        f"# thresholds: top plays >= {t.top_share} %, best score >= {t.best_share} %, "
        f"at least {t.min_games} games and {t.min_moves} moves; window {WINDOW} games"
    )
    print(
        "policy       players  flagged<=10  flagged<=all  first flag (median)  windows: top % min-max  share % min-max"
    )
    for name in ["best", *names]:
        runs = [run_player(h, t) for h in histories[name]]
        within_10 = sum(1 for r in runs if r.first_flagged is not None and r.first_flagged <= 10)
        ever = [r.first_flagged for r in runs if r.first_flagged is not None]
        windows = [w for r in runs for w in r.windows if w.games >= t.min_games]
        tops = [w.top_share for w in windows]
        shares = [w.best_share for w in windows]
        first = sorted(ever)[len(ever) // 2] if ever else "-"
        print(
            f"{name:<12} {len(runs):>7}  {within_10:>11}  {len(ever):>12}  {first!s:>19}"
            f"  {min(tops):>10.1f}-{max(tops):<5.1f}  {min(shares):>8.1f}-{max(shares):.1f}"
        )
    top, share = suggested(histories, t, args.margin)
    print(
        f"# suggested (highest human-like window + {args.margin} points): top plays >= {top} %, best score >= {share} %"
    )
    print(f"# {time.perf_counter() - started:.1f} s, move generator {movegen.implementation()}")


if __name__ == "__main__":
    main()
