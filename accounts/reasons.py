"""The reason codes of coin ledger entries and the words a statement shows for them.

The ledger stores a short code; the statement translates it. Apps that spend or grant
coins for their own reasons (the game's paid extras) register their labels from their
``AppConfig.ready()``, so ``accounts`` never imports them::

    from accounts.reasons import register_reason
    register_reason("extra:tile_bag", _("Tile bag"))
"""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

SIGNUP = "signup"
DAILY_BONUS = "daily_bonus"
GAME_FINISHED = "game_finished"
GAME_WON = "game_won"
STAFF = "staff"
REFUND = "refund"

_labels: dict[str, str | Promise] = {
    SIGNUP: _("Welcome coins"),
    DAILY_BONUS: _("Daily bonus"),
    GAME_FINISHED: _("Game played to the end"),
    GAME_WON: _("Game won"),
    STAFF: _("Adjustment by the staff"),
    REFUND: _("Refund"),
}


def register_reason(code: str, label: str | Promise) -> None:
    """Name a reason code on the statement (a lazy translation, shown in the viewer's language)."""
    if not code or len(code) > 40:
        raise ValueError(f"a reason code has 1 to 40 characters, got {code!r}")
    _labels[code] = label


def reason_label(code: str) -> str:
    """The translated label of ``code``; an unregistered code is shown as it is."""
    return str(_labels.get(code, code))
