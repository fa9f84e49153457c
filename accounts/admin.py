from __future__ import annotations

from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.contrib.auth.admin import UserAdmin
from django.contrib.auth.forms import AdminUserCreationForm, UserChangeForm
from django.core.exceptions import ValidationError
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy
from django.utils.translation import gettext_lazy as _

from accounts.forms import CoinAdjustmentForm
from accounts.models import Block, CoinEntry, Rating, RatingChange, Report, User, UsernameRename
from accounts.services import NotEnoughCoins, adjust_coins, resolve_reports


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
    list_display = ("username", "email", "first_name", "last_name", "is_staff", "coins")
    readonly_fields = ("coins", "last_daily_bonus", "deleted_at")
    fieldsets = (
        *(UserAdmin.fieldsets or ()),
        (_("Player"), {"fields": ("display_name", "game_language", "interface_language", "deleted_at")}),
        (_("Coins"), {"fields": ("coins", "last_daily_bonus")}),
    )
    list_filter = (*UserAdmin.list_filter, "deleted_at")
    actions = ["adjust_coins_action"]

    def has_adjust_coins_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm("accounts.adjust_coins")

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
