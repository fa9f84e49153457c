"""Lexicons: the ``Lexicon`` protocol and a compact, memory-mappable word graph.

``WordGraph`` is a minimised DAWG (directed acyclic word graph) stored as one flat
array of little-endian uint32, exactly as described in ``docs/engine-api.md``:

* 8-byte magic ``b"WGDAWG1\\0"``; uint32 ``format_version`` (1), ``alphabet_bytes``,
  ``node_words`` (array length), ``word_count``, ``root``; the alphabet as UTF-8
  padded with NUL to a multiple of 4 bytes; then the array.
* The i-th alphabet letter has code ``i + 1``.
* Node ``n`` is an index into the array. ``arr[n]`` is a bitmask: bit 0 = terminal,
  bit ``k`` = has a child for letter code ``k``. It is followed by the child node
  indices, one uint32 each, in ascending code order.

A saved graph is loaded with ``mmap`` (read-only), so every server process that
loads the same file shares one copy of its pages through the OS page cache.
"""

from __future__ import annotations

import mmap
import os
import struct
import sys
from array import array
from collections.abc import Iterable, Iterator, Sequence
from typing import Protocol, runtime_checkable

__all__ = [
    "FORMAT_VERSION",
    "MAGIC",
    "Lexicon",
    "OverlayLexicon",
    "WordGraph",
    "WordListLexicon",
]

MAGIC = b"WGDAWG1\0"
FORMAT_VERSION = 1
# magic + five uint32 header fields
_HEADER = struct.Struct("<8s5I")
_MAX_LETTERS = 31
_LAST_CODE = chr(_MAX_LETTERS)


@runtime_checkable
class Lexicon(Protocol):
    """What the engine needs from a word list.

    A word is valid when it is in the union of :meth:`graphs` and not in
    :attr:`removed`. Words are normalised uppercase (see ``engine.normalize``).
    """

    def __contains__(self, word: object) -> bool:
        """True when ``word`` (normalised, uppercase) is a valid word."""
        ...

    def graphs(self) -> Sequence[WordGraph]:
        """Graphs whose union holds every valid word (plus the removed ones)."""
        ...

    @property
    def removed(self) -> frozenset[str]:
        """Words in some graph that are nevertheless not valid."""
        ...


