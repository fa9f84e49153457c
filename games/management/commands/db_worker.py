"""``manage.py db_worker``: django-tasks-db's worker, which also takes back the tasks of
workers that died and keeps the sweep chain going (``games.worker``). It overrides the
framework's command of the same name (``django_tasks_db`` comes after ``games`` in
``INSTALLED_APPS``), so every deployment that runs ``db_worker`` gets it."""

from __future__ import annotations

from argparse import ArgumentParser
from typing import Any

from django.conf import settings
from django_tasks_db.management.commands.db_worker import Command as FrameworkCommand

from games import worker


class Command(FrameworkCommand):
    help = "Run a database task worker that also recovers tasks lost with a killed worker"

    def add_arguments(self, parser: ArgumentParser) -> None:
        super().add_arguments(parser)
        # An id that names this host and process, so another worker can tell it is gone.
        parser.set_defaults(worker_id=worker.worker_id())

    def handle(self, *args: Any, **options: Any) -> None:
        recovered = worker.recover_tasks()
        if recovered.requeued or recovered.failed or recovered.sweep_enqueued:
            self.stderr.write(
                f"recovered tasks: {len(recovered.requeued)} queued again, {len(recovered.failed)} failed, "
                f"sweep {'enqueued' if recovered.sweep_enqueued else 'waiting'}"
            )
        if not options["batch"]:
            worker.watch(settings.TASK_LEASE_CHECK_SECONDS)
        super().handle(*args, **options)
