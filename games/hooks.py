"""Hooks apps above games fill in, so that ``games`` never imports them.

``tournaments`` tells the lobby which games are tournament games (with a link to the
tournament) and what an organiser's override made of their result; the lobby calls
``annotate_lobby`` once per render, whatever provider is installed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from games.rendering import LobbyItem


@dataclass(frozen=True)
class GameNote:
    """What the lobby adds to one game: a label ("Spring Cup, round 2"), its link, and
    the result from the viewer's side when someone other than the game decided it
    ("won", "lost", "draw"; None: the game's own result stands)."""

    label: str
    url: str
    result: str | None = None


#: Given game ids and the viewer, a note for each game it knows.
NoteProvider = Callable[[Sequence[int], Any], dict[int, GameNote]]

_note_providers: list[NoteProvider] = []


def register_game_notes(provider: NoteProvider) -> None:
    if provider not in _note_providers:
        _note_providers.append(provider)


def annotate_lobby(items: Sequence[LobbyItem], user: object) -> None:
    """Add ``tournament`` (a ``GameNote`` or None) to each lobby item, and put an
    overridden result in its place."""
    notes: dict[int, GameNote] = {}
    ids = [item["id"] for item in items]
    for provider in _note_providers:
        notes.update(provider(ids, user) if ids else {})
    for item in items:
        note = notes.get(item["id"])
        item["tournament"] = note
        if note is not None and note.result is not None and item["status"] == "finished":
            item["result"] = note.result