class WordGraph:
    """A minimised DAWG over one alphabet in a flat uint32 array.

    Build one with :meth:`build`, persist it with :meth:`save`, share it between
    processes with :meth:`load` (mmap). ``nodes`` is indexable directly by a move
    generator's hot loop; :meth:`child` and :meth:`is_terminal` spell out the rules.

    A ``WordGraph`` is itself a :class:`Lexicon` (``graphs() == (self,)``, nothing
    removed).
    """

    __slots__ = ("_buffer", "_file", "_masks", "alphabet", "codes", "nodes", "root", "word_count")

    alphabet: tuple[str, ...]
    codes: dict[str, int]
    nodes: memoryview
    root: int
    word_count: int

    def __init__(self, buffer: bytes | bytearray | mmap.mmap, *, _file: object = None) -> None:
        """Wrap a serialised graph (use :meth:`from_bytes` / :meth:`load`).

        Raises ``ValueError`` when the buffer is not a valid graph file.
        """
        view = memoryview(buffer)
        if len(view) < _HEADER.size:
            raise ValueError("word graph: truncated header")
        magic, version, alphabet_bytes, node_words, word_count, root = _HEADER.unpack_from(view)
        if magic != MAGIC:
            raise ValueError("word graph: bad magic")
        if version != FORMAT_VERSION:
            raise ValueError(f"word graph: unsupported format version {version}")
        start = _HEADER.size
        padded = (alphabet_bytes + 3) & ~3
        end = start + padded + 4 * node_words
        if len(view) != end or root >= max(node_words, 1):
            raise ValueError("word graph: size does not match header")
        letters = bytes(view[start : start + alphabet_bytes]).decode("utf-8")
        self.alphabet = tuple(letters)
        if len(self.alphabet) > _MAX_LETTERS:
            raise ValueError("word graph: more than 31 letters")
        self.codes = {letter: i + 1 for i, letter in enumerate(self.alphabet)}
        self._masks = {ch: (1 << k, (1 << k) - 2) for ch, k in self.codes.items()}
        data = view[start + padded : end]
        if sys.byteorder == "little" and array("I").itemsize == 4:
            self.nodes = data.cast("I")
        else:  # pragma: no cover - big-endian or exotic C int: private copy
            arr = array("I" if array("I").itemsize == 4 else "L", bytes(data))
            if sys.byteorder != "little":
                arr.byteswap()
            self.nodes = memoryview(arr)
        self.root = root
        self.word_count = word_count
        self._buffer = buffer
        self._file = _file

    # -- construction -------------------------------------------------------------

    @classmethod
    def build(cls, words: Iterable[str], alphabet: Sequence[str]) -> WordGraph:
        """Build a minimised graph in memory from ``words`` (any order, duplicates ok).

        Every word must be non-empty and spelled with letters of ``alphabet``;
        otherwise ``ValueError``. Uses incremental construction from sorted input
        (Daciuk, Mihov, Watson & Watson 2000), so memory stays proportional to the
        minimised graph plus the sorted input.
        """
        return cls.from_bytes(_serialise(words, alphabet))

    @classmethod
    def from_bytes(cls, data: bytes | bytearray) -> WordGraph:
        """A graph over a serialised buffer (as written by :meth:`save`)."""
        return cls(data)

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> WordGraph:
        """Memory-map a saved graph read-only; pages are shared between processes."""
        with open(path, "rb") as f:
            mapped = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
        return cls(mapped, _file=os.fspath(path))

    def to_bytes(self) -> bytes:
        """The serialised graph (the exact content :meth:`save` writes)."""
        return bytes(self._buffer)

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the graph to ``path`` atomically (temp file + rename)."""
        tmp = f"{os.fspath(path)}.tmp{os.getpid()}"
        with open(tmp, "wb") as f:
            f.write(self._buffer)
        os.replace(tmp, path)

    # -- navigation -----------------------------------------------------------------

    def child(self, node: int, code: int) -> int:
        """Index of ``node``'s child for letter ``code`` (1-based), or -1 if none."""
        nodes = self.nodes
        w: int = nodes[node]
        if not (w >> code) & 1:
            return -1
        child: int = nodes[node + 1 + (w & ((1 << code) - 2)).bit_count()]
        return child

    def is_terminal(self, node: int) -> bool:
        """True when the path from the root to ``node`` spells a word."""
        return bool(self.nodes[node] & 1)

    def children(self, node: int) -> Iterator[tuple[int, int]]:
        """(letter code, child node) pairs of ``node`` in ascending code order."""
        nodes = self.nodes
        w: int = nodes[node]
        i = node + 1
        k = 1
        mask = w >> 1
        while mask:
            if mask & 1:
                yield k, nodes[i]
                i += 1
            mask >>= 1
            k += 1

    def __contains__(self, word: object) -> bool:
        """True when ``word`` (a normalised uppercase string) is in the graph."""
        if not isinstance(word, str):
            return False
        nodes = self.nodes
        n = self.root
        # The hot path of validation: one dict lookup per letter (done in C by map)
        # gives both the child bit and the mask of lower bits whose popcount is the
        # child's slot after the bitmask word.
        try:
            for bit, lower in map(self._masks.__getitem__, word):
                w = nodes[n]
                if not w & bit:
                    return False
                n = nodes[n + 1 + (w & lower).bit_count()]
        except KeyError:
            return False
        return bool(nodes[n] & 1)

    def __iter__(self) -> Iterator[str]:
        """All words, in alphabet order (the tileset's letter order)."""
        letters = ("", *self.alphabet)
        prefix: list[str] = []
        # Explicit stack of child iterators: words can be long, recursion is slower.
        stack = [self.children(self.root)]
        if self.is_terminal(self.root):
            yield ""
        while stack:
            for code, node in stack[-1]:
                prefix.append(letters[code])
                if self.nodes[node] & 1:
                    yield "".join(prefix)
                stack.append(self.children(node))
                break
            else:
                stack.pop()
                if prefix:
                    prefix.pop()

    def __len__(self) -> int:
        return self.word_count

    def __repr__(self) -> str:
        letters = "".join(self.alphabet)
        return f"<WordGraph {self.word_count} words, {len(self.nodes)} uint32, {letters}>"

    # -- Lexicon protocol -------------------------------------------------------------

    def graphs(self) -> Sequence[WordGraph]:
        """``(self,)``: a bare graph is a lexicon of its own words."""
        return (self,)

    @property
    def removed(self) -> frozenset[str]:
        """Always empty for a bare graph."""
        return frozenset()


class WordListLexicon:
    """A lexicon built in memory from a list of normalised words (tests, small lists)."""

    __slots__ = ("graph",)

    def __init__(self, words: Iterable[str], alphabet: Sequence[str]) -> None:
        self.graph = WordGraph.build(words, alphabet)

    def __contains__(self, word: object) -> bool:
        return word in self.graph

    def graphs(self) -> Sequence[WordGraph]:
        """The one in-memory graph."""
        return (self.graph,)

    @property
    def removed(self) -> frozenset[str]:
        """Always empty."""
        return frozenset()


