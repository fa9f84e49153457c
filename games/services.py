"""Workflows that create games or sweep many of them (STYLE.md 3.4)."""

from __future__ import annotations

import secrets
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone

import engine
from accounts.models import User
from accounts.moderation import suspended_until
from accounts.services import is_blocked
from games import extras, realtime, seeks
from games.actions import SYSTEM, Abort, BuyExtra, Deal, Decline
from games.models import ExtraPurchase, Game, GameError, Move, Seat, lock_user, rng_for, rules_for
from games.pace import Pace
from games.pov import Pov


def inactivity_days(mode: str) -> int:
    """Days a player may take per turn when no pace was chosen: the random-opponent limit,
    or the friend limit (also used against the computer, which never hurries anyone)."""
    if mode == Game.Mode.RANDOM:
        return int(settings.INACTIVITY_DAYS_RANDOM)
    return int(settings.INACTIVITY_DAYS_FRIEND)


def default_pace(mode: str) -> Pace:
    """The pace of a game made without one (older API clients): correspondence at the
    mode's usual days a move."""
    return Pace.correspondence(inactivity_days(mode))


def pace_fields(pace: Pace) -> dict[str, object]:
    """The game's columns for ``pace``. ``LIVE_CLOCK_SECONDS`` (tests only) gives every
    live clock that many seconds instead of its minutes."""
    fields = pace.fields()
    if pace.is_live and settings.LIVE_CLOCK_SECONDS:
        fields["clock_seconds"] = int(settings.LIVE_CLOCK_SECONDS)
    return fields


def start_game(
    *,
    creator: User,
    mode: str,
    language: str,
    opponent: User | None = None,
    level: str | None = None,
    first: int | None = None,
    rematch_of: Game | None = None,
    public: bool = True,
    rated: bool = False,
    extras: bool = True,
    pace: Pace | None = None,
    preset: str = "wwf",
    challenge: str = "void",
) -> Game:
    """Start a game for ``creator``:

    - ``friend``: an invitation to ``opponent`` (a user), who accepts or declines;
    - ``random``: joins the oldest open seek in ``language`` by someone else (first
      come, first served), or opens a seek (returning the one already open, if any);
    - ``computer``: an active game against the computer at ``level``.

    ``pace`` (``games.pace``; by default correspondence at the mode's usual days a move)
    is the game's, a random seek's included (seeks match only seeks of the same pace).
    ``first`` (0: the creator, 1: the opponent) says who moves first; by default the
    game's seed decides. ``public`` lets signed-in players watch the game the creator
    starts (joining someone else's seek keeps that seek's setting). ``rated`` games
    change ratings when they end (never against the computer; a rated seek is matched only
    with rated seekers, and never with a player either of them blocked). Raises
    ``GameError`` (``too_many_games``, ``too_many_invitations``, ``bad_opponent``, ``blocked``,
    ``bad_language``, ``bad_level``, ``bad_rules``). Runs in one transaction; the creator's user row is
    locked so that two simultaneous requests cannot both pass the active-games limit.

    ``preset`` and ``challenge`` are the rules (``engine.preset``: ``"wwf"`` or
    ``"classic"``; ``"void"``, ``"single"``, ``"double"`` or ``"five"``); a random
    opponent is matched only with a seek under the same rules.
    """
    if language not in engine.LANGUAGES:
        raise GameError("bad_language")
    pace = pace or default_pace(mode)
    rules_for(preset, language, challenge)  # bad_rules before anything is locked
    with transaction.atomic():
        lock_user(creator)
        if Game.objects.active_for(creator).count() >= settings.MAX_ACTIVE_GAMES:
            raise GameError("too_many_games")
        if suspended_until(creator) is not None:
            raise GameError("suspended")
        if mode == Game.Mode.FRIEND:
            if opponent is None or opponent.pk == creator.pk:
                raise GameError("bad_opponent")
            check_invitation(creator, opponent, rated=rated)
            game = _new_game(
                creator,
                mode,
                language,
                rematch_of=rematch_of,
                public=public,
                rated=rated,
                extras=extras,
                pace=pace,
                preset=preset,
                challenge=challenge,
            )
            _deal(game, [creator, opponent], first=first, start=False)
            realtime.lobby_changed([opponent.pk, creator.pk])
        elif mode == Game.Mode.COMPUTER:
            if level not in Seat.Level.values:
                raise GameError("bad_level")
            game = _new_game(
                creator,
                mode,
                language,
                rematch_of=rematch_of,
                public=public,
                extras=extras,
                pace=pace,
                preset=preset,
                challenge=challenge,
            )
            _deal(game, [creator, level], first=first, start=True)
            realtime.lobby_changed([creator.pk])
        elif mode == Game.Mode.RANDOM:
            game = _join_or_open_seek(
                creator,
                language,
                public=public,
                rated=rated,
                extras=extras,
                pace=pace,
                preset=preset,
                challenge=challenge,
            )
        else:
            raise GameError("bad_mode")
    return game


