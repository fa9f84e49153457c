"""Staff can see who holds API tokens and revoke one (delete it), e.g. a leaked token;
nobody can create one here or read more than its hash and first characters."""

from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest

from api.models import ApiToken


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin[ApiToken]):
    list_display = ("user", "name", "prefix", "created_at", "last_used_at")
    list_filter = ("created_at", "last_used_at")
    search_fields = ("user__username", "name", "prefix")
    list_select_related = ("user",)
    readonly_fields = ("user", "name", "prefix", "key_hash", "created_at", "last_used_at")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: ApiToken | None = None) -> bool:
        return False