class OverlayLexicon:
    """Moderated changes on top of a built graph, without rebuilding it.

    Valid = (in ``base`` or in ``added``) and not in ``removed``. ``graphs()`` is
    ``(base, graph of the added words)``; the added graph is small and rebuilt only
    when a new overlay is made.
    """

    __slots__ = ("_removed", "added", "base")

    def __init__(self, base: WordGraph, added: Iterable[str], removed: Iterable[str]) -> None:
        self.base = base
        self.added = WordGraph.build(added, base.alphabet)
        self._removed = frozenset(removed)

    def __contains__(self, word: object) -> bool:
        if not isinstance(word, str) or word in self._removed:
            return False
        return word in self.base or word in self.added

    def graphs(self) -> Sequence[WordGraph]:
        """``(base, added)``."""
        return (self.base, self.added)

    @property
    def removed(self) -> frozenset[str]:
        """Words removed by moderation (they may still be in ``base`` or ``added``)."""
        return self._removed


# -- building ------------------------------------------------------------------------


def _serialise(words: Iterable[str], alphabet: Sequence[str]) -> bytes:
    """Build the minimised DAWG of ``words`` and return the file bytes."""
    letters = tuple(alphabet)
    if len(letters) > _MAX_LETTERS or len(set(letters)) != len(letters):
        raise ValueError("alphabet must have at most 31 distinct letters")
    if any(len(letter) != 1 for letter in letters):
        raise ValueError("alphabet letters must be single characters")
    # Map each word to a string of chr(code) so that plain string order equals
    # code order: Daciuk's algorithm needs input sorted in edge order.
    table = {ord(letter): chr(i + 1) for i, letter in enumerate(letters)}
    encoded: set[str] = set()
    for word in words:
        coded = word.translate(table)
        # Letters outside the alphabet survive translate() unchanged, so they show
        # up above chr(31); isalpha() rules out control characters below it.
        if not coded or max(coded) > _LAST_CODE or not word.isalpha():
            raise ValueError(f"word {word!r} is empty or not spelled with the alphabet")
        encoded.add(coded)
    ordered = sorted(encoded)
    del encoded

    # register: node signature -> id. A signature is (terminal, code1, id1, code2, id2, ...).
    register: dict[tuple[int, ...], int] = {}
    signatures: list[tuple[int, ...]] = []

    def intern(sig: tuple[int, ...]) -> int:
        node_id = register.get(sig)
        if node_id is None:
            node_id = len(signatures)
            register[sig] = node_id
            signatures.append(sig)
        return node_id

    # The path of the previous word: per depth, a node under construction as a list
    # [terminal, code, child, code, child, ...] whose children are already interned.
    path: list[list[int]] = [[0]]
    prev = ""
    for word in ordered:
        common = 0
        limit = min(len(word), len(prev))
        while common < limit and word[common] == prev[common]:
            common += 1
        # Freeze the previous word's nodes below the common prefix, deepest first.
        for depth in range(len(prev), common, -1):
            node_id = intern(tuple(path.pop()))
            path[depth - 1] += (ord(prev[depth - 1]), node_id)
        for _ in word[common:]:
            path.append([0])
        path[-1][0] = 1
        prev = word
    for depth in range(len(prev), 0, -1):
        node_id = intern(tuple(path.pop()))
        path[depth - 1] += (ord(prev[depth - 1]), node_id)
    root_id = intern(tuple(path.pop()))
    register.clear()  # free the hash table before laying out the array

    # Lay nodes out root first (reverse creation order: parents before children),
    # which keeps the top of the graph, visited by every lookup, on the first pages.
    count = len(signatures)
    offsets = [0] * count
    pos = 0
    for node_id in range(count - 1, -1, -1):
        offsets[node_id] = pos
        pos += 1 + (len(signatures[node_id]) - 1) // 2
    out = array("I", bytes(4 * pos))
    for node_id in range(count - 1, -1, -1):
        sig = signatures[node_id]
        at = offsets[node_id]
        mask = sig[0]
        j = at + 1
        for i in range(1, len(sig), 2):
            mask |= 1 << sig[i]
            out[j] = offsets[sig[i + 1]]
            j += 1
        out[at] = mask
    if sys.byteorder != "little":  # pragma: no cover
        out.byteswap()
    alphabet_utf8 = "".join(letters).encode("utf-8")
    padding = b"\0" * (-len(alphabet_utf8) % 4)
    header = _HEADER.pack(MAGIC, FORMAT_VERSION, len(alphabet_utf8), pos, len(ordered), offsets[root_id])
    return header + alphabet_utf8 + padding + out.tobytes()
