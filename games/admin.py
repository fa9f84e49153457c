from __future__ import annotations

import json

from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils.html import format_html
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext, gettext_lazy
from django_stubs_ext import StrOrPromise

from games.models import ChatMessage, Game, Move, Seat
from games.moderation import hide_chat_line
from games.services import expire_games

#: Hiding a chat line is a moderation action (accounts' permission, held by Moderators).
MODERATE = "accounts.moderate_players"

HIDDEN = gettext_lazy("hidden while the game is on")


def private_view(game: Game, state: object) -> object:
    """The engine state as staff may read it: racks and the bag stay private until the
    game is over, so a moderator who also plays can never peek at an opponent's tiles."""
    if game.status == Game.Status.FINISHED or not isinstance(state, dict):
        return state
    shown = dict(state)
    if "racks" in shown:
        shown["racks"] = [str(HIDDEN)] * len(shown["racks"])
    if "bag" in shown:
        shown["bag"] = str(HIDDEN)
    if isinstance(shown.get("pending"), dict):
        # A provisional play keeps its player's rack before it and the tiles drawn after
        # it (to take it back): together they are that player's rack now.
        shown["pending"] = {**shown["pending"], "rack_before": str(HIDDEN), "drawn": str(HIDDEN)}
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
    list_filter = ("status", "mode", "language", "rules_preset", "challenge_rule", "is_public")
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


class HiddenFilter(admin.SimpleListFilter):
    title = gettext_lazy("hidden by a moderator")
    parameter_name = "hidden"

    def lookups(
        self, request: HttpRequest, model_admin: admin.ModelAdmin[ChatMessage]
    ) -> list[tuple[str, StrOrPromise]]:
        return [("yes", gettext_lazy("Yes")), ("no", gettext_lazy("No"))]

    def queryset(self, request: HttpRequest, queryset: QuerySet[ChatMessage]) -> QuerySet[ChatMessage]:
        if self.value() in ("yes", "no"):
            return queryset.filter(hidden_at__isnull=self.value() == "no")
        return queryset


@admin.register(ChatMessage)
class ChatMessageAdmin(NoSecretLookups, admin.ModelAdmin[ChatMessage]):
    list_display = ("game", "author", "text", "created_at", "hidden_at")
    list_filter = (HiddenFilter,)
    search_fields = ("text", "author__username", "game__id")
    list_select_related = ("game", "author")
    readonly_fields = ("game", "author", "created_at", "hidden_at", "hidden_reason")
    actions = ["hide_lines"]

    def has_moderate_players_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm(MODERATE)

    @admin.action(description=gettext_lazy("Hide selected chat lines…"), permissions=["moderate_players"])
    def hide_lines(self, request: HttpRequest, queryset: QuerySet[ChatMessage]) -> HttpResponse | None:
        reason = request.POST.get("reason", "").strip() if "apply" in request.POST else ""
        if reason:
            for message in queryset:
                self._hide(request, message, reason)
            return None
        return self._reason_page(request, list(queryset.select_related("author")), action="hide_lines")

    def get_urls(self) -> list[URLPattern]:
        hide = path(
            "<int:message_id>/hide/",
            self.admin_site.admin_view(self.hide_view),
            name="games_chatmessage_hide",
        )
        return [hide, *super().get_urls()]

    def hide_view(self, request: HttpRequest, message_id: int) -> HttpResponse:
        """Hide one line (from the report page: a reason and one click), then back."""
        if not request.user.has_perm(MODERATE):
            raise PermissionDenied
        message = get_object_or_404(ChatMessage.objects.select_related("author"), pk=message_id)
        reason = request.POST.get("reason", "").strip() if request.method == "POST" else ""
        if not reason:
            return self._reason_page(request, [message], action="")
        self._hide(request, message, reason)
        back = request.POST.get("next", "")
        if not url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()}):
            back = reverse("admin:games_chatmessage_changelist")
        return HttpResponseRedirect(back)

    def _hide(self, request: HttpRequest, message: ChatMessage, reason: str) -> None:
        try:
            hide_chat_line(message=message, moderator=request.user, reason=reason)
        except ValidationError as error:
            self.message_user(request, " ".join(error.messages), messages.WARNING)
        else:
            self.message_user(request, gettext("Chat line hidden: the players see “hidden by a moderator”."))

    def _reason_page(self, request: HttpRequest, lines: list[ChatMessage], *, action: str) -> HttpResponse:
        context = {
            **self.admin_site.each_context(request),
            "title": gettext("Hide chat lines"),
            "opts": self.model._meta,
            "lines": lines,
            "action": action,
            "next": request.POST.get("next", "") or request.GET.get("next", ""),
            "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
        }
        return TemplateResponse(request, "admin/games/chatmessage/hide.html", context)
