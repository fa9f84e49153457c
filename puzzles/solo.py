"""Solo challenges (STYLE.md 3.4): "score N in five turns" from a seeded deal.

A challenge is a game like any other (``games.Game``, one seat, dealt and played through
``Game.act``) whose rules end it after ``TURNS`` turns (``engine.Rules.turn_limit``). Its
target is the engine's greedy total for the same deal (:func:`greedy_total`: the best
play each turn, exactly as the game deals and draws), and the stars measure the final
score against it (:func:`stars_for`). The daily seed is the same for everyone, so the
day's table compares like with like; a practice seed is fresh each time.

The game's mode is ``computer``: no one else is seated, so the site treats it as it
treats a game against the computer (no notifications to anyone, never rated).
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Sequence
from datetime import date, datetime
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import QuerySet
from django.urls import reverse
from django.utils.translation import gettext

import engine
from accounts.models import User
from engine import analysis
from games.actions import SYSTEM, Deal
from games.hooks import GameNote
from games.models import Game, Transition, lexicon_for, rng_for
from games.services import inactivity_days
from puzzles.models import SoloChallenge
from puzzles.services import PuzzleError, check_language, today

#: Turns in a challenge.
TURNS = 5
#: Stars: the share of the engine's greedy total reached for one, two and three.
STAR_SHARES = (0.6, 0.8, 1.0)
#: Rows in the day's table.
TABLE_SIZE = 20


def rules() -> engine.Rules:
    # Scoreless turns never end a challenge early: the turn limit comes first.
    return engine.Rules(turn_limit=TURNS, scoreless_turns_to_end=TURNS)


def daily_seed(day: date, language: str) -> int:
    digest = hashlib.sha256(f"wordgame-solo:{day.isoformat()}:{language}".encode()).digest()
    return int.from_bytes(digest[:7], "big")


def greedy_total(seed: int, language: str, lexicon: engine.Lexicon | None = None) -> int:
    """What the engine's best play each turn scores in a challenge dealt from ``seed``:
    the game's own deal and exchanges (``games.models.rng_for``), ``TURNS`` turns."""
    lexicon = lexicon if lexicon is not None else lexicon_for(language)
    state = engine.new_game(language, rng_for(seed, "deal"), players=1, rules=rules())
    while not state.over:
        choice = analysis.computer_move(
            state, 0, lexicon, "hard", rng_for(seed, "computer", state.moves_played)
        )
        state = choice.apply(state, 0, lexicon, rng_for(seed, "exchange", state.moves_played)).state
    return state.scores[0]


def stars_for(score: int, greedy: int) -> int:
    """0 to 3: one star from 60 % of the engine's total, two from 80 %, three from 100 %."""
    if greedy <= 0:
        return 3
    return sum(1 for share in STAR_SHARES if score >= share * greedy)


def start(*, user: User, language: str, kind: str, now: datetime | None = None) -> SoloChallenge:
    """The player's challenge: today's daily one in ``language`` (made the first time,
    the same one after), or a practice one (the one under way, else a new one)."""
    check_language(language)
    if kind not in SoloChallenge.Kind.values:
        raise PuzzleError("bad_kind")
    day = today(now) if kind == SoloChallenge.Kind.DAILY else None
    under_way = SoloChallenge.objects.filter(user=user, language=language, kind=kind)
    under_way = under_way.filter(day=day) if day else under_way.filter(game__status=Game.Status.ACTIVE)
    if (found := under_way.select_related("game").first()) is not None:
        return found
    seed = daily_seed(day, language) if day else secrets.randbits(63)
    target = greedy_total(seed, language)
    try:
        with transaction.atomic():
            game = Game.objects.create(
                language=language,
                mode=Game.Mode.COMPUTER,
                status=Game.Status.INVITED,
                created_by=user,
                seed=seed,
                inactivity_days=inactivity_days(Game.Mode.COMPUTER),
                is_public=False,
                extras_allowed=False,
            )
            challenge = SoloChallenge.objects.create(
                user=user,
                game=game,
                language=language,
                kind=kind,
                day=day,
                seed=seed,
                turns=TURNS,
                greedy_total=target,
            )
            game.act(SYSTEM, Deal(players=(user.pk,), start=True, rules=rules()), version=game.version)
    except IntegrityError:
        # The same daily challenge started twice at once: the first one stands.
        return SoloChallenge.objects.select_related("game").get(
            user=user, language=language, kind=kind, day=day
        )
    return challenge


def on_game_committed(transition: Transition) -> None:
    """``games``' follow-up hook, inside the change's transaction (the game row locked): a
    challenge's game that has just finished sets the challenge's score and stars with it."""
    if transition.status != Game.Status.FINISHED:
        return
    challenge = SoloChallenge.objects.filter(game_id=transition.game_id, score__isnull=True).first()
    if challenge is None:
        return
    finals = Game.objects.filter(pk=transition.game_id).values_list("final_scores", flat=True).first() or [0]
    score = int(finals[0])
    SoloChallenge.objects.filter(pk=challenge.pk, score__isnull=True).update(
        score=score, stars=stars_for(score, challenge.greedy_total)
    )


def day_table(language: str, day: date) -> QuerySet[SoloChallenge]:
    """The day's best finished daily challenges in ``language``, best first."""
    return (
        SoloChallenge.objects.filter(
            language=language, day=day, kind=SoloChallenge.Kind.DAILY, score__isnull=False
        )
        .select_related("user")
        .order_by("-score", "created_at")[:TABLE_SIZE]
    )


def mine(user: User, language: str) -> list[SoloChallenge]:
    """The player's latest challenges in ``language``."""
    return list(
        SoloChallenge.objects.filter(user=user, language=language)
        .select_related("game")
        .order_by("-created_at")[:10]
    )


def lobby_notes(game_ids: Sequence[int], user: Any) -> dict[int, GameNote]:
    """``games``' lobby hook: a challenge's game says so, with its target and stars."""
    notes: dict[int, GameNote] = {}
    for c in SoloChallenge.objects.filter(game_id__in=game_ids):
        label = gettext("Solo challenge: target %(target)s") % {"target": c.greedy_total}
        if c.stars is not None:
            label += " · " + "★" * c.stars + "☆" * (3 - c.stars)
        notes[c.game_id] = GameNote(
            label=label, url=reverse("puzzles:solo", args=[c.language]), badge=gettext("Solo")
        )
    return notes
