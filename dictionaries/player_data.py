"""What ``dictionaries`` holds about a player, for "download my data" and account
deletion (``accounts.hooks``): the words they proposed and suggested."""

from __future__ import annotations

from typing import Any

from accounts.hooks import Coverage, LanguageStatistics, Unfinished
from dictionaries.models import WordChange, WordSuggestion

KEPT = "kept: the row stays, pointing at the anonymised account (the word list's history)"


class DictionariesPlayerData:
    covers = {
        "dictionaries.WordChange.proposed_by": Coverage("dictionaries.proposals", KEPT),
        "dictionaries.WordChange.decided_by": Coverage("not in the export: a moderator's decision", KEPT),
        "dictionaries.WordSuggestion.user": Coverage("dictionaries.suggestions", KEPT),
    }

    def statistics(self, user: Any) -> list[LanguageStatistics]:
        return []

    def export(self, user: Any) -> dict[str, Any]:
        changes = WordChange.objects.filter(proposed_by=user).select_related("dictionary").order_by("pk")
        suggestions = WordSuggestion.objects.filter(user=user).select_related("change__dictionary")
        return {
            "proposals": [
                {
                    "language": c.dictionary.language,
                    "word": c.word,
                    "action": c.action,
                    "status": c.status,
                    "at": c.proposed_at.isoformat(),
                }
                for c in changes
            ],
            "suggestions": [
                {
                    "language": s.change.dictionary.language,
                    "word": s.change.word,
                    "status": s.change.status,
                    "game": s.game_id,
                    "at": s.created_at.isoformat(),
                }
                for s in suggestions.order_by("created_at", "pk")
            ],
        }

    def unfinished(self, user: Any) -> list[Unfinished]:
        return []  # nothing here stands in the way of deleting an account

    def give_up(self, user: Any) -> None:
        """Nothing to give up (see ``unfinished``)."""

    def erase(self, user: Any) -> None:
        """Nothing to erase: a suggestion names a word, and the account is anonymised."""
