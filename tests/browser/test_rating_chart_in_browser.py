"""The rating chart in every interface language.

Languages with a decimal comma (French, Swedish, German…) once had their numbers localised
into the SVG (``y1="10,0"``), which Chromium reads as nonsense: the axis and the end dot moved.
Here the profile is opened in Chromium in all seven interface languages and the drawn chart is
read back: the end dot sits on the line's last point, the grid lines at the high and low marks,
and every shape inside the chart.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.conf import settings

from accounts.services import apply_rated_result

pytestmark = [pytest.mark.browser]

READ_CHART = """() => {
  const svg = document.querySelector('svg.rating-chart');
  const box = svg.viewBox.baseVal;
  const line = svg.querySelector('polyline.line');
  const points = Array.from(line.points, p => [p.x, p.y]);
  const dot = svg.querySelector('circle.dot');
  const grids = Array.from(svg.querySelectorAll('line.grid'), g => g.y1.baseVal.value);
  const labels = Array.from(svg.querySelectorAll('text'), t => t.textContent.trim());
  const raw = Array.from(svg.querySelectorAll('*'), e =>
    Array.from(e.attributes, a => a.name + '=' + a.value).join(' ')).join(' ');
  return {box: [box.width, box.height], points, dot: [dot.cx.baseVal.value, dot.cy.baseVal.value],
          grids, labels, raw};
}"""


@pytest.mark.django_db(transaction=True)
def test_rating_chart_draws_the_same_in_every_interface_language(open_page: Any, ana: Any, ben: Any) -> None:
    # Five results whose coordinates are not whole numbers (a decimal separator is written).
    for n, score in enumerate([1, 1, 0, 1, 0.5]):
        apply_rated_result(language="en", player=ana, opponent=ben, score=score, reference=f"game:{n}")
    drawn = []
    for code, _name in settings.LANGUAGES:
        page = open_page(ben, f"/players/{ana.username}/", language=code)
        chart = page.evaluate(READ_CHART)
        width, height = chart["box"]
        assert (width, height) == (320, 120), code
        assert len(chart["points"]) == 6, (code, chart["points"])
        assert all(0 < x <= width and 0 < y < height for x, y in chart["points"]), (code, chart)
        assert chart["dot"] == chart["points"][-1], (code, chart)
        ys = [y for _x, y in chart["points"]]
        assert sorted(chart["grids"]) == [min(ys), max(ys)], (code, chart)
        high, low = (int(label) for label in chart["labels"])
        assert high > low > 1000, (code, chart["labels"])
        # No coordinate written into the SVG has a decimal comma.
        coordinates = [a for a in chart["raw"].split(" ") if a.startswith(("x", "y", "cx=", "cy=", "dy="))]
        assert coordinates, code
        assert not [a for a in coordinates if "," in a], code
        drawn.append(chart["points"])
    assert all(points == drawn[0] for points in drawn), "the chart differs between languages"
