"""Every app's WebSocket routes, collected in one list for asgi.py."""

from __future__ import annotations

from games.routing import websocket_urlpatterns as games_routes
from tournaments.routing import websocket_urlpatterns as tournaments_routes

websocket_urlpatterns = [*games_routes, *tournaments_routes]
