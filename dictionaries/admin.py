"""The moderators' admin: word changes (search, filter, propose, approve, reject) and
the dictionaries (read-only). Actions call the model methods and services."""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import Count, QuerySet
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.urls import URLPattern, path
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from dictionaries import frequency, hooks, lexicons
from dictionaries.forms import BulkProposeForm, RejectForm
from dictionaries.models import Dictionary, WordChange, WordSuggestion
from dictionaries.services import propose_changes

ADD_FIELDS = ("dictionary", "word", "action", "reason")
DETAIL_FIELDS = (
    "dictionary", "word", "normalized", "action", "status", "reason", "currently_valid", "games_played",
    "suggestion_count", "word_frequency", "proposed_by", "proposed_at", "decided_by", "decided_at", "decision_note", "version",
)  # fmt: skip


@admin.register(Dictionary)
class DictionaryAdmin(admin.ModelAdmin[Dictionary]):
    list_display = ("language", "version", "word_count", "graph_file", "updated_at")
    list_filter = ("language",)
    search_fields = ("language",)
    list_select_related = False  # no foreign keys to follow
    readonly_fields = ("language", "version", "graph_file", "word_count", "updated_at")

    # Rows are made by ensure_dictionaries and change only through decisions.
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Dictionary | None = None) -> bool:
        return False


