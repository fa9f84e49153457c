"""The engine is pure: standard library only, no clock, no global RNG, no hidden I/O.

Checked on the source of every module under engine/ (including the ones other
engineers own: the rule is the package's, not a module's).
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "engine"
SOURCES = sorted(ENGINE.rglob("*.py"))

# Stdlib modules that would bring a clock, the network, processes, threads or
# entropy into the rules.
FORBIDDEN_MODULES = {
    "time",
    "socket",
    "ssl",
    "http",
    "urllib",
    "subprocess",
    "multiprocessing",
    "threading",
    "asyncio",
    "concurrent",
    "secrets",
    "uuid",
    "signal",
    "sqlite3",
}
FORBIDDEN_CALLS = {
    ("datetime", "now"),
    ("datetime", "today"),
    ("datetime", "utcnow"),
    ("date", "today"),
    ("os", "environ"),
    ("os", "getenv"),
    ("os", "urandom"),
    ("os", "system"),
}
# Only these modules may open files or print: the CLI, and the lexicon's mmap loader.
IO_ALLOWED = {"__main__.py", "lexicon.py"}


def imported_modules(tree: ast.AST) -> list[str]:
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.append(node.module)
    return names


def test_engine_sources_are_found() -> None:
    assert {"moves.py", "state.py", "scoring.py", "gcg.py"} <= {path.name for path in SOURCES}


def test_engine_imports_only_stdlib_and_itself() -> None:
    allowed = set(sys.stdlib_module_names) - FORBIDDEN_MODULES
    for path in SOURCES:
        for name in imported_modules(ast.parse(path.read_text(encoding="utf-8"))):
            top = name.split(".")[0]
            assert top == "engine" or top == "__future__" or top in allowed, f"{path.name} imports {name}"


def test_engine_uses_no_global_random_state() -> None:
    for path in SOURCES:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module == "random":
                assert [a.name for a in node.names] == ["Random"], f"{path.name}: from random import ..."
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id == "random"
            ):
                # random.Random (the type the caller passes in) is the only use allowed.
                assert node.attr == "Random", f"{path.name}:{node.lineno} uses random.{node.attr}"


def test_engine_reads_no_clock_or_environment() -> None:
    for path in SOURCES:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
                assert (node.value.id, node.attr) not in FORBIDDEN_CALLS, f"{path.name}:{node.lineno}"


def test_only_the_cli_and_lexicon_loader_open_files_or_print() -> None:
    for path in SOURCES:
        if path.name in IO_ALLOWED:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                assert node.func.id not in {"open", "print", "input"}, f"{path.name}:{node.lineno}"


def test_importing_the_engine_loads_no_third_party_package() -> None:
    modules = [f"engine.{path.stem}" for path in SOURCES if path.stem not in {"__init__", "__main__"}]
    code = (
        "import sys\n"
        f"for name in {modules!r}: __import__(name)\n"
        "bad = sorted({m.split('.')[0] for m in sys.modules} - set(sys.stdlib_module_names) - {'engine', '__main__'})\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run(
        [sys.executable, "-S", "-c", code], cwd=ENGINE.parent, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == ""
