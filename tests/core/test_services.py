"""The services switch, and the services themselves when CI provides them."""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
from channels.layers import get_channel_layer
from django.db import connection

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
def test_needs_redis(redis_url):
    assert redis_url
"""


def run_probe(tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    probe_dir = ROOT / "tests" / "core" / f"_probe_{uuid.uuid4().hex[:8]}"
    probe_dir.mkdir()
    try:
        (probe_dir / "__init__.py").write_text("")
        (probe_dir / "test_probe.py").write_text(PROBE)
        clean = {
            k: v
            for k, v in os.environ.items()
            if k not in {"REDIS_URL", "REQUIRE_SERVICES", "PYTEST_ADDOPTS", "DATABASE_URL"}
        }
        clean.update(env)
        clean["COLUMNS"] = "300"  # keep pytest's one-line failure summary whole
        return subprocess.run(
            [
                sys.executable,
                "-m",
                "pytest",
                str(probe_dir),
                "-q",
                "-p",
                "no:cacheprovider",
                "-p",
                "no:xdist",
            ],
            cwd=ROOT,
            env=clean,
            capture_output=True,
            text=True,
            timeout=120,
        )
    finally:
        for f in probe_dir.iterdir():
            f.unlink()
        probe_dir.rmdir()


@pytest.mark.pure
def test_missing_redis_skips_without_the_switch(tmp_path):
    result = run_probe(tmp_path, REDIS_URL="redis://127.0.0.1:1/0")
    assert result.returncode == 0, result.stdout
    assert "1 skipped" in result.stdout


@pytest.mark.pure
def test_missing_redis_fails_with_require_services(tmp_path):
    result = run_probe(tmp_path, REDIS_URL="redis://127.0.0.1:1/0", REQUIRE_SERVICES="1")
    # A fixture that fails reports the test as an error; either way the run fails.
    assert result.returncode == 1, result.stdout
    assert "1 error" in result.stdout or "1 failed" in result.stdout
    assert "REQUIRE_SERVICES=1 but Redis" in result.stdout


@pytest.mark.services
@pytest.mark.asyncio
async def test_redis_channel_layer_delivers_group_messages(redis_url, settings):
    layer = get_channel_layer()
    assert type(layer).__name__ == "RedisChannelLayer"
    channel = await layer.new_channel()
    group = f"test-{uuid.uuid4().hex[:8]}"
    await layer.group_add(group, channel)
    await layer.group_send(group, {"type": "game.changed", "version": 7})
    message = await layer.receive(channel)
    await layer.group_discard(group, channel)
    assert message == {"type": "game.changed", "version": 7}


@pytest.mark.services
@pytest.mark.django_db
def test_database_is_postgresql_when_required(postgres):
    with connection.cursor() as cursor:
        cursor.execute("SELECT version()")
        (version,) = cursor.fetchone()
    assert "PostgreSQL" in version
