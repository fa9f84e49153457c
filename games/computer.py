"""The computer player's decision: which action it takes on its turn.

Called by ``games.tasks.computer_turn`` in a task worker (``manage.py db_worker``), a
process of its own, so the move generator holding the GIL for a moment never blocks a
web request. The choice is the engine's (``engine.analysis.computer_move``, by level),
with an RNG derived from the game's seed and the move number, so the same position
gets the same reply; it comes back as one of the engine's action values, which the
task applies through ``Game.act`` like any player's.

Under a challenge rule the computer first looks at the play before its turn: it knows
the word list, so it challenges exactly the phonies (``engine.analysis.should_challenge``:
never a valid play, which would only cost it under the double or five-point rule), and
accepts a valid last play of the game, which ends it.
"""

from __future__ import annotations

from engine.actions import EngineAction, computer_action
from engine.analysis import LEVELS, computer_move, should_challenge
from games.actions import AcceptPlay, Challenge, ChallengeAction
from games.models import Game, Seat, rng_for


def decide(game: Game, seat: Seat) -> EngineAction | ChallengeAction:
    """The action of the computer in ``seat`` for ``game`` as it is now (no lock: the
    caller applies it at the version it read, and a move made meanwhile wins)."""
    level = next((lv for lv in LEVELS if lv == seat.computer_level), None)
    if level is None:
        raise ValueError(f"unknown computer level {seat.computer_level!r}")
    state = game.state_obj()
    if state.pending is not None:
        lexicon = game.lexicon()
        if should_challenge(state, seat.index, lexicon):
            return Challenge()
        if state.pending.final:
            return AcceptPlay()
    rng = rng_for(game.seed, "computer", state.moves_played)
    return computer_action(computer_move(state, seat.index, game.lexicon(), level, rng))
