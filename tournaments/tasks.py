"""Tournament work in the background (Django's task framework, like ``games.tasks``)."""

from __future__ import annotations

from datetime import datetime

from django_tasks import task

from games.tasks import enqueue
from tournaments import services


@task()
def close_round_task(tournament_id: int, round_number: int) -> int:
    """A round's time limit: adjudicate what is unfinished (``services.close_round``;
    run twice or early it changes nothing)."""
    return services.close_round(tournament_id=tournament_id, round_number=round_number)


def schedule_close_round(tournament_id: int, round_number: int, at: datetime) -> None:
    """Enqueue :func:`close_round_task` for ``at`` (``services.schedule_round_close``)."""
    enqueue(close_round_task, tournament_id, round_number, at=at)
