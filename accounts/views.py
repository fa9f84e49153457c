from __future__ import annotations

from django.conf import settings
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_http_methods

from accounts.forms import SignupForm
from accounts.models import User
from accounts.services import grant_signup_coins
from accounts.statement import statement

ENTRIES_PER_PAGE = 50


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("home")
    # Bound on every POST, even an empty one, so that it answers with "required" errors.
    form = SignupForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        with transaction.atomic():
            user = form.save()
            grant_signup_coins(user=user)
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
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
