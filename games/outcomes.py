"""What happens to players when a game ends: ratings (issue 11).

``on_game_finished`` is called from the game-over path with the finished game. It reads
the game's rows and hands plain data to ``accounts.services.apply_rated_result``, which
is idempotent per game, so calling this twice (a retried task) changes nothing.
"""

from __future__ import annotations

from accounts.services import apply_rated_result
from games.models import Game, Move

#: Moves that count as "having moved": resigning or timing out is not a move.
MOVING_KINDS = (Move.Kind.PLAY, Move.Kind.EXCHANGE, Move.Kind.PASS)


def rating_reference(game: Game) -> str:
    return f"game:{game.pk}"


def is_ratable(game: Game) -> bool:
    """A finished rated game between two players in which both made at least one move
    (played, swapped or passed). Games against the computer are never rated, nor a game
    between a bot and a person (an account that became a bot's during the game)."""
    if not game.rated or game.status != Game.Status.FINISHED or game.mode == Game.Mode.COMPUTER:
        return False
    seats = game.seat_list()
    if len(seats) != 2 or any(seat.is_computer for seat in seats):
        return False
    if len({seat.user.is_bot for seat in seats if seat.user is not None}) > 1:
        return False
    movers = set(game.moves.filter(kind__in=MOVING_KINDS).values_list("seat", flat=True))
    return movers == {seat.index for seat in seats}


def on_game_finished(game: Game) -> None:
    """Update both players' ratings for a finished rated game (nothing for any other).

    Safe to call inside the transaction that finished the game (the rating rows are
    locked after the game row, the project's lock order) or after it, and more than once.
    """
    if not is_ratable(game):
        return
    first, second = game.seat_list()
    # is_ratable checked that both seats hold players.
    assert first.user is not None
    assert second.user is not None
    score = 0.5 if game.winner_seat is None else 1.0 if game.winner_seat == first.index else 0.0
    apply_rated_result(
        language=game.language,
        player=first.user,
        opponent=second.user,
        score=score,
        reference=rating_reference(game),
        at=game.finished_at,
        # Live and correspondence games are rated apart (games.pace).
        speed=game.speed,
    )
