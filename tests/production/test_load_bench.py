"""``bench/load.py`` run small, on PostgreSQL and Redis, as its own process: the script
that measures issue 14's load targets keeps working, and at its smallest every move
crosses between its two Daphne workers and reaches every socket, with no error and no
dropped socket. No timing is asserted here (speed is for the bench itself to report)."""

from __future__ import annotations

import json
import os
import signal
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


def server_logs() -> str:
    """The end of the logs of the two Daphne processes the bench started last."""
    logs = sorted((ROOT / "var").glob("bench-daphne-*.log"), key=lambda log: log.stat().st_mtime)[-2:]
    return "".join(f"\n--- {log.name}\n{log.read_text(errors='replace')[-2000:]}" for log in logs)


def test_the_load_bench_runs_and_every_move_reaches_every_socket(
    postgres: None, redis_url: str, transactional_db: None
) -> None:
    parts = urlsplit(os.environ["DATABASE_URL"])
    database_url = urlunsplit(parts._replace(path="/" + str(connection.settings_dict["NAME"])))
    env = {**os.environ, "DATABASE_URL": database_url, "REDIS_URL": redis_url}
    env.pop("DJANGO_SETTINGS_MODULE", None)
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    # Its own process group: on a timeout the bench and the Daphne processes it started
    # are stopped together (none left holding the test database).
    arguments = ["--connections", "10", "--workers", "2", "--think", "0.5", "--seconds", "6"]
    bench = subprocess.Popen(
        [sys.executable, "bench/load.py", *arguments],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        stdout, stderr = bench.communicate(timeout=240)
    except subprocess.TimeoutExpired:
        os.killpg(bench.pid, signal.SIGKILL)
        stdout, stderr = bench.communicate()
        pytest.fail(
            "bench/load.py did not finish in 240 s\n" + stdout[-2000:] + stderr[-2000:] + server_logs()
        )
    assert bench.returncode == 0, stdout[-3000:] + stderr[-3000:] + server_logs()
    result = bench_result(stdout)

    assert result["connections"] == 10
    assert result["games"] == 2
    assert result["held_at_end"] == 10
    assert result["moves"] >= 4, result
    assert (result["errors"], result["missing"], result["dropped"]) == (0, 0, 0), result
    # A time for every percentile, each a real duration, and the servers and the machine measured.
    for key in ("opponent_ms", "answer_ms", "spectator_ms"):
        assert all(0 < value < 10_000 for value in result[key].values()), result[key]
    assert len(result["daphne"]) == 2
    assert result["daphne_cpu_ms_per_move"] > 0
    assert result["postgres_cpu_per_s"] >= 0
    assert result["redis_cpu_per_s"] >= 0
    assert all(server["cpu_per_s"] > 0 and server["rss_mb"] > 0 for server in result["daphne"])
    assert result["machine_busy_cores"] > 0
    assert result["bench_loop_lag_ms"]["max"] >= result["bench_loop_lag_ms"]["p99"] >= 0
