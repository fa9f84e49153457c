"""``/api/v1/tournaments``: a tournament's standings, and its exports in the formats of the
organiser page (``tournaments.exports``: standings CSV, results CSV, JSON, TSH, the GCG zip
and the organiser bundle). Read-only: organisers run tournaments on the site's pages."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from ninja import Query, Router, Schema
from pydantic import Field

from api.errors import ApiError
from api.ratelimit import LOOKUP
from api.schemas import ErrorOut
from tournaments.exports import FORMATS, ExportRefused, collect, export, file_stem, json_document
from tournaments.models import Tournament

router = Router(tags=["tournaments"])
REFUSALS: dict[int | str, Any] = {400: ErrorOut, 401: ErrorOut, 404: ErrorOut, 409: ErrorOut, 429: ErrorOut}


def tournament_or_404(tournament_id: int) -> Tournament:
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None:
        raise ApiError("not_found")
    return tournament


@router.get(
    "/{int:tournament_id}",
    response={200: dict[str, Any], **REFUSALS},
    throttle=LOOKUP,
    summary="A tournament",
)
def detail(request: HttpRequest, tournament_id: int) -> Any:
    """The tournament, its players, standings (wins, then spread, then total score) and
    results so far: the same document as the JSON export."""
    return json_document(collect(tournament_or_404(tournament_id)))


class ExportQuery(Schema):
    format: str = Field(description="standings-csv, results-csv, json, tsh, gcg-zip or bundle")


@router.get(
    "/{int:tournament_id}/export", response={200: None, **REFUSALS}, throttle=LOOKUP, summary="Export"
)
def export_file(request: HttpRequest, tournament_id: int, query: Query[ExportQuery]) -> Any:
    """The file the organiser page offers, after the same pre-flight check (a refusal is
    409 ``export_refused`` with the reasons)."""
    fmt = FORMATS.get(query.format)
    if fmt is None:
        raise ApiError("bad_format")
    tournament = tournament_or_404(tournament_id)
    try:
        _fmt, content, _report = export(collect(tournament), fmt.name)
    except ExportRefused as exc:
        raise ApiError("export_refused", reasons=list(exc.report.errors)) from None
    response = HttpResponse(content, content_type=fmt.content_type)
    response["Content-Disposition"] = f'attachment; filename="{fmt.filename(file_stem(tournament.pk))}"'
    return response
