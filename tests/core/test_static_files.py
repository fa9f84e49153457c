"""Static files from the Django process (WhiteNoise) without collectstatic in development
and tests, the collected and hashed ES modules of production, and a middleware chain that
stays asynchronous under ASGI."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command
from django.test import Client, override_settings
from django.utils.module_loading import import_string


@pytest.mark.django_db
def test_static_files_are_served_without_collectstatic(client: Client) -> None:
    response = client.get("/static/js/autosubmit.js")
    assert response.status_code == 200
    assert b"data-autosubmit" in b"".join(response.streaming_content)  # type: ignore[attr-defined]
    assert client.get("/static/js/no-such-file.js").status_code == 404


def test_the_middleware_chain_runs_in_one_thread_per_request() -> None:
    """Only the innermost middleware is sync-only (``one_thread``): Django then runs the
    whole chain in the request's thread, one hop from the event loop, rather than a hop
    per hook of each middleware. One sync-only middleware higher up would split the chain
    into hops again (WhiteNoise's own is sync-only, hence ``static_files``)."""
    sync_only = [m for m in settings.MIDDLEWARE if not getattr(import_string(m), "async_capable", False)]
    assert sync_only == ["wordgame.middleware.one_thread"]
    assert settings.MIDDLEWARE[-1] == "wordgame.middleware.one_thread"


def test_collected_modules_import_each_other_by_their_hashed_names(tmp_path: Path) -> None:
    """Production's storage (DEBUG off): the hashed app.js must import the hashed live.js,
    never the unhashed name, which nginx lets browsers keep for a year."""
    storages = {**settings.STORAGES, "staticfiles": {"BACKEND": "wordgame.storage.StaticFilesStorage"}}
    with override_settings(STORAGES=storages, STATIC_ROOT=tmp_path):
        call_command("collectstatic", interactive=False, verbosity=0)
    js = tmp_path / "js"
    hashed = {
        p.name.split(".")[0]: p.name
        for p in js.glob("*.js")
        if re.fullmatch(r"[a-z-]+\.[0-9a-f]{12}\.js", p.name)
    }
    imports = re.findall(r'from "([^"]+)";', (js / hashed["app"]).read_text())
    assert sorted(imports) == [f"./{hashed['live']}", f"./{hashed['notices']}"]
