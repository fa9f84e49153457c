"""The engine is pure: standard library only, no clock, no global RNG, no hidden I/O.

Checked on the source of every module under engine/ (including the ones other
engineers own: the rule is the package's, not a module's), and on the Cython sources
of its compiled core (``engine/*.pyx``: standard library, C's libc and Cython only).
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "engine"
SOURCES = sorted(ENGINE.rglob("*.py"))
CYTHON_SOURCES = sorted(ENGINE.rglob("*.pyx"))

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
# The one environment variable the engine reads, and where: which move generator runs
# (compiled or pure, the same plays either way), never a rule.
ENVIRONMENT_ALLOWED = {("movegen.py", "WORDGAME_MOVEGEN")}
# What the compiled core may cimport or import besides the standard library.
CYTHON_ALLOWED = {"libc", "cython", "engine"}


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


def _allowed_environment_read(path: Path, tree: ast.AST, node: ast.Attribute) -> bool:
    """``os.environ.get("NAME", ...)`` with a (file, NAME) pair of ENVIRONMENT_ALLOWED."""
    if (node.value.id, node.attr) != ("os", "environ"):  # type: ignore[attr-defined]
        return False
    for call in ast.walk(tree):
        if (
            isinstance(call, ast.Call)
            and isinstance(call.func, ast.Attribute)
            and call.func.value is node
            and call.func.attr == "get"
            and call.args
            and isinstance(call.args[0], ast.Constant)
        ):
            return (path.name, call.args[0].value) in ENVIRONMENT_ALLOWED
    return False


def test_engine_reads_no_clock_or_environment() -> None:
    for path in SOURCES:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
                if _allowed_environment_read(path, tree, node):
                    continue
                assert (node.value.id, node.attr) not in FORBIDDEN_CALLS, f"{path.name}:{node.lineno}"


def test_the_environment_exception_is_the_move_generator_choice_only() -> None:
    movegen = ENGINE / "movegen.py"
    tree = ast.parse(movegen.read_text(encoding="utf-8"))
    reads = [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.attr == "environ"
    ]
    assert len(reads) == 1
    assert _allowed_environment_read(movegen, tree, reads[0])


def test_compiled_core_sources_are_found_and_pure() -> None:
    """The ``.pyx`` sources cannot be parsed by ``ast``: their import lines and calls are
    checked as text (comments and docstrings included, which only makes it stricter)."""
    assert {path.name for path in CYTHON_SOURCES} >= {"_core.pyx"}
    allowed = (set(sys.stdlib_module_names) - FORBIDDEN_MODULES) | CYTHON_ALLOWED
    import_line = re.compile(r"^\s*(?:from\s+([\w.]+)\s+c?import|c?import\s+([\w.]+))", re.MULTILINE)
    for path in CYTHON_SOURCES:
        text = path.read_text(encoding="utf-8")
        modules = [a or b for a, b in import_line.findall(text)]
        assert modules, f"{path.name}: no import found (is the pattern right?)"
        for name in modules:
            assert name.split(".")[0] in allowed, f"{path.name} imports {name}"
        code = "\n".join(line.split("#")[0] for line in text.splitlines())
        for module, attr in FORBIDDEN_CALLS:
            assert f"{module}.{attr}" not in code, f"{path.name} uses {module}.{attr}"
        for call in ("open(", "print(", "input(", "random.", "getenv", "environ"):
            assert call not in code, f"{path.name} uses {call}"


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
        # The compiled core registers Cython's own runtime modules (no package is imported).
        "bad = sorted({m.split('.')[0] for m in sys.modules if not m.startswith(('_cython_', 'cython_runtime'))}"
        " - set(sys.stdlib_module_names) - {'engine', '__main__'})\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run(
        [sys.executable, "-S", "-c", code], cwd=ENGINE.parent, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == ""
