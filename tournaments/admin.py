"""Tournaments in the admin: read, and export (one admin action per format, through the
same ``tournaments.exports`` functions as the organiser's page and the command). Every
change to a tournament goes through its organiser's page, so it is logged; the log
itself is read-only here."""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import FileResponse, HttpRequest
from django.http.response import HttpResponseBase
from django.utils.text import format_lazy
from django.utils.translation import gettext, gettext_lazy

from tournaments import exports
from tournaments.messages import error_message
from tournaments.models import Pairing, PlayerMembership, Registration, Round, Tournament, TournamentEvent


def export_action(fmt: exports.ExportFormat) -> Callable[..., HttpResponseBase | None]:
    """An admin action downloading ``fmt`` for the one tournament selected."""

    def action(
        modeladmin: admin.ModelAdmin[Tournament], request: HttpRequest, queryset: QuerySet[Tournament]
    ) -> HttpResponseBase | None:
        tournaments = list(queryset[:2])
        if len(tournaments) != 1:
            modeladmin.message_user(
                request, gettext("Choose exactly one tournament to export."), messages.ERROR
            )
            return None
        tournament = tournaments[0]
        try:
            chosen, content, report = exports.export(exports.collect(tournament), fmt.name)
        except exports.ExportRefused as exc:
            modeladmin.message_user(
                request,
                error_message("preflight_failed", problems=" ".join(exc.report.errors)),
                messages.ERROR,
            )
            return None
        for warning in report.warnings:
            modeladmin.message_user(request, warning, messages.WARNING)
        return FileResponse(
            io.BytesIO(content),
            as_attachment=True,
            filename=chosen.filename(exports.file_stem(tournament.pk)),
            content_type=chosen.content_type,
        )

    action.__name__ = f"export_{fmt.name.replace('-', '_')}"
    return admin.action(description=format_lazy(gettext_lazy("Export: {format}"), format=fmt.label))(action)


class RegistrationInline(admin.TabularInline[Registration, Tournament]):
    model = Registration
    extra = 0
    fields = (
        "number",
        "user",
        "status",
        "member_number",
        "rating",
        "real_name",
        "checked_in_at",
        "registered_at",
    )
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin[Tournament]):
    list_display = (
        "id",
        "name",
        "language",
        "system",
        "rounds",
        "current_round",
        "status",
        "created_by",
        "starts_at",
    )
    list_filter = ("status", "system", "language")
    search_fields = ("name", "created_by__username")
    list_select_related = ("created_by",)
    inlines = [RegistrationInline]
    # Every change goes through the organiser's page, so it is logged: nothing to edit here.
    readonly_fields = (
        "name",
        "starts_at",
        "rating_body",
        "language",
        "system",
        "rounds",
        "days_per_move",
        "rated",
        "dictionary_version",
        "bye_spread",
        "forfeit_spread",
        "status",
        "current_round",
        "created_by",
        "created_at",
        "updated_at",
        "event",
        "division_code",
        "rating_min",
        "rating_max",
        "checkin_opens_at",
        "king_of_the_hill",
        "gibsonize",
        "prize_places",
        "prize_bands",
        "auto_rounds",
        "round_hours",
        "no_forfeit_without_warning",
        "adjudication",
        "schedule",
    )
    actions = [export_action(f) for f in exports.FORMATS.values()]

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(TournamentEvent)
class TournamentEventAdmin(admin.ModelAdmin[TournamentEvent]):
    list_display = ("tournament", "sequence", "kind", "actor", "reason", "created_at")
    list_filter = ("kind",)
    search_fields = ("tournament__name", "actor__username", "reason")
    list_select_related = ("tournament", "actor")
    readonly_fields = ("tournament", "sequence", "kind", "actor", "reason", "data", "created_at")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin[Round]):
    list_display = ("tournament", "number", "status", "paired_at", "started_at")
    list_filter = ("status",)
    search_fields = ("tournament__name",)
    list_select_related = ("tournament",)
    readonly_fields = ("tournament", "number", "status", "paired_at", "started_at")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Pairing)
class PairingAdmin(admin.ModelAdmin[Pairing]):
    list_display = ("round", "table", "first", "second", "game", "override")
    list_filter = ("override",)
    search_fields = ("round__tournament__name", "first__user__username", "second__user__username")
    list_select_related = ("round", "first__user", "second__user", "game")
    readonly_fields = (
        "round",
        "table",
        "first",
        "second",
        "game",
        "override",
        "first_score",
        "second_score",
        "absent",
    )

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(PlayerMembership)
class PlayerMembershipAdmin(admin.ModelAdmin[PlayerMembership]):
    list_display = ("user", "body", "number", "rating", "updated_at")
    list_filter = ("body",)
    search_fields = ("user__username", "number")
    list_select_related = ("user",)
