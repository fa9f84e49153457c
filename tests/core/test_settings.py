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


PRODUCTION = {
    "DEBUG": "0",
    "SECRET_KEY": "pr0duction-" + "x7Q" * 20,
    "ALLOWED_HOSTS": "wordgame.example.org",
    "CSRF_TRUSTED_ORIGINS": "https://wordgame.example.org",
    "DATABASE_URL": "postgres://wordgame@127.0.0.1:5432/wordgame",
    "REDIS_URL": "redis://127.0.0.1:6379/0",
    "SECURE_SSL_REDIRECT": "1",
    "SECURE_HSTS_SECONDS": "31536000",
    "SECURE_HSTS_INCLUDE_SUBDOMAINS": "1",
    "SECURE_HSTS_PRELOAD": "1",
}


def check_deploy(**env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if k not in PRODUCTION and not k.startswith("DB_")}
    return subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.pure
def test_check_deploy_is_clean_with_production_variables():
    """deploy/wordgame.env.example's variables: no warning from ``check --deploy``
    (it connects to no service)."""
    result = check_deploy(**PRODUCTION)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout


@pytest.mark.pure
def test_check_deploy_warns_without_https_settings():
    without_https = {k: v for k, v in PRODUCTION.items() if not k.startswith("SECURE_")}
    result = check_deploy(**without_https)
    assert result.returncode != 0
    for warning in ("security.W004", "security.W008"):
        assert warning in result.stderr + result.stdout


@pytest.mark.pure
def test_the_example_environment_file_names_the_production_variables():
    example = (ROOT / "deploy" / "wordgame.env.example").read_text()
    for name in PRODUCTION:
        assert f"\n{name}=" in example, name


@pytest.mark.pure
def test_postgresql_goes_through_a_bounded_pool():
    code = "import wordgame.settings as s; d = s.DATABASES['default']; print(d['CONN_MAX_AGE'], d['OPTIONS']['pool']['min_size'], d['OPTIONS']['pool']['max_size'])"
    clean = {k: v for k, v in os.environ.items() if not k.startswith("DB_")}
    env = {**clean, "DATABASE_URL": "postgres://postgres@127.0.0.1:5432/wordgame", "DB_POOL_MAX_SIZE": "7"}
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["0", "2", "7"]
    bad = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={**env, "DB_POOL_MIN_SIZE": "9"},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert bad.returncode != 0
    assert "DB_POOL_MIN_SIZE (9) must be between 0 and DB_POOL_MAX_SIZE (7)" in bad.stderr


@pytest.mark.pure
def test_behind_pgbouncer_no_prepared_statements_nor_server_side_cursors():
    code = (
        "import wordgame.settings as s; d = s.DATABASES['default']; "
        "print(d.get('DISABLE_SERVER_SIDE_CURSORS', False), 'prepare_threshold' in d['OPTIONS'], "
        "d['OPTIONS'].get('prepare_threshold', 'unset'))"
    )
    env = {**os.environ, "DATABASE_URL": "postgres://postgres@127.0.0.1:6432/wordgame"}
    env.pop("DATABASE_PGBOUNCER", None)
    direct = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )
    assert direct.stdout.split() == ["False", "False", "unset"], direct.stderr
    behind = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={**env, "DATABASE_PGBOUNCER": "1"},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert behind.stdout.split() == ["True", "True", "None"], behind.stderr
    bad = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={**env, "DATABASE_PGBOUNCER": "maybe"},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert bad.returncode != 0
    assert "DATABASE_PGBOUNCER must be a boolean" in bad.stderr