def check_invitation(creator: User, opponent: User, *, rated: bool) -> None:
    """``GameError`` when ``creator`` may not invite ``opponent`` now: one blocked the
    other, a rated game between a bot and a person, or too many invitations waiting."""
    if is_blocked(creator, opponent):
        raise GameError("blocked")
    if rated and creator.is_bot != opponent.is_bot:
        raise GameError("bot_rated_human")
    if Game.objects.invitations_sent_by(creator).count() >= settings.MAX_PENDING_INVITATIONS:
        raise GameError("too_many_invitations")


def start_paired_game(
    *,
    first: User,
    second: User,
    language: str,
    inactivity_days: int,
    dictionary_version: int | None,
    seed: int | None = None,
    rated: bool = False,
    warn_before_timeout: bool = False,
    told: bool = False,
    preset: str = "wwf",
    challenge: str = "void",
) -> Game:
    """Start a game between two players someone else paired (a tournament round): no
    invitation to accept and no active-games limit, since neither player asked for it.
    ``first`` moves first. The game is pinned to ``dictionary_version`` (None: the live
    dictionary) and gives each turn ``inactivity_days``. ``seed`` makes the deal
    reproducible (simulations); by default it is random. ``rated`` games change the site
    ratings (never between a bot and a person: that game is played unrated). Paid extras
    are always off and vacations do not pause the clock (an event runs to its
    organiser's schedule). A lapsed turn no warning reached is extended only with
    ``warn_before_timeout`` (an organiser's choice: it may stall a round). ``told``: the
    caller tells both players of the game (the deal records no "your turn"). Dealt and
    started through the
    game's one transition path (``Deal`` by ``SYSTEM``), in one transaction; both
    players' lobbies are told on commit. ``preset`` and ``challenge``: the rules, as in
    :func:`start_game`. Raises ``GameError`` (``bad_language``, ``bad_opponent``,
    ``bad_rules``)."""
    if language not in engine.LANGUAGES:
        raise GameError("bad_language")
    rules_for(preset, language, challenge)
    if first.pk == second.pk:
        raise GameError("bad_opponent")
    if first.is_bot != second.is_bot:
        # A bot never plays a person rated; the organiser paired them, so the game is
        # played unrated rather than refused (a refusal would stop the whole round).
        rated = False
    with transaction.atomic():
        game = Game.objects.create(
            language=language,
            mode=Game.Mode.FRIEND,
            status=Game.Status.INVITED,
            created_by=first,
            seed=secrets.randbits(63) if seed is None else seed,
            inactivity_days=inactivity_days,
            dictionary_version=dictionary_version,
            rated=rated,
            extras_allowed=False,
            vacation_pauses=False,
            # Off unless the organiser turned it on: an extension may stall the round
            # (ARCHITECTURE.md, deadline warnings).
            warn_before_timeout=warn_before_timeout,
            rules_preset=preset,
            challenge_rule=challenge,
        )
        _deal(game, [first, second], first=0, start=True, told=told)
        realtime.lobby_changed([first.pk, second.pk])
    return game


