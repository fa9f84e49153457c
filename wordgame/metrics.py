"""``/metrics``: the site's figures for Prometheus, to operators only.

What the apps count is defined in ``accounts.metrics``; this adds what is read when
Prometheus asks (the task queue from django-tasks-db's table, this process's database
pool) and decides who may read it: a bearer token (``METRICS_TOKEN``), client addresses
(``METRICS_ALLOWED_IPS``), staff users (``METRICS_STAFF``). Anyone else gets 403.

Several workers: with ``PROMETHEUS_MULTIPROC_DIR`` set, whichever worker answers adds up
every process of its machine (``accounts.metrics``); without it, each process answers for
itself (development, tests).
"""

from __future__ import annotations

import hmac
import ipaddress
import re
from collections.abc import Iterator

from django.conf import settings
from django.db.models import Case, Count, DateTimeField, F, Min, Q, When
from django.db.models.functions import Greatest
from django.http import HttpRequest, HttpResponse, HttpResponseForbidden
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET
from django_tasks import TaskResultStatus
from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, CollectorRegistry, generate_latest
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.multiprocess import MultiProcessCollector
from prometheus_client.registry import Collector

from accounts import metrics

# ----- who may read ---------------------------------------------------------------------


def _networks(values: list[str]) -> list[ipaddress.IPv4Network | ipaddress.IPv6Network]:
    return [ipaddress.ip_network(value, strict=False) for value in values]


def may_read(request: HttpRequest) -> bool:
    """The bearer token of ``METRICS_TOKEN``, an address in ``METRICS_ALLOWED_IPS`` (the
    client's as Daphne reports it: behind nginx, the address nginx saw), or a staff user
    when ``METRICS_STAFF``. Nothing configured: staff only."""
    token = settings.METRICS_TOKEN
    header = request.headers.get("Authorization", "")
    offered = header.removeprefix("Bearer ").strip() if header.startswith("Bearer ") else ""
    if token and offered and hmac.compare_digest(offered.encode(), token.encode()):
        return True
    if settings.METRICS_ALLOWED_IPS:
        try:
            address = ipaddress.ip_address(request.META.get("REMOTE_ADDR", ""))
        except ValueError:
            address = None
        if address is not None and any(address in net for net in _networks(settings.METRICS_ALLOWED_IPS)):
            return True
    user = getattr(request, "user", None)
    return bool(settings.METRICS_STAFF and user is not None and user.is_authenticated and user.is_staff)


# ----- read at scrape time ---------------------------------------------------------------


class TaskQueueCollector(Collector):
    """django-tasks-db's queue as it is now, by task: how many are due and waiting for a
    worker, how long the oldest of them has waited (since it was enqueued, or since its
    ``run_after`` for one deferred), and how many are deferred to later. One grouped
    query on the ready tasks (the table's partial index)."""

    def collect(self) -> Iterator[GaugeMetricFamily]:
        from django_tasks_db.models import DBTaskResult, get_date_max

        now = timezone.now()
        never = get_date_max()
        due = Q(run_after=never) | Q(run_after__lte=now)
        waiting_since = Case(
            When(run_after=never, then=F("enqueued_at")),
            default=Greatest("enqueued_at", "run_after"),
            output_field=DateTimeField(),
        )
        rows = (
            DBTaskResult.objects.filter(status=TaskResultStatus.READY)
            .order_by()
            .values("task_path")
            .annotate(
                due=Count("id", filter=due),
                later=Count("id", filter=~due),
                since=Min(waiting_since, filter=due),
            )
        )
        depth = GaugeMetricFamily(
            "wordgame_task_queue_depth", "Tasks due and waiting for a worker, by task.", labels=["task"]
        )
        age = GaugeMetricFamily(
            "wordgame_task_queue_age_seconds",
            "How long the oldest due task has waited for a worker, by task (0: none waiting).",
            labels=["task"],
        )
        deferred = GaugeMetricFamily(
            "wordgame_task_deferred",
            "Tasks deferred to a later time (not yet due), by task.",
            labels=["task"],
        )
        for row in rows:
            task = row["task_path"]
            depth.add_metric([task], row["due"])
            waited = (now - row["since"]).total_seconds() if row["since"] is not None else 0.0
            age.add_metric([task], max(waited, 0.0))
            deferred.add_metric([task], row["later"])
        yield depth
        yield age
        yield deferred


def exposition() -> bytes:
    """Every figure, in Prometheus's text format."""
    metrics.refresh_pool_figures()
    queue = CollectorRegistry(auto_describe=False)
    queue.register(TaskQueueCollector())
    if metrics.MULTIPROC_DIR:
        combined = CollectorRegistry(auto_describe=False)
        MultiProcessCollector(combined, path=metrics.MULTIPROC_DIR)
        return generate_latest(combined) + generate_latest(queue)
    return generate_latest(REGISTRY) + generate_latest(queue)


@require_GET
@never_cache
def metrics_view(request: HttpRequest) -> HttpResponse:
    if not may_read(request):
        return HttpResponseForbidden("Forbidden\n", content_type="text/plain")
    return HttpResponse(exposition(), content_type=CONTENT_TYPE_LATEST)


# ----- the move's POST, timed by the access log ------------------------------------------

#: The POSTs that make a move, the site's pages' and the API's: the label names which.
MOVE_POSTS = re.compile(r"^/(?:(api)/v1/)?games/\d+/(play|exchange|pass)/?$")


def observe_request(method: str | None, path: str, seconds: float) -> None:
    """Called by the access log for every request (``wordgame.middleware``)."""
    if method != "POST":
        return
    match = MOVE_POSTS.match(path)
    if match is not None:
        api, action = match.groups()
        metrics.move_post_seconds.labels(f"{'api' if api else 'page'}:{action}").observe(seconds)
