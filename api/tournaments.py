"""``/api/v1/tournaments``: a tournament's standings, and its exports in the formats of the
organiser page (``tournaments.exports``: standings CSV, results CSV, JSON, TSH, the GCG zip
and the organiser bundle); a player's side: the list, registering and withdrawing, their
rating-body memberships. Organisers run tournaments on the site's pages."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from django.http import HttpRequest, HttpResponse
from ninja import Query, Router, Schema, Status
from pydantic import Field

from api.errors import STATUS, ApiError
from api.ratelimit import LOOKUP, WRITE
from api.schemas import Body, ErrorOut, Text
from tournaments import rendering as tournament_rendering
from tournaments import services
from tournaments.exports import FORMATS, ExportRefused, collect, export, file_stem, json_document
from tournaments.messages import error_message as tournament_message
from tournaments.models import Tournament
from tournaments.services import TournamentError

router = Router(tags=["tournaments"])
REFUSALS: dict[int | str, Any] = {
    400: ErrorOut,
    401: ErrorOut,
    403: ErrorOut,
    404: ErrorOut,
    409: ErrorOut,
    429: ErrorOut,
}


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


# ----- a player's side: the list, registering, withdrawing, memberships -----------------------


def tournament_refusal(exc: TournamentError) -> ApiError:
    """A tournament service's refusal, with the page's sentence (409: not now)."""
    return ApiError(
        exc.code, status=STATUS.get(exc.code, 409), message=tournament_message(exc.code, **exc.params)
    )


class TournamentBriefOut(Schema):
    model_config = {
        "json_schema_extra": {
            "examples": [
                {
                    "id": 3,
                    "name": "Spring open",
                    "language": "en",
                    "status": "registration",
                    "starts_at": "2026-12-01T10:00:00Z",
                }
            ]
        }
    }
    id: int
    name: str
    language: str
    status: str
    starts_at: Any


@router.get("", response={200: list[TournamentBriefOut], **REFUSALS}, throttle=LOOKUP, summary="Tournaments")
def tournament_list(request: HttpRequest) -> Any:
    """Tournaments open for registration, in progress and finished, the latest first."""
    lists = tournament_rendering.tournament_list(request.user)
    return [
        {"id": t.pk, "name": t.name, "language": t.language, "status": t.status, "starts_at": t.starts_at}
        for key in ("open", "running", "finished")
        for t in lists[key]
    ]


@router.post(
    "/{int:tournament_id}/register", response={204: None, **REFUSALS}, throttle=WRITE, summary="Register"
)
def register(request: HttpRequest, tournament_id: int) -> Any:
    tournament = tournament_or_404(tournament_id)
    try:
        services.register_player(tournament=tournament, user=request.user, by=request.user)
    except TournamentError as exc:
        raise tournament_refusal(exc) from exc
    return Status(204, None)


@router.post(
    "/{int:tournament_id}/check-in", response={204: None, **REFUSALS}, throttle=WRITE, summary="Check in"
)
def check_in(request: HttpRequest, tournament_id: int) -> Any:
    """Say you are here, while the tournament's check-in is open (a player who has not
    checked in when the first round is paired is withdrawn)."""
    tournament = tournament_or_404(tournament_id)
    registration = tournament.registrations.filter(user_id=getattr(request.user, "pk", 0)).first()
    if registration is None:
        raise ApiError("not_registered", status=409, message=tournament_message("not_registered"))
    try:
        services.check_in(tournament=tournament, registration=registration, by=request.user)
    except TournamentError as exc:
        raise tournament_refusal(exc) from exc
    return Status(204, None)


@router.post(
    "/{int:tournament_id}/withdraw", response={204: None, **REFUSALS}, throttle=WRITE, summary="Withdraw"
)
def withdraw(request: HttpRequest, tournament_id: int) -> Any:
    tournament = tournament_or_404(tournament_id)
    registration = tournament.registrations.filter(user_id=getattr(request.user, "pk", 0)).first()
    if registration is None:
        raise ApiError("not_registered", status=409, message=tournament_message("not_registered"))
    try:
        services.withdraw_player(tournament=tournament, registration=registration, by=request.user)
    except TournamentError as exc:
        raise tournament_refusal(exc) from exc
    return Status(204, None)


class MembershipOut(Schema):
    model_config = {
        "json_schema_extra": {"examples": [{"body": "naspa", "number": "NA-123", "rating": 1500}]}
    }
    body: str
    number: str
    rating: int | None


class MembershipIn(Body):
    model_config = {
        **Body.model_config,
        "json_schema_extra": {"examples": [{"number": "NA-123", "rating": 1500}]},
    }
    number: Annotated[Text, Field(max_length=32)] = ""
    rating: Annotated[int, Field(ge=0, le=4000)] | None = None


@router.get(
    "/memberships", response={200: list[MembershipOut], **REFUSALS}, throttle=LOOKUP, summary="My memberships"
)
def memberships(request: HttpRequest) -> Any:
    """Your member numbers and ratings with the rating bodies (NASPA, ABSP, WESPA)."""
    return [
        {"body": m.body, "number": m.number, "rating": m.rating}
        for m in services.player_memberships(user=request.user)
    ]


@router.put(
    "/memberships/{body}",
    response={200: list[MembershipOut], **REFUSALS},
    throttle=WRITE,
    summary="Set a membership",
)
def set_membership(request: HttpRequest, body: Literal["naspa", "absp", "wespa"], data: MembershipIn) -> Any:
    """Neither a number nor a rating forgets the membership."""
    services.set_membership(user=request.user, body=body, number=data.number, rating=data.rating)
    return memberships(request)
