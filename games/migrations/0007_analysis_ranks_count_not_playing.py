"""Stored analyses: each move's "of" counts not playing (a swap or a pass) as a choice.

Before, "of" was the number of legal plays while a swap or pass was ranked after all of
them, which read "rank 216 of 215". The ranks themselves were right; each entry's "of"
gains the one choice it left out. Self-contained: JSON rows only.
"""

from __future__ import annotations

from django.apps.registry import Apps
from django.db import migrations
from django.db.backends.base.schema import BaseDatabaseSchemaEditor


def count_not_playing(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    GameAnalysis = apps.get_model("games", "GameAnalysis")
    for analysis in GameAnalysis.objects.all().iterator():
        for entry in analysis.moves:
            entry["of"] = entry.get("of", 0) + 1
        analysis.save(update_fields=["moves"])


def count_plays_only(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    GameAnalysis = apps.get_model("games", "GameAnalysis")
    for analysis in GameAnalysis.objects.all().iterator():
        for entry in analysis.moves:
            entry["of"] = max(0, entry.get("of", 1) - 1)
        analysis.save(update_fields=["moves"])


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0006_vacation_pauses"),
    ]

    operations = [
        migrations.RunPython(count_not_playing, count_plays_only),
    ]
