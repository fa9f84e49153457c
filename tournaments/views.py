"""Thin views: fetch the tournament (404 when there is none), check who may act, validate
a form, call one service, answer (STYLE.md 3.5). Organiser actions answer with a
redirect to the tournament page (an htmx redirect for htmx requests), carrying the
refusal or confirmation as a message; the page's live partials come from
``tournaments.rendering`` like the consumer's."""

from __future__ import annotations

import io
from collections.abc import Callable
from functools import wraps
from typing import TYPE_CHECKING, Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import FileResponse, HttpRequest, HttpResponse, HttpResponseForbidden
from django.http.response import HttpResponseBase
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect

from tournaments import exports, rendering, services, summary
from tournaments.forms import (
    DivisionForm,
    MembershipForm,
    MoveForm,
    PairingOverrideForm,
    PlayerForm,
    PrizeBandsForm,
    RatingForm,
    RealNameForm,
    ReasonForm,
    ResultOverrideForm,
    TournamentForm,
)
from tournaments.messages import error_message
from tournaments.models import RatingBody, Registration, Tournament

if TYPE_CHECKING:
    from django_htmx.middleware import HtmxDetails

    from accounts.models import User

    class AuthedRequest(HttpRequest):
        user: User
        htmx: HtmxDetails
else:
    AuthedRequest = HttpRequest

TournamentView = Callable[..., HttpResponseBase]


def back(request: AuthedRequest, tournament: Tournament) -> HttpResponse:
    url = reverse("tournaments:detail", args=[tournament.pk])
    return HttpResponseClientRedirect(url) if request.htmx else redirect(url)


def organiser_view(view: TournamentView) -> Callable[..., HttpResponseBase]:
    """Fetch the tournament (404) and let only its organiser go on (403)."""

    @wraps(view)
    def inner(request: AuthedRequest, tournament_id: int, *args: Any, **kwargs: Any) -> HttpResponseBase:
        tournament = get_object_or_404(Tournament, pk=tournament_id)
        if not tournament.run_by(request.user):
            return HttpResponseForbidden(error_message("not_organiser"))
        return view(request, tournament, *args, **kwargs)

    return inner


def attempt(
    request: AuthedRequest, tournament: Tournament, action: Callable[[], Any], done: str
) -> HttpResponse:
    """Run a service call; say what happened (or why not) on the tournament page."""
    try:
        action()
    except services.TournamentError as exc:
        messages.error(request, error_message(exc.code, **exc.params))
    else:
        messages.success(request, done)
    return back(request, tournament)


def invalid(request: AuthedRequest, tournament: Tournament, form: Any) -> HttpResponse:
    for errors in form.errors.values():
        for error in errors:
            messages.error(request, str(error))
    return back(request, tournament)


# ----- everyone ------------------------------------------------------------------------


@require_GET
def tournament_list(request: AuthedRequest) -> HttpResponse:
    context = {
        **rendering.tournament_list(request.user),
        "can_create": request.user.has_perm("tournaments.add_tournament"),
    }
    return render(request, "tournaments/list.html", context)


@require_GET
def detail(request: AuthedRequest, tournament_id: int) -> HttpResponse:
    tournament = get_object_or_404(Tournament.objects.select_related("created_by"), pk=tournament_id)
    context = rendering.tournament_context(tournament, request.user)
    if context["is_organiser"]:
        context.update(organiser_extras(tournament))
    return render(request, "tournaments/detail.html", context)


@require_GET
def results_summary(request: AuthedRequest, tournament_id: int) -> HttpResponse:
    """The one-page results summary (standings, prizes, high game and play), to print."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    sections = [summary.summary(d) for d in rendering.screen_divisions(tournament)]
    return render(request, "tournaments/summary.html", {"tournament": tournament, "sections": sections})


@require_GET
def screen(request: AuthedRequest, tournament_id: int) -> HttpResponse:
    """The screen for the room: full-screen standings and pairings, live, cycling
    through the divisions (every 20 seconds, or ``?every=N``); no controls."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    panels = [rendering.screen_panel(d) for d in rendering.screen_divisions(tournament)]
    every = request.GET.get("every", "")
    seconds = min(max(int(every), 1), 600) if every.isdigit() else 20
    context = {"tournament": tournament, "panels": panels, "seconds": seconds}
    return render(request, "tournaments/screen.html", context)


