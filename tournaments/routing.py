from __future__ import annotations

from django.urls import URLPattern, path

from tournaments import consumers

websocket_urlpatterns: list[URLPattern] = [
    path("ws/tournaments/<int:tournament_id>/", consumers.TournamentConsumer.as_asgi()),
    path("ws/tournaments/<int:tournament_id>/screen/", consumers.ScreenConsumer.as_asgi()),
]
