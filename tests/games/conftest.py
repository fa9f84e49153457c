"""Games tests: a small word list instead of the built lexicons, and the computer
player thinking synchronously (one test drives the real process pool)."""

from __future__ import annotations

from typing import Any

import pytest

from games import models
from tests.games.helpers import lexicon, make_game


@pytest.fixture(autouse=True)
def _small_lexicon(monkeypatch: pytest.MonkeyPatch, settings: Any) -> None:
    words = lexicon()
    monkeypatch.setattr(models, "lexicon_for", lambda language, version=None: words)
    settings.COMPUTER_SYNC = True
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"


@pytest.fixture
def game_ana_ben(ana: Any, ben: Any) -> models.Game:
    """ana (seat 0, to move) against ben; ana holds CATSEOD, ben JQXZKVW."""
    return make_game(ana, ben, racks=("CATSEOD", "JQXZKVW"))
