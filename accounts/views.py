from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login, logout
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.db import transaction
from django.db.models import Q
from django.db.models.functions import Lower
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import get_language_info, gettext, ngettext
from django.views import i18n
from django.views.decorators.http import require_GET, require_http_methods, require_POST

import engine
from accounts import hooks, notices, realtime, services
from accounts.charts import rating_chart
from accounts.forms import (
    DeleteAccountForm,
    PlayerSearchForm,
    PreferencesForm,
    ReportForm,
    SignupForm,
    UsernameForm,
    game_language_choices,
)
from accounts.middleware import supported
from accounts.models import CORRESPONDENCE, RATING_SPEEDS, Block, Friendship, Rating, RatingChange, User
from accounts.names import username_key
from accounts.services import AccountError, grant_signup_coins
from accounts.statement import statement
from accounts.throttling import signup_allowed

ENTRIES_PER_PAGE = 50


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("home")
    if request.method == "POST" and not signup_allowed(request):
        # Nothing is validated or created: the form comes back empty with the reason.
        refusal = gettext("Too many sign-ups from your network. Please try again in an hour.")
        return render(
            request, "registration/signup.html", {"form": SignupForm(), "refusal": refusal}, status=429
        )
    # Bound on every POST, even an empty one, so that it answers with "required" errors.
    form = SignupForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        with transaction.atomic():
            user = form.save()
            welcome = grant_signup_coins(user=user)
        hooks.signed_up(user)
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        if welcome is not None:
            greeting = ngettext(
                "Welcome, %(name)s! Your account is ready, with %(count)d coin to spend on extras.",
                "Welcome, %(name)s! Your account is ready, with %(count)d coins to spend on extras.",
                welcome.amount,
            ) % {"name": user.username, "count": welcome.amount}
        else:
            greeting = gettext("Welcome, %(name)s! Your account is ready.") % {"name": user.username}
        messages.success(request, greeting)
        return redirect("home")
    return render(request, "registration/signup.html", {"form": form})


@require_GET
@login_required
def coins(request: HttpRequest) -> HttpResponse:
    """The player's statement: totals by kind, the balance, and the entries, newest first."""
    assert isinstance(request.user, User)
    summary = statement(request.user)
    page = Paginator(summary.entries, ENTRIES_PER_PAGE).get_page(request.GET.get("page"))
    earnings = {
        "coins_signup": settings.COINS_SIGNUP,
        "coins_daily": settings.COINS_DAILY_BONUS,
        "coins_finished": settings.COINS_GAME_FINISHED,
        "coins_won": settings.COINS_GAME_WON,
        "coins_min_moves": settings.COINS_GAME_MIN_MOVES,
    }
    return render(request, "accounts/coins.html", {"statement": summary, "page": page, **earnings})


if TYPE_CHECKING:

    class AuthedRequest(HttpRequest):
        user: User
else:
    AuthedRequest = HttpRequest


@require_POST
def set_language(request: HttpRequest) -> HttpResponse:
    """Django's language switcher, which also stores a signed-in player's choice."""
    response = i18n.set_language(request)
    language = supported(request.POST.get("language", ""))
    user = request.user
    if language and isinstance(user, User) and user.is_authenticated:
        user.interface_language = language
        user.save(update_fields=["interface_language"])
    return response


@require_http_methods(["GET", "POST"])
@login_required
def preferences(request: AuthedRequest) -> HttpResponse:
    form = PreferencesForm(request.POST if request.method == "POST" else None, instance=request.user)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, gettext("Your settings are saved."))
        return redirect("preferences")
    return render(request, "accounts/preferences.html", {"form": form})


@require_POST
@login_required
def acknowledge_notice(request: AuthedRequest, notice_id: int) -> HttpResponse:
    """The player has read a notice: it stops showing; back to the page they were on."""
    notices.acknowledge(user=request.user, notice_id=notice_id)
    return redirect(safe_next(request, reverse("home")))


@require_http_methods(["GET", "POST"])
@login_required
def vacation(request: AuthedRequest) -> HttpResponse:
    if request.method == "POST":
        actions = {"start": services.start_vacation, "end": services.end_vacation}
        action = actions.get(request.POST.get("action", ""))
        if action is None:
            return HttpResponse(gettext("Unknown action."), status=400)
        try:
            action(user=request.user)
        except AccountError as exc:
            messages.error(request, exc.message)
        return redirect("vacation")
    return render(request, "accounts/vacation.html", {"status": services.vacation_status(request.user)})


