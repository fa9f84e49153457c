from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def load_settings(**env: str) -> subprocess.CompletedProcess[str]:
    clean = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DEBUG", "SECRET_KEY", "ALLOWED_HOSTS", "DATABASE_URL", "REDIS_URL"}
    }
    clean.update(env)
    code = "import wordgame.settings as s; print(s.DEBUG, s.DATABASES['default']['ENGINE'], s.CHANNEL_LAYERS['default']['BACKEND'])"
    return subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=clean, capture_output=True, text=True, timeout=60
    )


@pytest.mark.pure
def test_no_env_vars_gives_debug_sqlite_and_in_memory_layer():
    result = load_settings()
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == [
        "True",
        "django.db.backends.sqlite3",
        "channels.layers.InMemoryChannelLayer",
    ]


@pytest.mark.pure
def test_debug_off_without_secret_key_is_a_clear_error():
    result = load_settings(DEBUG="0", ALLOWED_HOSTS="example.org")
    assert result.returncode != 0
    assert "SECRET_KEY must be set when DEBUG is off" in result.stderr


@pytest.mark.pure
def test_debug_off_without_allowed_hosts_is_a_clear_error():
    result = load_settings(DEBUG="0", SECRET_KEY="x" * 50)
    assert result.returncode != 0
    assert "ALLOWED_HOSTS must be set when DEBUG is off" in result.stderr


@pytest.mark.pure
def test_service_urls_switch_to_postgresql_and_redis():
    result = load_settings(
        DATABASE_URL="postgres://postgres@127.0.0.1:5432/wordgame", REDIS_URL="redis://127.0.0.1:6379/0"
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == [
        "True",
        "django.db.backends.postgresql",
        "wordgame.channel_layer.RedisChannelLayer",
    ]


@pytest.mark.pure
def test_bad_boolean_is_refused():
    result = load_settings(DEBUG="maybe")
    assert result.returncode != 0
    assert "DEBUG must be a boolean" in result.stderr
