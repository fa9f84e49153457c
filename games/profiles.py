"""What the games app tells ``accounts`` about a player (through ``accounts.hooks``):
statistics per game language for the profile, their games in "download my data", whether
games still stop the account from being deleted, and erasing their chat lines. Also the
"play" button of the friends list: the new-game form with the friend filled in.
"""

from __future__ import annotations

from collections import defaultdict
from typing import TYPE_CHECKING

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_GET

from accounts.hooks import BestPlay, Coverage, LanguageStatistics, Unfinished
from accounts.models import User
from games.forms import NewGameForm
from games.models import (
    ChatMessage,
    ExtraPurchase,
    FairPlayGame,
    Game,
    GameAction,
    GameError,
    Move,
    Seat,
    StudyItem,
)

if TYPE_CHECKING:
    from datetime import datetime


def _result(winner_seat: int | None, seat: int) -> str:
    if winner_seat is None:
        return "draw"
    return "win" if winner_seat == seat else "loss"


def player_statistics(user: User) -> list[LanguageStatistics]:
    """Per game language, over ``user``'s finished games (against anyone, the computer
    included): games, wins, losses, draws, average and highest final score, the best
    play (its main word and score) and the number of bingos. Languages in order of
    games played."""
    seats = Seat.objects.filter(user=user, game__status=Game.Status.FINISHED).values_list(
        "index", "score", "game__language", "game__winner_seat", "game__final_scores"
    )
    results: dict[str, list[str]] = defaultdict(list)
    scores: dict[str, list[int]] = defaultdict(list)
    for index, seat_score, language, winner, final_scores in seats:
        results[language].append(_result(winner, index))
        final = (
            final_scores[index]
            if isinstance(final_scores, list) and len(final_scores) > index
            else seat_score
        )
        scores[language].append(int(final))
    plays = Move.objects.filter(
        user=user, kind=Move.Kind.PLAY, game__status=Game.Status.FINISHED, withdrawn=False
    )
    stats = []
    for language in sorted(results, key=lambda lang: (-len(results[lang]), lang)):
        mine = plays.filter(game__language=language)
        best = mine.order_by("-score", "created_at").values_list("words", "score").first()
        best_play = None
        if best is not None and best[0]:
            best_play = BestPlay(word=str(best[0][0]["word"]), score=int(best[1]))
        stats.append(
            LanguageStatistics(
                language=language,
                games=len(results[language]),
                wins=results[language].count("win"),
                losses=results[language].count("loss"),
                draws=results[language].count("draw"),
                average_score=sum(scores[language]) / len(scores[language]),
                highest_score=max(scores[language]),
                best_play=best_play,
                bingos=mine.filter(bingo=True).count(),
            )
        )
    return stats


