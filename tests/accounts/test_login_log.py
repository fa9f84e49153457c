"""One structured log line per log-in attempt, and none of django-axes's own."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from accounts.logins import name_hash
from tests.accounts.test_throttling import fresh_ip


@pytest.fixture
def login_log(caplog: pytest.LogCaptureFixture) -> Iterator[pytest.LogCaptureFixture]:
    """caplog, seeing ``accounts.logins`` (which writes to its own handler only) and
    everything at INFO and above that reaches the root."""
    logger = logging.getLogger("accounts.logins")
    logger.propagate = True
    caplog.set_level(logging.INFO)
    try:
        yield caplog
    finally:
        logger.propagate = False


def lines(caplog: pytest.LogCaptureFixture) -> list[dict[str, Any]]:
    return [json.loads(r.getMessage()) for r in caplog.records if r.name == "accounts.logins"]


def axes_lines(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name.startswith("axes") or "AXES" in r.getMessage()]


@pytest.mark.django_db
def test_a_log_in_writes_one_line_with_the_user_and_no_axes_lines(ana: Any, login_log: Any) -> None:
    ip = fresh_ip()
    response = Client(REMOTE_ADDR=ip).post(
        reverse("login"), {"username": "ana", "password": "correct-horse-battery"}
    )
    assert response.status_code == 302
    assert lines(login_log) == [{"event": "login", "outcome": "success", "user": ana.pk, "client": ip}]
    assert axes_lines(login_log) == []


@pytest.mark.django_db
def test_a_failed_log_in_writes_the_names_hash_never_the_name(
    ana: Any, login_log: Any, settings: Any
) -> None:
    settings.AXES_FAILURE_LIMIT = 2
    ip = fresh_ip()
    client = Client(REMOTE_ADDR=ip)
    for _ in range(3):
        client.post(reverse("login"), {"username": "Ana", "password": "hunter2-guess"})
    found = lines(login_log)
    assert [line["outcome"] for line in found] == ["failure", "locked_out", "locked_out"]
    for line in found:
        assert line == {**line, "user": None, "client": ip, "name_hash": name_hash("ana")}
    assert len(found[0]["name_hash"]) == 16
    assert name_hash("ana") != name_hash("ben")
    text = "\n".join(r.getMessage() for r in login_log.records)
    assert "hunter2" not in text
    assert '"Ana"' not in text
    assert axes_lines(login_log) == []


@pytest.mark.django_db
def test_an_api_token_request_logs_its_log_in_too(ana: Any, login_log: Any) -> None:
    ip = fresh_ip()
    response = Client(REMOTE_ADDR=ip).post(
        "/api/v1/token", {"username": "ana", "password": "wrong"}, content_type="application/json"
    )
    assert response.status_code in {401, 403}
    assert [(line["outcome"], line["client"]) for line in lines(login_log)] == [("failure", ip)]
