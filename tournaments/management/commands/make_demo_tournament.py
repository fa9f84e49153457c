"""``manage.py make_demo_tournament``: play the demo tournament and write its fixture
(a maintainer's command, run once on an empty database; see ``tournaments.demo``)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from tournaments.demo import generate, write_fixture


class Command(BaseCommand):
    help = "Play the demo tournament on this (empty) database and write tournaments/fixtures/demo_tournament.json."

    def handle(self, *args: Any, **options: Any) -> None:
        tournament = generate(report=lambda line: self.stderr.write(line))
        path = write_fixture(tournament)
        self.stdout.write(f"wrote {path}")
