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


class SoloChallenge(models.Model):
    """A short game on one's own against a target: a solo ``games.Game`` (one seat, a
    turn limit) dealt from ``seed``, measured against ``greedy_total``, what the engine's
    best play each turn scores from the same deal. ``DAILY``: the day's seed, the same for
    everyone, one per player, language and day; ``PRACTICE``: a fresh seed any time."""

    class Kind(models.TextChoices):
        DAILY = "daily", _("Daily challenge")
        PRACTICE = "practice", _("Practice")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="solo_challenges"
    )
    game = models.OneToOneField("games.Game", on_delete=models.CASCADE, related_name="solo_challenge")
    language = models.CharField(_("language"), max_length=8)
    kind = models.CharField(_("kind"), max_length=10, choices=Kind.choices)
    day = models.DateField(_("day (UTC)"), null=True, blank=True)
    seed = models.BigIntegerField(_("seed"))
    turns = models.PositiveSmallIntegerField(_("turns"))
    greedy_total = models.IntegerField(_("the engine's total"))
    # Set in the transaction that ends the game (puzzles.solo.on_game_committed).
    score = models.IntegerField(_("score"), null=True, blank=True)
    stars = models.PositiveSmallIntegerField(_("stars"), null=True, blank=True)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("solo challenge")
        verbose_name_plural = _("solo challenges")
        constraints = [
            models.UniqueConstraint(
                fields=["user", "language", "day"],
                condition=models.Q(kind="daily"),
                name="puzzles_one_daily_challenge",
            )
        ]
        indexes = [models.Index(fields=["language", "day", "kind", "score"], name="puzzles_solo_day_best")]

    def __str__(self) -> str:
        return f"{self.user_id} {self.kind} {self.language} {self.seed}"


class Duel(models.Model):
    """A rack duel: the challenger's position at one of their own moves of a finished game
    (the board before it and their rack then, nothing else of the game), put to a friend,
    who plays it once. Both are scored against the engine's best; the answer stays hidden
    from the friend until they have played."""

    challenger = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="duels_sent"
    )
    opponent = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="duels_received"
    )
    game = models.ForeignKey("games.Game", on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    move_number = models.PositiveIntegerField(_("move"))
    language = models.CharField(_("language"), max_length=8)
    layout = models.CharField(_("board"), max_length=16)
    rules = models.JSONField(_("rules"), default=dict)
    board = models.JSONField(_("board rows"))
    rack = models.CharField(_("rack"), max_length=16)
    dictionary_version = models.PositiveIntegerField(_("dictionary version"), null=True, blank=True)
    best_score = models.IntegerField(_("best score"))
    plays = models.PositiveIntegerField(_("legal plays"))
    top = models.JSONField(_("best plays"), default=list)
    # What the challenger played from this position in the game.
    challenger_words = models.JSONField(_("challenger's words"), default=list)
    challenger_score = models.IntegerField(_("challenger's score"))
    challenger_rank = models.PositiveIntegerField(_("challenger's rank"))
    # The friend's one play (empty until answered).
    tiles = models.JSONField(_("tiles"), default=list)
    words = models.JSONField(_("words"), default=list)
    score = models.IntegerField(_("score"), null=True, blank=True)
    rank = models.PositiveIntegerField(_("rank"), null=True, blank=True)
    answered_at = models.DateTimeField(_("answered"), null=True, blank=True)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("rack duel")
        verbose_name_plural = _("rack duels")
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.challenger_id} → {self.opponent_id} #{self.game_id}/{self.move_number}"

    def board_obj(self) -> engine.Board:
        return tuple(str(line) for line in self.board)

    def tileset(self) -> engine.TileSet:
        return (engine.Rules.from_dict(self.rules) if self.rules else engine.Rules()).tileset_for(
            self.language
        )
