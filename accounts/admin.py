from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.contrib.auth.admin import UserAdmin
from django.contrib.auth.forms import AdminUserCreationForm, UserChangeForm
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils import timezone
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext, gettext_lazy
from django.utils.translation import gettext_lazy as _

from accounts import hooks, moderation
from accounts.forms import CoinAdjustmentForm, ModerationForm, ReportModerationForm
from accounts.models import (
    Block,
    CoinEntry,
    ModerationAction,
    Rating,
    RatingChange,
    Report,
    User,
    UsernameRename,
)
from accounts.services import NotEnoughCoins, adjust_coins, resolve_reports

#: The permission behind every moderation action (the "Moderators" group has it).
MODERATE = "accounts.moderate_players"


class ModerationActionInline(admin.TabularInline[ModerationAction, User]):
    """The player's moderation log on their admin page, read-only (append-only log)."""

    model = ModerationAction
    fk_name = "subject"
    extra = 0
    fields = readonly_fields = ("created_at", "kind", "reason", "until", "moderator", "game_id", "report")
    can_delete = False
    verbose_name_plural = _("moderation log")

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


def _unique_username(form: UserChangeForm[User] | AdminUserCreationForm) -> str:
    """The username, refused when another account has it in any case or Unicode form (the
    database would refuse it too, with an error page instead of a message)."""
    username: str = form.cleaned_data["username"]
    others = User.objects.named(username)
    if form.instance.pk is not None:
        others = others.exclude(pk=form.instance.pk)
    if others.exists():
        raise ValidationError(_("A user with that username already exists."), code="unique")
    return username


class WordgameUserChangeForm(UserChangeForm[User]):
    def clean_username(self) -> str:
        return _unique_username(self)


class WordgameUserCreationForm(AdminUserCreationForm):
    def clean_username(self) -> str:
        return _unique_username(self)


