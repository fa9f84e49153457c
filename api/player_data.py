"""What ``api`` holds about a player, for "download my data" and account deletion
(``accounts.hooks``): their personal tokens, by name, never the secret nor its hash."""

from __future__ import annotations

from typing import Any

from accounts.hooks import Coverage, LanguageStatistics
from api.models import ApiToken


class ApiPlayerData:
    covers = {"api.ApiToken.user": Coverage("api.tokens", "deleted: every token stops working")}

    def statistics(self, user: Any) -> list[LanguageStatistics]:
        return []

    def export(self, user: Any) -> dict[str, Any]:
        return {
            "tokens": [
                {
                    "name": t.name,
                    "bot": t.is_bot,
                    "created_at": t.created_at.isoformat(),
                    "last_used_at": t.last_used_at.isoformat() if t.last_used_at else None,
                }
                for t in ApiToken.objects.filter(user=user).order_by("created_at", "pk")
            ]
        }

    def unfinished(self, user: Any) -> int:
        return 0

    def erase(self, user: Any) -> None:
        ApiToken.objects.filter(user=user).delete()
