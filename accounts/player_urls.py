"""Other players: search, profiles, and what one player may do about another."""

from __future__ import annotations

from django.urls import path

from accounts import views

app_name = "players"

urlpatterns = [
    path("", views.search, name="search"),
    path("<str:username>/", views.profile, name="profile"),
    path("<str:username>/block/", views.block, name="block"),
    path("<str:username>/report/", views.report, name="report"),
]
