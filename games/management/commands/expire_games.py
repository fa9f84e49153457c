"""``manage.py expire_games``: time out lapsed turns and send the day-before reminders.

Run it periodically (every 15 minutes or hourly): cron, a systemd timer, or the
``make expire`` target. The logic is ``games.services.expire_games``.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from games.services import expire_games


class Command(BaseCommand):
    help = "Resign players whose turn deadline passed and remind those with a day left."

    def handle(self, *args: Any, **options: Any) -> None:
        report = expire_games()
        self.stdout.write(f"timed out: {len(report.timed_out)} game(s) {report.timed_out}")
        self.stdout.write(f"reminded: {len(report.reminded)} game(s) {report.reminded}")
