"""``manage.py daily_puzzles``: choose today's puzzles now and start the nightly chain
(each run defers the next to the following midnight, UTC)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from puzzles.tasks import choose_daily_puzzles


class Command(BaseCommand):
    help = "Choose today's daily puzzles and schedule the nightly choice."

    def handle(self, *args: Any, **options: Any) -> None:
        choose_daily_puzzles.enqueue("", True)
        self.stdout.write("Today's puzzles are being chosen; the next run waits for midnight (UTC).")
