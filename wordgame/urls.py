from __future__ import annotations

from django.contrib import admin
from django.urls import include, path

from wordgame import views

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("accounts/", include("accounts.urls")),
    path("games/", include("games.urls")),
    path("words/", include("dictionaries.urls")),
    path("tournaments/", include("tournaments.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
]