@admin.register(User)
class WordgameUserAdmin(UserAdmin[User]):
    form = WordgameUserChangeForm
    add_form = WordgameUserCreationForm
    list_display = ("username", "email", "first_name", "last_name", "is_staff", "is_bot", "coins")
    readonly_fields = ("coins", "last_daily_bonus", "deleted_at", "is_bot", "moderation_state")
    fieldsets = (
        *(UserAdmin.fieldsets or ()),
        (
            _("Player"),
            {
                "fields": (
                    "display_name",
                    "game_language",
                    "interface_language",
                    "chat_enabled",
                    "is_bot",
                    "deleted_at",
                    "moderation_state",
                )
            },
        ),
        (_("Coins"), {"fields": ("coins", "last_daily_bonus")}),
    )
    list_filter = (*UserAdmin.list_filter, "is_bot", "deleted_at")
    inlines = [ModerationActionInline]
    actions = ["adjust_coins_action", "mute_chat_action", "suspend_action", "warn_action"]

    def has_adjust_coins_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm("accounts.adjust_coins")

    def has_moderate_players_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm(MODERATE)

    @admin.display(description=_("in force now"))
    def moderation_state(self, user: User) -> str:
        parts = []
        if until := moderation.chat_muted_until(user):
            parts.append(gettext("chat muted until %(until)s") % {"until": timezone.localtime(until)})
        if until := moderation.suspended_until(user):
            parts.append(gettext("suspended until %(until)s") % {"until": timezone.localtime(until)})
        return "; ".join(parts) or "—"

    @admin.action(description=_("Grant or take coins…"), permissions=["adjust_coins"])
    def adjust_coins_action(self, request: HttpRequest, queryset: QuerySet[User]) -> HttpResponse | None:
        # Two steps, like Django's delete confirmation: first ask how many and why.
        form = CoinAdjustmentForm(request.POST if "apply" in request.POST else None)
        if form.is_valid():
            amount, note = form.cleaned_data["amount"], form.cleaned_data["note"]
            assert isinstance(request.user, User)
            for user in queryset.order_by("pk"):
                try:
                    entry = adjust_coins(user=user, amount=amount, note=note, by=request.user)
                except NotEnoughCoins as refused:
                    self.message_user(
                        request,
                        _("%(user)s keeps %(balance)d coins: taking %(amount)d would leave fewer than none.")
                        % {"user": user.username, "balance": refused.balance, "amount": refused.amount},
                        messages.ERROR,
                    )
                else:
                    self.message_user(
                        request,
                        _("%(user)s: %(change)s coins, balance now %(balance)d.")
                        % {"user": user.username, "change": f"{amount:+d}", "balance": entry.balance_after},
                    )
            return None
        context = {
            **self.admin_site.each_context(request),
            "title": _("Grant or take coins"),
            "opts": self.model._meta,
            "users": queryset.order_by("username"),
            "form": form,
            "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
        }
        return TemplateResponse(request, "admin/accounts/user/adjust_coins.html", context)

    @admin.action(description=_("Mute chat for some days…"), permissions=["moderate_players"])
    def mute_chat_action(self, request: HttpRequest, queryset: QuerySet[User]) -> HttpResponse | None:
        return self._moderate(request, queryset, "mute", _("Mute chat"))

    @admin.action(description=_("Suspend from new games for some days…"), permissions=["moderate_players"])
    def suspend_action(self, request: HttpRequest, queryset: QuerySet[User]) -> HttpResponse | None:
        return self._moderate(request, queryset, "suspend", _("Suspend from new games"))

    @admin.action(description=_("Warn…"), permissions=["moderate_players"])
    def warn_action(self, request: HttpRequest, queryset: QuerySet[User]) -> HttpResponse | None:
        return self._moderate(request, queryset, "warn", _("Warn"))

    def _moderate(
        self, request: HttpRequest, queryset: QuerySet[User], kind: str, title: Any
    ) -> HttpResponse | None:
        # Two steps, like Django's delete confirmation: first ask how long and why.
        form = ModerationForm(request.POST if "apply" in request.POST else None, needs_days=kind != "warn")
        if form.is_valid():
            assert isinstance(request.user, User)
            for player in queryset.order_by("pk"):
                apply_moderation(
                    request.user, player, kind, form.cleaned_data.get("days"), form.cleaned_data["reason"]
                )
            self.message_user(request, gettext("%(n)s player(s): done, and told.") % {"n": queryset.count()})
            return None
        context = {
            **self.admin_site.each_context(request),
            "title": title,
            "opts": self.model._meta,
            "users": queryset.order_by("username"),
            "form": form,
            "action": request.POST.get("action", ""),
            "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
        }
        return TemplateResponse(request, "admin/accounts/user/moderate.html", context)


def apply_moderation(
    moderator: User, player: User, kind: str, days: int | None, reason: str, report: Report | None = None
) -> ModerationAction:
    """Mute, suspend or warn ``player`` (one of the ``accounts.moderation`` services)."""
    if kind == "mute":
        return moderation.mute_chat(
            moderator=moderator, player=player, days=days or 0, reason=reason, report=report
        )
    if kind == "suspend":
        return moderation.suspend(
            moderator=moderator, player=player, days=days or 0, reason=reason, report=report
        )
    return moderation.warn(moderator=moderator, player=player, reason=reason, report=report)


def fair_play_summary(figures: dict[str, Any]) -> str:
    """A fair-play report's figures in a sentence (``games.fairplay.Figures`` with the
    thresholds and the games they came from)."""
    limits = figures.get("thresholds", {})
    text = gettext(
        "Top plays: %(top)s %% of %(moves)s moves (threshold %(top_limit)s %%); share of the best score: "
        "%(share)s %% (threshold %(share_limit)s %%); over the last %(games)s rated games: %(ids)s."
    ) % {
        "top": figures.get("top_share"),
        "moves": figures.get("moves"),
        "top_limit": limits.get("top_share"),
        "share": figures.get("best_share"),
        "share_limit": limits.get("best_share"),
        "games": figures.get("games"),
        "ids": ", ".join(str(i) for i in figures.get("game_ids", [])),
    }
    if figures.get("median_seconds") is not None:
        low, high = figures.get("quartile_seconds") or (None, None)
        text += " " + gettext(
            "Time per move: median %(median)s s (half of the moves between %(low)s and %(high)s s)."
        ) % {"median": figures["median_seconds"], "low": low, "high": high}
    return text


