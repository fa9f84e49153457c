from __future__ import annotations

from django.urls import path

from api import pages

app_name = "api"

urlpatterns = [
    path("", pages.tokens, name="tokens"),
    path("<int:token_id>/revoke/", pages.revoke, name="token-revoke"),
]
