from __future__ import annotations

from django.contrib import admin
from django.contrib.auth.admin import UserAdmin
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy

from accounts.models import Block, Rating, RatingChange, Report, User
from accounts.services import resolve_reports


@admin.register(User)
class PlayerAdmin(UserAdmin[User]):
    fieldsets = (
        *(UserAdmin.fieldsets or ()),
        (
            gettext_lazy("Player"),
            {"fields": ("display_name", "game_language", "interface_language", "deleted_at")},
        ),
    )
    readonly_fields = ("deleted_at",)
    list_filter = (*UserAdmin.list_filter, "deleted_at")


@admin.register(Report)
class ReportAdmin(admin.ModelAdmin[Report]):
    """The moderators' queue: open reports first, oldest first."""

    list_display = (
        "id",
        "created_at",
        "reported",
        "reason",
        "reporter",
        "game_id",
        "resolved",
        "resolved_by",
    )
    list_filter = ("resolved", "reason")
    search_fields = ("reported__username", "reporter__username", "details")
    list_select_related = ("reported", "reporter", "resolved_by")
    readonly_fields = (
        "reporter",
        "reported",
        "reason",
        "details",
        "game_id",
        "created_at",
        "resolved_by",
        "resolved_at",
    )
    fields = (*readonly_fields, "resolved", "moderator_note")
    actions = ["mark_resolved"]

    @admin.action(description=gettext_lazy("Mark selected reports resolved"), permissions=["change"])
    def mark_resolved(self, request: HttpRequest, queryset: QuerySet[Report]) -> None:
        assert isinstance(request.user, User)
        done = resolve_reports(reports=queryset, moderator=request.user)
        self.message_user(request, gettext("%(n)s report(s) resolved.") % {"n": done})

    def save_model(self, request: HttpRequest, obj: Report, form: object, change: bool) -> None:
        # Ticking "resolved" by hand records who and when, as the action does; unticking reopens.
        if obj.resolved and obj.resolved_by_id is None:
            obj.resolved_by, obj.resolved_at = (
                request.user if isinstance(request.user, User) else None,
                timezone.now(),
            )
        elif not obj.resolved:
            obj.resolved_by, obj.resolved_at = None, None
        super().save_model(request, obj, form, change)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False


@admin.register(Block)
class BlockAdmin(admin.ModelAdmin[Block]):
    list_display = ("blocker", "blocked", "created_at")
    search_fields = ("blocker__username", "blocked__username")
    list_select_related = ("blocker", "blocked")


@admin.register(Rating)
class RatingAdmin(admin.ModelAdmin[Rating]):
    list_display = ("user", "language", "rating", "deviation", "games", "last_played_at")
    list_filter = ("language",)
    search_fields = ("user__username",)
    list_select_related = ("user",)
    readonly_fields = ("user", "language", "rating", "deviation", "volatility", "games", "last_played_at")


@admin.register(RatingChange)
class RatingChangeAdmin(admin.ModelAdmin[RatingChange]):
    list_display = (
        "user",
        "language",
        "rating_before",
        "rating_after",
        "opponent",
        "reference",
        "created_at",
    )
    list_filter = ("language",)
    search_fields = ("user__username", "reference")
    list_select_related = ("user", "opponent")
    readonly_fields = (
        "user",
        "language",
        "opponent",
        "score",
        "rating_before",
        "rating_after",
        "deviation_after",
        "volatility_after",
        "reference",
        "created_at",
    )
