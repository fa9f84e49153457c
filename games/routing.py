from __future__ import annotations

from django.urls import URLPattern, path

from games import consumers

websocket_urlpatterns: list[URLPattern] = [
    path("ws/games/<int:game_id>/", consumers.GameConsumer.as_asgi()),
    path("ws/games/<int:game_id>/analysis/", consumers.AnalysisConsumer.as_asgi()),
    path("ws/lobby/", consumers.LobbyConsumer.as_asgi()),
]
