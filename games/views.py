"""Thin views: fetch the game with a permission check, validate, call one model or
service method, render partials from ``games.rendering`` (docs/games-ui-contract.md)."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import TYPE_CHECKING

from django import forms
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseBadRequest,
    HttpResponseForbidden,
    StreamingHttpResponse,
)
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect

import engine
from dictionaries.definitions import meanings
from dictionaries.models import language_name
from games import archive as archives
from games import hooks, live, rendering, services, study
from games.actions import Accept, AcceptPlay, Action, BuyExtra, Challenge, Decline, Pass, Resign
from games.archive import Filters
from games.forms import (
    MAX_TILES_LENGTH,
    ActionForm,
    ArchiveForm,
    ChatForm,
    ExchangeForm,
    MoveForm,
    NewGameForm,
    QuizAnswerForm,
    TilesForm,
)
from games.gameview import MoveView, chat_lines, load_game
from games.messages import error_message
from games.models import Game, GameError, GameMovedOn, StudyItem
from games.pov import Pov
from games.records import gcg_text

if TYPE_CHECKING:
    from django_htmx.middleware import HtmxDetails

    from accounts.models import User

    class AuthedRequest(HttpRequest):
        user: User
        htmx: HtmxDetails
else:
    AuthedRequest = HttpRequest

GameView = Callable[..., HttpResponse]


def game_view(*, seated: bool = False) -> Callable[[GameView], Callable[..., HttpResponse]]:
    """Fetch the game the user may watch (404 otherwise, never revealing it exists) and
    resolve once who the user is to it (``games.pov``), for the view and everything it
    calls; with ``seated``, only its players may go on (403 with a sentence otherwise)."""

    def decorate(view: GameView) -> Callable[..., HttpResponse]:
        @wraps(view)
        def inner(request: AuthedRequest, game_id: int, **kwargs: str) -> HttpResponse:
            games = Game.objects.watchable_by(request.user).with_seats()
            game = get_object_or_404(games, pk=game_id)
            pov = game.pov(request.user)
            if seated and not pov.is_player:
                return HttpResponseForbidden(error_message("not_a_player"))
            return view(request, game, pov, **kwargs)

        return inner

    return decorate


def redirect_to(request: AuthedRequest, url: str) -> HttpResponse:
    return HttpResponseClientRedirect(url) if request.htmx else redirect(url)


def refused(
    request: AuthedRequest,
    game: Game,
    pov: Pov,
    errors: list[str],
    *,
    pending: str = "",
    unknown_words: tuple[str, ...] = (),
) -> HttpResponse:
    """The move panel with the errors and the player's pending tiles; the board is
    left alone so the tiles stay where the player put them. ``unknown_words`` (a play
    refused for words not in the list) are offered to suggest to the moderators."""
    if not request.htmx:
        for error in errors:
            messages.error(request, error)
        return redirect("games:detail", game.pk)
    frame = rendering.Frame(
        oob=True, form_errors=tuple(errors), pending=pending, unknown_words=unknown_words, request=request
    )
    return HttpResponse(rendering.render(["move_panel"], live.page_view(game, pov), frame))


def act(
    request: AuthedRequest, game: Game, pov: Pov, action: Action, form: ActionForm, *, pending: str = ""
) -> HttpResponse:
    """Apply ``action`` through ``Game.act`` and answer per the contract (§3): the
    snapshot when it was applied (or was a repeat), the move panel with the error when
    it was refused, the snapshot with "the game moved on" (or "you already moved") when
    the client's version was stale. When the action moved the game on by exactly one
    version from the one the page showed, the answer is the delta from that version (as
    the live push is), not the whole page."""
    errors: tuple[str, ...] = ()
    before = live.before_action(game, pov, action) if request.htmx else None
    try:
        before = live.repeat_of(before, game.act(pov, action, **form.action_fields()).version)
    except GameMovedOn as exc:
        errors = (error_message(exc.code),)
        game = load_game(game.pk)  # as it is now
    except engine.IllegalMove as exc:
        return refused(
            request,
            game,
            pov,
            [error_message(exc.code, words=exc.words)],
            pending=pending,
            unknown_words=exc.words,
        )
    except GameError as exc:
        return refused(request, game, pov, [error_message(exc.code)], pending=pending)
    if not request.htmx:
        for error in errors:
            messages.error(request, error)
        return redirect("games:detail", game.pk)
    frame = rendering.Frame(oob=True, form_errors=errors, pending=pending, request=request)
    return HttpResponse(live.answer(game, pov, before, frame))


def pending_tiles(request: AuthedRequest) -> str:
    """The submitted ``tiles`` to echo back as ``pending`` (contract §3), or nothing when
    it is longer than any play could be: the form refuses it anyway, and echoing a
    megabyte into two attributes of the answer helps nobody."""
    text = request.POST.get("tiles", "")
    return text if len(text) <= MAX_TILES_LENGTH else ""


def form_errors(form: forms.BaseForm) -> list[str]:
    return [str(e) for field_errors in form.errors.values() for e in field_errors]


@require_GET
@login_required
def lobby(request: AuthedRequest) -> HttpResponse:
    context = rendering.lobby_context(request.user)
    template = "games/_lobby_games.html" if request.htmx else "games/lobby.html"
    return render(request, template, {**context, "form": NewGameForm(user=request.user)})


@require_GET
@login_required
def seeks(request: AuthedRequest) -> HttpResponse:
    """Every open request the player may take up, and their own (live over the lobby
    socket, ``?seeks=1``)."""
    return render(request, "games/seeks.html", rendering.seeks_context(request.user))


@require_POST
@login_required
def seek_accept(request: AuthedRequest, game_id: int) -> HttpResponse:
    try:
        game = services.accept_seek(user=request.user, game_id=game_id)
    except GameError as exc:
        context = {**rendering.seeks_context(request.user), "error": error_message(exc.code)}
        return render(request, "games/seeks.html", context, status=409)
    return redirect_to(request, reverse("games:detail", args=[game.pk]))


@require_POST
@login_required
def seek_computer(request: AuthedRequest, game_id: int) -> HttpResponse:
    try:
        game = services.computer_instead(user=request.user, game_id=game_id)
    except GameError as exc:
        context = {**rendering.seeks_context(request.user), "error": error_message(exc.code)}
        return render(request, "games/seeks.html", context, status=409)
    return redirect_to(request, reverse("games:detail", args=[game.pk]))


@require_GET
@login_required
def watch(request: AuthedRequest) -> HttpResponse:
    return render(request, "games/watch.html", {"public_games": rendering.public_games(request.user)})


@require_http_methods(["GET", "POST"])
@login_required
def new_game(request: AuthedRequest) -> HttpResponse:
    # Bound on every POST, even an empty one, so that it answers with "required" errors.
    form = NewGameForm(request.POST if request.method == "POST" else None, user=request.user)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            game = services.start_game(
                creator=request.user,
                mode=data["mode"],
                language=data["language"],
                opponent=data.get("opponent_user"),
                level=data.get("level") or None,
                public=bool(data.get("public")),
                rated=bool(data.get("rated")),
                extras=bool(data.get("extras")),
                pace=data.get("pace_value"),
                preset=data.get("preset") or "wwf",
                challenge=data.get("challenge") or "void",
            )
        except GameError as exc:
            form.add_error(None, error_message(exc.code))
        else:
            return redirect_to(request, reverse("games:detail", args=[game.pk]))
    template = "games/_new_game_form.html" if request.htmx else "games/new.html"
    return render(request, template, {"form": form})


@require_GET
@login_required
@game_view()
def detail(request: AuthedRequest, game: Game, pov: Pov) -> HttpResponse:
    context = rendering.game_context(live.page_view(game, pov))
    # What an app above games says of this game (its tournament and round, a solo
    # challenge's target and stars), on the page only: pushes read nothing more.
    context["game_note"] = hooks.lobby_notes([game.pk], request.user).get(game.pk)
    return render(request, "games/game.html", context)


@require_GET
@login_required
@game_view()
def fragments(request: AuthedRequest, game: Game, pov: Pov) -> HttpResponse:
    frame = rendering.Frame(oob=True, request=request)
    return HttpResponse(live.snapshot(live.page_view(game, pov), frame))


@require_POST
@login_required
@game_view(seated=True)
def preview(request: AuthedRequest, game: Game, pov: Pov) -> HttpResponse:
    form = TilesForm(request.POST)
    pending = pending_tiles(request)
    unknown_words: tuple[str, ...] = ()
    try:
        if not form.is_valid():
            raise GameError("bad_tiles")
        evaluation, strength = services.preview(game=game, pov=pov, placements=form.placements())
        item = rendering.preview_item(evaluation, strength=strength)
    except engine.IllegalMove as exc:
        item = rendering.preview_item(error=error_message(exc.code, words=exc.words))
        unknown_words = exc.words
    except GameError as exc:
        item = rendering.preview_item(error=error_message(exc.code))
    frame = rendering.Frame(
        oob=True, preview=item, pending=pending, unknown_words=unknown_words, request=request
    )
    return HttpResponse(rendering.render(["move_panel"], live.page_view(game, pov), frame))


@require_POST
@login_required
@game_view(seated=True)
def play(request: AuthedRequest, game: Game, pov: Pov) -> HttpResponse:
    form = MoveForm(request.POST)
    pending = pending_tiles(request)
    if not form.is_valid():
        return refused(request, game, pov, form_errors(form), pending=pending)
    return act(request, game, pov, form.action(), form, pending=pending)


@require_POST
@login_required
@game_view(seated=True)
def exchange(request: AuthedRequest, game: Game, pov: Pov) -> HttpResponse:
    form = ExchangeForm(request.POST)
    if not form.is_valid():
        return refused(request, game, pov, form_errors(form))
    return act(request, game, pov, form.action(), form)


@require_POST
@login_required
@game_view(seated=True)
def pass_turn(request: AuthedRequest, game: Game, pov: Pov) -> HttpResponse:
    form = ActionForm(request.POST)
    if not form.is_valid():
        return refused(request, game, pov, form_errors(form))
    return act(request, game, pov, Pass(), form)


@require_POST
@login_required
@game_view(seated=True)
def challenge(request: AuthedRequest, game: Game, pov: Pov) -> HttpResponse:
    """Challenge the play before this turn (a challenge rule's; ``Game.act`` decides)."""
    form = ActionForm(request.POST)
    if not form.is_valid():
        return refused(request, game, pov, form_errors(form))
    return act(request, game, pov, Challenge(), form)


@require_POST
@login_required
@game_view(seated=True)
def accept_play(request: AuthedRequest, game: Game, pov: Pov) -> HttpResponse:
    """Accept the last play of the game without challenging it: the game ends."""
    form = ActionForm(request.POST)
    if not form.is_valid():
        return refused(request, game, pov, form_errors(form))
    return act(request, game, pov, AcceptPlay(), form)


@require_http_methods(["GET", "POST"])
@login_required
@game_view(seated=True)
def resign(request: AuthedRequest, game: Game, pov: Pov) -> HttpResponse:
    form = ActionForm(request.POST or None)
    confirmed = request.method == "POST" and request.POST.get("confirm") == "yes"
    if confirmed and not form.is_valid():
        # Confirmed, but with a bad version or action id: say what is wrong, not
        # "confirm that you want to resign" again.
        return refused(request, game, pov, form_errors(form))
    if not confirmed:
        if request.htmx and request.method == "POST":
            return HttpResponseBadRequest(error_message("confirm_resign"))
        return render(request, "games/resign.html", rendering.game_context(live.page_view(game, pov)))
    return act(request, game, pov, Resign(), form)


@require_POST
@login_required
@game_view(seated=True)
def accept(request: AuthedRequest, game: Game, pov: Pov) -> HttpResponse:
    form = ActionForm(request.POST)
    if request.POST.get("from") != "lobby":
        if not form.is_valid():
            return refused(request, game, pov, form_errors(form))
        return act(request, game, pov, Accept(), form)
    # From the lobby (whose pushed rows carry no CSRF token, so it posts with htmx):
    # open the game, or go back to the lobby with the reason.
    try:
        if not form.is_valid():
            raise GameError("missing_version")
        game.act(pov, Accept(), **form.action_fields())
    except GameError as exc:
        messages.error(request, error_message(exc.code))
        return redirect_to(request, reverse("games:lobby"))
    return redirect_to(request, reverse("games:detail", args=[game.pk]))


@require_POST
@login_required
@game_view(seated=False)
def decline(request: AuthedRequest, game: Game, pov: Pov) -> HttpResponse:
    form = ActionForm(request.POST)
    try:
        if not form.is_valid():
            raise GameError("missing_version")
        game.act(pov, Decline(), **form.action_fields())
    except GameError as exc:
        return HttpResponseForbidden(error_message(exc.code))
    return redirect_to(request, reverse("games:lobby"))


@require_POST
@login_required
@game_view(seated=True)
def buy(request: AuthedRequest, game: Game, pov: Pov, extra: str) -> HttpResponse:
    form = ActionForm(request.POST)
    if not form.is_valid():
        return refused(request, game, pov, form_errors(form))
    return act(request, game, pov, BuyExtra(extra), form)


@require_GET
@login_required
@game_view()
def define(request: AuthedRequest, game: Game, pov: Pov) -> HttpResponse:
    """The meanings of a word of the game: ``?word=`` (the move log), or ``?row=&col=``
    (a tile tapped on the board: the words through that square)."""
    if "row" in request.GET:
        words = rendering.words_through(game, request.GET.get("row", ""), request.GET.get("col", ""))
    else:
        words = [w for w in [engine.normalize_word(game.language, request.GET.get("word", "")[:40])] if w]
    entries = [{"word": w, "meanings": meanings(game.language, w)} for w in words]
    return render(request, "games/_definition.html", {"entries": entries})


@require_POST
@login_required
@game_view(seated=True)
def rematch(request: AuthedRequest, game: Game, pov: Pov) -> HttpResponse:
    try:
        new = services.rematch(game=game, user=pov)
    except GameError as exc:
        return HttpResponseForbidden(error_message(exc.code))
    return redirect_to(request, reverse("games:detail", args=[new.pk]))


@require_POST
@login_required
@game_view(seated=True)
def chat(request: AuthedRequest, game: Game, pov: Pov) -> HttpResponse:
    form = ChatForm(request.POST)
    if form.is_valid():
        try:
            game.post_chat(pov, form.cleaned_data["text"])
        except GameError as exc:  # too fast: the message says when to write again
            form.add_error(None, error_message(exc.code))
    if not request.htmx:
        for error in form.non_field_errors():
            messages.error(request, str(error))
        return redirect("games:detail", game.pk)
    return HttpResponse(rendering.chat_html(chat_lines(game.pk, pov), game.version, chat_form=form))


@require_GET
@login_required
@game_view()
def gcg(request: AuthedRequest, game: Game, pov: Pov) -> HttpResponse:
    # The record holds every rack: nobody gets it while the game is on.
    if not game.is_over:
        return HttpResponseForbidden(error_message("not_finished"))
    response = HttpResponse(gcg_text(game), content_type="text/plain; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="wordgame-{game.pk}.gcg"'
    return response


@require_GET
@login_required
@game_view()
def replay(request: AuthedRequest, game: Game, pov: Pov) -> HttpResponse:
    context = rendering.replay_context(game, step_of(request))
    move = context["current_move"]
    # What apps above games offer on the viewer's own move of a finished game (a rack duel).
    if context["is_over"] and isinstance(move, MoveView) and pov.seat is not None and move.seat == pov.seat:
        context["step_links"] = hooks.replay_links(game, pov.seat, move.number)
    return render(request, "games/_replay.html" if request.htmx else "games/replay.html", context)


def step_of(request: AuthedRequest) -> int | None:
    try:
        return int(request.GET["move"]) if "move" in request.GET else None
    except ValueError:
        return None


@require_GET
@login_required
@game_view()
def analysis(request: AuthedRequest, game: Game, pov: Pov) -> HttpResponse:
    if not game.is_over:
        return HttpResponseForbidden(error_message("analysis_not_finished"))
    context = rendering.analysis_context(game, step_of(request))
    return render(request, "games/_replay.html" if request.htmx else "games/analysis.html", context)


def study_language(language: str) -> str:
    if language not in engine.LANGUAGES:
        raise Http404
    return language


@require_GET
@login_required
def study_page(request: AuthedRequest, language: str) -> HttpResponse:
    language = study_language(language)
    items = study.study_list(request.user, language)
    context = {
        "items": items,
        "language": language,
        "language_name": language_name(language),
        "languages": [(code, language_name(code)) for code in engine.LANGUAGES],
    }
    return render(request, "games/study.html", context)


@require_http_methods(["GET", "POST"])
@login_required
def quiz(request: AuthedRequest, language: str) -> HttpResponse:
    language = study_language(language)
    answered = None
    if request.method == "POST":
        form = QuizAnswerForm(request.POST)
        if not form.is_valid():
            return HttpResponseBadRequest(error_message("bad_quiz_answer"))
        item = get_object_or_404(
            StudyItem, pk=form.cleaned_data["item"], user=request.user, language=language
        )
        answered = {
            "item": item,
            "right": study.check_answer(item, form.cleaned_data["answer"][:40]),
            "meanings": study.meanings_for(language, [item.word]).get(item.word, []),
        }
    context = {
        "language": language,
        "language_name": language_name(language),
        "item": study.next_item(request.user, language),
        "answered": answered,
    }
    return render(request, "games/_quiz.html" if request.htmx else "games/quiz.html", context)


@require_GET
@login_required
def study_export(request: AuthedRequest, language: str, fmt: str) -> HttpResponse:
    language = study_language(language)
    items = study.study_list(request.user, language)
    meanings = study.meanings_for(language, [item.word for item in items])
    if fmt == "csv":
        body, kind = study.export_csv(items, meanings), "text/csv"
    elif fmt == "txt":
        body, kind = study.export_anki(items, meanings), "text/plain"
    else:
        raise Http404
    response = HttpResponse(body, content_type=f"{kind}; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="wordgame-study-{language}.{fmt}"'
    return response


# ----- the archive -----------------------------------------------------------------------


def archive_filters(request: AuthedRequest) -> tuple[ArchiveForm, Filters | None]:
    """The archive's filters from the query string (``None``: the form has errors)."""
    form = ArchiveForm(request.GET)
    return form, (form.filters() if form.is_valid() else None)


@require_GET
@login_required
def archive(request: AuthedRequest, username: str) -> HttpResponse:
    """A player's finished games that the viewer may see, filtered, a page at a time."""
    player = get_object_or_404(get_user_model(), username__iexact=username, is_active=True)
    form, filters = archive_filters(request)
    context: dict[str, object] = {"player": player, "form": form, "is_me": player.pk == request.user.pk}
    if filters is None:
        return render(request, "games/archive.html", context, status=400)
    try:
        found = archives.page(player, request.user, filters, cursor=request.GET.get("cursor", ""))
    except archives.ArchiveError as exc:
        return HttpResponseBadRequest(error_message(exc.code))
    opponent = get_user_model().objects.filter(username__iexact=filters.opponent).first()
    query = request.GET.copy()
    query.pop("cursor", None)
    context.update(
        page=found,
        query=query.urlencode(),
        head_to_head=archives.head_to_head(player, request.user, opponent, filters) if opponent else None,
    )
    if found.next_cursor:
        query["cursor"] = found.next_cursor
        context["next_query"] = query.urlencode()
    return render(request, "games/archive.html", context)


@require_GET
@login_required
def my_archive(request: AuthedRequest) -> HttpResponse:
    return redirect("archive:games", request.user.username)


@require_GET
@login_required
def archive_download(request: AuthedRequest, username: str, fmt: str) -> HttpResponse | StreamingHttpResponse:
    """The whole filtered set as newline-delimited JSON or as a zip of GCG files."""
    player = get_object_or_404(get_user_model(), username__iexact=username, is_active=True)
    _form, filters = archive_filters(request)
    if filters is None or fmt not in ("ndjson", "zip"):
        return HttpResponseBadRequest(error_message("bad_filters"))
    if fmt == "ndjson":
        body, kind = archives.ndjson_lines(player, request.user, filters), "application/x-ndjson"
    else:
        body, kind = archives.gcg_zip_chunks(player, request.user, filters), "application/zip"
    response = StreamingHttpResponse(body, content_type=kind)
    response["Content-Disposition"] = f'attachment; filename="wordgame-{player.username}-games.{fmt}"'
    return response


@require_POST
@login_required
@game_view()
def study_word(request: AuthedRequest, game: Game, pov: Pov) -> HttpResponse:
    """Learner mode: one tap puts a word of the move log on the viewer's study list."""
    try:
        number = int(request.POST.get("move", ""))
    except ValueError:
        number = 0
    item = study.add_word(user=request.user, game=game, number=number, word=request.POST.get("word", "")[:32])
    if item is None:
        return HttpResponseBadRequest(error_message("bad_study_word"))
    return render(request, "games/_study_added.html", {"item": item})
