"""Games as JSON, as the caller may see them.

Privacy is the pages' (``games.rendering``): the caller's own rack only (a spectator
gets none), never a rack in the move list, and how many tiles an exchange swapped but
not which. The engine state is never sent whole: it holds both racks and the bag order.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db.models import Q

import engine
from games.models import ExtraPurchase, Game, Move, Seat


def player_name(seat: Seat) -> str:
    """A seat's name in the API: the username, or ``computer:LEVEL`` (a colon is never
    part of a username, so the two cannot be confused)."""
    if seat.user is None:
        return f"computer:{seat.computer_level}"
    return seat.user.username


def load(game_id: int) -> Game:
    return Game.objects.select_related("created_by").prefetch_related("seats__user").get(pk=game_id)


def visible_games(user: Any) -> Any:
    return Game.objects.watchable_by(user).select_related("created_by").prefetch_related("seats__user")


def my_games(user: Any) -> Any:
    """The caller's games: seated in them (invitations included) or their own open seeks."""
    seated = Seat.objects.filter(user=user).values("game_id")
    return (
        Game.objects.filter(Q(pk__in=seated) | Q(created_by=user, status=Game.Status.OPEN))
        .select_related("created_by")
        .prefetch_related("seats__user")
    )


def _names(game: Game) -> dict[int, str]:
    return {seat.index: player_name(seat) for seat in game.seat_list()}


def summary(game: Game, user: Any) -> dict[str, Any]:
    """The game in brief (lists and stream events): who plays, whose turn, the scores."""
    names = _names(game)
    seat = game.seat_of(user)
    active = game.status == Game.Status.ACTIVE
    state = game.state_obj() if game.state else None
    return {
        "id": game.pk,
        "language": game.language,
        "mode": game.mode,
        "status": game.status,
        "public": game.is_public,
        "created_by": game.created_by.username,
        "players": [
            {
                "seat": s.index,
                "name": names[s.index],
                "username": s.user.username if s.user is not None else None,
                "computer_level": s.computer_level or None,
            }
            for s in game.seat_list()
        ],
        "your_turn": active and seat is not None and game.turn_seat == seat,
        "to_move": names.get(game.turn_seat) if active and game.turn_seat is not None else None,
        "version": game.version,
        "scores": {names[i]: score for i, score in enumerate(state.scores)} if state else {},
        "allowed": sorted(game.allowed_actions(user)),
        "updated_at": game.updated_at,
    }


def move_item(move: Move, names: dict[int, str], total: int) -> dict[str, Any]:
    tiles = [(t["row"], t["col"], t["letter"].lower() if t["blank"] else t["letter"]) for t in move.tiles]
    return {
        "number": move.number,
        "player": names.get(move.seat, ""),
        "kind": move.kind,
        "tiles": tiles if move.kind == Move.Kind.PLAY else [],
        "words": [{"word": w["word"], "score": w["score"]} for w in move.words],
        "score": move.score,
        "total": total,
        "bingo": move.bingo,
        "exchanged": len(move.exchanged),
    }


def move_items(moves: Iterable[Move], names: dict[int, str]) -> list[dict[str, Any]]:
    totals: dict[int, int] = {}
    items = []
    for move in moves:
        totals[move.seat] = totals.get(move.seat, 0) + move.score
        items.append(move_item(move, names, totals[move.seat]))
    return items


def full(game: Game, user: Any) -> dict[str, Any]:
    """Everything ``user`` may see of ``game`` (they may watch it: the caller checked)."""
    names = _names(game)
    seat = game.seat_of(user)
    state = game.state_obj() if game.state else None
    finished = game.status == Game.Status.FINISHED
    board = state.board if state else engine.layout().empty_board()
    return {
        **summary(game, user),
        "your_seat": seat,
        "board": list(board),
        # The caller's own rack, and nobody else's.
        "rack": state.racks[seat] if (state is not None and seat is not None) else None,
        "bag": len(state.bag) if state else engine.tileset(game.language).total_tiles,
        "moves": move_items(game.moves.all(), names),
        "deadline": game.turn_deadline if game.status == Game.Status.ACTIVE else None,
        "end_reason": game.end_reason or None,
        "winner": names.get(game.winner_seat) if finished and game.winner_seat is not None else None,
        "aids": [
            {"player": names.get(p.seat, ""), "turn": p.period, "extra": p.extra}
            for p in ExtraPurchase.objects.filter(game=game).order_by("period", "pk")
        ],
    }