@admin.register(ModerationAction)
class ModerationActionAdmin(admin.ModelAdmin[ModerationAction]):
    """The moderation log, read-only: entries are made by the moderation services."""

    list_display = ("created_at", "kind", "subject", "moderator", "until", "reason", "game_id", "report")
    list_filter = ("kind", "created_at")
    search_fields = ("subject__username", "moderator__username", "reason")
    list_select_related = ("subject", "moderator", "report")
    date_hierarchy = "created_at"

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: ModerationAction | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: ModerationAction | None = None) -> bool:
        return False


@admin.register(CoinEntry)
class CoinEntryAdmin(admin.ModelAdmin[CoinEntry]):
    """The ledger, read-only: entries are made by the services (and the action above)."""

    list_display = (
        "created_at",
        "user",
        "kind",
        "amount",
        "balance_after",
        "reason",
        "reference",
        "created_by",
    )
    list_filter = ("kind", "reason")
    search_fields = ("user__username", "reference", "note")
    list_select_related = ("user", "created_by")
    date_hierarchy = "created_at"

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: CoinEntry | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: CoinEntry | None = None) -> bool:
        return False


@admin.register(Report)
class ReportAdmin(admin.ModelAdmin[Report]):
    """The moderators' queue: open reports first, oldest first."""

    list_display = (
        "id",
        "created_at",
        "reported",
        "reason",
        "filed_by",
        "language",
        "game_id",
        "resolved",
        "resolved_by",
    )
    list_filter = ("resolved", "reason", "by_system", "language")
    search_fields = ("reported__username", "reporter__username", "details")
    list_select_related = ("reported", "reporter", "resolved_by")
    readonly_fields = (
        "filed_by",
        "reported",
        "reason",
        "language",
        "details",
        "fair_play_figures",
        "game_id",
        "created_at",
        "resolved_by",
        "resolved_at",
    )
    fields = (*readonly_fields, "resolved", "moderator_note")
    actions = ["mark_resolved"]
    # The game's chat and moves, and the actions on the reported player, below the form.
    change_form_template = "admin/accounts/report/change_form.html"

    def change_view(
        self,
        request: HttpRequest,
        object_id: str,
        form_url: str = "",
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:
        report = self.get_object(request, object_id)
        extra = {
            **(extra_context or {}),
            "game_summary": hooks.game_summary(report.game_id) if report else None,
            "can_moderate": request.user.has_perm(MODERATE),
            "moderation_log": (
                ModerationAction.objects.filter(subject=report.reported).select_related("moderator")[:20]
                if report
                else []
            ),
        }
        return super().change_view(request, object_id, form_url, extra)

    @admin.display(description=_("filed by"))
    def filed_by(self, report: Report) -> str:
        if report.by_system:
            return gettext("the site (fair-play review)")
        return str(report.reporter) if report.reporter is not None else "-"

    @admin.display(description=_("fair-play figures"))
    def fair_play_figures(self, report: Report) -> str:
        """The figures a fair-play report was filed with, in the moderator's language, and
        each game's own shares."""
        if not (report.by_system and report.figures):
            return "-"
        games = format_html_join(
            "",
            "<li>{}</li>",
            (
                (
                    gettext("Game %(game)s: %(moves)s moves, top plays %(top)s %%, best score %(share)s %%")
                    % {
                        "game": g["game"],
                        "moves": g["moves"],
                        "top": g["top_share"],
                        "share": g["best_share"],
                    },
                )
                for g in report.figures.get("per_game", [])
            ),
        )
        return format_html(
            '<p>{}</p><ul id="fair-play-games">{}</ul>', fair_play_summary(report.figures), games
        )

    def get_urls(self) -> list[URLPattern]:
        moderate = path(
            "<int:report_id>/moderate/",
            self.admin_site.admin_view(self.moderate_view),
            name="accounts_report_moderate",
        )
        return [moderate, *super().get_urls()]

    def moderate_view(self, request: HttpRequest, report_id: int) -> HttpResponse:
        """One click from the report page: mute, suspend or warn the reported player, or
        mark the report dealt with (the reporter is told)."""
        if request.method != "POST" or not request.user.has_perm(MODERATE):
            raise PermissionDenied
        assert isinstance(request.user, User)
        report = get_object_or_404(Report.objects.select_related("reported", "reporter"), pk=report_id)
        form = ReportModerationForm(request.POST)
        back = HttpResponseRedirect(reverse("admin:accounts_report_change", args=[report.pk]))
        if not form.is_valid():
            for errors in form.errors.values():
                for error in errors:
                    self.message_user(request, str(error), messages.ERROR)
            return back
        data = form.cleaned_data
        try:
            if data["action"] == "resolve":
                done = resolve_reports(reports=[report], moderator=request.user, note=data["reason"].strip())
                self.message_user(
                    request,
                    gettext("Report dealt with; the reporter is told.")
                    if done
                    else gettext("Already resolved."),
                )
            else:
                apply_moderation(
                    request.user, report.reported, data["action"], data["days"], data["reason"], report
                )
                self.message_user(request, gettext("Done, logged, and the player is told."))
        except ValidationError as error:
            self.message_user(request, " ".join(error.messages), messages.ERROR)
        return back

    @admin.action(description=gettext_lazy("Mark selected reports resolved"), permissions=["change"])
    def mark_resolved(self, request: HttpRequest, queryset: QuerySet[Report]) -> None:
        assert isinstance(request.user, User)
        done = resolve_reports(reports=queryset, moderator=request.user)
        self.message_user(request, gettext("%(n)s report(s) resolved.") % {"n": done})

    def save_model(self, request: HttpRequest, obj: Report, form: object, change: bool) -> None:
        # Ticking "resolved" by hand resolves as the action does (who, when, the log, the
        # reporter told); unticking reopens.
        newly_resolved = obj.resolved and obj.resolved_by_id is None
        if newly_resolved:
            obj.resolved = False
        elif not obj.resolved:
            obj.resolved_by, obj.resolved_at = None, None
        super().save_model(request, obj, form, change)
        if newly_resolved and isinstance(request.user, User):
            resolve_reports(reports=[obj], moderator=request.user)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False


@admin.register(Block)
class BlockAdmin(admin.ModelAdmin[Block]):
    list_display = ("blocker", "blocked", "created_at")
    search_fields = ("blocker__username", "blocked__username")
    list_select_related = ("blocker", "blocked")


@admin.register(Rating)
class RatingAdmin(admin.ModelAdmin[Rating]):
    list_display = ("user", "language", "speed", "rating", "deviation", "games", "last_played_at")
    list_filter = ("language", "speed")
    search_fields = ("user__username",)
    list_select_related = ("user",)
    readonly_fields = (
        "user",
        "language",
        "speed",
        "rating",
        "deviation",
        "volatility",
        "games",
        "last_played_at",
    )


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


@admin.register(UsernameRename)
class UsernameRenameAdmin(admin.ModelAdmin[UsernameRename]):
    """Accounts renamed when usernames became unique regardless of case (read-only record)."""

    list_display = ("old_username", "new_username", "user", "kept_by", "renamed_at", "told_at")
    list_filter = ("told_at",)
    search_fields = ("old_username", "new_username")
    list_select_related = ("user", "kept_by")
    readonly_fields = ("user", "old_username", "new_username", "kept_by", "renamed_at", "told_at")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: UsernameRename | None = None) -> bool:
        return False
