"""``manage.py vapid_keys``: a new VAPID key pair for Web Push, printed as the two
environment lines production sets; ``--write FILE`` stores it as JSON instead, unless
the file exists (``make run`` keeps a development site's pair in ``var/vapid.json``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from notifications.push import new_vapid_keys


class Command(BaseCommand):
    help = "Print a new VAPID key pair for Web Push (VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--write", metavar="FILE", help="store the pair in FILE (JSON) if it does not exist"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        public, private = new_vapid_keys()
        if options["write"]:
            path = Path(options["write"])
            if path.exists():
                self.stdout.write(f"{path} exists: kept")
                return
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps({"public": public, "private": private}))
            path.chmod(0o600)
            self.stdout.write(f"VAPID key pair written to {path}")
            return
        self.stdout.write(f"VAPID_PUBLIC_KEY={public}\nVAPID_PRIVATE_KEY={private}")
