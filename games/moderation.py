"""What the moderators' report page shows of a game (``accounts.hooks.GameSummary``):
its chat, hidden lines included (marked), and its moves; the racks only once the game
is over, as everywhere staff look (``games/admin.py``). Registered from ``GamesConfig``."""

from __future__ import annotations

from accounts.hooks import ChatLine, GameSummary, MoveLine
from games.models import ChatMessage, Game, Move
from games.rendering import versus


def game_summary(game_id: int) -> GameSummary | None:
    game = Game.objects.with_seats().filter(pk=game_id).first()
    if game is None:
        return None
    over = game.status == Game.Status.FINISHED
    seats = game.seat_list()
    names = {s.index: s.display_name for s in seats}
    chat = [
        ChatLine(
            id=m.pk,
            author=str(m.author),
            text=m.text,
            hidden=m.hidden_at is not None,
            created_at=m.created_at,
        )
        for m in ChatMessage.objects.filter(game=game).select_related("author").order_by("created_at", "pk")
    ]
    moves = [
        MoveLine(
            number=m.number,
            player=names.get(m.seat, ""),
            kind=m.get_kind_display(),
            words=m.words_text.strip(),
            score=m.score,
            racks=f"{m.rack_before} → {m.rack_after}" if over else "",
        )
        for m in Move.objects.filter(game=game).order_by("number")
    ]
    return GameSummary(
        game_id=game.pk,
        title=versus([s.display_name for s in seats]),
        status=game.get_status_display(),
        over=over,
        chat=chat,
        moves=moves,
    )
