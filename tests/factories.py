"""Small ``make_*`` factories with keyword overrides (STYLE.md 3.11)."""

from __future__ import annotations

from typing import Any

PASSWORD = "correct-horse-battery"


def make_user(username: str = "ana", **overrides: Any) -> Any:
    from django.contrib.auth import get_user_model

    User = get_user_model()
    fields: dict[str, Any] = {"email": f"{username}@example.org"}
    fields.update(overrides)
    return User.objects.create_user(username=username, password=PASSWORD, **fields)
