"""Tournament work in the background (Django's task framework, like ``games.tasks``)."""

from __future__ import annotations

from django_tasks import task

from tournaments import services


@task()
def close_round_task(tournament_id: int, round_number: int) -> int:
    """A round's time limit: adjudicate what is unfinished (``services.close_round``;
    run twice or early it changes nothing)."""
    return services.close_round(tournament_id=tournament_id, round_number=round_number)
