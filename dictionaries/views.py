"""The word look-up page (``/words/``): a plain GET form, live with htmx."""

from __future__ import annotations

from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_http_methods

from dictionaries.forms import LookupForm, SuggestForm
from dictionaries.lookup import look_up
from dictionaries.services import suggest_word


@require_GET
def lookup(request: HttpRequest) -> HttpResponse:
    """The full page, or only ``_lookup_result.html`` for an htmx request."""
    form = LookupForm(request.GET)
    result = None
    if form.is_valid() and form.cleaned_data["word"]:
        result = look_up(form.cleaned_data["word"], form.cleaned_data["language"])
    is_htmx = bool(getattr(request, "htmx", False))
    template = "dictionaries/_lookup_result.html" if is_htmx else "dictionaries/lookup.html"
    return render(request, template, {"form": form, "result": result})


@require_http_methods(["GET", "POST"])
@login_required
def suggest(request: HttpRequest) -> HttpResponse:
    """Suggest a word to add: the form (filled in from the link that led here), then the
    look-up page of the word with what became of the suggestion."""
    form = SuggestForm(request.POST if request.method == "POST" else None, initial=request.GET.dict())
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            suggest_word(
                user=request.user,
                language=data["language"],
                word=data["word"],
                game_id=data["game"],
                source_url=data["source_url"],
            )
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(
                request,
                gettext("Thank you: the moderators will decide on “%(word)s”, and you will be told.")
                % {"word": data["word"]},
            )
            query = urlencode({"word": data["word"], "language": data["language"]})
            return redirect(f"{reverse('dictionaries:lookup')}?{query}")
    status = 400 if form.errors else 200
    return render(request, "dictionaries/suggest.html", {"form": form}, status=status)
