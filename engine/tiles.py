"""Tile sets: the letters of each game language, their counts and values, and blanks.

The tables are data, kept in one file, ``engine/data/tilesets.json``: one object per
tile set, keyed by its code (``en``, ``en-GB``, ``es``, ``it``, ``pt-BR``, ``de``,
``fr``, plus the classic sets ``en-scrabble``, ``it-scrabble``, ``pt-BR-scrabble``,
``de-scrabble`` and ``fr-scrabble``, which the classic rules preset plays with: see
``engine.state.preset``).
Each object gives ``alphabet`` (letters in display order), ``tiles`` (per letter a
``count`` and a ``value``), ``blanks``, ``rack_size``, ``bingo_bonus``,
``blank_can_represent`` and optionally ``exchange_min_bag`` and ``board`` (the default
layout file). Keys starting with ``_`` are provenance notes and are ignored. To change
a table, edit that file; ``tests/engine/test_tiles.py`` checks the invariants.

A tile is a one-letter ``str``; a blank is ``BLANK`` (``"?"``) in racks and the bag.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from importlib import resources
from types import MappingProxyType
from typing import Any

BLANK = "?"

#: The seven game languages, in the order the product lists them.
LANGUAGES: tuple[str, ...] = ("en", "en-GB", "es", "it", "pt-BR", "de", "fr")


@dataclass(frozen=True)
class TileSet:
    """One language's tiles. Immutable; get one with :func:`tileset`."""

    language: str
    name: str
    alphabet: tuple[str, ...]
    counts: Mapping[str, int]
    values: Mapping[str, int]
    blanks: int
    blank_letters: frozenset[str]
    rack_size: int
    bingo_bonus: int
    exchange_min_bag: int = 0
    derived: bool = False
    board: str = "wwf"
    #: The language's name in that language ("Español"), for players.
    native_name: str = ""

    @property
    def total_tiles(self) -> int:
        """Letter tiles plus blanks (104 for every game language)."""
        return sum(self.counts.values()) + self.blanks

    def value(self, tile: str) -> int:
        """Points of a tile: its letter's value, 0 for a blank (``?``) or a blank on the
        board (the lowercase letter)."""
        return self.values.get(tile, 0)

    def full_bag(self) -> str:
        """Every tile of the set once per copy, letters in alphabet order then blanks."""
        return "".join(letter * self.counts[letter] for letter in self.alphabet) + BLANK * self.blanks

    def rack_value(self, rack: Iterable[str]) -> int:
        """Sum of the values of the tiles on a rack (blanks count 0)."""
        return sum(self.value(tile) for tile in rack)

    def is_tile(self, tile: str) -> bool:
        """True for a letter of this set or a blank."""
        return tile == BLANK or tile in self.values


def _load_table(code: str, raw: Mapping[str, Any]) -> TileSet:
    alphabet = tuple(raw["alphabet"])
    tiles: Mapping[str, Mapping[str, int]] = raw["tiles"]
    if set(tiles) != set(alphabet):
        raise ValueError(f"tile set {code}: 'tiles' and 'alphabet' list different letters")
    board = str(raw.get("board", "wwf-board.json")).removesuffix(".json").removesuffix("-board")
    return TileSet(
        language=code,
        name=str(raw["name"]),
        alphabet=alphabet,
        counts=MappingProxyType({letter: int(tiles[letter]["count"]) for letter in alphabet}),
        values=MappingProxyType({letter: int(tiles[letter]["value"]) for letter in alphabet}),
        blanks=int(raw["blanks"]),
        blank_letters=frozenset(raw["blank_can_represent"]),
        rack_size=int(raw["rack_size"]),
        bingo_bonus=int(raw["bingo_bonus"]),
        exchange_min_bag=int(raw.get("exchange_min_bag", 0)),
        derived=bool(raw.get("derived", False)),
        board=board,
        native_name=str(raw.get("native_name", raw["name"])),
    )


@functools.cache
def _tables() -> Mapping[str, Mapping[str, Any]]:
    text = resources.files("engine").joinpath("data", "tilesets.json").read_text(encoding="utf-8")
    raw: dict[str, Any] = json.loads(text)
    return MappingProxyType({key: value for key, value in raw.items() if not key.startswith("_")})


def tileset_codes() -> tuple[str, ...]:
    """Every tile set in the data file (the seven languages and test configurations)."""
    return tuple(_tables())


@functools.cache
def tileset(language: str) -> TileSet:
    """The tile set for a language code such as ``"en"`` or ``"pt-BR"`` (cached).

    Raises ``KeyError`` for an unknown code.
    """
    tables = _tables()
    if language not in tables:
        raise KeyError(f"unknown tile set {language!r}; known: {', '.join(tables)}")
    return _load_table(language, tables[language])
