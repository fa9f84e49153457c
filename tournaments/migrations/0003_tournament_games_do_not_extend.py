"""Tournament games never extend a lapsed turn (it would stall the round): the games made
before the field existed get it off (new ones are made so by start_paired_game)."""

from __future__ import annotations

from typing import Any

from django.db import migrations


def turn_off(apps: Any, schema_editor: Any) -> None:
    Game = apps.get_model("games", "Game")
    Pairing = apps.get_model("tournaments", "Pairing")
    games = Pairing.objects.filter(game__isnull=False).values("game_id")
    Game.objects.filter(pk__in=games).update(warn_before_timeout=False)


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0002_organisers_group"),
        ("games", "0009_deadline_warnings_and_extension"),
    ]

    operations = [migrations.RunPython(turn_off, migrations.RunPython.noop)]
