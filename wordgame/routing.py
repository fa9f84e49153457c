"""Every app's WebSocket routes, collected in one list for asgi.py."""

from __future__ import annotations

from accounts.routing import websocket_urlpatterns as accounts_routes
from games.routing import websocket_urlpatterns as games_routes
from tournaments.routing import websocket_urlpatterns as tournaments_routes

websocket_urlpatterns = [*games_routes, *accounts_routes, *tournaments_routes]
