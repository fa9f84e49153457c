"""The daily puzzle: one position per UTC day and game language, chosen once and kept
(``Puzzle``), and each player's first answer to it (``Attempt``)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

import engine


class Puzzle(models.Model):
    """The puzzle of ``day`` in ``language``. Chosen by ``puzzles.services.daily_puzzle``
    from its ``seed`` and never changed once stored (one row per day and language)."""

    class Source(models.TextChoices):
        GAME = "game", _("A finished public game")
        SELF_PLAY = "self_play", _("A game the computer played against itself")

    day = models.DateField(_("day (UTC)"))
    language = models.CharField(_("language"), max_length=8)
    seed = models.BigIntegerField(_("seed"))
    source = models.CharField(_("source"), max_length=10, choices=Source.choices)
    # The position's origin: a game and the move played from it (SET_NULL: a deleted game
    # leaves the puzzle as it was), or the computer's game and turn for SELF_PLAY.
    game = models.ForeignKey("games.Game", on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    origin = models.JSONField(_("origin"), default=list)
    layout = models.CharField(_("board"), max_length=16)
    rules = models.JSONField(_("rules"), default=dict)
    board = models.JSONField(_("board rows"))
    rack = models.CharField(_("rack"), max_length=16)
    dictionary_version = models.PositiveIntegerField(_("dictionary version"), null=True, blank=True)
    best_score = models.IntegerField(_("best score"))
    second_score = models.IntegerField(_("second-best score"))
    plays = models.PositiveIntegerField(_("legal plays"))
    # The five best plays: [{"tiles": [[row, col, char]...], "score": n, "words": [[word, score]...]}]
    top = models.JSONField(_("best plays"), default=list)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("daily puzzle")
        verbose_name_plural = _("daily puzzles")
        ordering = ["-day", "language"]
        constraints = [
            models.UniqueConstraint(fields=["day", "language"], name="puzzles_one_per_day_language")
        ]

    def __str__(self) -> str:
        return f"{self.language} {self.day.isoformat()}"

    def board_obj(self) -> engine.Board:
        return tuple(str(line) for line in self.board)

    def rules_obj(self) -> engine.Rules:
        return engine.Rules.from_dict(self.rules) if self.rules else engine.Rules()

    def tileset(self) -> engine.TileSet:
        return self.rules_obj().tileset_for(self.language)

    def top_plays(self) -> list[dict[str, Any]]:
        return list(self.top)


class Attempt(models.Model):
    """A player's answer to a puzzle: the first one counts (one row per player and
    puzzle). ``rated``: given on the puzzle's own day, so it counts for the streak."""

    puzzle = models.ForeignKey(Puzzle, on_delete=models.CASCADE, related_name="attempts")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="puzzle_attempts"
    )
    tiles = models.JSONField(_("tiles"), default=list)
    words = models.JSONField(_("words"), default=list)
    score = models.IntegerField(_("score"))
    rank = models.PositiveIntegerField(_("rank"))
    rated = models.BooleanField(_("on the day"))
    created_at = models.DateTimeField(_("answered"), auto_now_add=True)

    class Meta:
        verbose_name = _("puzzle answer")
        verbose_name_plural = _("puzzle answers")
        constraints = [
            models.UniqueConstraint(fields=["puzzle", "user"], name="puzzles_one_attempt_per_player")
        ]
        indexes = [models.Index(fields=["user", "rated"], name="puzzles_attempt_user_rated")]

    def __str__(self) -> str:
        return f"{self.user_id} {self.puzzle}"
