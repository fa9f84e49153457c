"""The built base word graphs: one memory-mapped ``WordGraph`` per file, per process.

``settings.LEXICON_DIR / f"{language}.dawg"`` is mapped read-only on first use and kept
for the life of the process, so every worker shares the file's pages through the OS page
cache. The cache is keyed by path, so a test (or a deploy) pointing ``LEXICON_DIR``
elsewhere gets the graphs from there.
"""

from __future__ import annotations

import threading
from pathlib import Path

from django.conf import settings

from engine.lexicon import WordGraph

_lock = threading.Lock()
_graphs: dict[Path, WordGraph] = {}


def graph_file_name(language: str) -> str:
    return f"{language}.dawg"


def graph_path(language: str) -> Path:
    return Path(settings.LEXICON_DIR) / graph_file_name(language)


def base_graph(language: str) -> WordGraph:
    """The built graph of ``language`` (memory-mapped once per process and path).

    Raises ``FileNotFoundError`` when the graph has not been built.
    """
    path = graph_path(language)
    with _lock:
        graph = _graphs.get(path)
        if graph is None:
            graph = _graphs[path] = WordGraph.load(path)
        return graph
