"""``/accounts/tokens/``: a player's personal API tokens, created, listed and revoked.

A standalone page (the profile page can link to it). A new token is shown once, in the
answer to the POST that created it; only its hash is stored.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods, require_POST

from api.forms import TokenForm
from api.messages import error_message
from api.models import ApiToken
from api.oauth import grants_of


def _page(request: HttpRequest, form: TokenForm, *, new_token: str = "", status: int = 200) -> HttpResponse:
    user: Any = request.user
    context = {
        "form": form,
        "tokens": ApiToken.objects.filter(user=user),
        "grants": grants_of(user),
        "new_token": new_token,
        "max_tokens": settings.API_MAX_TOKENS,
    }
    return render(request, "accounts/tokens.html", context, status=status)


@require_http_methods(["GET", "POST"])
@login_required
def tokens(request: HttpRequest) -> HttpResponse:
    if request.method != "POST":
        return _page(request, TokenForm())
    form = TokenForm(request.POST)
    if not form.is_valid():
        return _page(request, form, status=400)
    user: Any = request.user
    if ApiToken.objects.filter(user=user).count() >= settings.API_MAX_TOKENS:
        form.add_error(None, error_message("too_many_tokens"))
        return _page(request, form, status=400)
    _token, raw = ApiToken.issue(user, form.cleaned_data["name"], bot=form.cleaned_data["bot"])
    # Shown in this answer only: not stored, not put in a redirect or a message.
    return _page(request, TokenForm(), new_token=raw)


@require_POST
@login_required
def revoke(request: HttpRequest, token_id: int) -> HttpResponse:
    token = get_object_or_404(ApiToken, pk=token_id, user=request.user)
    token.delete()
    messages.success(request, gettext("The token “%(name)s” is revoked.") % {"name": token.name})
    return redirect("api:tokens")
