"""``manage.py export_tournament ID --format FORMAT [--output PATH]``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments.exports import FORMATS, ExportRefused, collect, export
from tournaments.models import Tournament


class Command(BaseCommand):
    help = (
        "Export a tournament after the pre-flight check: text formats go to standard output "
        "unless --output is given; the zips need --output. Warnings go to standard error."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("tournament_id", type=int)
        parser.add_argument("--format", choices=list(FORMATS), required=True)
        parser.add_argument("--output", type=Path, help="the file to write (required for zips)")

    def handle(self, *args: Any, **options: Any) -> None:
        tournament = Tournament.objects.filter(pk=options["tournament_id"]).first()
        if tournament is None:
            raise CommandError(f"there is no tournament {options['tournament_id']}")
        fmt = FORMATS[options["format"]]
        output: Path | None = options["output"]
        if fmt.binary and output is None:
            raise CommandError(f"--format {fmt.name} writes a zip: give --output PATH")
        try:
            _fmt, content, report = export(collect(tournament), fmt.name)
        except ExportRefused as exc:
            raise CommandError("pre-flight check failed: " + " ".join(exc.report.errors)) from None
        for warning in report.warnings:
            self.stderr.write(f"warning: {warning}")
        if output is None:
            self.stdout.write(content.decode("utf-8"), ending="")
        else:
            output.write_bytes(content)
            self.stderr.write(f"wrote {output} ({len(content)} bytes)")
