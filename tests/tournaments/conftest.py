"""Tournament tests: the games' small word list (games play out in a few moves), and
the organiser persona, olga, in the "Organisers" group the migration creates."""

from __future__ import annotations

from typing import Any

import pytest

from games import models as game_models
from tests.games.helpers import lexicon
from tests.tournaments.helpers import make_organiser


@pytest.fixture(autouse=True)
def _small_lexicon(monkeypatch: pytest.MonkeyPatch) -> None:
    words = lexicon()
    monkeypatch.setattr(game_models, "lexicon_for", lambda language, version=None: words)


@pytest.fixture
def olga(db: None) -> Any:
    """An organiser (in the "Organisers" group)."""
    return make_organiser("olga")
