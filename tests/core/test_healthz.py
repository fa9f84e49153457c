from __future__ import annotations

from pathlib import Path

import pytest
from django.db import connection


def assert_names_no_backend(text: str) -> None:
    for name in ("sqlite", "postgres", "redis", "InMemory", "127.0.0.1", "vendor", "backend"):
        assert name.lower() not in text.lower(), name


@pytest.mark.django_db
def test_healthz_checks_database_channel_layer_and_lexicons(client, settings):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {
        "ok": True,
        "database": {"ok": True},
        "channel_layer": {"ok": True},
        "lexicons": {"ok": True, "missing": []},
    }
    assert_names_no_backend(response.text)
    # Say in the CI log which services this run used (the page itself does not).
    layer = str(settings.CHANNEL_LAYERS["default"]["BACKEND"]).rsplit(".", 1)[-1]
    print(f"healthz: database={connection.vendor} channel_layer={layer}")


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
    assert data["channel_layer"] == {"ok": False}
    assert data["database"] == {"ok": True}
    assert_names_no_backend(response.text)


@pytest.mark.django_db
def test_healthz_with_a_missing_lexicon_is_503(client, settings, tmp_path: Path):
    # Every graph but German's, in another folder.
    for graph in Path(settings.LEXICON_DIR).glob("*.dawg"):
        if graph.name != "de.dawg":
            (tmp_path / graph.name).symlink_to(graph)
    settings.LEXICON_DIR = tmp_path
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["lexicons"] == {"ok": False, "missing": ["de"]}
    assert response.json()["database"] == {"ok": True}