def _new_game(
    creator: User,
    mode: str,
    language: str,
    *,
    status: str = "",
    rematch_of: Game | None = None,
    public: bool = True,
    rated: bool = False,
    extras: bool = True,
    pace: Pace | None = None,
    seek_rating: float | None = None,
    preset: str = "wwf",
    challenge: str = "void",
) -> Game:
    return Game.objects.create(
        language=language,
        mode=mode,
        status=status or Game.Status.INVITED,
        created_by=creator,
        # 63 bits: a BigIntegerField holds it on every database.
        seed=secrets.randbits(63),
        **pace_fields(pace or default_pace(mode)),
        rematch_of=rematch_of,
        is_public=public,
        rated=rated,
        # The creator's choice; rated games are played without paid aids.
        extras_allowed=extras and not rated,
        seek_rating=seek_rating,
        rules_preset=preset,
        challenge_rule=challenge,
    )


def _deal(
    game: Game, players: list[User | str], *, first: int | None, start: bool, told: bool = False
) -> None:
    """Seat ``players`` (the creator first in the list) and deal, through the game's one
    transition path (``Deal``). The engine always starts seat 0, so whoever moves first
    gets seat 0; by default the game's seed decides who that is."""
    if first is None:
        first = rng_for(game.seed, "first").randrange(2)
    ordered = players if first == 0 else list(reversed(players))
    seats = tuple(p if isinstance(p, str) else p.pk for p in ordered)
    game.act(SYSTEM, Deal(players=seats, start=start, told=told), version=game.version)


#: The columns two seeks must agree on to be matched: the same pace.
SEEK_PACE_FIELDS = ("speed", "inactivity_days", "clock_seconds", "increment_seconds", "overtime_minutes")

#: The first key of the advisory locks that serialise seek matching (one per language).
SEEK_LOCK_CLASS = 0x5EE4


