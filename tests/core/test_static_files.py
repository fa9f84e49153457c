"""Static files from the Django process (WhiteNoise) without collectstatic in development
and tests, and a middleware chain that stays asynchronous under ASGI."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client
from django.utils.module_loading import import_string


@pytest.mark.django_db
def test_static_files_are_served_without_collectstatic(client: Client) -> None:
    response = client.get("/static/js/autosubmit.js")
    assert response.status_code == 200
    assert b"data-autosubmit" in b"".join(response.streaming_content)  # type: ignore[attr-defined]
    assert client.get("/static/js/no-such-file.js").status_code == 404


def test_every_middleware_can_run_asynchronously() -> None:
    """One sync-only middleware puts every request, and the computer's on-commit
    scheduling, into a per-request thread under ASGI (WhiteNoise's own middleware is
    sync-only, hence ``wordgame.middleware.static_files``)."""
    sync_only = [m for m in settings.MIDDLEWARE if not getattr(import_string(m), "async_capable", False)]
    assert sync_only == []