class WordSuggestionInline(admin.TabularInline[WordSuggestion, WordChange]):
    """Who suggested the word, when, from which game, with which source (read-only)."""

    model = WordSuggestion
    extra = 0
    fields = readonly_fields = ("user", "created_at", "game_id", "source_url")
    can_delete = False

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        # Part of the word change: whoever may see the change sees who asked for it.
        return request.user.has_perm("dictionaries.view_wordchange")

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(WordChange)
class WordChangeAdmin(admin.ModelAdmin[WordChange]):
    """The moderators' queue: most suggested first, with the word's frequency. Eight narrow
    columns, so the list fits beside the filters at 1280 px without cutting the last one;
    the spelling as entered, who proposed and decided, the dates and the version are on the
    change page."""

    list_display = (
        "normalized", "dictionary", "action", "status", "suggestion_count", "word_frequency",
        "currently_valid", "games_played",
    )  # fmt: skip
    list_filter = ("status", "action", "dictionary__language", "proposed_at")
    search_fields = ("normalized", "word", "reason", "proposed_by__username")
    list_select_related = ("dictionary", "proposed_by", "decided_by")
    actions = ("approve_changes", "reject_changes")
    date_hierarchy = "proposed_at"

    def get_ordering(self, request: HttpRequest) -> tuple[str, ...]:
        # Most suggested first. Not the ``ordering`` attribute: the admin's checks refuse
        # a name that is an annotation (of ``get_queryset``), not a field.
        return ("-suggestions_total", "-proposed_at", "-pk")

    def get_queryset(self, request: HttpRequest) -> QuerySet[WordChange]:
        # Annotated before the admin orders by it (ModelAdmin.get_queryset orders).
        queryset = WordChange.objects.annotate(suggestions_total=Count("suggestions"))
        return queryset.order_by(*(self.get_ordering(request) or ()))

    @admin.display(description=_("suggested"), ordering="suggestions_total")
    def suggestion_count(self, obj: WordChange) -> int:
        return int(getattr(obj, "suggestions_total", 0) or obj.suggestions.count())

    @admin.display(description=_("frequency (Zipf)"))
    def word_frequency(self, obj: WordChange) -> str:
        # wordfreq's Zipf scale: 3 is once per million words, 6 once per thousand.
        value = frequency.zipf(obj.dictionary.language, obj.word)
        return "—" if value is None else f"{value:.1f}"

    def get_inlines(self, request: HttpRequest, obj: WordChange | None = None) -> list[Any]:
        # Only on a recorded change: the add form stays the plain proposal it was.
        return [WordSuggestionInline] if obj is not None else []

    def get_fields(self, request: HttpRequest, obj: WordChange | None = None) -> tuple[str, ...]:
        return DETAIL_FIELDS if obj is not None else ADD_FIELDS

    def get_readonly_fields(self, request: HttpRequest, obj: WordChange | None = None) -> tuple[str, ...]:
        # A recorded change is never edited: decisions go through the actions.
        return DETAIL_FIELDS if obj is not None else ()

    def has_delete_permission(self, request: HttpRequest, obj: WordChange | None = None) -> bool:
        return False

    def save_model(self, request: HttpRequest, obj: WordChange, form: Any, change: bool) -> None:
        if not change and request.user.is_authenticated:  # always so behind admin_view
            obj.proposed_by = request.user
        super().save_model(request, obj, form, change)

    @admin.display(description=_("valid now"), boolean=True)
    def currently_valid(self, obj: WordChange) -> bool | None:
        try:
            return obj.normalized in lexicons.for_language(obj.dictionary.language)
        except FileNotFoundError:
            return None

    @admin.display(description=_("finished games with it"))
    def games_played(self, obj: WordChange) -> str:
        if obj.action != WordChange.Action.REMOVE:
            return ""
        count = hooks.word_usage_count(obj.dictionary.language, obj.normalized)
        return "—" if count is None else str(count)

    @admin.action(description=_("Approve selected proposals"), permissions=["change"])
    def approve_changes(self, request: HttpRequest, queryset: QuerySet[WordChange]) -> None:
        self._decide(request, queryset, lambda change: change.approve(by=request.user))

    @admin.action(description=_("Reject selected proposals…"), permissions=["change"])
    def reject_changes(self, request: HttpRequest, queryset: QuerySet[WordChange]) -> HttpResponse | None:
        # Two steps, like Django's delete confirmation: first ask for the reason.
        form = RejectForm(request.POST if "apply" in request.POST else None)
        if form.is_valid():
            reason = form.cleaned_data["reason"]
            self._decide(request, queryset, lambda change: change.reject(by=request.user, reason=reason))
            return None
        context = {
            **self.admin_site.each_context(request),
            "title": _("Reject word changes"),
            "opts": self.model._meta,
            "changes": queryset,
            "form": form,
            "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
        }
        return TemplateResponse(request, "admin/dictionaries/wordchange/reject.html", context)

    def _decide(self, request: HttpRequest, queryset: QuerySet[WordChange], decide: Any) -> None:
        done = 0
        for change in queryset.select_related("dictionary"):
            try:
                decide(change)
            except ValidationError as error:
                self.message_user(
                    request, f"{change.normalized}: {' '.join(error.messages)}", messages.WARNING
                )
            else:
                done += 1
        self.message_user(
            request,
            ngettext("%(count)d word change decided.", "%(count)d word changes decided.", done)
            % {"count": done},
        )

    def get_urls(self) -> list[URLPattern]:
        bulk = path(
            "bulk-propose/",
            self.admin_site.admin_view(self.bulk_propose_view),
            name="dictionaries_wordchange_bulk_propose",
        )
        return [bulk, *super().get_urls()]

    def bulk_propose_view(self, request: HttpRequest) -> HttpResponse:
        """Paste a list, pick a language and an action: one proposal per word."""
        if not self.has_add_permission(request):
            raise PermissionDenied
        form = BulkProposeForm(request.POST or None)
        result = None
        if request.method == "POST" and form.is_valid():
            data = form.cleaned_data
            result = propose_changes(
                language=data["language"],
                words=data["words"],
                action=data["action"],
                proposed_by=request.user,
                reason=data["reason"],
            )
            form = BulkProposeForm(initial={"language": data["language"], "action": data["action"]})
        context = {
            **self.admin_site.each_context(request),
            "title": _("Propose word changes in bulk"),
            "opts": self.model._meta,
            "form": form,
            "result": result,
        }
        return TemplateResponse(request, "admin/dictionaries/wordchange/bulk_propose.html", context)
