from __future__ import annotations

from django.urls import path

from puzzles import views

app_name = "puzzles"

urlpatterns = [
    path("", views.index, name="index"),
    # Before "<language>/": "solo" is not a language.
    path("solo/<str:language>/", views.solo_page, name="solo"),
    path("solo/<str:language>/start", views.solo_start, name="solo-start"),
    path("duels/new/<int:game_id>/<int:number>/", views.duel_new, name="duel-new"),
    path("duels/<int:duel_id>/", views.duel, name="duel"),
    path("duels/<int:duel_id>/preview", views.duel_preview, name="duel-preview"),
    path("duels/<int:duel_id>/answer", views.duel_answer, name="duel-answer"),
    path("<str:language>/", views.daily, name="daily"),
    path("<str:language>/calendar/", views.calendar, name="calendar"),
    path("<str:language>/<str:day>/", views.day, name="day"),
    path("<str:language>/<str:day>/preview", views.preview, name="preview"),
    path("<str:language>/<str:day>/submit", views.submit, name="submit"),
]
