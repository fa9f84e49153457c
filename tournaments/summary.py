"""The one-page results summary an organiser hands on: the standings, the prizes by
rating band (when the organiser set bands), the high game and the high play.

:func:`band_prizes` is pure (plain numbers in, plain values out); :func:`summary`
reads the tournament once for the page."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from games.models import Move
from tournaments import services
from tournaments.models import Pairing, Tournament
from tournaments.standings import PLAYED, Standing


@dataclass(frozen=True, slots=True)
class BandPrize:
    """The best-placed player rated below ``cap`` (None: nobody eligible)."""

    cap: int
    player: int | None
    rank: int | None


def band_prizes(
    ranked: Sequence[Standing], ratings: Mapping[int, int | None], caps: Iterable[int], *, prize_places: int
) -> list[BandPrize]:
    """One prize per band, highest cap first, each to the best-ranked rated player below
    the cap who has no prize yet: the top ``prize_places`` places win the main prizes,
    and nobody takes two (unrated players are in no band)."""
    taken = {s.player for s in ranked[:prize_places]}
    prizes = []
    for cap in sorted(set(caps), reverse=True):
        winner = next(
            (
                s
                for s in ranked
                if s.player not in taken and (rating := ratings.get(s.player)) is not None and rating < cap
            ),
            None,
        )
        if winner is not None:
            taken.add(winner.player)
        prizes.append(BandPrize(cap, winner.player if winner else None, winner.rank if winner else None))
    return prizes


@dataclass(frozen=True, slots=True)
class HighGame:
    player: int
    score: int
    opponent: int | None
    round: int


@dataclass(frozen=True, slots=True)
class HighPlay:
    name: str
    words: str
    score: int
    round: int


def high_game(ranked: Sequence[Standing]) -> HighGame | None:
    """The highest score anyone made in one game (games played, not byes or forfeits)."""
    best: HighGame | None = None
    for line in ranked:
        for r in line.results:
            if r.kind == PLAYED and r.score is not None and (best is None or r.score > best.score):
                best = HighGame(r.player, r.score, r.opponent, r.round)
    return best


def summary(tournament: Tournament) -> dict[str, Any]:
    """What the results page shows, read once."""
    registrations = list(tournament.registrations.filter(number__isnull=False).select_related("user"))
    names = {r.number: r.name for r in registrations if r.number is not None}
    info = services.rating_info(tournament, registrations)
    ratings = {r.number: info[r.pk].rating for r in registrations if r.number is not None}
    ranked = services.current_standings(tournament)
    prizes = band_prizes(ranked, ratings, tournament.prize_bands or [], prize_places=tournament.prize_places)
    game = high_game(ranked)
    rounds = {
        p.game_id: p.round.number
        for p in Pairing.objects.filter(round__tournament=tournament, game__isnull=False).select_related(
            "round"
        )
    }
    move = (
        Move.objects.filter(game_id__in=list(rounds), kind=Move.Kind.PLAY, withdrawn=False)
        .select_related("user")
        .order_by("-score", "game_id", "number")
        .first()
    )
    play = None
    if move is not None:
        owner = next((r for r in registrations if r.user_id == move.user_id), None)
        play = HighPlay(
            owner.name if owner else "", move.words_text.strip(), move.score, rounds[move.game_id]
        )
    return {
        "tournament": tournament,
        "standings": [
            {
                "rank": s.rank,
                "number": s.player,
                "name": names.get(s.player, str(s.player)),
                "rating": ratings.get(s.player),
                "points": s.points,
                "losses": s.losses,
                "spread": s.spread,
            }
            for s in ranked
        ],
        "prizes": [
            {"cap": p.cap, "name": names.get(p.player, "") if p.player else "", "rank": p.rank}
            for p in prizes
        ],
        "main_prizes": [names.get(s.player, "") for s in ranked[: tournament.prize_places]],
        "high_game": game,
        "high_game_names": (
            names.get(game.player, ""),
            names.get(game.opponent, "") if game and game.opponent else "",
        )
        if game
        else None,
        "high_play": play,
    }
