"""Hooks apps above games fill in, so that ``games`` never imports them.

``tournaments`` tells the lobby which games are tournament games (with a link to the
tournament) and what an organiser's override made of their result; the lobby calls
``lobby_notes`` once per render, whatever provider is installed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class GameNote:
    """What the lobby adds to one game: a label ("Spring Cup, round 2"), its link, and
    the result from the viewer's side when someone other than the game decided it
    ("won", "lost", "draw"; None: the game's own result stands)."""

    label: str
    url: str
    result: str | None = None
    #: The badge's word ("" : "Tournament"; a solo challenge says "Solo").
    badge: str = ""


#: Given game ids and the viewer, a note for each game it knows.
NoteProvider = Callable[[Sequence[int], Any], dict[int, GameNote]]

_note_providers: list[NoteProvider] = []


def register_game_notes(provider: NoteProvider) -> None:
    if provider not in _note_providers:
        _note_providers.append(provider)


def lobby_notes(game_ids: Sequence[int], user: object) -> dict[int, GameNote]:
    """A note for each of ``game_ids`` some app knows something about (the lobby applies
    them: a label and link, and an overridden result)."""
    notes: dict[int, GameNote] = {}
    for provider in _note_providers:
        notes.update(provider(game_ids, user) if game_ids else {})
    return notes


#: Given a finished game, the viewer's seat and one of that seat's moves: links an app
#: offers beside that step of the replay, as (label, url) ("challenge a friend to this
#: move": ``puzzles``).
ReplayLinkProvider = Callable[[Any, int, int], list[tuple[str, str]]]

_replay_link_providers: list[ReplayLinkProvider] = []


def register_replay_links(provider: ReplayLinkProvider) -> None:
    if provider not in _replay_link_providers:
        _replay_link_providers.append(provider)


def replay_links(game: Any, seat: int, number: int) -> list[tuple[str, str]]:
    """The links for move ``number`` of the finished ``game``, made by the viewer's ``seat``."""
    return [link for provider in _replay_link_providers for link in provider(game, seat, number)]


#: Each makes sure a recurring task of an app above games is waiting (the daily puzzles'
#: nightly choice) and says whether it enqueued one. Called wherever the sweep's chain
#: is made sure of (``games.tasks.ensure_sweep``: every sweep, every task worker that
#: starts and each of its lease checks, ``setup_site``), so such a chain never started,
#: or lost with its worker, starts again within a sweep.
ChainKeeper = Callable[[], bool]

_chain_keepers: list[ChainKeeper] = []


def register_chain(keeper: ChainKeeper) -> None:
    if keeper not in _chain_keepers:
        _chain_keepers.append(keeper)


def keep_chains() -> None:
    for keeper in _chain_keepers:
        keeper()
