from __future__ import annotations

from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.contrib.auth.admin import UserAdmin
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.utils.translation import gettext_lazy as _

from accounts.forms import CoinAdjustmentForm
from accounts.models import CoinEntry, User
from accounts.services import NotEnoughCoins, adjust_coins


@admin.register(User)
class WordgameUserAdmin(UserAdmin[User]):
    list_display = ("username", "email", "first_name", "last_name", "is_staff", "coins")
    readonly_fields = ("coins", "last_daily_bonus")
    fieldsets = (*(UserAdmin.fieldsets or ()), (_("Coins"), {"fields": ("coins", "last_daily_bonus")}))
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
