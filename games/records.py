"""A finished game's record as GCG text (``engine.gcg``): one function for every entry
point that hands it out (the API's ``/gcg``; the page's download can call it too)."""

from __future__ import annotations

from collections.abc import Iterable

from engine.gcg import GameRecord, export_gcg, nicknames
from games.models import ExtraPurchase, Game


def game_record(game: Game) -> GameRecord:
    """``game`` as the engine's ``GameRecord``, under the rules it was played by: the
    tile set (a classic one is ``en-scrabble``...), the board, the going-out rule when
    it is not the tile set's own, and the challenge rule (so the export writes a phony
    taken back as ``--`` and a lost double challenge as Macondo does)."""
    rules = game.rules()
    tiles = rules.tileset_for(game.language)
    classic_set = tiles.language.endswith("-scrabble")
    native_out = "double" if classic_set else "transfer"
    return GameRecord(
        language=tiles.language,
        players=tuple(s.display_name for s in game.seat_list()),
        moves=tuple(m.record_obj() for m in game.moves.all()),
        layout=game.state.get("layout", "wwf"),
        going_out=None if rules.going_out == native_out else rules.going_out,
        challenge=None if rules.challenge == "void" else rules.challenge,
    )


def gcg_text(game: Game, *, purchases: Iterable[ExtraPurchase] | None = None) -> str:
    """The GCG record of ``game``. It holds every rack: callers give it out only once
    the game is over (``Game.is_over``). ``purchases``: the game's extras bought, when
    the caller read them already (the archive's zip reads them per batch)."""
    return export_gcg(game_record(game)) + aid_notes(game, purchases)


def aid_notes(game: Game, purchases: Iterable[ExtraPurchase] | None = None) -> str:
    """Fair play in the record: one ``#note Wordgame-Aid: <nickname> <move> <extra>`` line
    per paid aid bought, after the moves (a ``#note`` may stand anywhere in a GCG file)."""
    nicks = nicknames([s.display_name for s in game.seat_list()])
    return "".join(
        f"#note Wordgame-Aid: {nicks[p.seat]} {p.period} {p.extra}\n"
        for p in (
            sorted(purchases, key=lambda p: (p.period, p.pk))
            if purchases is not None
            else ExtraPurchase.objects.filter(game=game).order_by("period", "pk")
        )
    )
