"""What ``puzzles`` holds about a player, for "download my data" and account deletion
(``accounts.hooks``): their puzzle answers, solo challenges and rack duels."""

from __future__ import annotations

from typing import Any

from django.db.models import Q

from accounts.hooks import Coverage, LanguageStatistics, Unfinished
from puzzles.models import Attempt, Duel, SoloChallenge

KEPT = "kept: the row stays, pointing at the anonymised account (the other player's duel)"


class PuzzlesPlayerData:
    covers = {
        "puzzles.Attempt.user": Coverage("puzzles.answers", "deleted"),
        "puzzles.SoloChallenge.user": Coverage(
            "puzzles.solo_challenges", "deleted (the game itself is the games' to deal with)"
        ),
        "puzzles.Duel.challenger": Coverage("puzzles.duels", KEPT),
        "puzzles.Duel.opponent": Coverage("puzzles.duels", KEPT),
    }

    def statistics(self, user: Any) -> list[LanguageStatistics]:
        return []

    def export(self, user: Any) -> dict[str, Any]:
        answers = Attempt.objects.filter(user=user).select_related("puzzle").order_by("puzzle__day", "pk")
        challenges = SoloChallenge.objects.filter(user=user).order_by("created_at", "pk")
        duels = (
            Duel.objects.filter(Q(challenger=user) | Q(opponent=user))
            .select_related("challenger", "opponent")
            .order_by("created_at", "pk")
        )
        return {
            "answers": [
                {
                    "language": a.puzzle.language,
                    "day": a.puzzle.day.isoformat(),
                    "tiles": a.tiles,
                    "score": a.score,
                    "rank": a.rank,
                    "rated": a.rated,
                    "at": a.created_at.isoformat(),
                }
                for a in answers
            ],
            "solo_challenges": [
                {
                    "language": c.language,
                    "kind": c.kind,
                    "day": c.day.isoformat() if c.day else None,
                    "game": c.game_id,
                    "target": c.greedy_total,
                    "score": c.score,
                    "stars": c.stars,
                }
                for c in challenges
            ],
            # A duel's position is the challenger's rack: the friend sees it too, by design.
            "duels": [
                {
                    "challenger": d.challenger.username,
                    "opponent": d.opponent.username,
                    "game": d.game_id,
                    "move": d.move_number,
                    "rack": d.rack,
                    "challenger_score": d.challenger_score,
                    "score": d.score,
                    "best": d.best_score,
                    "at": d.created_at.isoformat(),
                }
                for d in duels
            ],
        }

    def unfinished(self, user: Any) -> list[Unfinished]:
        return []  # a challenge under way is a game: the games' provider lists it

    def give_up(self, user: Any) -> None:
        """Nothing to give up (see ``unfinished``)."""

    def erase(self, user: Any) -> None:
        Attempt.objects.filter(user=user).delete()
        SoloChallenge.objects.filter(user=user).delete()
