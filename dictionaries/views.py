"""The word look-up page (``/words/``): a plain GET form, live with htmx."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from dictionaries.forms import LookupForm
from dictionaries.lookup import look_up


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