@require_GET
def print_sheet(request: AuthedRequest, tournament_id: int, sheet: str) -> HttpResponse:
    """A printable sheet of the current pairings or of the standings, per division."""
    if sheet not in ("pairings", "standings"):
        return HttpResponse(status=404)
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    panels = [rendering.screen_panel(d) for d in rendering.screen_divisions(tournament)]
    return render(
        request, "tournaments/sheet.html", {"tournament": tournament, "panels": panels, "sheet": sheet}
    )


@require_POST
@login_required
def register(request: AuthedRequest, tournament_id: int) -> HttpResponse:
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    return attempt(
        request,
        tournament,
        lambda: services.register_player(tournament=tournament, user=request.user, by=request.user),
        gettext("You are registered."),
    )


@require_POST
@login_required
def withdraw(request: AuthedRequest, tournament_id: int) -> HttpResponse:
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    registration = tournament.registrations.filter(user=request.user).first()
    if registration is None:
        messages.error(request, error_message("not_registered"))
        return back(request, tournament)
    return attempt(
        request,
        tournament,
        lambda: services.withdraw_player(tournament=tournament, registration=registration, by=request.user),
        gettext("You have withdrawn."),
    )


@require_POST
@login_required
def check_in(request: AuthedRequest, tournament_id: int) -> HttpResponse:
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    registration = tournament.registrations.filter(user=request.user).first()
    if registration is None:
        messages.error(request, error_message("not_registered"))
        return back(request, tournament)
    return attempt(
        request,
        tournament,
        lambda: services.check_in(tournament=tournament, registration=registration, by=request.user),
        gettext("You have checked in."),
    )


@require_http_methods(["GET", "POST"])
@login_required
def memberships(request: AuthedRequest) -> HttpResponse:
    own = {m.body: m for m in services.player_memberships(user=request.user)}
    initial: dict[str, Any] = {}
    for body in RatingBody.values:
        if body in own:
            initial[f"{body}_number"] = own[body].number
            initial[f"{body}_rating"] = own[body].rating
    form = MembershipForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        for body in RatingBody.values:
            services.set_membership(
                user=request.user,
                body=body,
                number=form.cleaned_data[f"{body}_number"],
                rating=form.cleaned_data[f"{body}_rating"],
            )
        messages.success(request, gettext("Your member numbers are saved."))
        return redirect("tournaments:memberships")
    return render(request, "tournaments/memberships.html", {"form": form})


# ----- organisers ----------------------------------------------------------------------


@require_http_methods(["GET", "POST"])
@login_required
def new(request: AuthedRequest) -> HttpResponse:
    if not request.user.has_perm("tournaments.add_tournament"):
        return HttpResponseForbidden(error_message("not_allowed_to_create"))
    form = TournamentForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            tournament = services.create_tournament(organiser=request.user, **data)
        except services.TournamentError as exc:
            form.add_error(None, error_message(exc.code, **exc.params))
        else:
            return back(request, tournament)
    return render(request, "tournaments/new.html", {"form": form})


@require_GET
@login_required
@organiser_view
def round_controls(request: AuthedRequest, tournament: Tournament) -> HttpResponse:
    """The organiser's round buttons and exports, fetched again when the page's live
    partials change (a game finishing may let the next round be paired)."""
    context = rendering.tournament_context(tournament, request.user)
    context.update(organiser_extras(tournament))
    return render(request, "tournaments/_round_controls.html", context)


def organiser_extras(tournament: Tournament) -> dict[str, Any]:
    """The organiser's forms, players and the exports' pre-flight."""
    registrations = list(tournament.registrations.select_related("user"))
    info = services.rating_info(tournament, registrations)
    return {
        "organiser_players": [
            {"registration": r, "member_number": info[r.pk].member_number, "rating": info[r.pk].rating}
            for r in registrations
        ],
        "player_form": PlayerForm(),
        "pairing_form": PairingOverrideForm(),
        "result_form": ResultOverrideForm(initial={"round": tournament.current_round or 1}),
        "formats": list(exports.FORMATS.values()),
        "preflight": exports.preflight(exports.collect(tournament, with_games=False))
        if tournament.current_round
        else None,
    }