@require_http_methods(["GET", "POST"])
@login_required
def delete_account(request: AuthedRequest) -> HttpResponse:
    form = DeleteAccountForm(request.POST if request.method == "POST" else None, user=request.user)
    if request.method == "POST" and form.is_valid():
        try:
            # The "Resign all and delete" button, offered when games are in the way.
            services.delete_account(user=request.user, resign_all="resign_all" in request.POST)
        except AccountError as exc:
            form.add_error(None, exc.message)
        else:
            logout(request)
            messages.success(request, gettext("Your account is deleted."))
            return redirect("home")
    # Shown before the password is asked for: what is in the way, and the way through it.
    return render(
        request, "accounts/delete.html", {"form": form, "unfinished": hooks.unfinished_for(request.user)}
    )


@require_GET
@login_required
def download_data(request: AuthedRequest) -> HttpResponse:
    body = json.dumps(services.export_data(request.user), ensure_ascii=False, indent=2)
    response = HttpResponse(body, content_type="application/json; charset=utf-8")
    stamp = timezone.now().strftime("%Y%m%d")
    response["Content-Disposition"] = f'attachment; filename="wordgame-data-{stamp}.json"'
    return response


@require_http_methods(["GET", "POST"])
@login_required
def friends(request: AuthedRequest) -> HttpResponse:
    form = UsernameForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        other = form.cleaned_data["username"]
        try:
            friendship = services.request_friend(user=request.user, other=other)
        except AccountError as exc:
            form.add_error("username", exc.message)
        else:
            messages.success(request, friend_message(friendship, other))
            return redirect("friends")
    me = request.user
    pending = Friendship.objects.filter(status=Friendship.Status.PENDING).select_related(
        "from_user", "to_user"
    )
    context = {
        "form": form,
        "friends": services.friends_of(me),
        "received": [f.from_user for f in pending.filter(to_user=me, from_user__is_active=True)],
        "sent": [f.to_user for f in pending.filter(from_user=me, to_user__is_active=True)],
    }
    return render(request, "accounts/friends.html", context)


def friend_message(friendship: Friendship, other: User) -> str:
    if friendship.status == Friendship.Status.ACCEPTED:
        return gettext("You and %(name)s are friends now.") % {"name": other.username}
    return gettext("Friend request sent to %(name)s.") % {"name": other.username}


@require_POST
@login_required
def friend_action(request: AuthedRequest, username: str) -> HttpResponse:
    """Add, accept, or end (decline, withdraw, remove) from a list or a profile."""
    other = get_object_or_404(User.objects.named(username), is_active=True)
    action = request.POST.get("action", "")
    try:
        if action == "add":
            messages.success(
                request, friend_message(services.request_friend(user=request.user, other=other), other)
            )
        elif action == "accept":
            services.accept_friend(user=request.user, other=other)
            messages.success(request, gettext("You and %(name)s are friends now.") % {"name": other.username})
        elif action == "end":
            services.end_friendship(user=request.user, other=other)
        else:
            return HttpResponse(gettext("Unknown action."), status=400)
    except AccountError as exc:
        messages.error(request, exc.message)
    return redirect(safe_next(request, reverse("friends")))


def safe_next(request: HttpRequest, default: str) -> str:
    """Back to the page the form was on, when that is a page of this site."""
    target = request.POST.get("next", "")
    ok = url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}, require_https=False)
    return target if target and ok else default


@require_POST
@login_required
def block(request: AuthedRequest, username: str) -> HttpResponse:
    other = get_object_or_404(User.objects.named(username), is_active=True)
    if request.POST.get("action") == "unblock":
        services.unblock_user(blocker=request.user, blocked=other)
        messages.success(request, gettext("You unblocked %(name)s.") % {"name": other.username})
    else:
        try:
            services.block_user(blocker=request.user, blocked=other)
        except AccountError as exc:
            messages.error(request, exc.message)
        else:
            messages.success(request, gettext("You blocked %(name)s.") % {"name": other.username})
    return redirect(safe_next(request, reverse("players:profile", args=[other.username])))


@require_GET
@login_required
def blocked(request: AuthedRequest) -> HttpResponse:
    blocks = Block.objects.filter(blocker=request.user, blocked__is_active=True).select_related("blocked")
    return render(request, "accounts/blocked.html", {"blocks": blocks.order_by(Lower("blocked__username"))})


