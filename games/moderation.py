"""Moderation in games: hiding a chat line, who may write in a game's chat, and what
the moderators' report page shows of a game (``accounts.hooks.GameSummary``: its chat,
hidden lines included and marked, and its moves; the racks only once the game is over,
as everywhere staff look, ``games/admin.py``; registered from ``GamesConfig``). Mutes,
suspensions and warnings are the players' own business: ``accounts.moderation``."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.hooks import ChatLine, GameSummary, MoveLine
from accounts.models import ModerationAction
from accounts.moderation import record
from games import realtime
from games.gameview import versus
from games.models import ChatMessage, Game, Move


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


def hide_chat_line(*, message: ChatMessage, moderator: Any, reason: str) -> ChatMessage:
    """Hide a chat line for its game's players ("hidden by a moderator") and log it.

    ``ValidationError`` without a reason or when the line is hidden already. The hiding
    and its log entry are one transaction; the players' chat is pushed again on commit.
    """
    if not reason.strip():
        raise ValidationError(_("Give a reason: it is kept in the moderation log."), code="no_reason")
    with transaction.atomic():
        message = ChatMessage.objects.select_for_update().get(pk=message.pk)
        if message.hidden_at is not None:
            raise ValidationError(_("This chat line is hidden already."), code="already_hidden")
        message.hidden_at, message.hidden_reason = timezone.now(), reason.strip()
        message.save(update_fields=["hidden_at", "hidden_reason"])
        record(
            moderator=moderator,
            subject=message.author,
            kind=ModerationAction.Kind.HIDE_CHAT,
            reason=reason,
            game_id=message.game_id,
            chat_message_id=message.pk,
        )
        realtime.chat_posted(message.game_id, message.pk)
    return message
