"""``manage.py daily_puzzles``: start the nightly chain of the daily puzzles unless it is
waiting already (each run chooses that day's and defers the next to the following
midnight, UTC). Every sweep and every task worker that starts does the same
(``puzzles.tasks.ensure_nightly_choice``); this is for doing it by hand."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from puzzles.tasks import ensure_nightly_choice


class Command(BaseCommand):
    help = "Choose today's daily puzzles and schedule the nightly choice."

    def handle(self, *args: Any, **options: Any) -> None:
        if ensure_nightly_choice():
            self.stdout.write("Today's puzzles are being chosen; the next run waits for midnight (UTC).")
        else:
            self.stdout.write("The nightly choice is waiting already (or this task backend cannot defer).")
