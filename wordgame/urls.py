from __future__ import annotations

from django.contrib import admin
from django.templatetags.static import static
from django.urls import include, path
from django.utils.functional import lazy
from django.views.generic import RedirectView

from accounts import views as accounts_views
from api import oauth
from api.v1 import api as api_v1
from games import howto
from games.urls import archive_patterns
from wordgame import metrics, views

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    # Prometheus's figures, to operators only (METRICS_TOKEN, METRICS_ALLOWED_IPS, staff).
    path("metrics", metrics.metrics_view, name="metrics"),
    path("accounts/tokens/", include("api.urls")),
    path("", include("notifications.urls")),
    path("accounts/", include("accounts.urls")),
    path("players/<str:username>/games/", include((archive_patterns, "archive"))),
    path("players/", include("accounts.player_urls")),
    path("leaderboard/", accounts_views.leaderboard, name="leaderboard"),
    path("how-to-play/", howto.how_to_play, name="how-to-play"),
    path("games/", include("games.urls")),
    path("puzzles/", include("puzzles.urls")),
    path("words/", include("dictionaries.urls")),
    # Django's switcher, wrapped so that a signed-in player's choice is stored on them.
    path("i18n/setlang/", accounts_views.set_language, name="set_language"),
    path("tournaments/", include("tournaments.urls")),
    path("admin/", admin.site.urls),
    # Browsers ask for /favicon.ico on pages that name no icon (the admin's, for one).
    # Lazy: a hashed static file's name is known only once the site runs.
    path("favicon.ico", RedirectView.as_view(url=lazy(static, str)("img/favicon.ico"), permanent=True)),
    path("api/v1/", api_v1.urls),
    # Sign-in for third-party apps (OAuth 2.0, authorisation code with PKCE).
    path("oauth/", include((oauth.urlpatterns, "oauth2_provider"))),
]
