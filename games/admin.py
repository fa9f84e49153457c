from __future__ import annotations

import json
from typing import Any

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.html import format_html
from django.utils.translation import gettext, gettext_lazy

from games.models import ChatMessage, Game, Move, Seat
from games.services import expire_games

HIDDEN = gettext_lazy("hidden while the game is on")


def private_view(game: Game, state: Any) -> Any:
    """The engine state as staff may read it: racks and the bag stay private until the
    game is over, so a moderator who also plays can never peek at an opponent's tiles."""
    if game.status == Game.Status.FINISHED or not isinstance(state, dict):
        return state
    shown = dict(state)
    if "racks" in shown:
        shown["racks"] = [str(HIDDEN)] * len(shown["racks"])
    if "bag" in shown:
        shown["bag"] = str(HIDDEN)
    return shown


#: Fields that hold or determine the hidden tiles (racks, the bag and its order). Admin
#: filters on them would let staff read an opponent's rack one letter at a time
#: (``?state__racks__1__startswith=UG``), so no admin accepts a look-up through them,
#: whatever the game's status: the answer's row count alone would tell.
SECRET_FIELDS = frozenset({"state", "seed", "rack_before", "rack_after", "exchanged", "engine_record"})


class NoSecretLookups:
    """Refuse admin URL look-ups (list filters, ``?field__lookup=``) that pass through a
    secret field; the admin answers them with 400 Bad Request."""

    def lookup_allowed(self, lookup: str, value: str, request: HttpRequest | None = None) -> bool:
        if SECRET_FIELDS.intersection(lookup.split("__")):
            return False
        return super().lookup_allowed(lookup, value, request)  # type: ignore[misc]


class SeatInline(admin.TabularInline[Seat, Game]):
    model = Seat
    extra = 0
    fields = ("index", "user", "computer_level", "score")
    readonly_fields = ("index", "user", "computer_level", "score")
    can_delete = False


@admin.register(Game)
class GameAdmin(NoSecretLookups, admin.ModelAdmin[Game]):
    list_display = (
        "id",
        "language",
        "mode",
        "status",
        "created_by",
        "version",
        "turn_deadline",
        "updated_at",
    )
    list_filter = ("status", "mode", "language", "is_public")
    search_fields = ("id", "created_by__username", "seats__user__username")
    list_select_related = ("created_by",)
    inlines = [SeatInline]
    # The engine state and everything derived from it change only through the model
    # methods; a moderator reads them here.
    readonly_fields = (
        "state_shown",
        "version",
        "seed_shown",
        "turn_seat",
        "first_player",
        "end_reason",
        "winner_seat",
        "final_scores",
        "created_by",
        "rematch_of",
        "created_at",
        "updated_at",
        "finished_at",
        "reminder_sent_at",
    )
    exclude = ("state", "seed")
    actions = ["expire_due_games"]

    @admin.display(description=gettext_lazy("engine state"))
    def state_shown(self, game: Game) -> str:
        return format_html(
            "<pre>{}</pre>", json.dumps(private_view(game, game.state), indent=1, ensure_ascii=False)
        )

    @admin.display(description=gettext_lazy("random seed"))
    def seed_shown(self, game: Game) -> str:
        # The seed deals the bag: with it and the code anyone could replay the deal.
        return str(game.seed) if game.status == Game.Status.FINISHED else str(HIDDEN)

    @admin.action(description=gettext_lazy("Time out lapsed turns and send due reminders (all games)"))
    def expire_due_games(self, request: HttpRequest, queryset: QuerySet[Game]) -> None:
        report = expire_games()
        self.message_user(
            request,
            gettext("%(timed_out)d timed out, %(reminded)d reminded")
            % {"timed_out": len(report.timed_out), "reminded": len(report.reminded)},
        )


@admin.register(Move)
class MoveAdmin(NoSecretLookups, admin.ModelAdmin[Move]):
    list_display = ("game", "number", "seat", "user", "kind", "score", "dictionary_version", "created_at")
    list_filter = ("kind",)
    search_fields = ("game__id", "user__username", "words_text")
    list_select_related = ("game", "user")
    fields = readonly_fields = (
        "game",
        "number",
        "seat",
        "user",
        "kind",
        "tiles",
        "words",
        "words_text",
        "score",
        "bingo",
        "racks_shown",
        "dictionary_version",
        "created_at",
    )

    @admin.display(description=gettext_lazy("racks before and after, exchanged tiles"))
    def racks_shown(self, move: Move) -> str:
        if move.game.status == Game.Status.FINISHED:
            return f"{move.rack_before} → {move.rack_after} ({move.exchanged or '-'})"
        return str(HIDDEN)


@admin.register(ChatMessage)
class ChatMessageAdmin(NoSecretLookups, admin.ModelAdmin[ChatMessage]):
    list_display = ("game", "author", "text", "created_at")
    search_fields = ("text", "author__username", "game__id")
    list_select_related = ("game", "author")
    readonly_fields = ("game", "author", "created_at")
