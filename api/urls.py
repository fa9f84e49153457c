from __future__ import annotations

from django.urls import path

from api import oauth, pages

app_name = "api"

urlpatterns = [
    path("", pages.tokens, name="tokens"),
    path("<int:token_id>/revoke/", pages.revoke, name="token-revoke"),
    path("apps/<int:application_id>/revoke/", oauth.revoke_app, name="app-revoke"),
]
