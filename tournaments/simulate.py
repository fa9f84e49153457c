"""A whole tournament played by the computer, for demos, load tests and checking exports.

``simulate_tournament`` creates the players, runs every round through the same
services an organiser uses (pair, start) and plays every game to its end in this
process: each player is a user, and the move on their turn is the engine's computer
move at that player's level (``engine.analysis.computer_move``, with an RNG derived
from the game's seed), applied through ``Game.act`` with the user as the actor, like a
move from their browser. No task worker is needed; the turn deadlines each move
schedules find the game moved on and do nothing. The same seed gives the same
tournament.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from datetime import timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.utils import timezone

from engine.actions import computer_action
from engine.analysis import LEVELS, Level, computer_move
from games.actions import AcceptPlay, Action
from games.models import Game, rng_for
from tournaments import services
from tournaments.models import Tournament


def make_player(username: str) -> Any:
    """A player account nobody can log in to (a simulated player)."""
    User = get_user_model()
    user, created = User.objects.get_or_create(username=username, defaults={"email": ""})
    if created:
        user.set_unusable_password()
        user.save(update_fields=["password"])
    return user


def make_organiser(username: str) -> Any:
    user = make_player(username)
    user.groups.add(services.ensure_organisers_group())
    # Permissions are cached per user object: read them again with the new group.
    return get_user_model().objects.get(pk=user.pk)


def play_out(game: Game, levels: Mapping[int, Level]) -> int:
    """Play ``game`` to its end, each user's turn taken by the computer at their level
    in ``levels`` (by user id). Returns the number of moves made."""
    moves = 0
    game.refresh_from_db()
    while game.status == Game.Status.ACTIVE:
        state = game.state_obj()
        seat = state.turn
        user = game.seat_user(seat)
        level: Level = levels.get(user.pk, "medium")
        action: Action
        if state.pending is not None and state.pending.final:
            # A challenge rule's last play (the generator's plays are valid): accepted.
            action = AcceptPlay()
        else:
            choice = computer_move(
                state, seat, game.lexicon(), level, rng_for(game.seed, "computer", state.moves_played)
            )
            action = computer_action(choice)
        game.act(user, action, version=game.version, action_id=f"simulated:{game.version}")
        moves += 1
    return moves


def simulate_tournament(
    *,
    players: int,
    rounds: int,
    system: str,
    language: str,
    seed: int,
    organiser: Any | None = None,
    usernames: Sequence[str] = (),
    name: str = "",
    dictionary_version: int | None = None,
    divisions: int = 1,
    no_shows: int = 0,
    late_entries: int = 0,
    missed: str = services.MISSED_LOSS,
    report: Callable[[str], None] = lambda _line: None,
) -> Tournament:
    """Create ``players`` players (``usernames``, or ``sim<seed>-NN``) at a random mix
    of computer levels, and a tournament of ``rounds`` rounds in ``system`` organised
    by ``organiser`` (by default a new simulated organiser); then pair, start and play
    every round to the end. Progress goes to ``report``. Raises
    ``services.TournamentError`` as an organiser would meet it (too many rounds for a
    round robin, for example).

    ``divisions`` > 1: the players get random ratings and the event is split into that
    many divisions by rating band (returned: the event; each division is played).
    ``no_shows`` > 0: a check-in window, and that many players never check in (the
    first pairing withdraws them). ``late_entries``: the last that many players enter
    after round one, with ``missed`` ("loss" or "bye") for it."""
    rng = random.Random(seed)
    names = list(usernames) or [f"sim{seed}-{i:02d}" for i in range(1, players + 1)]
    organiser = organiser or make_organiser(f"sim{seed}-organiser")
    entrants = [make_player(n) for n in names[:players]]
    levels = {user.pk: rng.choice(LEVELS) for user in entrants}
    late = entrants[len(entrants) - late_entries :] if late_entries else []
    on_time = entrants[: len(entrants) - len(late)]
    now = timezone.now()
    event = services.create_tournament(
        organiser=organiser,
        name=name or f"Simulated {system} ({players} players, seed {seed})",
        language=language,
        system=system,
        rounds=rounds,
        days_per_move=3,
        starts_at=now + timedelta(hours=1),
        dictionary_version=dictionary_version,
        rating_body="naspa" if divisions > 1 else "",
        checkin_opens_at=now - timedelta(minutes=1) if no_shows else None,
    )
    targets = [event]
    if divisions > 1:
        ratings = {user.pk: rng.randint(800, 2000) for user in entrants}
        for user in entrants:
            services.set_membership(user=user, body="naspa", number=f"SIM{user.pk}", rating=ratings[user.pk])
        targets = _split(event, organiser, sorted(ratings[u.pk] for u in on_time), divisions)
    for user in on_time:
        services.register_player(tournament=event, user=user, by=organiser)
    if no_shows:
        absent = {u.pk for u in rng.sample(on_time, min(no_shows, len(on_time)))}
        for target in targets:
            for registration in target.registrations.exclude(user_id__in=absent):
                services.check_in(tournament=target, registration=registration, by=registration.user)
    report(f"tournament #{event.pk}: {players} players ({', '.join(sorted(set(levels.values())))})")
    for number in range(1, rounds + 1):
        if number == 2:
            for user in late:
                entry = services.register_player(
                    tournament=event, user=user, by=organiser, missed=missed, reason="late"
                )
                report(f"late entry: {user.username} as number {entry.number} ({missed} for round 1)")
        for target in targets:
            round_ = services.pair_round(tournament=target, by=organiser)
            services.start_round(tournament=target, by=organiser, seed=seed)
            made = 0
            for pairing in round_.pairings.select_related("game").exclude(game=None).order_by("table"):
                assert pairing.game is not None
                made += play_out(pairing.game, levels)
            target.refresh_from_db()
            where = f"division {target.division_code.upper()} " if target.division_code else ""
            report(f"{where}round {round_.number}: {round_.pairings.count()} tables, {made} moves")
    return event


def _split(event: Tournament, organiser: Any, ratings: list[int], count: int) -> list[Tournament]:
    """``count`` divisions of ``event`` by rating band, strongest first, cut so each
    holds about as many of ``ratings`` (sorted, low to high) as the others."""
    size = -(-len(ratings) // count)
    cuts = [ratings[len(ratings) - size * k] for k in range(1, count)]  # lowest rating of each upper band
    divisions = []
    for k in range(count):
        low = cuts[k] if k < len(cuts) else None
        high = cuts[k - 1] - 1 if k > 0 else None
        divisions.append(
            services.add_division(
                event=event, by=organiser, name=chr(ord("A") + k), rating_min=low, rating_max=high
            )
        )
    return divisions
