"""``bench/load.py`` run small, on PostgreSQL and Redis, as its own process: the script
that measures issue 14's load targets keeps working, and at its smallest every move
crosses between its two Daphne workers and reaches every socket, with no error and no
dropped socket. No timing is asserted here (speed is for the bench itself to report)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import pytest
from django.db import connection

from tests.production.conftest import ROOT

pytestmark = [pytest.mark.services]


def bench_result(output: str) -> dict[str, Any]:
    """The JSON report the bench prints last (log lines may come before it)."""
    text = "\n" + output
    start = text.rfind("\n{\n")
    assert start >= 0, output[-3000:]
    result: dict[str, Any] = json.loads(text[start + 1 :])
    return result


def test_the_load_bench_runs_and_every_move_reaches_every_socket(
    postgres: None, redis_url: str, transactional_db: None
) -> None:
    parts = urlsplit(os.environ["DATABASE_URL"])
    database_url = urlunsplit(parts._replace(path="/" + str(connection.settings_dict["NAME"])))
    env = {**os.environ, "DATABASE_URL": database_url, "REDIS_URL": redis_url}
    env.pop("DJANGO_SETTINGS_MODULE", None)
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    done = subprocess.run(
        [
            sys.executable,
            "bench/load.py",
            "--connections",
            "10",
            "--workers",
            "2",
            "--think",
            "0.5",
            "--seconds",
            "6",
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    result = bench_result(done.stdout)

    assert result["connections"] == 10
    assert result["games"] == 2
    assert result["held_at_end"] == 10
    assert result["moves"] >= 4, result
    assert (result["errors"], result["missing"], result["dropped"]) == (0, 0, 0), result
    # A time for every percentile, each a real duration, and the servers and the machine measured.
    for key in ("opponent_ms", "answer_ms", "spectator_ms"):
        assert all(0 < value < 10_000 for value in result[key].values()), result[key]
    assert len(result["daphne"]) == 2
    assert all(server["cpu_per_s"] > 0 and server["rss_mb"] > 0 for server in result["daphne"])
    assert result["machine_busy_cores"] > 0
    assert result["bench_loop_lag_ms"]["max"] >= result["bench_loop_lag_ms"]["p99"] >= 0