@require_POST
@login_required
@organiser_view
def add_player(request: AuthedRequest, tournament: Tournament) -> HttpResponse:
    form = PlayerForm(request.POST)
    if not form.is_valid():
        return invalid(request, tournament, form)
    user = form.cleaned_data["username"]
    return attempt(
        request,
        tournament,
        lambda: services.register_player(
            tournament=tournament,
            user=user,
            by=request.user,
            reason=form.cleaned_data["reason"],
            missed=form.cleaned_data["missed"] or services.MISSED_LOSS,
        ),
        gettext("%(name)s is registered.") % {"name": user.username},
    )


def _registration(tournament: Tournament, registration_id: int) -> Registration:
    return get_object_or_404(Registration, tournament=tournament, pk=registration_id)


@require_POST
@login_required
@organiser_view
def withdraw_player(request: AuthedRequest, tournament: Tournament, registration_id: int) -> HttpResponse:
    registration = _registration(tournament, registration_id)
    form = ReasonForm(request.POST)
    if not form.is_valid():
        return invalid(request, tournament, form)
    return attempt(
        request,
        tournament,
        lambda: services.withdraw_player(
            tournament=tournament,
            registration=registration,
            by=request.user,
            reason=form.cleaned_data["reason"],
        ),
        gettext("%(name)s is withdrawn.") % {"name": registration.name},
    )


@require_POST
@login_required
@organiser_view
def check_in_player(request: AuthedRequest, tournament: Tournament, registration_id: int) -> HttpResponse:
    registration = _registration(tournament, registration_id)
    return attempt(
        request,
        tournament,
        lambda: services.check_in(tournament=tournament, registration=registration, by=request.user),
        gettext("%(name)s has checked in.") % {"name": registration.name},
    )


@require_POST
@login_required
@organiser_view
def reinstate_player(request: AuthedRequest, tournament: Tournament, registration_id: int) -> HttpResponse:
    registration = _registration(tournament, registration_id)
    form = ReasonForm(request.POST)
    if not form.is_valid():
        return invalid(request, tournament, form)
    return attempt(
        request,
        tournament,
        lambda: services.reinstate_player(
            tournament=tournament,
            registration=registration,
            by=request.user,
            reason=form.cleaned_data["reason"],
        ),
        gettext("%(name)s is reinstated.") % {"name": registration.name},
    )


@require_POST
@login_required
@organiser_view
def player_rating(request: AuthedRequest, tournament: Tournament, registration_id: int) -> HttpResponse:
    registration = _registration(tournament, registration_id)
    form = RatingForm(request.POST)
    if not form.is_valid():
        return invalid(request, tournament, form)
    data = form.cleaned_data
    return attempt(
        request,
        tournament,
        lambda: services.set_registration_rating(
            tournament=tournament,
            registration=registration,
            by=request.user,
            member_number=data["member_number"],
            rating=data["rating"],
            reason=data["reason"],
        ),
        gettext("Saved."),
    )


@require_POST
@login_required
@organiser_view
def add_division(request: AuthedRequest, tournament: Tournament) -> HttpResponse:
    form = DivisionForm(request.POST)
    if not form.is_valid():
        return invalid(request, tournament, form)
    data = form.cleaned_data
    return attempt(
        request,
        tournament,
        lambda: services.add_division(
            event=tournament,
            by=request.user,
            name=data["name"],
            rating_min=data["rating_min"],
            rating_max=data["rating_max"],
        ),
        gettext("The division is added."),
    )


@require_POST
@login_required
@organiser_view
def move_player(request: AuthedRequest, tournament: Tournament, registration_id: int) -> HttpResponse:
    registration = _registration(tournament, registration_id)
    form = MoveForm(request.POST, event_id=tournament.event_id or 0)
    if not form.is_valid():
        return invalid(request, tournament, form)
    return attempt(
        request,
        tournament,
        lambda: services.move_to_division(
            registration=registration,
            division=form.cleaned_data["division"],
            by=request.user,
            reason=form.cleaned_data["reason"],
        ),
        gettext("%(name)s is moved.") % {"name": registration.name},
    )


