"""The project's licence and the licences of every data set it ships.

``fixtures/LICENSES.md`` is the one list of the bundled data and its licences; these tests keep
it complete (every file under ``fixtures/`` and ``static/vendor/`` is listed or is a notice),
true (every listed file and notice exists) and within the licences an AGPL-3.0-or-later program
may ship.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
INDEX = ROOT / "fixtures" / "LICENSES.md"

pytestmark = pytest.mark.pure


def _table(heading: str) -> list[list[str]]:
    """The rows of the Markdown table under ``## heading``, cells stripped, header left out."""
    text = INDEX.read_text(encoding="utf-8")
    section = text.split(f"## {heading}\n", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("|")]
    return [[cell.strip() for cell in row.strip("|").split("|")] for row in rows[2:]]


def _ticked(cell: str) -> list[str]:
    return re.findall(r"`([^`]+)`", cell)


def _listed_files() -> dict[Path, list[str]]:
    """Each listed data file with the licences it comes under (a file may have two sources)."""
    listed: dict[Path, list[str]] = {}
    for files, _what, _source, licence, _notice in _table("Data sets"):
        names = _ticked(files)
        folder = Path(names[0]).parent
        for name in names:
            path = ROOT / (name if "/" in name else folder / name)
            listed.setdefault(path, []).extend(_ticked(licence))
    return listed


def _is_notice(path: Path) -> bool:
    name = path.name
    return (
        path == INDEX
        or "LICENSES" in path.parts
        or name.startswith("LICENSE")
        or name in {"VERSION", "README.md"}
    )


def test_licence_file_is_the_agpl_3():
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("GNU AFFERO GENERAL PUBLIC LICENSE\nVersion 3, 19 November 2007")
    assert "13. Remote Network Interaction; Use with the GNU General Public License." in text
    assert "END OF TERMS AND CONDITIONS" in text


def test_readme_and_pyproject_name_the_licence():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["license"] == "AGPL-3.0-or-later"
    assert project["license-files"] == ["LICENSE"]
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "AGPL-3.0-or-later" in readme
    assert "(LICENSE)" in readme
    assert "(fixtures/LICENSES.md)" in readme


def test_every_bundled_file_is_listed_with_its_licence():
    listed = _listed_files()
    shipped = {
        path
        for folder in ("fixtures", "static/vendor")
        for path in (ROOT / folder).rglob("*")
        if path.is_file() and not _is_notice(path)
    }
    assert sorted(map(str, shipped - listed.keys())) == []
    assert sorted(str(path) for path in listed if not path.is_file()) == []


def test_every_listed_licence_allows_shipping_with_the_agpl():
    compatible = {name for row in _table("Compatible licences") for name in _ticked(row[0])}
    compatible.add("AGPL-3.0-or-later")
    # Separate data files under a licence that would not combine with the program's code:
    # allowed beside it only as data that the program reads (fixtures/definitions/).
    separate = {
        name
        for row in _table("Separate data under licences that do not combine with the AGPL as code")
        for name in _ticked(row[0])
    }
    for path, licences in _listed_files().items():
        if set(licences) & separate:
            assert path.parent == ROOT / "fixtures" / "definitions", path
            assert path.name.endswith(".json.gz"), path
    # The licences no AGPL-3.0 program may ship with: the check must be able to say no.
    assert not compatible & {"GPL-2.0-only", "CC-BY-NC-4.0", "proprietary", "MPL-1.1"}
    for path, licences in _listed_files().items():
        assert licences, path
        assert set(licences) <= compatible | separate, (path, licences)


def test_every_notice_named_exists():
    for row in _table("Data sets"):
        for notice in _ticked(row[4]):
            assert (ROOT / notice).is_file(), notice
