"""A finished game's record as GCG text (``engine.gcg``): one function for every entry
point that hands it out (the API's ``/gcg``; the page's download can call it too)."""

from __future__ import annotations

from engine.gcg import GameRecord, export_gcg
from games.models import Game


def gcg_text(game: Game) -> str:
    """The GCG record of ``game``. It holds every rack: callers give it out only once
    the game is over (``Game.is_over``)."""
    seats = game.seat_list()
    record = GameRecord(
        language=game.language,
        players=tuple(s.display_name for s in seats),
        moves=tuple(m.record_obj() for m in game.moves.all()),
        layout=game.state.get("layout", "wwf"),
    )
    return export_gcg(record)
