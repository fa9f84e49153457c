"""``manage.py load_demo_tournament``: the demo's finished tournament (idempotent)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from tournaments.demo import load_demo_tournament


class Command(BaseCommand):
    help = "Load the demo's finished tournament, organised by the demo account ana (once)."

    def handle(self, *args: Any, **options: Any) -> None:
        for line in load_demo_tournament():
            self.stdout.write(line)
