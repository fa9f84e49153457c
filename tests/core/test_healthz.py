from __future__ import annotations

import pytest
from django.db import connection


@pytest.mark.django_db
def test_healthz_reports_database_and_channel_layer(client, settings):
    response = client.get("/healthz")
    assert response.status_code == 200
    data = response.json()
    assert data["ok"] is True
    assert data["database"] == {"ok": True, "vendor": connection.vendor}
    expected = str(settings.CHANNEL_LAYERS["default"]["BACKEND"]).rsplit(".", 1)[-1]
    assert data["channel_layer"] == {"ok": True, "backend": expected}
    # The run's header says which services it used; say it here too for the CI log.
    print(f"healthz: database={connection.vendor} channel_layer={expected}")


@pytest.mark.django_db
def test_healthz_with_unreachable_redis_is_503(client, settings):
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {"hosts": ["redis://127.0.0.1:1/0"]},
        }
    }
    from channels.layers import channel_layers

    channel_layers.backends.clear()
    try:
        response = client.get("/healthz")
    finally:
        channel_layers.backends.clear()
    assert response.status_code == 503
    data = response.json()
    assert data["ok"] is False
    assert data["channel_layer"]["ok"] is False
    assert data["database"]["ok"] is True
