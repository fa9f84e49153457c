"""Indexes for the archive (``games.archive``, issue 30; figures in docs/benchmarks.md):

- finished games in the archive's order, ``(finished_at, id)``, only the finished ones
  (the dates filter and the keyset pages walk it);
- a player's seats with their games, ``(user, game)``: the set of one player's games;
- on PostgreSQL, a trigram index on ``Move.words_text``, so "contains the word" (a
  ``LIKE '% WORD %'``) is an index look-up instead of a scan of every move. It needs the
  ``pg_trgm`` extension (trusted: a database owner may create it). SQLite has no such
  index and scans, which the benchmark measures too.
"""

from __future__ import annotations

from typing import Any

from django.db import migrations, models

TRIGRAM_INDEX = "games_move_words_text_trgm"


def trigram_index(apps: Any, schema_editor: Any) -> None:
    if schema_editor.connection.vendor != "postgresql":
        return
    schema_editor.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm")
    schema_editor.execute(
        f"CREATE INDEX IF NOT EXISTS {TRIGRAM_INDEX} ON games_move USING gin (words_text gin_trgm_ops)"
    )


def drop_trigram_index(apps: Any, schema_editor: Any) -> None:
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(f"DROP INDEX IF EXISTS {TRIGRAM_INDEX}")


class Migration(migrations.Migration):
    dependencies = [("games", "0008_moderators_read_chat")]

    operations = [
        migrations.AddIndex(
            model_name="game",
            index=models.Index(
                fields=["-finished_at", "-id"],
                condition=models.Q(status="finished"),
                name="games_finished_order",
            ),
        ),
        migrations.AddIndex(
            model_name="seat",
            index=models.Index(fields=["user", "game"], name="games_seat_user_game"),
        ),
        migrations.RunPython(trigram_index, drop_trigram_index, elidable=False),
    ]