def _when(value: datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


def export_games(user: User) -> dict[str, object]:
    """The player's games, their own moves (with their own racks) and their chat lines.
    The opponent's racks are not theirs and are left out."""
    return {
        "games": _exported_games(user),
        "moves": _exported_moves(user),
        "actions": [
            {"game": a.game_id, "version": a.version, "kind": a.kind, "at": _when(a.created_at)}
            for a in GameAction.objects.filter(user=user).order_by("game_id", "version")
        ],
        "chat": [
            {"game": c.game_id, "text": c.text, "at": _when(c.created_at)}
            for c in ChatMessage.objects.filter(author=user).order_by("created_at", "pk")
        ],
        "purchases": [
            {
                "game": p.game_id,
                "extra": p.extra,
                "for_move": p.period,
                "coin_entry": p.entry_id,
                "refund": p.refund_id,
                "at": _when(p.created_at),
            }
            for p in ExtraPurchase.objects.filter(user=user).order_by("created_at", "pk")
        ],
        "study_items": _exported_study(user),
        # What the fair-play review read of each of their rated games (games.fairplay).
        "fair_play": [
            {
                "game": f.game_id,
                "language": f.language,
                "ranks": f.ranks,
                "shares_of_best": f.shares,
                "seconds": f.seconds,
            }
            for f in FairPlayGame.objects.filter(user=user).order_by("finished_at", "pk")
        ],
    }


def _exported_games(user: User) -> list[dict[str, object]]:
    games = []
    seats = Seat.objects.filter(user=user).select_related("game").prefetch_related("game__seats__user")
    for seat in seats.order_by("game__created_at"):
        game = seat.game
        others = [s.display_name for s in game.seat_list() if s.index != seat.index]
        over = game.status == Game.Status.FINISHED
        games.append(
            {
                "id": game.pk,
                "language": game.language,
                "mode": game.mode,
                "rated": game.rated,
                "status": game.status,
                "opponent": others[0] if others else None,
                "my_seat": seat.index,
                "final_scores": game.final_scores,
                "result": _result(game.winner_seat, seat.index) if over else None,
                "end_reason": game.end_reason,
                "created_at": _when(game.created_at),
                "finished_at": _when(game.finished_at),
            }
        )
    return games


def _exported_moves(user: User) -> list[dict[str, object]]:
    return [
        {
            "game": m.game_id,
            "number": m.number,
            "kind": m.kind,
            "tiles": m.tiles,
            "words": [w.get("word") for w in m.words],
            "score": m.score,
            "bingo": m.bingo,
            "rack_before": m.rack_before,
            "rack_after": m.rack_after,
            "exchanged": m.exchanged,
            "at": _when(m.created_at),
        }
        for m in Move.objects.filter(user=user).order_by("game_id", "number")
    ]


def _exported_study(user: User) -> list[dict[str, object]]:
    return [
        {
            "language": i.language,
            "word": i.word,
            "kind": i.kind,
            "rack": i.rack,
            "board_letters": i.board_letters,
            "score": i.score,
            "game": i.game_id,
            "move": i.move_number,
            "right": i.right,
            "wrong": i.wrong,
            "last_answered_at": _when(i.last_answered_at),
            "at": _when(i.created_at),
        }
        for i in StudyItem.objects.filter(user=user).order_by("language", "created_at", "pk")
    ]


#: Finished games keep their players (an account is anonymised, never deleted).
KEPT = "kept: the row stays, pointing at the anonymised account"


def unfinished_label(game: Game, user: User) -> str:
    """ "Game 12 against ben: In progress", in the active interface language."""
    others = [s.display_name for s in game.seat_list() if s.user_id != user.pk]
    if not others:
        return gettext("Game %(id)s: %(status)s") % {"id": game.pk, "status": game.get_status_display()}
    return gettext("Game %(id)s against %(players)s: %(status)s") % {
        "id": game.pk,
        "players": ", ".join(others),
        "status": game.get_status_display(),
    }


class GamesPlayerData:
    """The games app's side of ``accounts.hooks.PlayerData``."""

    covers = {
        "games.Game.created_by": Coverage("games.games", KEPT),
        "games.Game.first_player": Coverage("games.games", KEPT),
        "games.Seat.user": Coverage("games.games", KEPT),
        "games.Move.user": Coverage("games.moves", KEPT),
        "games.GameAction.user": Coverage("games.actions", KEPT),
        "games.ExtraPurchase.user": Coverage(
            "games.purchases", KEPT + " (paid with the coin ledger's entries)"
        ),
        "games.ChatMessage.author": Coverage("games.chat", "deleted"),
        "games.StudyItem.user": Coverage("games.study_items", "deleted"),
        "games.FairPlayGame.user": Coverage(
            "games.fair_play", KEPT + " (the moderators' record of rated games, kept as the games are)"
        ),
    }

    def statistics(self, user: User) -> list[LanguageStatistics]:
        return player_statistics(user)

    def export(self, user: User) -> dict[str, object]:
        return export_games(user)

    def unfinished(self, user: User) -> list[Unfinished]:
        games = Game.objects.unfinished_for(user).with_seats().order_by("pk")
        return [
            Unfinished(label=unfinished_label(game, user), url=reverse("games:detail", args=[game.pk]))
            for game in games
        ]

    def give_up(self, user: User) -> None:
        for game in Game.objects.unfinished_for(user).with_seats().order_by("pk"):
            try:
                if game.status == Game.Status.ACTIVE:
                    game.resign(user, version=game.version, action_id=f"delete-account:{game.version}")
                else:
                    game.decline(user, version=game.version, action_id=f"delete-account:{game.version}")
            except GameError:
                # The game moved on meanwhile (a move, a timeout): the deletion re-checks
                # and lists it again if it is still in the way.
                continue

    def erase(self, user: User) -> None:
        ChatMessage.objects.filter(author=user).delete()
        StudyItem.objects.filter(user=user).delete()


@require_GET
@login_required
def play_with(request: HttpRequest, username: str) -> HttpResponse:
    """The new-game form with ``username`` filled in as the friend to invite."""
    friend = get_object_or_404(User.objects.named(username), is_active=True)
    form = NewGameForm(user=request.user, initial={"mode": Game.Mode.FRIEND, "opponent": friend.username})
    return render(request, "games/new.html", {"form": form})
