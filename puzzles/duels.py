"""Rack duels (STYLE.md 3.4): "challenge a friend to this move".

From the replay of a finished game, a player puts one of their own moves to a friend: the
board just before it and the rack they held then, and nothing else of the game (never a
rack of a game under way, never another seat's rack). The friend plays it once; both are
scored against the engine's best, and the result reaches both through the notification
centre (``notifications.services.notify``, recorded in the transaction of the change).
The answer (the best plays, the challenger's own play) stays hidden from the friend until
they have played.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext

import engine
from accounts.models import User
from accounts.services import friends_of, is_blocked
from engine import movegen
from games.models import Game, Move, lexicon_for, lexicon_version
from notifications.models import Kind
from notifications.services import notify
from puzzles import selection, services
from puzzles.models import Duel
from puzzles.services import PuzzleError


def position_of(game: Game, user: User, number: int) -> tuple[Move, selection.Position]:
    """The position of ``user``'s move ``number`` in ``game``, refused unless the game is
    over and the move is theirs (the only rack a duel may show)."""
    if game.status != Game.Status.FINISHED:
        raise PuzzleError("duel_not_finished")
    seat = game.seat_of(user)
    move = game.moves.filter(number=number).first()
    if seat is None or move is None or move.seat != seat or not move.rack_before:
        raise PuzzleError("duel_not_yours")
    return move, services.position_before(game.pk, number)


def _lexicon_args(duel: Duel) -> dict[str, Any]:
    return {
        "tileset": duel.tileset(),
        "layout": engine.layout(duel.layout),
        "lexicon": lexicon_for(duel.language, duel.dictionary_version),
    }


def challenge(*, challenger: User, game: Game, number: int, opponent_name: str) -> Duel:
    """Put ``challenger``'s move ``number`` of ``game`` to the friend ``opponent_name``."""
    move, position = position_of(game, challenger, number)
    opponent = User.objects.named(opponent_name).filter(is_active=True).first()
    if opponent is None:
        raise PuzzleError("unknown_player")
    if opponent.pk == challenger.pk:
        raise PuzzleError("duel_self")
    if is_blocked(challenger, opponent) or not friends_of(challenger).filter(pk=opponent.pk).exists():
        raise PuzzleError("duel_not_friend")
    lexicon = lexicon_for(game.language)
    tiles = position.rules.tileset_for(game.language)
    geometry = engine.layout(position.layout)
    top = movegen.best(
        position.board, position.rack, tileset=tiles, layout=geometry, lexicon=lexicon, k=selection.TOP
    )
    played = move.score if move.kind == Move.Kind.PLAY else 0
    counted = movegen.count(
        position.board, position.rack, tileset=tiles, layout=geometry, lexicon=lexicon, better_than=played
    )
    with transaction.atomic():
        duel = Duel.objects.create(
            challenger=challenger,
            opponent=opponent,
            game=game,
            move_number=number,
            language=game.language,
            layout=position.layout,
            rules=position.rules.to_dict(),
            board=list(position.board),
            rack=position.rack,
            dictionary_version=lexicon_version(lexicon),
            best_score=top[0].score if top else 0,
            plays=counted.count,
            top=[
                {
                    "tiles": [list(t) for t in m.tiles],
                    "score": m.score,
                    "words": [[w.word, w.score] for w in m.words],
                }
                for m in top
            ],
            challenger_words=[[w["word"], w["score"]] for w in move.words]
            if move.kind == Move.Kind.PLAY
            else [],
            challenger_score=played,
            challenger_rank=1 + counted.better,
        )
        notify(
            recipient_ids=[opponent.pk],
            kind=Kind.DUEL,
            params={"variant": "challenged", "who": challenger.username},
            path=reverse("puzzles:duel", args=[duel.pk]),
        )
    return duel


def visible(duel_id: int, user: User) -> Duel:
    """The duel, to its two players only (anyone else: ``not_found``)."""
    duel = Duel.objects.select_related("challenger", "opponent").filter(pk=duel_id).first()
    if duel is None or user.pk not in (duel.challenger_id, duel.opponent_id):
        raise PuzzleError("not_found")
    return duel


def evaluate(duel: Duel, placements: Sequence[engine.Placement]) -> engine.Evaluation:
    args = _lexicon_args(duel)
    return engine.evaluate(duel.board_obj(), placements, rack=duel.rack, **args)


def answer(*, duel: Duel, user: User, placements: Sequence[engine.Placement]) -> Duel:
    """The friend's one play: the first legal one counts; the challenger is told."""
    if user.pk != duel.opponent_id:
        raise PuzzleError("duel_not_for_you")
    if duel.answered_at is not None:
        return duel
    evaluation = evaluate(duel, placements)
    better = movegen.count(
        duel.board_obj(), duel.rack, better_than=evaluation.score, **_lexicon_args(duel)
    ).better
    with transaction.atomic():
        locked = Duel.objects.select_for_update().get(pk=duel.pk)
        if locked.answered_at is not None:
            return locked
        locked.tiles = [[p.row, p.col, p.board_char] for p in placements]
        locked.words = [[w.word, w.score] for w in evaluation.words]
        locked.score = evaluation.score
        locked.rank = 1 + better
        locked.answered_at = timezone.now()
        locked.save(update_fields=["tiles", "words", "score", "rank", "answered_at"])
        notify(
            recipient_ids=[locked.challenger_id],
            kind=Kind.DUEL,
            params={
                "variant": "answered",
                "who": duel.opponent.username,
                "theirs": locked.score,
                "mine": locked.challenger_score,
                "best": locked.best_score,
            },
            path=reverse("puzzles:duel", args=[locked.pk]),
        )
    return locked


def replay_links(game: Any, seat: int, number: int) -> list[tuple[str, str]]:
    """``games``' replay hook: the duel link beside the viewer's own move."""
    return [(gettext("Challenge a friend to this move"), reverse("puzzles:duel-new", args=[game.pk, number]))]
