from __future__ import annotations

import logging
import threading
from typing import Any

from django.apps import AppConfig
from django.core.signals import request_started
from django.utils.translation import gettext_lazy as _

logger = logging.getLogger(__name__)

_resume_lock = threading.Lock()
_resumed = False


def resume_computer_turns_once(**kwargs: Any) -> None:
    """On the first request a process handles, pick up the computer turns a previous
    server process left unfinished. Done here (framework plumbing, STYLE.md 3.1) rather
    than in ``ready()`` because ``ready()`` also runs for management commands and test
    collection, which must not start thinking; a server always sees a first request
    (at the latest the load balancer's health check)."""
    global _resumed
    with _resume_lock:
        if _resumed:
            return
        _resumed = True
    request_started.disconnect(resume_computer_turns_once)
    from games.computer import resume_pending_computer_turns

    try:
        resumed = resume_pending_computer_turns()
    except Exception:  # never fail the request that happened to come first
        logger.exception("could not resume pending computer turns")
        return
    if resumed:
        logger.info("resumed computer turns in games %s", resumed)


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = _("Games")

    def ready(self) -> None:
        from dictionaries.hooks import register_word_usage_counter
        from games.services import count_finished_games_with_word

        register_word_usage_counter(count_finished_games_with_word)
        from accounts.hooks import register_player_data
        from games.profiles import GamesPlayerData

        register_player_data("games", GamesPlayerData())
        request_started.connect(resume_computer_turns_once, dispatch_uid="games.resume_computer_turns")
