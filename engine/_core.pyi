"""Types of the compiled move-generation core (``engine/_core.pyx``)."""

from collections.abc import Sequence

ABI: int

class Tables:
    def __init__(self, t: object) -> None: ...

class Plays:
    def __len__(self) -> int: ...
    def score(self, i: int, /) -> int: ...
    def keys(self, i: int, /) -> tuple[int, ...]: ...
    def direction(self, i: int, /) -> int: ...
    def scores(self) -> list[int]: ...

def run(
    tb: Tables,
    board: Sequence[str],
    rack: str,
    language: str,
    graphs: list[tuple[memoryview, int]],
    removed: tuple[memoryview, int] | None,
    mode: int,
    k: int = 0,
    ties: bool = False,
    better_than: int = 0,
) -> object: ...