@require_http_methods(["GET", "POST"])
@login_required
def report(request: AuthedRequest, username: str) -> HttpResponse:
    other = get_object_or_404(User.objects.named(username), is_active=True)
    if other.pk == request.user.pk:
        # The form would only refuse after it was filled in: say so at once.
        messages.error(request, AccountError("self").message)
        return redirect("players:profile", other.username)
    initial = {"game": request.GET.get("game")} if request.GET.get("game", "").isdigit() else {}
    form = ReportForm(request.POST if request.method == "POST" else None, initial=initial)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            services.report_user(
                reporter=request.user,
                reported=other,
                reason=data["reason"],
                details=data["details"],
                game_id=data["game"],
            )
        except AccountError as exc:
            form.add_error(None, exc.message)
        else:
            messages.success(request, gettext("Thank you. The moderators will look at your report."))
            return redirect("players:profile", other.username)
    return render(request, "accounts/report.html", {"form": form, "other": other})


@require_GET
@login_required
def search(request: AuthedRequest) -> HttpResponse:
    form = PlayerSearchForm(request.GET or None)
    found: list[User] = []
    q = form.cleaned_data["q"].strip() if form.is_valid() else ""
    if q:
        found = list(
            User.objects.filter(
                # The key finds "ΩMEGA" from "ωmega" in every alphabet (icontains is ASCII-only on SQLite).
                Q(username_key__contains=username_key(q)) | Q(display_name__icontains=q),
                is_active=True,
            )
            .exclude(pk=request.user.pk)
            .order_by("username_key")[:30]
        )
    return render(request, "accounts/search.html", {"form": form, "found": found, "searched": bool(q)})


#: The rating chart shows at most this many of the latest rated games.
CHART_GAMES = 100


def rating_items(player: User, names: dict[str, str]) -> list[dict[str, Any]]:
    """Each of the player's ratings with the chart of its history (latest games)."""
    items = []
    for rating in Rating.objects.filter(user=player).order_by("-games", "language", "speed"):
        history = RatingChange.objects.filter(
            user=player, language=rating.language, speed=rating.speed
        ).order_by("-created_at", "-pk")
        changes = list(history[:CHART_GAMES])[::-1]
        values = [changes[0].rating_before, *(c.rating_after for c in changes)] if changes else []
        # "English · Live": live and correspondence ratings are kept apart.
        name = f"{names.get(rating.language, rating.language)} · {rating.get_speed_display()}"
        items.append({"row": rating, "name": name, "chart": rating_chart(values)})
    return items


@require_GET
@login_required
def profile(request: AuthedRequest, username: str) -> HttpResponse:
    player = get_object_or_404(User.objects.named(username), is_active=True)
    me = request.user
    names = dict(game_language_choices())
    context: dict[str, Any] = {
        "player": player,
        "is_me": player.pk == me.pk,
        "game_language_name": names.get(player.game_language, ""),
        "interface_language_name": language_label(player.interface_language),
        "ratings": rating_items(player, names),
        "stats": [
            {"name": names.get(s.language, s.language), "stat": s} for s in hooks.statistics_for(player)
        ],
        "friendship": services.friendship_status(me, player) if player.pk != me.pk else "",
        "i_blocked": Block.objects.filter(blocker=me, blocked=player).exists(),
        "vacation": services.on_vacation(player),
    }
    return render(request, "accounts/profile.html", context)


def language_label(code: str) -> str:
    return str(get_language_info(code)["name_local"]) if supported(code) else ""


@require_GET
@login_required
def leaderboard(request: AuthedRequest) -> HttpResponse:
    choices = game_language_choices()
    language = request.GET.get("language") or request.user.game_language or "en"
    if language not in engine.LANGUAGES:
        return render(
            request,
            "accounts/leaderboard.html",
            {"choices": choices, "language": "", "rows": [], "error": gettext("Unknown game language.")},
            status=400,
        )
    speed = request.GET.get("speed") or CORRESPONDENCE
    if speed not in dict(RATING_SPEEDS):
        speed = CORRESPONDENCE
    rows = services.leaderboard(language, speed=speed)
    context = {
        "choices": choices,
        "language": language,
        "language_name": dict(choices)[language],
        "speeds": RATING_SPEEDS,
        "speed": speed,
        "rows": rows,
    }
    return render(request, "accounts/leaderboard.html", context)


class PasswordChangeView(auth_views.PasswordChangeView):
    """Django's, and the user's other sessions (no longer signed in: their password hash
    changed) have their open sockets closed (``accounts.livesocket``); this one's stay
    open though its key is rotated."""

    def form_valid(self, form: Any) -> HttpResponse:
        rotated = self.request.session.session_key
        response = super().form_valid(form)
        realtime.auth_changed(form.user.pk, kept_session=rotated)
        return response


class PasswordResetConfirmView(auth_views.PasswordResetConfirmView):
    """Django's, and every session of the user closes its open sockets, as after a
    password change."""

    def form_valid(self, form: Any) -> HttpResponse:
        response = super().form_valid(form)
        realtime.auth_changed(form.user.pk)
        return response
