"""The paid extras of a game: what each one is, when it may be bought, what it shows.

- **tile bag** (``tile_bag``): bought on the player's turn, for that turn: the tiles the
  buyer has not seen (the bag and the opponent's rack together, never which is where),
  counted per letter in the tile set's order, and how many are in the bag.
- **hindsight** (``hindsight``): bought after the player's move and until their next one,
  for that move: the highest-scoring play that rack allowed on that board, beside what
  they played.
- **word strength** (``word_strength``): bought on the player's turn, for that turn:
  while tiles are placed, how the tentative play ranks among every legal play (1 = best,
  equal scores share the better rank) and its share of the best score, never the best
  play itself. The scores of every play are computed once per game version and cached.

A purchase is a game action (``BuyExtra``) on the game's one path (``Game.act``): the
rule table says when each may be bought, the coins are spent in the same locked
transaction (game row, then user row), and an ``ExtraPurchase`` records seat, period and
the ledger entry. Buying again in the same period costs nothing. Both players see which
aids were bought (the move log and the GCG record); only the buyer sees what they show.

The period of a purchase is a move number: the number the buyer's next move will have
(tile bag, word strength), or the number of the move looked back on (hindsight).
"""

from __future__ import annotations

import bisect
import logging
from collections import Counter
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.utils.translation import gettext_lazy as _

import engine
from engine import movegen
from engine.actions import Pass
from games import analysis

logger = logging.getLogger(__name__)

TILE_BAG = "tile_bag"
HINDSIGHT = "hindsight"
WORD_STRENGTH = "word_strength"
EXTRAS = (TILE_BAG, HINDSIGHT, WORD_STRENGTH)
#: Extras bought for the turn in progress (refunded if the opponent ends the game in it).
FOR_THE_TURN = (TILE_BAG, WORD_STRENGTH)

LABELS = {
    TILE_BAG: _("Tile bag"),
    HINDSIGHT: _("Hindsight"),
    WORD_STRENGTH: _("Word strength"),
}
#: What each extra does, in a line beside its name on the game page.
DESCRIPTIONS = {
    TILE_BAG: _("The tiles you have not seen yet, and how many are left in the bag."),
    HINDSIGHT: _("The best play your last rack allowed, beside what you played."),
    WORD_STRENGTH: _("How the play you lay out ranks against the best one available."),
}


def price(extra: str) -> int:
    """What ``extra`` costs, in coins (settings ``EXTRA_PRICE_*``)."""
    return int(
        {
            TILE_BAG: settings.EXTRA_PRICE_TILE_BAG,
            HINDSIGHT: settings.EXTRA_PRICE_HINDSIGHT,
            WORD_STRENGTH: settings.EXTRA_PRICE_WORD_STRENGTH,
        }[extra]
    )


def period(
    extra: str, *, seat: int, state: engine.GameState, last_move: tuple[int, str] | None
) -> int | None:
    """The move number a purchase of ``extra`` by ``seat`` would be for now, or None when
    it cannot be bought now (not the period it is for). ``last_move``: the seat's last
    move, (number, kind), or None before its first."""
    if extra in (TILE_BAG, WORD_STRENGTH):
        return state.moves_played + 1 if state.turn == seat and not state.over else None
    if extra == HINDSIGHT:
        # From the seat's move until its next one: through the opponent's turn and the
        # seat's own turn after it (against the computer, whose reply comes within a
        # second, that turn is the only time there is). Not on its own turn after a
        # pass: that rack is the one it holds now, and the board all but this one, so
        # hindsight would be the best play for the move in hand.
        if last_move is None or state.over or (state.turn == seat and last_move[1] == Pass.kind):
            return None
        return last_move[0]
    return None


def period_now(game: Any, extra: str, seat: int) -> int | None:
    """:func:`period` for ``game`` as it is (its state and the seat's last move)."""
    if not game.state:
        return None
    last = game.moves.filter(seat=seat).order_by("-number").values_list("number", "kind").first()
    return period(extra, seat=seat, state=game.state_obj(), last_move=last)


