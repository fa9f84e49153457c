"""The daily puzzle's pages: thin views over ``puzzles.services``."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from functools import wraps
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.utils.translation import get_language
from django.views.decorators.http import require_POST

import engine
from accounts.services import friends_of
from games.forms import TilesForm
from games.models import Game
from games.views import AuthedRequest
from puzzles import duels, rendering, services, solo
from puzzles.messages import error_message
from puzzles.models import Puzzle

PuzzleView = Callable[..., HttpResponse]


def parse_day(text: str) -> date:
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise services.PuzzleError("bad_day") from None


def puzzle_view(view: PuzzleView) -> PuzzleView:
    """Find the puzzle of the URL's language and day (today's is made if needed); 404
    with the reason for anything else."""

    @wraps(view)
    def inner(request: AuthedRequest, language: str, day: str | None = None) -> HttpResponse:
        try:
            puzzle = services.puzzle_for(
                services.check_language(language), None if day is None else parse_day(day)
            )
        except services.PuzzleError as exc:
            raise Http404(error_message(exc.code)) from None
        return view(request, puzzle)

    return inner


@login_required
def index(request: AuthedRequest) -> HttpResponse:
    """The puzzle in the interface language when it is a game language, else English."""
    # Interface codes are lower case ("pt-br", "en-gb"); game languages are not.
    by_code = {code.lower(): code for code in engine.LANGUAGES}
    return redirect("puzzles:daily", by_code.get((get_language() or "en").lower(), "en"))


@login_required
@puzzle_view
def daily(request: AuthedRequest, puzzle: Puzzle) -> HttpResponse:
    return render(request, "puzzles/puzzle.html", rendering.page_context(puzzle, request.user))


@login_required
@puzzle_view
def day(request: AuthedRequest, puzzle: Puzzle) -> HttpResponse:
    return render(request, "puzzles/puzzle.html", rendering.page_context(puzzle, request.user))


@require_POST
@login_required
@puzzle_view
def preview(request: AuthedRequest, puzzle: Puzzle) -> HttpResponse:
    """The free preview of the tiles laid out (changes nothing): the move panel."""
    return move_panel(request, lambda placements: services.evaluate(puzzle, placements))


@require_POST
@login_required
@puzzle_view
def submit(request: AuthedRequest, puzzle: Puzzle) -> HttpResponse:
    """The player's answer: the first legal one counts; an illegal one is shown again
    with the reason, and changes nothing."""
    form = TilesForm(request.POST)
    pending = request.POST.get("tiles", "")[:400]
    try:
        if not form.is_valid():
            raise services.PuzzleError("bad_tiles")
        services.submit(puzzle=puzzle, user=request.user, placements=form.placements())
    except (engine.IllegalMove, services.PuzzleError) as exc:
        words = exc.words if isinstance(exc, engine.IllegalMove) else ()
        context = rendering.page_context(
            puzzle,
            request.user,
            pending=pending,
            form_errors=[error_message(exc.code, words=words)],
        )
        return render(request, "puzzles/puzzle.html", context, status=400)
    return redirect(url_of(puzzle))


def url_of(puzzle: Puzzle) -> str:
    from django.urls import reverse

    return reverse("puzzles:day", args=[puzzle.language, puzzle.day.isoformat()])


@login_required
def calendar(request: AuthedRequest, language: str) -> HttpResponse:
    try:
        services.check_language(language)
    except services.PuzzleError as exc:
        raise Http404(error_message(exc.code)) from None
    context: dict[str, Any] = {
        "language": language,
        "language_name": rendering.language_name(language),
        "languages": rendering.LANGUAGE_CHOICES,
        "days": services.calendar(request.user, language),
        "streak": services.streak(request.user, language),
        "today": services.today(),
    }
    return render(request, "puzzles/calendar.html", context)


@login_required
def solo_page(request: AuthedRequest, language: str) -> HttpResponse:
    """Solo challenges in ``language``: today's (shared by everyone) and its table,
    practice, and the player's latest ones."""
    return render(request, "puzzles/solo.html", solo_context(request, language))


def solo_context(request: AuthedRequest, language: str, **extra: Any) -> dict[str, Any]:
    try:
        services.check_language(language)
    except services.PuzzleError as exc:
        raise Http404(error_message(exc.code)) from None
    return {
        "language": language,
        "language_name": rendering.language_name(language),
        "languages": rendering.LANGUAGE_CHOICES,
        "turns": solo.TURNS,
        "table": solo.day_table(language, services.today()),
        "mine": solo.mine(request.user, language),
        "errors": [],
        **extra,
    }


