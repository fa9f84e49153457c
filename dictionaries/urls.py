from __future__ import annotations

from django.urls import path

from dictionaries import views

app_name = "dictionaries"

urlpatterns = [
    path("", views.lookup, name="lookup"),
    path("suggest/", views.suggest, name="suggest"),
]
