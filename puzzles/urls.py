from __future__ import annotations

from django.urls import path

from puzzles import views

app_name = "puzzles"

urlpatterns = [
    path("", views.index, name="index"),
    path("<str:language>/", views.daily, name="daily"),
    path("<str:language>/calendar/", views.calendar, name="calendar"),
    path("<str:language>/<str:day>/", views.day, name="day"),
    path("<str:language>/<str:day>/preview", views.preview, name="preview"),
    path("<str:language>/<str:day>/submit", views.submit, name="submit"),
]