def _lock_seeks(language: str) -> None:
    """Hold the seek lock of ``language`` until the transaction ends (PostgreSQL).

    Taken after the creator's user row (``FOR NO KEY UPDATE``); nobody holding it waits
    for a user row lock (seating a player only needs ``FOR KEY SHARE``), so no deadlock."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT pg_advisory_xact_lock(%s, %s)", [SEEK_LOCK_CLASS, zlib.crc32(language.encode()) >> 1]
            )


def _join_or_open_seek(
    creator: User,
    language: str,
    *,
    public: bool = True,
    rated: bool = False,
    extras: bool = True,
    pace: Pace | None = None,
    preset: str = "wwf",
    challenge: str = "void",
) -> Game:
    """Match with the oldest open seek in ``language`` under the same rules, or open one.

    Race safety: matching is serialised per language (a transaction-level advisory lock
    on PostgreSQL; on SQLite every write transaction is serialised already by
    ``transaction_mode = IMMEDIATE``), so two players seeking at the same moment are
    matched with each other instead of both opening a seek and waiting, and two players
    answering one seek never share it. The seek row is still locked, and its status
    checked under the lock, against a cancellation racing the join.
    """
    _lock_seeks(language)
    own = Game.objects.filter(created_by=creator, status=Game.Status.OPEN, language=language).first()
    if own is not None:
        return own
    pace = pace or default_pace(Game.Mode.RANDOM)
    same_pace = {k: v for k, v in pace_fields(pace).items() if k in SEEK_PACE_FIELDS}
    mine = seeks.rating_of(creator, language, pace.speed)
    now = timezone.now()
    candidates = seeks.eligible_for(
        creator,
        Game.objects.select_for_update(skip_locked=True)
        .filter(status=Game.Status.OPEN, language=language, mode=Game.Mode.RANDOM, rated=rated)
        .filter(rules_preset=preset, challenge_rule=challenge)
        .filter(**same_pace),
    ).order_by("created_at", "pk")
    # The oldest request whose player's rating is within its window (or the newcomer's).
    seek = next((c for c in candidates.select_related("created_by") if seeks.within(c, mine, now)), None)
    if seek is None:
        opened = _new_game(
            creator,
            Game.Mode.RANDOM,
            language,
            status=Game.Status.OPEN,
            public=public,
            rated=rated,
            extras=extras,
            pace=pace,
            seek_rating=mine,
            preset=preset,
            challenge=challenge,
        )
        for hook in _seek_hooks:
            hook(opened)
        realtime.seeks_changed()
        return opened
    _deal(seek, [seek.created_by, creator], first=None, start=True)
    realtime.seeks_changed()
    return seek


_seek_hooks: list[Callable[[Game], None]] = []


def register_seek_opened(hook: Callable[[Game], None]) -> None:
    """Run ``hook`` in the transaction that opens a random request (``games.tasks``
    registers the widening of its window from ``GamesConfig.ready``: services never
    import tasks, which import services)."""
    if hook not in _seek_hooks:
        _seek_hooks.append(hook)


def accept_seek(*, user: User, game_id: int) -> Game:
    """``user`` takes up the open request ``game_id`` from the seeks page: any eligible
    player (not its creator, neither blocked by the other, a rated request person with
    person and bot with bot, not suspended, within the request's rating window now, below
    the active-games limit). ``user``'s own open request in that language is withdrawn.
    Raises ``GameError`` (``seek_gone``, ``seek_out_of_range``, ``blocked``, ...)."""
    with transaction.atomic():
        lock_user(user)
        if Game.objects.active_for(user).count() >= settings.MAX_ACTIVE_GAMES:
            raise GameError("too_many_games")
        if suspended_until(user) is not None:
            raise GameError("suspended")
        found = Game.objects.filter(pk=game_id, status=Game.Status.OPEN, mode=Game.Mode.RANDOM).first()
        if found is None:
            raise GameError("seek_gone")
        _lock_seeks(found.language)
        seek = (
            seeks.eligible_for(
                user, Game.objects.select_for_update().filter(pk=game_id, status=Game.Status.OPEN)
            )
            .select_related("created_by")
            .first()
        )
        if seek is None:
            # Gone meanwhile, or one this player may not take (their own, blocked...).
            still_open = Game.objects.filter(pk=game_id, status=Game.Status.OPEN).exists()
            raise GameError("blocked" if still_open else "seek_gone")
        if not seeks.within(seek, seeks.rating_of(user, seek.language, seek.speed), timezone.now()):
            raise GameError("seek_out_of_range")
        if seek.rated and user.is_bot != seek.created_by.is_bot:
            raise GameError("bot_rated_human")
        for own in Game.objects.filter(created_by=user, status=Game.Status.OPEN, language=seek.language):
            own.act(user, Decline(), version=own.version)
        _deal(seek, [seek.created_by, user], first=None, start=True)
        realtime.seeks_changed()
    return seek


def match_waiting(*, game_id: int) -> Game | None:
    """Pair the open request ``game_id`` with another one its widened window now reaches
    (the older of the two becomes the game, the other is withdrawn); None when there is
    none yet, or the request is no longer open. Serialised with every other matching in
    its language, as joining is."""
    with transaction.atomic():
        seek = Game.objects.filter(pk=game_id, status=Game.Status.OPEN, mode=Game.Mode.RANDOM).first()
        if seek is None:
            return None
        _lock_seeks(seek.language)
        seek = Game.objects.select_for_update().filter(pk=game_id, status=Game.Status.OPEN).first()
        if seek is None:
            return None
        now = timezone.now()
        same_pace = {f: getattr(seek, f) for f in SEEK_PACE_FIELDS}
        others = (
            seeks.eligible_for(
                seek.created_by,
                Game.objects.select_for_update(skip_locked=True)
                .filter(
                    status=Game.Status.OPEN, language=seek.language, mode=Game.Mode.RANDOM, rated=seek.rated
                )
                .filter(**same_pace)
                # The same rules too, as joining asks.
                .filter(rules_preset=seek.rules_preset, challenge_rule=seek.challenge_rule)
                .exclude(pk=seek.pk),
            )
            .select_related("created_by")
            .order_by("created_at", "pk")
        )
        other = next(
            (
                o
                for o in others
                if seeks.within(o, seeks.seek_rating(seek), now, own_window=seeks.window(seek, now))
            ),
            None,
        )
        if other is None:
            return None
        older, newer = sorted([seek, other], key=lambda g: (g.created_at, g.pk))
        newer.act(newer.created_by, Decline(), version=newer.version)
        _deal(older, [older.created_by, newer.created_by], first=None, start=True)
        realtime.lobby_changed([older.created_by_id, newer.created_by_id])
        realtime.seeks_changed()
    return older


def computer_instead(*, user: User, game_id: int, level: str = Seat.Level.MEDIUM) -> Game:
    """A live request that has waited ``SEEK_COMPUTER_AFTER_SECONDS`` is withdrawn and its
    player plays the computer at the same pace and rules instead. Raises ``GameError``
    (``seek_gone``, ``not_invited``: not theirs, ``not_due``: too early or not live)."""
    with transaction.atomic():
        seek = Game.objects.select_for_update().filter(pk=game_id, status=Game.Status.OPEN).first()
        if seek is None:
            raise GameError("seek_gone")
        if seek.created_by_id != user.pk:
            raise GameError("not_invited")
        waited = timezone.now() - seek.created_at
        if not seek.is_live or waited.total_seconds() < settings.SEEK_COMPUTER_AFTER_SECONDS:
            raise GameError("not_due")
        seek.act(user, Decline(), version=seek.version)
        game = start_game(
            creator=user,
            mode=Game.Mode.COMPUTER,
            language=seek.language,
            level=level,
            public=seek.is_public,
            extras=seek.extras_allowed,
            pace=seek.pace,
            preset=seek.rules_preset,
            challenge=seek.challenge_rule,
        )
        realtime.seeks_changed()
    return game


def rematch(*, game: Game, user: object) -> Game:
    """A new game between the same players, in the same language and under the same
    rules (preset and challenge rule); whoever did not move
    first this time moves first. For a computer game it starts at once; otherwise it is
    an invitation to the other player. If either player already asked for a rematch of
    ``game``, that game is returned instead of a second one. ``user``: the player, or who
    they are to ``game`` (``Pov``)."""
    pov = user if isinstance(user, Pov) else game.pov(user)
    seat, user = pov.seat, pov.user
    if not pov.is_player or seat is None or user is None:
        raise GameError("not_a_player")
    if game.status != Game.Status.FINISHED:
        raise GameError("rematch_not_finished")
    # An invitation to a deleted account could never be accepted.
    if any(s.player_gone for s in game.seat_list() if s.index != seat):
        raise GameError("rematch_player_gone")
    with transaction.atomic():
        # Both players may click "Rematch" at the same moment: the finished game's row
        # is locked so that the second one finds the first one's game.
        Game.objects.select_for_update().filter(pk=game.pk).first()
        existing = game.rematches.exclude(status=Game.Status.DECLINED).first()
        if existing is not None:
            return existing
        return _start_rematch(game, user, seat)


def _start_rematch(game: Game, user: User, seat: int) -> Game:
    other = next(s for s in game.seat_list() if s.index != seat)
    # The creator is players[0] in start_game; seat 0 moved first in the old game.
    first = 0 if seat != 0 else 1
    if other.is_computer:
        return start_game(
            creator=user,
            mode=Game.Mode.COMPUTER,
            language=game.language,
            level=other.computer_level,
            first=first,
            rematch_of=game,
            public=game.is_public,
            extras=game.extras_allowed,
            pace=game.pace,
            preset=game.rules_preset,
            challenge=game.challenge_rule,
        )
    return start_game(
        creator=user,
        mode=Game.Mode.FRIEND,
        language=game.language,
        opponent=other.user,
        first=first,
        rematch_of=game,
        public=game.is_public,
        extras=game.extras_allowed,
        rated=game.rated,
        # A tournament game's days a move may be none of those offered: its rematch has them too.
        pace=game.pace,
        preset=game.rules_preset,
        challenge=game.challenge_rule,
    )


@dataclass
class ExpiryReport:
    timed_out: list[int] = field(default_factory=list)
    reminded: list[int] = field(default_factory=list)
    aborted: list[int] = field(default_factory=list)


def expire_games(*, now: datetime | None = None) -> ExpiryReport:
    """Time out every player whose turn deadline has passed (``engine.timeout``: a loss),
    then remind, once per turn, every player with a day or less left. Each game goes
    through its own locked, version-checked path, so a move made meanwhile wins. The
    deadline tasks (``games.tasks``) do this game by game at each deadline; this sweep
    catches whatever they missed (a task lost with a database restored from backup, or
    games older than the task queue)."""
    now = now or timezone.now()
    report = ExpiryReport()
    for game in Game.objects.due_for_timeout(now).prefetch_related("seats__user"):
        if game.timeout(now=now) is not None:
            report.timed_out.append(game.pk)
    for game in Game.objects.due_for_reminder(now).prefetch_related("seats__user"):
        if game.send_turn_reminder(version=game.version, now=now):
            report.reminded.append(game.pk)
    # Live games nobody moved in whose abort task was lost.
    unstarted = Game.objects.filter(
        status=Game.Status.ACTIVE,
        speed="live",
        state__moves_played=0,
        turn_started_at__lte=now - timedelta(seconds=settings.LIVE_ABORT_SECONDS),
    )
    for game in unstarted.prefetch_related("seats__user"):
        try:
            game.act(SYSTEM, Abort(), version=game.version, now=now)
        except (GameError, engine.IllegalMove):
            continue  # a move came first
        report.aborted.append(game.pk)
    return report


def count_finished_games_with_word(language: str, word: str) -> int:
    """Finished games in ``language`` where ``word`` (normalised) was formed by a play,
    as a main or cross word (registered with ``dictionaries.hooks``)."""
    return (
        Move.objects.filter(game__status=Game.Status.FINISHED, game__language=language)
        .filter(words_text__contains=f" {word} ")
        .values("game_id")
        .distinct()
        .count()
    )


def buy_extra(
    *, game: Game, user: object, extra: str, version: int | None, action_id: str = ""
) -> ExtraPurchase:
    """Buy ``extra`` for its period through the game's one path (``BuyExtra``), or return
    the purchase already made in this period at no charge. Raises ``GameError`` (not
    enough coins, not the period, extras off, game over...) with nothing changed.
    ``user``: the buyer, or who they are to ``game`` (``Pov``)."""
    pov = user if isinstance(user, Pov) else game.pov(user)
    bought = current_purchase(game, pov, extra)
    if bought is not None:
        return bought
    try:
        game.act(pov, BuyExtra(extra), version=version, action_id=action_id)
    except GameError as exc:
        if exc.code != "already_bought":
            raise
    bought = current_purchase(game, pov, extra)
    assert bought is not None, "a purchase that went through is recorded"
    return bought


def current_purchase(game: Game, pov: Pov, extra: str) -> ExtraPurchase | None:
    """The purchase of ``extra`` by ``pov``'s seat for the period it is for now, if any."""
    seat = pov.seat if pov.is_player else None
    when = extras.period_now(game, extra, seat) if seat is not None and extra in extras.EXTRAS else None
    if seat is None or when is None:
        return None
    return ExtraPurchase.objects.filter(game=game, seat=seat, extra=extra, period=when).first()


def preview(
    *, game: Game, pov: Pov, placements: list[engine.Placement]
) -> tuple[engine.Evaluation, extras.Strength | None]:
    """The free word-value preview of ``placements`` (``Game.preview``, which changes
    nothing) and, when ``pov`` bought word strength for this turn, how the play ranks
    among every legal play now (the scores are computed once per game version)."""
    evaluation = game.preview(pov, placements)
    if current_purchase(game, pov, extras.WORD_STRENGTH) is None:
        return evaluation, None
    seat = pov.seat
    assert seat is not None, "Game.preview let only a seated player through"
    scores = extras.all_scores(game.pk, game.version, game.state_obj(), seat, game.lexicon())
    return evaluation, extras.strength(evaluation.score, scores)