# ----- what each extra shows ------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TileBag:
    """The tiles ``seat`` has not seen, per tile in the tile set's order (``?`` a blank),
    tiles with none left omitted; and how many are in the bag."""

    unseen: tuple[tuple[str, int], ...]
    in_bag: int

    @property
    def total(self) -> int:
        return sum(n for _t, n in self.unseen)


def tile_bag(state: engine.GameState, seat: int) -> TileBag:
    """The tile set minus the board minus ``seat``'s rack. A blank on the board counts as
    a blank, whatever letter it stands for."""
    tiles = state.tileset
    order = (*tiles.alphabet, engine.BLANK)
    left = Counter({**tiles.counts, engine.BLANK: tiles.blanks})
    for line in state.board:
        for char in line:
            if char == engine.EMPTY:
                continue
            left[engine.BLANK if char.islower() else char] -= 1
    left.subtract(state.racks[seat])
    unseen = tuple((t, left[t]) for t in order if left[t] > 0)
    return TileBag(unseen=unseen, in_bag=len(state.bag))


#: A play as ``games.analysis.describe`` writes it (tiles, words, score, position).
Described = analysis.Entry


@dataclass(frozen=True, slots=True)
class Hindsight:
    """The best play ``rack`` allowed on ``board`` (the position before move ``number``)."""

    number: int
    board: tuple[str, ...]
    rack: str
    best: Described | None
    played: Described


def hindsight(
    *,
    number: int,
    board: tuple[str, ...],
    rack: str,
    played: Described,
    language: str,
    lexicon: engine.Lexicon,
    layout_name: str = "wwf",
) -> Hindsight:
    """The best play ``rack`` allowed on ``board``; ``language`` is the tile set's code
    (the game's rules', ``GameState.tileset``), ``layout_name`` its board."""
    tiles = engine.tileset(language)
    top = movegen.best(board, rack, tileset=tiles, layout=engine.layout(layout_name), lexicon=lexicon, k=1)
    return Hindsight(
        number=number, board=board, rack=rack, best=analysis.describe(top[0]) if top else None, played=played
    )


@dataclass(frozen=True, slots=True)
class Strength:
    """A tentative play against every legal play: ``rank`` (1 = best; equal scores share
    the better rank) of ``of`` plays, ``share`` of the best score in percent."""

    score: int
    rank: int
    of: int
    share: int
    best_score: int


def all_scores(
    game_id: int, version: int, state: engine.GameState, seat: int, lexicon: engine.Lexicon
) -> list[int]:
    """The score of every legal play of ``seat``'s rack now, sorted; computed once per
    game version (and seat) and kept in the cache shared by all processes."""
    key = f"wordgame:strength:{game_id}:{version}:{seat}"
    try:
        cached = cache.get(key)
    except Exception:  # the cache is down: work it out, as on a miss
        logger.warning("word strength: the cache is unavailable", exc_info=True)
        cached = None
    if isinstance(cached, list):
        return cached
    found = sorted(
        movegen.scores(
            state.board,
            state.racks[seat],
            tileset=state.tileset,
            layout=engine.layout(state.layout),
            lexicon=lexicon,
        )
    )
    try:
        cache.set(key, found, timeout=settings.STRENGTH_CACHE_SECONDS)
    except Exception:
        logger.warning("word strength: the cache is unavailable", exc_info=True)
    return found


def strength(score: int, scores: list[int]) -> Strength:
    """Where ``score`` stands among ``scores`` (sorted ascending)."""
    best = scores[-1] if scores else 0
    better = len(scores) - bisect.bisect_right(scores, score)
    return Strength(
        score=score,
        rank=1 + better,
        of=len(scores),
        share=round(100 * score / best) if best else 100,
        best_score=best,
    )
