"""``manage.py setup_site``: what ``make run`` loads after migrating (idempotent)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from dictionaries.services import ensure_dictionaries
from games.demo import create_demo_data
from games.tasks import ensure_sweep


class Command(BaseCommand):
    help = "Create the dictionaries with their moderated word changes, and the demo accounts and game."

    def handle(self, *args: Any, **options: Any) -> None:
        for line in ensure_dictionaries():
            self.stdout.write(line)
        for line in create_demo_data():
            self.stdout.write(line)
        if ensure_sweep():
            self.stdout.write(
                "the sweep task is queued (lapsed deadlines, reminders, waiting computer turns)"
            )
