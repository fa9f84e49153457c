"""The flat DAWG (WordGraph) and the lexicon implementations in engine/lexicon.py."""

from __future__ import annotations

import random
import struct
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.lexicon import (
    FORMAT_VERSION,
    MAGIC,
    Lexicon,
    OverlayLexicon,
    WordGraph,
    WordListLexicon,
)

pytestmark = pytest.mark.pure

ABC = tuple("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
WORDS = ["CAT", "CATS", "CAR", "CARS", "CART", "DOG", "DOGS", "AT", "A", "ZEBRA", "ZEBRAS"]


def _walk(graph: WordGraph, word: str) -> int:
    """Follow the contract's child formula by hand, independent of WordGraph.child."""
    arr = graph.nodes
    n = graph.root
    for ch in word:
        k = graph.codes[ch]
        w = arr[n]
        if not w >> k & 1:
            return -1
        n = arr[n + 1 + (w & ((1 << k) - 2)).bit_count()]
    return n


def test_membership_matches_the_word_list() -> None:
    graph = WordGraph.build(WORDS, ABC)
    assert all(w in graph for w in WORDS)
    for non_word in ["CA", "C", "DO", "CATSS", "ZEBR", "", "cat", "CÄT", "DOGX"]:
        assert non_word not in graph
    assert 42 not in graph
    assert graph.word_count == len(WORDS) == len(graph)


def test_iteration_yields_every_word_once_in_alphabet_order() -> None:
    graph = WordGraph.build([*WORDS, "CAT", "DOG"], ABC)
    assert list(graph) == sorted(WORDS)
    # Order follows the tileset alphabet, not code points: Ñ comes right after N.
    es = WordGraph.build(["ÑU", "NU", "OSO"], tuple("NÑOSU"))
    assert list(es) == ["NU", "ÑU", "OSO"]


def test_file_layout_follows_the_contract(tmp_path: Path) -> None:
    graph = WordGraph.build(["ÄB", "AB"], ("A", "Ä", "B"))
    path = tmp_path / "g.dawg"
    graph.save(path)
    data = path.read_bytes()
    magic, version, alphabet_bytes, node_words, word_count, root = struct.unpack_from("<8s5I", data)
    assert (magic, version, word_count) == (MAGIC, FORMAT_VERSION, 2)
    assert alphabet_bytes == len("AÄB".encode())
    padded = (alphabet_bytes + 3) // 4 * 4
    assert data[28 : 28 + alphabet_bytes].decode() == "AÄB"
    assert len(data) == 28 + padded + 4 * node_words
    arr = struct.unpack_from(f"<{node_words}I", data, 28 + padded)
    # Root has children A (code 1) and Ä (code 2), is not terminal.
    assert arr[root] == 0b110
    assert root == graph.root
    assert list(graph.nodes) == list(arr)


def test_child_and_is_terminal_walk_the_graph() -> None:
    graph = WordGraph.build(WORDS, ABC)
    c = graph.child(graph.root, graph.codes["C"])
    ca = graph.child(c, graph.codes["A"])
    cat = graph.child(ca, graph.codes["T"])
    assert cat == _walk(graph, "CAT")
    assert graph.is_terminal(cat)
    assert not graph.is_terminal(ca)
    assert graph.child(ca, graph.codes["Z"]) == -1
    assert [code for code, _ in graph.children(ca)] == [graph.codes["R"], graph.codes["T"]]


def test_minimisation_shares_common_suffixes() -> None:
    graph = WordGraph.build(["CATS", "DOGS", "RATS"], ABC)
    # CATS and RATS end in the same ATS node; the plural S leaf is shared by all three.
    assert _walk(graph, "CA") == _walk(graph, "RA")
    assert _walk(graph, "CATS") == _walk(graph, "DOGS")
    trie_nodes = 1 + 4 + 4 + 3  # root, C-A-T-S, D-O-G-S, R-A-T-S (RA.. prefix not shared with CA..)
    distinct = {_walk(graph, w[:i]) for w in ["CATS", "DOGS", "RATS"] for i in range(5)}
    assert len(distinct) < trie_nodes


def test_save_load_round_trip_uses_a_read_only_map(tmp_path: Path) -> None:
    graph = WordGraph.build(WORDS, ABC)
    path = tmp_path / "words.dawg"
    graph.save(path)
    loaded = WordGraph.load(path)
    assert list(loaded) == sorted(WORDS)
    assert loaded.alphabet == ABC
    assert loaded.to_bytes() == graph.to_bytes() == path.read_bytes()
    with pytest.raises(TypeError):
        loaded.nodes[0] = 0  # read-only mapping: workers can only share it
    assert WordGraph.from_bytes(path.read_bytes()).word_count == len(WORDS)


def test_corrupt_buffers_are_rejected() -> None:
    good = WordGraph.build(WORDS, ABC).to_bytes()
    with pytest.raises(ValueError, match="magic"):
        WordGraph.from_bytes(b"XXDAWG1\0" + good[8:])
    with pytest.raises(ValueError, match="size"):
        WordGraph.from_bytes(good[:-4])
    with pytest.raises(ValueError, match="truncated"):
        WordGraph.from_bytes(good[:10])


def test_words_outside_the_alphabet_or_empty_are_refused() -> None:
    with pytest.raises(ValueError):
        WordGraph.build(["CAT", "CAÑA"], ABC)
    with pytest.raises(ValueError):
        WordGraph.build(["CAT", ""], ABC)
    with pytest.raises(ValueError):
        WordGraph.build(["\x01"], ABC)
    with pytest.raises(ValueError):
        WordGraph.build(["AB"], tuple("ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÜÑÇÉ"))  # 32 letters


def test_empty_graph_holds_nothing() -> None:
    graph = WordGraph.build([], ABC)
    assert list(graph) == []
    assert "A" not in graph
    assert graph.word_count == 0


@settings(max_examples=60, deadline=None)
@given(
    st.sets(st.text(alphabet="ABCDE", min_size=1, max_size=8), max_size=60),
    st.lists(st.text(alphabet="ABCDEF", min_size=0, max_size=9), max_size=40),
)
def test_graph_answers_equal_a_set(words: set[str], probes: list[str]) -> None:
    graph = WordGraph.build(words, tuple("ABCDE"))
    assert list(graph) == sorted(words)
    for probe in probes:
        assert (probe in graph) == (probe in words)


def test_large_random_list_round_trips(tmp_path: Path) -> None:
    rng = random.Random(7)
    letters = "AEIOURSTLNCDMP"
    words = {"".join(rng.choice(letters) for _ in range(rng.randint(2, 12))) for _ in range(20000)}
    graph = WordGraph.build(words, tuple(letters))
    graph.save(tmp_path / "r.dawg")
    loaded = WordGraph.load(tmp_path / "r.dawg")
    assert loaded.word_count == len(words)
    assert all(w in loaded for w in words)
    non_words = {"".join(rng.choice(letters) for _ in range(rng.randint(2, 12))) for _ in range(20000)}
    assert all((w in loaded) == (w in words) for w in non_words)


def test_word_list_lexicon_is_a_lexicon() -> None:
    lexicon = WordListLexicon(WORDS, ABC)
    assert isinstance(lexicon, Lexicon)
    assert "CART" in lexicon
    assert "CARTS" not in lexicon
    assert lexicon.removed == frozenset()
    assert [list(g) for g in lexicon.graphs()] == [sorted(WORDS)]


def test_bare_graph_is_a_lexicon() -> None:
    graph = WordGraph.build(WORDS, ABC)
    assert isinstance(graph, Lexicon)
    assert graph.graphs() == (graph,)
    assert graph.removed == frozenset()


def test_overlay_adds_and_removes_without_touching_the_base() -> None:
    base = WordGraph.build(WORDS, ABC)
    overlay = OverlayLexicon(base, added=["ZEN", "QI", "CAT"], removed=["DOGS", "QI"])
    assert isinstance(overlay, Lexicon)
    assert "ZEN" in overlay  # added
    assert "CAT" in overlay  # added and already in base
    assert "DOGS" not in overlay  # removed from base
    assert "QI" not in overlay  # added and removed: removal wins
    assert "DOG" in overlay
    assert "DOGS" in base
    graphs = overlay.graphs()
    assert graphs[0] is base
    assert set(graphs[1]) == {"ZEN", "QI", "CAT"}
    assert overlay.removed == frozenset({"DOGS", "QI"})


def test_overlay_with_no_changes_equals_the_base() -> None:
    base = WordGraph.build(WORDS, ABC)
    overlay = OverlayLexicon(base, added=[], removed=[])
    assert all(w in overlay for w in WORDS)
    assert "CA" not in overlay
    assert len(overlay.graphs()) == 2
    assert overlay.graphs()[1].word_count == 0


def test_overlay_refuses_added_words_outside_the_alphabet() -> None:
    base = WordGraph.build(["CASA"], tuple("ACS"))
    with pytest.raises(ValueError):
        OverlayLexicon(base, added=["CASAS", "KIWI"], removed=[])
