from __future__ import annotations

from django.urls import URLPattern, path

from accounts import consumers

websocket_urlpatterns: list[URLPattern] = [
    path("ws/user/", consumers.UserConsumer.as_asgi()),
]
