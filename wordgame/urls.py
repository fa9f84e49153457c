from __future__ import annotations

from django.contrib import admin
from django.templatetags.static import static
from django.urls import include, path
from django.utils.functional import lazy
from django.views.generic import RedirectView

from wordgame import views

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("accounts/", include("accounts.urls")),
    path("games/", include("games.urls")),
    path("words/", include("dictionaries.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
    # Browsers ask for /favicon.ico on pages that name no icon (the admin's, for one).
    # Lazy: a hashed static file's name is known only once the site runs.
    path("favicon.ico", RedirectView.as_view(url=lazy(static, str)("img/favicon.ico"), permanent=True)),
]
