"""The server process's garbage collector (wordgame.asgi, GC_THRESHOLDS)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

ROOT = Path(__file__).resolve().parents[2]


def thresholds_in_a_server_process(value: str | None) -> str:
    env = {k: v for k, v in os.environ.items() if k != "GC_THRESHOLDS"}
    if value is not None:
        env["GC_THRESHOLDS"] = value
    env["DJANGO_SETTINGS_MODULE"] = "wordgame.settings"
    code = "import gc, wordgame.asgi; print(gc.get_threshold(), gc.get_freeze_count() > 10000)"
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    return done.stdout.strip().splitlines()[-1] if done.returncode == 0 else done.stderr


def test_the_server_freezes_what_it_built_and_collects_old_objects_rarely() -> None:
    assert thresholds_in_a_server_process(None) == "(700, 10, 1000) True"
    assert thresholds_in_a_server_process("5000,10,20") == "(5000, 10, 20) True"


@pytest.mark.parametrize("bad", ["1,2", "a,b,c", "0,10,10", "10,-1,10"])
def test_bad_thresholds_are_refused_with_the_variable_named(
    bad: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from wordgame.settings import env_gc_thresholds

    monkeypatch.setenv("GC_THRESHOLDS", bad)
    with pytest.raises(ImproperlyConfigured, match="GC_THRESHOLDS must be three positive whole numbers"):
        env_gc_thresholds("GC_THRESHOLDS", (1, 1, 1))


def test_a_long_collection_is_logged_with_its_generation_and_pause(monkeypatch: pytest.MonkeyPatch) -> None:
    from wordgame import asgi, middleware

    middleware.deferred_events.clear()
    asgi.log_long_collections("start", {"generation": 2})
    asgi.log_long_collections("stop", {"generation": 2, "collected": 0})
    assert list(middleware.deferred_events) == []  # shorter than 10 ms
    monkeypatch.setattr(asgi, "LONG_COLLECTION_MS", 0.0)
    asgi.log_long_collections("start", {"generation": 2})
    asgi.log_long_collections("stop", {"generation": 2, "collected": 0})
    # Written with the next log line, not inside the collector's callback.
    written: list[str] = []
    monkeypatch.setattr(middleware.access_logger, "info", written.append)
    middleware.log_event(event="http", path="/")
    assert len(written) == 2
    assert written[0].startswith('{"event":"gc","generation":2,"ms":')
    assert written[1] == '{"event":"http","path":"/"}'
    assert list(middleware.deferred_events) == []
