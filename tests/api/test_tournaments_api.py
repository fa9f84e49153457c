"""``/api/v1/tournaments``: standings and exports, the same files as the organiser page."""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path
from typing import Any

import pytest

from tests.tournaments.conftest import olga  # noqa: F401 (the organiser fixture)
from tests.tournaments.test_exports import golden_tournament


@pytest.mark.django_db
def test_standings_and_every_export_format(api_as: Any, olga: Any) -> None:  # noqa: F811
    tournament = golden_tournament(olga)
    api = api_as(olga)
    golden = Path(__file__).parent.parent / "tournaments" / "golden"
    doc = api.get(f"/tournaments/{tournament.pk}").json()
    assert doc == json.loads((golden / "tournament.json").read_text(encoding="utf-8"))
    tsh = api.get(f"/tournaments/{tournament.pk}/export?format=tsh")
    assert tsh.status_code == 200
    assert tsh.content.decode() == (golden / "a.t").read_text(encoding="utf-8")
    csv = api.get(f"/tournaments/{tournament.pk}/export?format=standings-csv")
    assert csv.content.decode() == (golden / "standings.csv").read_text(encoding="utf-8")
    bundle = api.get(f"/tournaments/{tournament.pk}/export?format=bundle")
    assert bundle.status_code == 200
    assert len(zipfile.ZipFile(io.BytesIO(bundle.content)).namelist()) >= 5
    bad = api.get(f"/tournaments/{tournament.pk}/export?format=pdf")
    assert (bad.status_code, bad.json()["error"]) == (400, "bad_format")
    assert api.get("/tournaments/999999").json()["error"] == "not_found"
