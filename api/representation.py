"""Games as JSON: the typed view of a game (``games.gameview.GameView``) serialised.

No privacy is decided here: the view holds the caller's own rack only, racks in the move
list only once the game is over, and how many tiles an exchange swapped but not which.
A seat's name is its username, or ``computer:LEVEL`` (a colon is never part of a
username, so the two cannot be confused). A bot's account says it is one (``"bot": true``)
beside its username, wherever a player is named.
"""

from __future__ import annotations

from collections.abc import Callable

import engine
from games.gameview import GameView, LogNote, SeatView
from games.messages import error_message
from games.models import Game
from games.pace import Pace


def player_name(seat: SeatView) -> str:
    return seat.username if seat.username is not None else f"computer:{seat.computer_level}"


def summary(view: GameView) -> dict[str, object]:
    """The game in brief (lists and stream events): who plays, whose turn, the scores."""
    names = {s.index: player_name(s) for s in view.seats}
    return {
        "id": view.pk,
        "language": view.language,
        "mode": view.mode,
        "status": view.status,
        "public": view.is_public,
        "created_by": view.created_by,
        "players": [
            {
                "seat": s.index,
                "name": names[s.index],
                "username": s.username,
                "bot": s.is_bot,
                "computer_level": s.computer_level or None,
            }
            for s in view.seats
        ],
        "your_turn": view.is_my_turn,
        "to_move": names.get(view.turn_seat) if view.turn_seat is not None else None,
        "version": view.version,
        "scores": {names[s.index]: s.score for s in view.seats} if view.status != Game.Status.OPEN else {},
        "allowed": sorted(view.allowed),
        "updated_at": view.updated_at,
        "pace": pace_out(view.pace),
        "rules": view.rules_preset,
        "challenge": view.challenge_rule,
    }


def pace_out(pace: Pace) -> dict[str, object]:
    live = pace.is_live
    return {
        "code": pace.code,
        "speed": pace.speed,
        "days": None if live else pace.days,
        "minutes": pace.minutes if live else None,
        "increment": pace.increment if live else None,
        "overtime_minutes": pace.overtime if live else None,
        "label": pace.label(),
    }


def full(view: GameView) -> dict[str, object]:
    """Everything the caller may see of the game."""
    names = {s.index: player_name(s) for s in view.seats}
    winner = view.winner
    return {
        **summary(view),
        "your_seat": view.viewer_seat,
        "board": list(view.board),
        "rack": view.rack if view.viewer_seat is not None else None,
        "bag": view.bag_count,
        "moves": move_list(view, names),
        "deadline": view.deadline,
        "end_reason": view.end_reason or None,
        "winner": names[winner.index] if winner is not None else None,
        "aids": [{"player": names.get(a.seat, ""), "turn": a.move, "extra": a.extra} for a in view.aids],
        "pending": {"player": names.get(view.pending_seat, ""), "final": view.pending_final}
        if view.pending_seat is not None
        else None,
        # A live game's clocks as the server keeps them, at the moment of this answer.
        "clocks": [
            {"player": names[s.index], "left_ms": s.clock.left_ms, "running": s.clock.running}
            for s in view.seats
            if s.clock is not None
        ],
    }


def move_list(view: GameView, names: dict[int, str]) -> list[dict[str, object]]:
    """The moves, with the log's notes between them (kind ``extend``: a lapsed deadline
    the system moved on because no warning reached the player; its ``number`` is the move
    it follows, its ``note`` says why in the request's language)."""
    totals: dict[int, int] = {}
    lines: list[dict[str, object]] = []
    for m in view.log:
        if isinstance(m, LogNote):
            lines.append(
                {
                    "number": m.after,
                    "player": names.get(m.seat, "") if m.seat is not None else "",
                    "kind": m.kind,
                    "tiles": [],
                    "words": [],
                    "score": 0,
                    "total": totals.get(m.seat, 0) if m.seat is not None else 0,
                    "bingo": False,
                    "exchanged": 0,
                    "rack_before": None,
                    "rack_after": None,
                    "note": m.text,
                    "withdrawn": False,
                    "challenged": None,
                    "invalid_words": [],
                }
            )
            continue
        # A challenge's total is its target's (the seat whose play it challenged).
        totals[m.challenged_seat if m.challenged_seat is not None else m.seat] = m.total
        lines.append(
            {
                "number": m.number,
                "player": names.get(m.seat, ""),
                "kind": m.kind,
                "tiles": list(m.tiles),
                "words": [{"word": w.word, "score": w.score} for w in m.words],
                "score": m.score,
                "total": m.total,
                "bingo": m.bingo,
                "exchanged": m.exchanged_count,
                # The view holds a move's racks only once the game is over.
                "rack_before": m.rack_before if view.is_over else None,
                "rack_after": m.rack_after if view.is_over else None,
                "note": None,
                "withdrawn": m.withdrawn,
                "challenged": names.get(m.challenged_seat) if m.challenged_seat is not None else None,
                "invalid_words": list(m.invalid_words),
            }
        )
    return lines


def preview(evaluate: Callable[[], engine.Evaluation]) -> dict[str, object]:
    """The answer of a preview (``PreviewOut``): the score and words of what ``evaluate``
    found, or why the engine refused the play, changing nothing. The game's, the daily
    puzzle's and a rack duel's previews answer alike."""
    try:
        evaluation = evaluate()
    except engine.IllegalMove as exc:
        return {
            "valid": False,
            "score": 0,
            "bingo": False,
            "words": [],
            "error": exc.code,
            "message": error_message(exc.code, words=exc.words),
        }
    return {
        "valid": True,
        "score": evaluation.score,
        "bingo": evaluation.bingo,
        "words": [{"word": w.word, "score": w.score} for w in evaluation.words],
        "error": None,
        "message": None,
    }
