"""The immediate task backend with the database backend's transactional meaning.

With ``django-tasks-db`` a task enqueued inside a transaction is a row written in that
transaction: it exists once the change commits, and never if it rolls back. Django's
``ImmediateBackend`` runs the task at once instead, inside the caller's transaction (a
computer's reply would be thought while the player's row lock is held, and would be lost
with a rollback). This backend runs it when the transaction commits (nothing on a
rollback), and at once outside any transaction: tests and ``TASKS_BACKEND=immediate``
see the same order of events as production.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django_tasks.backends.immediate import ImmediateBackend
from django_tasks.base import TaskResult


def in_transaction() -> bool:
    """Whether the default connection is inside a transaction of the code's own. The
    transaction a test case wraps around a test never commits; code running directly in
    it behaves as outside any transaction, as it would in production."""
    connection = transaction.get_connection()
    return any(not getattr(block, "_from_testcase", False) for block in connection.atomic_blocks)


class ImmediateAfterCommitBackend(ImmediateBackend):
    """Runs each task in the enqueuing process once the enclosing transaction commits."""

    def _execute_task(self, task_result: TaskResult[Any]) -> None:
        if in_transaction():
            transaction.on_commit(lambda: ImmediateBackend._execute_task(self, task_result))
        else:
            super()._execute_task(task_result)
