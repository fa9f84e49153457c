"""What ``tournaments`` holds about a player, for "download my data" and account
deletion (``accounts.hooks``): their entries, rating-body memberships and the
tournaments they organised."""

from __future__ import annotations

from typing import Any

from accounts.hooks import Coverage, LanguageStatistics, Unfinished
from tournaments.models import PlayerMembership, Registration, Tournament

KEPT = "kept: the row stays, pointing at the anonymised account (the tournament's record)"


class TournamentsPlayerData:
    covers = {
        "tournaments.Registration.user": Coverage("tournaments.entries", KEPT),
        "tournaments.PlayerMembership.user": Coverage("tournaments.memberships", "deleted"),
        "tournaments.Tournament.created_by": Coverage("tournaments.organised", KEPT),
        "tournaments.TournamentEvent.actor": Coverage("not in the export: the tournament's own log", KEPT),
    }

    def statistics(self, user: Any) -> list[LanguageStatistics]:
        return []

    def export(self, user: Any) -> dict[str, Any]:
        entries = Registration.objects.filter(user=user).select_related("tournament").order_by("pk")
        return {
            "entries": [
                {
                    "tournament": r.tournament_id,
                    "name": r.tournament.name,
                    "player_number": r.number,
                    "status": r.status,
                    "member_number": r.member_number,
                    "rating": r.rating,
                    "registered_at": r.registered_at.isoformat(),
                }
                for r in entries
            ],
            "memberships": [
                {
                    "body": m.body,
                    "number": m.number,
                    "rating": m.rating,
                    "updated_at": m.updated_at.isoformat(),
                }
                for m in PlayerMembership.objects.filter(user=user).order_by("body")
            ],
            "organised": [
                {"tournament": t.pk, "name": t.name, "status": t.status}
                for t in Tournament.objects.filter(created_by=user).order_by("pk")
            ],
        }

    def unfinished(self, user: Any) -> list[Unfinished]:
        return []  # nothing here stands in the way of deleting an account

    def give_up(self, user: Any) -> None:
        """Nothing to give up (see ``unfinished``)."""

    def erase(self, user: Any) -> None:
        PlayerMembership.objects.filter(user=user).delete()
