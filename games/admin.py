from __future__ import annotations

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext, gettext_lazy

from games.models import ChatMessage, Game, Move, Seat
from games.services import expire_games


class SeatInline(admin.TabularInline[Seat, Game]):
    model = Seat
    extra = 0
    fields = ("index", "user", "computer_level", "score")
    readonly_fields = ("index", "user", "computer_level", "score")
    can_delete = False


@admin.register(Game)
class GameAdmin(admin.ModelAdmin[Game]):
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
        "state",
        "version",
        "seed",
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
    actions = ["expire_due_games"]

    @admin.action(description=gettext_lazy("Time out lapsed turns and send due reminders (all games)"))
    def expire_due_games(self, request: HttpRequest, queryset: QuerySet[Game]) -> None:
        report = expire_games()
        self.message_user(
            request,
            gettext("%(timed_out)d timed out, %(reminded)d reminded")
            % {"timed_out": len(report.timed_out), "reminded": len(report.reminded)},
        )


@admin.register(Move)
class MoveAdmin(admin.ModelAdmin[Move]):
    list_display = ("game", "number", "seat", "user", "kind", "score", "dictionary_version", "created_at")
    list_filter = ("kind",)
    search_fields = ("game__id", "user__username", "words_text")
    list_select_related = ("game", "user")
    readonly_fields = [f.name for f in Move._meta.fields]


@admin.register(ChatMessage)
class ChatMessageAdmin(admin.ModelAdmin[ChatMessage]):
    list_display = ("game", "author", "text", "created_at")
    search_fields = ("text", "author__username", "game__id")
    list_select_related = ("game", "author")
    readonly_fields = ("game", "author", "created_at")
