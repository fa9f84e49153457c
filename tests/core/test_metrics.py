"""``/metrics``: who may read it, what is read at scrape time, and several workers'
figures added up (prometheus_client's multiprocess mode)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone
from prometheus_client.parser import text_string_to_metric_families

from accounts import metrics
from tests.factories import make_user
from wordgame import metrics as endpoint

ROOT = Path(__file__).resolve().parents[2]


def samples(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of a scrape, by name and labels."""
    found = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            found[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return found


@pytest.mark.django_db
def test_anonymous_and_players_are_refused_the_metrics(client: Client, settings: Any) -> None:
    settings.METRICS_TOKEN = "a-long-scrape-token"
    assert client.get("/metrics").status_code == 403
    assert client.get("/metrics", headers={"Authorization": "Bearer wrong"}).status_code == 403
    assert client.get("/metrics", headers={"Authorization": "a-long-scrape-token"}).status_code == 403
    client.force_login(make_user("cleo"))
    response = client.get("/metrics")
    assert response.status_code == 403
    assert "wordgame_" not in response.text


@pytest.mark.django_db
def test_token_address_and_staff_may_read_the_metrics(client: Client, settings: Any) -> None:
    settings.METRICS_TOKEN = "a-long-scrape-token"
    response = client.get("/metrics", headers={"Authorization": "Bearer a-long-scrape-token"})
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/plain; version=")
    assert "# TYPE wordgame_game_actions_total counter" in response.text

    settings.METRICS_ALLOWED_IPS = ["10.1.0.0/16"]
    assert client.get("/metrics", REMOTE_ADDR="10.1.2.3").status_code == 200
    assert client.get("/metrics", REMOTE_ADDR="10.2.0.1").status_code == 403

    client.force_login(make_user("mia", is_staff=True))
    assert client.get("/metrics").status_code == 200
    settings.METRICS_STAFF = False
    assert client.get("/metrics").status_code == 403


@pytest.mark.django_db
def test_task_queue_depth_and_age_are_read_from_the_table(client: Client, settings: Any) -> None:
    from django_tasks_db.models import DBTaskResult

    from notifications.tasks import deliver

    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend", "QUEUES": ["default"]}}
    settings.METRICS_TOKEN = "t0ken-for-the-test"
    auth = {"Authorization": "Bearer t0ken-for-the-test"}
    deliver.enqueue(1)
    waiting = deliver.enqueue(2)
    deliver.using(run_after=timezone.now() + timedelta(hours=1)).enqueue(3)
    # The oldest has waited ten minutes.
    DBTaskResult.objects.filter(pk=waiting.id).update(enqueued_at=timezone.now() - timedelta(minutes=10))

    found = samples(client.get("/metrics", headers=auth).text)
    task = (("task", "notifications.tasks.deliver"),)
    assert found[("wordgame_task_queue_depth", task)] == 2
    assert found[("wordgame_task_deferred", task)] == 1
    assert 600 <= found[("wordgame_task_queue_age_seconds", task)] < 660


WORKER = """
import sys, time
from accounts import metrics
metrics.game_actions.labels("play").inc(int(sys.argv[1]))
metrics.open_sockets.labels("games").inc(int(sys.argv[1]))
print("ready", flush=True)
if sys.argv[2] == "stay":
    time.sleep(60)
"""


def worker(folder: Path, count: int, how: str) -> subprocess.Popen[str]:
    env = {**os.environ, "PROMETHEUS_MULTIPROC_DIR": str(folder), "PYTHONPATH": str(ROOT)}
    process = subprocess.Popen(
        [sys.executable, "-c", WORKER, str(count), how], cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True
    )
    assert process.stdout is not None
    assert process.stdout.readline().strip() == "ready"
    return process


@pytest.mark.django_db
def test_multiprocess_mode_adds_up_every_worker_and_forgets_dead_ones_sockets(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ended = worker(tmp_path, 2, "exit")
    assert ended.wait(10) == 0
    alive = worker(tmp_path, 3, "stay")
    try:
        monkeypatch.setattr(metrics, "MULTIPROC_DIR", str(tmp_path))
        found = samples(endpoint.exposition().decode())
        # Counters of every process, the ended one's too; live gauges per process alive.
        assert found[("wordgame_game_actions_total", (("kind", "play"),))] == 5
        sockets = {
            labels: value for (name, labels), value in found.items() if name == "wordgame_open_sockets"
        }
        assert sockets == {(("pid", str(alive.pid)), ("route", "games")): 3}
        alive.send_signal(signal.SIGKILL)  # no exit hook: its live gauges stay behind ...
        alive.wait(10)
        assert metrics.forget_dead_processes(str(tmp_path)) == [alive.pid]  # ... until a worker starts
        found = samples(endpoint.exposition().decode())
        assert not [name for name, _labels in found if name == "wordgame_open_sockets"]
        assert found[("wordgame_game_actions_total", (("kind", "play"),))] == 5
    finally:
        if alive.poll() is None:
            alive.kill()
            alive.wait(10)


@pytest.mark.django_db
def test_the_database_pool_is_reported_on_postgresql(client: Client, settings: Any, postgres: None) -> None:
    settings.METRICS_TOKEN = "t0ken-for-the-test"
    found = samples(client.get("/metrics", headers={"Authorization": "Bearer t0ken-for-the-test"}).text)
    pool = settings.DATABASES["default"]["OPTIONS"]["pool"]
    assert found[("wordgame_db_pool", (("figure", "pool_max"),))] == pool["max_size"]
    assert found[("wordgame_db_pool", (("figure", "pool_min"),))] == pool["min_size"]
    assert 1 <= found[("wordgame_db_pool", (("figure", "pool_size"),))] <= pool["max_size"]
    assert found[("wordgame_db_pool", (("figure", "requests_num"),))] >= 1