@require_GET
@login_required
@organiser_view
def export_event(request: AuthedRequest, tournament: Tournament) -> HttpResponseBase:
    """The event's TSH folder: ``config.tsh`` and one ``.t`` per division."""
    divisions = exports.collect_event(tournament)
    report = exports.event_preflight(divisions)
    if not divisions or not report.ok:
        messages.error(request, error_message("preflight_failed", problems=" ".join(report.errors) or "–"))
        return back(request, tournament)
    buffer = io.BytesIO()
    exports.write_event_tsh(tournament.name, divisions, buffer)
    return FileResponse(
        io.BytesIO(buffer.getvalue()),
        as_attachment=True,
        filename=f"{exports.file_stem(tournament.pk)}-tsh.zip",
        content_type="application/zip",
    )


@require_POST
@login_required
@organiser_view
def player_name(request: AuthedRequest, tournament: Tournament, registration_id: int) -> HttpResponse:
    registration = _registration(tournament, registration_id)
    form = RealNameForm(request.POST)
    if not form.is_valid():
        return invalid(request, tournament, form)
    return attempt(
        request,
        tournament,
        lambda: services.set_real_name(
            tournament=tournament,
            registration=registration,
            by=request.user,
            real_name=form.cleaned_data["real_name"],
            reason=form.cleaned_data["reason"],
        ),
        gettext("Saved."),
    )


@require_POST
@login_required
@organiser_view
def prize_bands(request: AuthedRequest, tournament: Tournament) -> HttpResponse:
    form = PrizeBandsForm(request.POST)
    if not form.is_valid():
        return invalid(request, tournament, form)
    return attempt(
        request,
        tournament,
        lambda: services.set_prize_bands(
            tournament=tournament,
            by=request.user,
            caps=form.cleaned_data["prize_bands"],
            reason=form.cleaned_data["reason"],
        ),
        gettext("Saved."),
    )


@require_POST
@login_required
@organiser_view
def pair_round(request: AuthedRequest, tournament: Tournament) -> HttpResponse:
    return attempt(
        request,
        tournament,
        lambda: services.pair_round(tournament=tournament, by=request.user),
        gettext("The round is paired: check the pairings, then start the round."),
    )


@require_POST
@login_required
@organiser_view
def start_round(request: AuthedRequest, tournament: Tournament) -> HttpResponse:
    return attempt(
        request,
        tournament,
        lambda: services.start_round(tournament=tournament, by=request.user),
        gettext("The round has started: its games are in the players' lobbies."),
    )


@require_POST
@login_required
@organiser_view
def override_pairing(request: AuthedRequest, tournament: Tournament) -> HttpResponse:
    form = PairingOverrideForm(request.POST)
    if not form.is_valid():
        return invalid(request, tournament, form)
    data = form.cleaned_data
    return attempt(
        request,
        tournament,
        lambda: services.override_pairing(
            tournament=tournament,
            by=request.user,
            table=data["table"],
            first=data["first"],
            second=data["second"],
            reason=data["reason"],
        ),
        gettext("The pairing is changed."),
    )


@require_POST
@login_required
@organiser_view
def override_result(request: AuthedRequest, tournament: Tournament) -> HttpResponse:
    form = ResultOverrideForm(request.POST)
    if not form.is_valid():
        return invalid(request, tournament, form)
    data = form.cleaned_data
    return attempt(
        request,
        tournament,
        lambda: services.override_result(
            tournament=tournament,
            by=request.user,
            round_number=data["round"],
            table=data["table"],
            override=form.override_value(),
            first_score=data["first_score"],
            second_score=data["second_score"],
            absent=data["absent"] or "",
            reason=data["reason"],
        ),
        gettext("The result is changed."),
    )


@require_GET
@login_required
@organiser_view
def export(request: AuthedRequest, tournament: Tournament, fmt: str) -> HttpResponseBase:
    if fmt not in exports.FORMATS:
        return HttpResponse(status=404)
    try:
        chosen, content, _report = exports.export(exports.collect(tournament), fmt)
    except exports.ExportRefused as exc:
        messages.error(request, error_message("preflight_failed", problems=" ".join(exc.report.errors)))
        return back(request, tournament)
    return FileResponse(
        io.BytesIO(content),
        as_attachment=True,
        filename=chosen.filename(exports.file_stem(tournament.pk)),
        content_type=chosen.content_type,
    )
