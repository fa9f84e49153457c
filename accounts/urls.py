from __future__ import annotations

from django.urls import include, path

from accounts import views

urlpatterns = [
    path("signup/", views.signup, name="signup"),
    path("coins/", views.coins, name="coins"),
    path("", include("django.contrib.auth.urls")),
]
