"""The dictionaries app's modules import one another without a cycle, and never the
maintainer scripts (``scripts/`` may import the app, not the other way round)."""

from __future__ import annotations

import ast
from graphlib import CycleError, TopologicalSorter
from pathlib import Path

import pytest

pytestmark = pytest.mark.pure

APP = Path(__file__).resolve().parents[2] / "dictionaries"


def module_name(path: Path) -> str:
    parts = path.relative_to(APP.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported_modules(path: Path) -> set[str]:
    """Every module named by an import anywhere in the file, function bodies included."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
            # "from dictionaries import live" imports the module dictionaries.live
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


def app_files() -> list[Path]:
    return [p for p in APP.rglob("*.py") if "migrations" not in p.parts]


def test_dictionaries_modules_have_no_import_cycle() -> None:
    modules = {module_name(p): p for p in app_files()}
    graph = {
        name: {m for m in imported_modules(path) if m in modules and m != name}
        for name, path in modules.items()
    }
    assert graph["dictionaries.lexicons"] >= {"dictionaries.models", "dictionaries.live"}
    try:
        tuple(TopologicalSorter(graph).static_order())
    except CycleError as error:
        pytest.fail(f"import cycle: {' -> '.join(error.args[1])}")


def test_dictionaries_never_imports_the_maintainer_scripts() -> None:
    offenders = [
        str(p.relative_to(APP.parent))
        for p in app_files()
        if any(m == "scripts" or m.startswith("scripts.") for m in imported_modules(p))
    ]
    assert offenders == []