@require_POST
@login_required
def solo_start(request: AuthedRequest, language: str) -> HttpResponse:
    """Start (or go back to) a challenge: the game page plays it."""
    try:
        challenge = solo.start(user=request.user, language=language, kind=request.POST.get("kind", ""))
    except services.PuzzleError as exc:
        if exc.code == "unknown_language":
            raise Http404(error_message(exc.code)) from None
        context = solo_context(request, language, errors=[error_message(exc.code)])
        return render(request, "puzzles/solo.html", context, status=400)
    return redirect("games:detail", challenge.game_id)


def duel_refusal(exc: services.PuzzleError) -> HttpResponse:
    if exc.code == "not_found":
        raise Http404(error_message(exc.code))
    return HttpResponse(error_message(exc.code), status=403 if exc.code.startswith("duel_") else 400)


@login_required
def duel_new(request: AuthedRequest, game_id: int, number: int) -> HttpResponse:
    """Choose the friend to challenge to one of your moves of a finished game."""
    game = get_object_or_404(Game.objects.watchable_by(request.user), pk=game_id)
    try:
        duels.position_of(game, request.user, number)
    except services.PuzzleError as exc:
        return duel_refusal(exc)
    context: dict[str, Any] = {
        "game": game,
        "number": number,
        "friends": friends_of(request.user),
        "errors": [],
    }
    if request.method == "POST":
        try:
            duel = duels.challenge(
                challenger=request.user,
                game=game,
                number=number,
                opponent_name=request.POST.get("opponent", ""),
            )
        except services.PuzzleError as exc:
            context["errors"] = [error_message(exc.code)]
            return render(request, "puzzles/duel_new.html", context, status=400)
        return redirect("puzzles:duel", duel.pk)
    return render(request, "puzzles/duel_new.html", context)


@login_required
def duel(request: AuthedRequest, duel_id: int) -> HttpResponse:
    try:
        found = duels.visible(duel_id, request.user)
    except services.PuzzleError as exc:
        return duel_refusal(exc)
    return render(request, "puzzles/duel.html", rendering.duel_context(found, request.user))


@require_POST
@login_required
def duel_preview(request: AuthedRequest, duel_id: int) -> HttpResponse:
    try:
        found = duels.visible(duel_id, request.user)
    except services.PuzzleError as exc:
        return duel_refusal(exc)
    return move_panel(request, lambda placements: duels.evaluate(found, placements))


def move_panel(
    request: AuthedRequest, evaluate: Callable[[list[engine.Placement]], engine.Evaluation]
) -> HttpResponse:
    """The move panel with the preview of the tiles the request lays out, as ``evaluate``
    scores them (a puzzle's, a duel's position), or why they do not play."""
    form = TilesForm(request.POST)
    pending = request.POST.get("tiles", "")[:400]
    if not form.is_valid():
        item = rendering.preview_item(error=error_message("bad_tiles"))
    else:
        try:
            item = rendering.preview_item(evaluate(form.placements()))
        except engine.IllegalMove as exc:
            item = rendering.preview_item(error=error_message(exc.code, words=exc.words))
    context = {"preview": item, "pending": pending, "form_errors": [], "oob": True, "version": 0}
    return HttpResponse(render_to_string("puzzles/_move_panel.html", context, request=request))


@require_POST
@login_required
def duel_answer(request: AuthedRequest, duel_id: int) -> HttpResponse:
    """The friend's one play; an illegal one is shown again with the reason."""
    try:
        found = duels.visible(duel_id, request.user)
    except services.PuzzleError as exc:
        return duel_refusal(exc)
    form = TilesForm(request.POST)
    try:
        if not form.is_valid():
            raise services.PuzzleError("bad_tiles")
        duels.answer(duel=found, user=request.user, placements=form.placements())
    except services.PuzzleError as exc:
        if exc.code != "bad_tiles":
            return duel_refusal(exc)
        return render(
            request,
            "puzzles/duel.html",
            rendering.duel_context(found, request.user, form_errors=[error_message(exc.code)]),
            status=400,
        )
    except engine.IllegalMove as exc:
        context = rendering.duel_context(
            found,
            request.user,
            pending=request.POST.get("tiles", "")[:400],
            form_errors=[error_message(exc.code, words=exc.words)],
        )
        return render(request, "puzzles/duel.html", context, status=400)
    return redirect("puzzles:duel", found.pk)
