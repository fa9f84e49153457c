from __future__ import annotations

from django.contrib import admin
from django.urls import include, path

from api.v1 import api as api_v1
from wordgame import views

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("accounts/tokens/", include("api.urls")),
    path("accounts/", include("accounts.urls")),
    path("games/", include("games.urls")),
    path("words/", include("dictionaries.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
    path("api/v1/", api_v1.urls),
]
