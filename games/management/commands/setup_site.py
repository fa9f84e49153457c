"""``manage.py setup_site [--demo]``: what a site needs after migrating (idempotent).

Always: the dictionaries and their moderated word changes. With ``--demo`` (``make run``
passes it) also the demo accounts and games of ``games.demo``, whose password is
published: never on a production site.
"""

from __future__ import annotations

from argparse import ArgumentParser
from typing import Any

from django.core.management.base import BaseCommand

from dictionaries.services import ensure_dictionaries
from games.demo import create_demo_data, demo_loaders
from games.tasks import ensure_sweep


class Command(BaseCommand):
    help = (
        "Create the dictionaries with their moderated word changes; with --demo also the demo "
        "accounts (published password) and games."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument(
            "--demo",
            action="store_true",
            help="also create the demo accounts ana, ben and mod (password wordgame-demo) and games",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        for line in ensure_dictionaries():
            self.stdout.write(line)
        if options["demo"]:
            for line in create_demo_data():
                self.stdout.write(line)
            for loader in demo_loaders():
                for line in loader():
                    self.stdout.write(line)
        if ensure_sweep():
            self.stdout.write(
                "the sweep task is queued (lapsed deadlines, reminders, waiting computer turns)"
            )
