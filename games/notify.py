"""What a change of a game tells its players, recorded in the change's transaction
through the notification centre's one function (``notifications.services.notify``).

Called by ``Game.act`` (after the action is applied, before the commit) and by
``Game.post_chat``. A change notifies at most one kind, so it costs one INSERT (for all
its recipients) and one task. Games against the computer notify nothing: the reply
comes within seconds, on the page the player has open. Names are passed as plain values;
the text is rendered later, for each recipient.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any

from django.db import models, transaction
from django.urls import reverse
from django.utils import timezone

from games.actions import Accept, Action, BuyExtra, Deal, Decline, Extend
from notifications.models import Channel, Kind
from notifications.services import notify

if TYPE_CHECKING:
    from games.models import ChatMessage, Game
    from games.pov import Pov


def player_name(user: Any) -> str:
    return str(user.display_name or user.username)


def game_path(game: Game) -> str:
    return reverse("games:detail", args=[game.pk])


def _other_name(game: Game, user_id: int | None) -> str:
    for seat in game.seat_list():
        if seat.user_id is not None and seat.user_id != user_id:
            return player_name(seat.user)
    return ""


def record_action(game: Game, pov: Pov, action: Action) -> None:
    """The notification ``action`` (just applied to ``game``, row locked) calls for."""
    if game.mode == game.Mode.COMPUTER or isinstance(action, BuyExtra):
        return
    base = {"game": game.pk}
    path = game_path(game)
    match action:
        case Deal() if game.status == game.Status.INVITED:
            invitee = game.invitee
            if invitee is not None:
                who = player_name(game.created_by)
                notify(
                    recipient_ids=[invitee.pk], kind=Kind.INVITATION, params={**base, "who": who}, path=path
                )
            return
        case Deal(told=True):
            return  # the pairing's own message tells both players (a tournament round)
        case Extend():
            to_move = game.seat_user(game.turn_seat) if game.turn_seat is not None else None
            if to_move is not None and game.turn_deadline is not None:
                params = {
                    **base,
                    "who": _other_name(game, to_move.pk),
                    "deadline": game.turn_deadline.isoformat(),
                    "variant": "extended",
                }
                notify(recipient_ids=[to_move.pk], kind=Kind.DEADLINE_WARNING, params=params, path=path)
            return
        case Accept() | Decline():
            if pov.user_id == game.created_by_id:
                return  # the creator withdrew their own invitation or seek
            variant = "accepted" if isinstance(action, Accept) else "declined"
            who = player_name(pov.user) if pov.user is not None else ""
            params = {**base, "who": who, "variant": variant}
            notify(recipient_ids=[game.created_by_id], kind=Kind.INVITATION_ANSWER, params=params, path=path)
            return
    if game.status == game.Status.FINISHED:
        _record_end(game, pov, base, path)
        return
    to_move = game.seat_user(game.turn_seat) if game.turn_seat is not None else None
    if to_move is None or to_move.pk == pov.user_id or game.status != game.Status.ACTIVE:
        return
    deadline = game.turn_deadline.isoformat() if game.turn_deadline is not None else ""
    params = {**base, "who": _other_name(game, to_move.pk), "deadline": deadline}
    notify(recipient_ids=[to_move.pk], kind=Kind.YOUR_TURN, params=params, path=path)


def _record_end(game: Game, pov: Pov, base: dict[str, Any], path: str) -> None:
    """Every seated person but the one who ended it hears the result (one INSERT)."""
    scores = list(game.final_scores or [s.score for s in game.seat_list()])
    by_variant: dict[tuple[str, int, int, str], list[int]] = {}
    for seat in game.seat_list():
        if seat.user_id is None or seat.user_id == pov.user_id:
            continue
        theirs = max((s for i, s in enumerate(scores) if i != seat.index), default=0)
        variant = (
            "draw" if game.winner_seat is None else ("won" if game.winner_seat == seat.index else "lost")
        )
        key = (variant, scores[seat.index], theirs, _other_name(game, seat.user_id))
        by_variant.setdefault(key, []).append(seat.user_id)
    for (variant, mine, theirs, who), ids in by_variant.items():
        params = {**base, "variant": variant, "mine": mine, "theirs": theirs, "who": who}
        notify(recipient_ids=ids, kind=Kind.GAME_OVER, params=params, path=path)


def record_chat(game: Game, message: ChatMessage) -> None:
    """A chat line for the other players who keep chat on."""
    if game.mode == game.Mode.COMPUTER:
        return
    ids = [
        s.user_id
        for s in game.seat_list()
        if s.user_id is not None and s.user_id != message.author_id and getattr(s.user, "chat_enabled", True)
    ]
    text = message.text if len(message.text) <= 120 else message.text[:119] + "…"
    params = {"game": game.pk, "who": player_name(message.author), "text": text}
    notify(recipient_ids=ids, kind=Kind.CHAT, params=params, path=game_path(game))


def record_deadline_warning(game: Game, user: Any) -> None:
    """The player to move has little time left (``Game.send_turn_reminder``)."""
    assert game.turn_deadline is not None
    params = {"game": game.pk, "who": _other_name(game, user.pk), "deadline": game.turn_deadline.isoformat()}
    notify(recipient_ids=[user.pk], kind=Kind.DEADLINE_WARNING, params=params, path=game_path(game))


def on_delivered(delivery: Any) -> None:
    """``notifications.hooks``: a deadline warning reached the player (a push or a mail its
    service accepted): the turn it was about may lapse now (``games.rules._extend``)."""
    from games.models import Game  # it imports this module

    notification = delivery.notification
    game_id, deadline = notification.params.get("game"), notification.params.get("deadline")
    if notification.kind != Kind.DEADLINE_WARNING or not isinstance(game_id, int) or not deadline:
        return
    Game.objects.filter(
        pk=game_id, turn_deadline=datetime.fromisoformat(deadline), turn_noticed_at__isnull=True
    ).update(turn_noticed_at=timezone.now())


def on_viewed(game_id: int, user_id: int) -> None:
    """The player to move has the game open: they know it is their turn. One query (each
    player's open game page runs it every third of ``PRESENCE_SECONDS``)."""
    from games.models import Game, Seat

    to_move = Seat.objects.filter(game_id=game_id, user_id=user_id, index=models.OuterRef("turn_seat"))
    Game.objects.filter(
        models.Exists(to_move), pk=game_id, status=Game.Status.ACTIVE, turn_noticed_at__isnull=True
    ).update(turn_noticed_at=timezone.now())


def record_digests(now: datetime) -> list[int]:
    """The daily summary for each player who wants it by mail (verified address), once
    per day from ``DIGEST_HOUR`` in their time zone: the games waiting for their move.
    Recorded as read (the bell showed each turn already). Returns who got one."""
    from django.conf import settings

    from games.models import Game, Seat
    from notifications import preferences
    from notifications.models import Notification
    from notifications.texts import time_zone_of

    waiting = Seat.objects.filter(
        game__status=Game.Status.ACTIVE, game__turn_seat=models.F("index"), user__isnull=False
    ).exclude(game__mode=Game.Mode.COMPUTER)
    by_user: dict[int, list[Seat]] = {}
    for seat in waiting.select_related("user", "game").order_by("game__turn_deadline", "game_id"):
        if seat.user_id is not None:  # always so (the filter): for the type
            by_user.setdefault(seat.user_id, []).append(seat)
    sent = []
    for user_id, seats in by_user.items():
        user = seats[0].user
        local = now.astimezone(time_zone_of(user))
        if local.hour < settings.DIGEST_HOUR or not preferences.email_address(user):
            continue
        if Channel.EMAIL not in preferences.wanted(user).get(Kind.DIGEST, set()):
            continue
        morning = local.replace(hour=settings.DIGEST_HOUR, minute=0, second=0, microsecond=0)
        if Notification.objects.filter(
            recipient_id=user_id, kind=Kind.DIGEST, created_at__gte=morning
        ).exists():
            continue
        games = []
        for seat in seats:
            models.prefetch_related_objects([seat.game], "seats__user")
            deadline = seat.game.turn_deadline.isoformat() if seat.game.turn_deadline else ""
            games.append({"game": seat.game_id, "who": _other_name(seat.game, user_id), "deadline": deadline})
        with transaction.atomic():  # the row and its delivery task together
            notify(
                recipient_ids=[user_id], kind=Kind.DIGEST, params={"games": games}, path="/games/", read=True
            )
        sent.append(user_id)
    return sent
