"""Log-in by a username an account had before it was renamed (migration ``0008``).

A renamed player does not know their new name until they are told, and they are told at
their next log-in: so the old name and the account's own password still sign them in, and
the log-in shows the new name (``accounts.apps.tell_renames``). The old name now belongs to
the older account, which keeps signing in with it through the ordinary backend first.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.backends import ModelBackend
from django.http import HttpRequest

from accounts.models import User, UsernameRename
from accounts.names import username_key


class RenamedUsernameBackend(ModelBackend):
    def authenticate(
        self,
        request: HttpRequest | None,
        username: str | None = None,
        password: str | None = None,
        **kwargs: Any,
    ) -> User | None:
        if not username or password is None:
            return None
        key = username_key(username)
        # Renames are a handful of rows made once; folding them here beats storing a key.
        for rename in UsernameRename.objects.select_related("user"):
            user = rename.user
            if username_key(rename.old_username) == key and user.check_password(password):
                return user if self.user_can_authenticate(user) else None
        return None
