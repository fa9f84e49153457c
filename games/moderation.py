"""Moderation in games: hiding a chat line, who may write in a game's chat, and what
the moderators' report page shows of a game (``accounts.hooks.GameSummary``: its chat,
hidden lines included and marked, and its moves; the racks only once the game is over,
as everywhere staff look, ``games/admin.py``; registered from ``GamesConfig``). Mutes,
suspensions and warnings are the players' own business: ``accounts.moderation``.

Fair play in rated games: ``record_fair_play`` keeps each player's signals of an analysed
game (``games.fairplay``), ``review_fair_play`` works out their figures over their latest
rated games in that language and, above the thresholds, files a report for the moderators
as the site (``accounts.services.file_system_report``). It never acts on a player itself."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.hooks import ChatLine, GameSummary, MoveLine
from accounts.models import ModerationAction, Report, User
from accounts.moderation import record
from accounts.services import file_system_report
from games import fairplay, realtime
from games.actions import Accept, Deal
from games.analysis import Entry
from games.gameview import versus
from games.models import ChatMessage, FairPlayGame, Game, GameAction, Move


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


def move_seconds(game: Game) -> dict[int, int]:
    """The seconds each move of ``game`` took, by move number: from the previous move, or
    for the first from the start of play (the deal, or the invitation's acceptance).
    Wall-clock time: a vacation's pause is in it."""
    start = GameAction.objects.filter(game=game, kind__in=(Deal.kind, Accept.kind)).aggregate(
        at=Max("created_at")
    )["at"]
    previous = start or game.created_at
    seconds = {}
    for number, at in game.moves.order_by("number").values_list("number", "created_at"):
        seconds[number] = max(0, round((at - previous).total_seconds()))
        previous = at
    return seconds


def record_fair_play(game: Game, entries: Sequence[Entry]) -> list[FairPlayGame]:
    """Keep the fair-play signals of each person in a finished rated ``game`` from its
    analysis ``entries`` (bots and the computer are not reviewed). Call inside the
    transaction that stores the analysis, so that a game is recorded once."""
    if not game.rated:
        return []
    seats = [s for s in game.seat_list() if s.user is not None and not s.user.is_bot]
    if not seats:
        return []
    seconds = move_seconds(game)
    rows = []
    for seat in seats:
        signals = fairplay.signals_of(entries, seat.index, seconds)
        rows.append(
            FairPlayGame(
                user=seat.user,
                game=game,
                language=game.language,
                finished_at=game.finished_at or timezone.now(),
                ranks=list(signals.ranks),
                shares=list(signals.shares),
                seconds=list(signals.seconds),
            )
        )
    return FairPlayGame.objects.bulk_create(rows)


def review_fair_play(user: User, language: str) -> Report | None:
    """File a fair-play report about ``user`` in ``language`` when their figures over their
    latest ``fairplay.WINDOW`` rated games there are above ``fairplay.THRESHOLDS``; returns
    it, or None (below the thresholds, or a report of the system is open already).

    Games finished before the last such report was dealt with are left out: a moderator's
    decision is not asked again on the same games, only on new evidence."""
    rows = FairPlayGame.objects.filter(user=user, language=language)
    dealt_with = Report.objects.filter(
        reported=user, language=language, by_system=True, resolved=True
    ).aggregate(at=Max("resolved_at"))["at"]
    if dealt_with is not None:
        rows = rows.filter(finished_at__gt=dealt_with)
    latest = list(rows.order_by("-finished_at", "-game_id")[: fairplay.WINDOW])
    games = [fairplay.GameSignals(tuple(r.ranks), tuple(r.shares), tuple(r.seconds)) for r in latest]
    found = fairplay.figures(games)
    if not fairplay.flagged(found):
        return None
    # Each game's own figures too, so a moderator sees whether a few games or all of them
    # carry the total.
    per_game = []
    for row, signals in zip(latest, games, strict=True):
        one = fairplay.figures([signals])
        per_game.append(
            {
                "game": row.game_id,
                "moves": one.moves,
                "top_share": one.top_share,
                "best_share": one.best_share,
            }
        )
    return file_system_report(
        reported=user,
        reason=Report.Reason.CHEATING,
        language=language,
        figures={
            **found.as_dict(),
            "thresholds": asdict(fairplay.THRESHOLDS),
            "game_ids": [r.game_id for r in latest],
            "per_game": per_game,
        },
        game_id=latest[0].game_id,
    )
