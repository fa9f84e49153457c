"""What telling many players at once costs: one ``notify`` to N recipients (one INSERT and
one task, as a tournament round would), then ``dispatch`` and the push deliveries to N
subscribed devices, each encrypted for its device (aes128gcm, VAPID-signed) and POSTed to
a local push service on 127.0.0.1 that answers 201.

Reports the wall time of each stage and the SQL queries of the first. In process, on
PostgreSQL (``DATABASE_URL``, a database of your own: users are created in it) or, without
it, a throwaway SQLite database.

Run: ``DATABASE_URL=postgres://postgres@127.0.0.1:5432/wg_bench .venv/bin/python bench/notify_fanout.py [--recipients 1000]``
"""

from __future__ import annotations

import argparse
import os
import secrets
import sys
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


class Sink(BaseHTTPRequestHandler):
    received = 0

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length", "0")))
        Sink.received += 1
        self.send_response(201)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args: Any) -> None:
        pass


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--recipients", type=int, default=1000)
    args = parser.parse_args()
    var_dir = tempfile.mkdtemp(prefix="wg-fanout-")
    os.environ["DJANGO_SETTINGS_MODULE"] = "wordgame.settings"
    os.environ.setdefault("SECRET_KEY", "bench-fanout-" + secrets.token_hex(16))
    os.environ["ALLOWED_HOSTS"] = "testserver"
    os.environ["DEBUG"] = "0"
    # Tasks are stored, as in production: each stage below runs them by hand, timed alone.
    os.environ["TASKS_BACKEND"] = "database"
    os.environ.pop("REDIS_URL", None)
    if not os.environ.get("DATABASE_URL"):
        os.environ["VAR_DIR"] = var_dir
    import django

    django.setup()
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from django.conf import settings
    from django.core.management import call_command
    from django.db import connection, transaction
    from django.test.utils import CaptureQueriesContext

    from accounts.models import User
    from notifications import push
    from notifications.models import Delivery, Kind, Notification, PushSubscription
    from notifications.services import notify
    from notifications.tasks import deliver, dispatch

    call_command("migrate", verbosity=0)
    server = ThreadingHTTPServer(("127.0.0.1", 0), Sink)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}"
    settings.WEBPUSH_ALLOWED_ENDPOINTS = [url + "/"]
    settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY = push.new_vapid_keys()
    settings.SITE_URL = "https://wordgame.example"
    run = secrets.token_hex(3)
    users = User.objects.bulk_create(
        [User(username=f"fan{run}{i}", email="", password="!") for i in range(args.recipients)]
    )
    public = (
        ec.generate_private_key(ec.SECP256R1())
        .public_key()
        .public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    )
    PushSubscription.objects.bulk_create(
        [
            PushSubscription(
                user=u,
                endpoint=f"{url}/push/{run}/{u.pk}",
                p256dh=push.b64url(public),
                auth=push.b64url(b"0" * 16),
            )
            for u in users
        ]
    )
    ids = [u.pk for u in users]
    # The dispatch and deliveries are timed on their own below: hand them over by hand.
    settings.TASKS = {
        "default": {"BACKEND": "django_tasks.backends.dummy.DummyBackend", "QUEUES": ["default"]}
    }
    started = time.perf_counter()
    with CaptureQueriesContext(connection) as queries, transaction.atomic():
        made = notify(
            recipient_ids=ids, kind=Kind.CHAT, params={"game": 1, "who": "ana", "text": "round 2 is paired"}
        )
    recorded = time.perf_counter() - started
    started = time.perf_counter()
    dispatch.call(made)
    dispatched = time.perf_counter() - started
    deliveries = list(Delivery.objects.filter(notification_id__in=made).values_list("pk", flat=True))
    started = time.perf_counter()
    for delivery_id in deliveries:
        deliver.call(delivery_id)
    delivered = time.perf_counter() - started
    sent = Delivery.objects.filter(notification_id__in=made, status=Delivery.Status.SENT).count()
    print(f"recipients: {args.recipients}; push service received {Sink.received}, deliveries sent {sent}")
    print(
        f"notify (in the change's transaction): {recorded * 1000:.1f} ms, {len(queries.captured_queries)} queries"
    )
    print(f"dispatch: {dispatched:.2f} s ({dispatched / args.recipients * 1000:.2f} ms per recipient)")
    print(
        f"push deliveries: {delivered:.2f} s ({delivered / len(deliveries) * 1000:.2f} ms each, one worker)"
    )
    from django_tasks_db.models import DBTaskResult

    DBTaskResult.objects.filter(task_path__startswith="notifications.tasks.").delete()
    Notification.objects.filter(pk__in=made).delete()
    User.objects.filter(pk__in=ids).delete()
    server.shutdown()


if __name__ == "__main__":
    main()
