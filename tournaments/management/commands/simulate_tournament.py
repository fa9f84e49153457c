"""``manage.py simulate_tournament``: a whole tournament played by the computer."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

import engine
from tournaments import pairing
from tournaments.messages import error_message
from tournaments.services import TournamentError
from tournaments.simulate import simulate_tournament


class Command(BaseCommand):
    help = (
        "Create N players and run a whole tournament with the computer playing every seat "
        "(no task worker needed); prints the tournament id last."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--players", type=int, required=True)
        parser.add_argument("--rounds", type=int, required=True)
        parser.add_argument("--system", choices=pairing.SYSTEMS, required=True)
        parser.add_argument("--language", choices=engine.LANGUAGES, default="en")
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--divisions", type=int, default=1, help="split the players by rating band")
        parser.add_argument("--no-shows", type=int, default=0, help="players who never check in")
        parser.add_argument("--late", type=int, default=0, help="players who enter after round one")
        parser.add_argument("--missed", choices=("loss", "bye"), default="loss")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["players"] < 2:
            raise CommandError("--players must be at least 2")
        if options["divisions"] < 1 or options["no_shows"] < 0 or options["late"] < 0:
            raise CommandError("--divisions must be at least 1; --no-shows and --late at least 0")
        try:
            tournament = simulate_tournament(
                players=options["players"],
                rounds=options["rounds"],
                system=options["system"],
                language=options["language"],
                seed=options["seed"],
                divisions=options["divisions"],
                no_shows=options["no_shows"],
                late_entries=options["late"],
                missed=options["missed"],
                report=lambda line: self.stderr.write(line),
            )
        except TournamentError as exc:
            raise CommandError(error_message(exc.code, **exc.params)) from None
        self.stdout.write(str(tournament.pk))
