"""Hooks other apps fill in, so that ``accounts`` never imports them.

Everything may depend on ``accounts``, never the other way round (ARCHITECTURE.md). Yet a
player's profile shows statistics from their games, "download my data" includes their
games, and deleting an account must know whether games are still going. ``games``
registers one provider from its ``AppConfig.ready()``::

    from accounts.hooks import register_player_data
    register_player_data("games", GamesPlayerData())

A provider has five methods (``PlayerData``), each taking the user, and declares what it
exports and erases of each reference to the user (``covers``). Providers are kept
by name, so registering again replaces, and tests may register their own.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from accounts.models import User


@dataclass(frozen=True)
class BestPlay:
    word: str
    score: int


@dataclass(frozen=True)
class LanguageStatistics:
    """A player's finished games in one game language."""

    language: str
    games: int
    wins: int
    losses: int
    draws: int
    average_score: float
    highest_score: int
    best_play: BestPlay | None
    bingos: int


@dataclass(frozen=True)
class Unfinished:
    """One thing in the way of deleting an account: a game going on, an invitation..."""

    label: str
    url: str


@dataclass(frozen=True)
class Coverage:
    """What "download my data" and account deletion do with the rows of one reference to
    the user (``"app.Model.field"``): ``export`` names the part of the export holding
    them (or says why none does), ``deletion`` what deleting the account does to them.
    Every foreign key to the user is declared (``tests/players/test_data_coverage.py``
    walks them)."""

    export: str
    deletion: str


class PlayerData(Protocol):
    #: ``"app.Model.field"`` -> :class:`Coverage`, for the references this app owns.
    covers: dict[str, Coverage]

    def statistics(self, user: User) -> list[LanguageStatistics]:
        """Statistics per game language, for the profile."""
        ...

    def export(self, user: User) -> dict[str, Any]:
        """The player's own data held by the app, as JSON-ready values."""
        ...

    def unfinished(self, user: User) -> list[Unfinished]:
        """What stops the account from being deleted now (games still going), each with
        a label in the active interface language and a link."""
        ...

    def give_up(self, user: User) -> None:
        """Resign, decline or cancel everything ``unfinished`` lists, each in its own
        transaction (called before the deletion's, which locks the user row: game rows are
        locked before user rows, never after)."""
        ...

    def erase(self, user: User) -> None:
        """Remove the player's personal data (called inside the deletion's transaction)."""
        ...


_providers: dict[str, PlayerData] = {}


def register_player_data(name: str, provider: PlayerData | None) -> None:
    """Install ``provider`` under ``name`` (``None`` removes it)."""
    if provider is None:
        _providers.pop(name, None)
    else:
        _providers[name] = provider


def providers() -> Iterator[tuple[str, PlayerData]]:
    yield from sorted(_providers.items())


def coverage() -> dict[str, Coverage]:
    """Every provider's :class:`Coverage` together (``accounts`` registers its own)."""
    return {ref: cover for _name, provider in providers() for ref, cover in provider.covers.items()}


def statistics_for(user: User) -> list[LanguageStatistics]:
    return [stat for _name, provider in providers() for stat in provider.statistics(user)]


@dataclass(frozen=True)
class ChatLine:
    id: int
    author: str
    text: str
    hidden: bool
    created_at: Any


@dataclass(frozen=True)
class MoveLine:
    number: int
    player: str
    kind: str
    words: str
    score: int
    #: The rack before and after the move: empty while the game is under way.
    racks: str


@dataclass(frozen=True)
class GameSummary:
    """What the moderators' report page shows of the game a report names."""

    game_id: int
    title: str
    status: str
    over: bool
    chat: list[ChatLine]
    moves: list[MoveLine]


_game_summary: list[Any] = []


def register_game_summary(summary: Any) -> None:
    """Install the function ``summary(game_id) -> GameSummary | None`` (games does)."""
    _game_summary[:] = [summary]


def game_summary(game_id: int | None) -> GameSummary | None:
    if game_id is None or not _game_summary:
        return None
    result: GameSummary | None = _game_summary[0](game_id)
    return result


def unfinished_for(user: User) -> list[Unfinished]:
    return [item for _name, provider in providers() for item in provider.unfinished(user)]


_friend_requested: list[Any] = []


def register_friend_requested(hook: Any) -> None:
    """Install ``hook(from_user=…, to_user=…)``, called inside the transaction that makes a
    new friend request (the notification centre records its notification there)."""
    _friend_requested[:] = [hook]


def friend_requested(*, from_user: Any, to_user: Any) -> None:
    for hook in _friend_requested:
        hook(from_user=from_user, to_user=to_user)


_signed_up: list[Any] = []


def register_signed_up(hook: Any) -> None:
    """Install ``hook(user)``, called once a new account is committed (the notification
    centre sends the link that verifies its e-mail address)."""
    _signed_up[:] = [hook]


def signed_up(user: Any) -> None:
    for hook in _signed_up:
        hook(user)


_notice_left: list[Any] = []


def register_notice_left(hook: Any) -> None:
    """Install ``hook(notice)``, called inside the transaction that leaves a player a
    ``Notice`` (the notification centre records it as a notification too)."""
    _notice_left[:] = [hook]


def notice_left(notice: Any) -> None:
    for hook in _notice_left:
        hook(notice)
