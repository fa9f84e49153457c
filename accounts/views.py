from __future__ import annotations

from django.contrib.auth import login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods

from accounts.forms import SignupForm
from accounts.throttling import signup_allowed


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
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        return redirect("home")
    return render(request, "registration/signup.html", {"form": form})
