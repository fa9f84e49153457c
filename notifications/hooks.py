"""Hooks other apps fill in, so that ``notifications`` never imports them: what happens
when a notification reached a person (``games`` records that a deadline warning was
delivered, which a lapsed turn's extension depends on)."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from notifications.models import Delivery

logger = logging.getLogger(__name__)
_delivered: list[Callable[[Delivery], None]] = []


def register_delivered(hook: Callable[[Delivery], None]) -> None:
    """Run ``hook(delivery)`` after a delivery was accepted by its channel's service."""
    if hook not in _delivered:
        _delivered.append(hook)


def delivered(delivery: Delivery) -> None:
    for hook in _delivered:
        try:
            hook(delivery)
        except Exception:
            logger.exception("after delivery %s", delivery.pk)
