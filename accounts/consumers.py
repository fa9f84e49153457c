"""``/ws/user/``: the signed-in player's own live channel (STYLE.md 3.7).

It pushes the header's coin balance (``accounts/_coin_balance.html``) and the bell with
the unread notifications (``notifications/_bell.html``) on connect, on a ``resync``
message and whenever either changes. It authorises, joins
``user-<id>``, re-reads the database and renders; no writes.
"""

from __future__ import annotations

import json
import time
from typing import Any

from django.conf import settings
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import trans_real

from accounts import realtime
from accounts.livesocket import LiveSocket, off_thread
from accounts.models import User

#: A client may ask for a fresh snapshot at most this often (seconds).
RESYNC_INTERVAL = 1.0


def viewer_language(scope: dict[str, Any]) -> str:
    """The interface language of the viewer's pages, decided as LocaleMiddleware does for
    HTTP: the language cookie, else Accept-Language, else the default."""
    cookie = scope.get("cookies", {}).get(settings.LANGUAGE_COOKIE_NAME)
    candidates = [cookie] if cookie else []
    headers = dict(scope.get("headers") or [])
    accept = headers.get(b"accept-language", b"").decode("latin-1")
    candidates += [code for code, _q in trans_real.parse_accept_lang_header(accept) if code != "*"]
    for code in candidates:
        try:
            return translation.get_supported_language_variant(code)
        except LookupError:
            continue
    return settings.LANGUAGE_CODE


def coin_balance_fragment(user_id: int, language: str) -> str:
    """``accounts/_coin_balance.html`` for the user's balance as the database has it now."""
    coins = User.objects.filter(pk=user_id).values_list("coins", flat=True).first() or 0
    with translation.override(language):
        return render_to_string("accounts/_coin_balance.html", {"coins": coins})


def bell_fragment(user_id: int, language: str) -> str:
    """The header's bell with the unread count as the database has it now. The template
    is the notification centre's; its count is read here, so accounts imports no app."""
    from django.apps import apps

    notification = apps.get_model("notifications", "Notification")
    count = notification.objects.filter(recipient_id=user_id, read_at__isnull=True).count()
    with translation.override(language):
        return render_to_string("notifications/_bell.html", {"count": count})


class UserConsumer(LiveSocket):
    last_resync = float("-inf")

    async def connect(self) -> None:
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.close()
            return
        self.language = viewer_language(self.scope)
        await self.join(realtime.user_group(user.pk))
        await self.accept()
        # A snapshot at once, so a page that reconnects is never left with an old balance.
        await self.push()

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """The only message a client may send: ``{"type": "resync"}``, at most once a second."""
        try:
            message = json.loads(text_data or "")
        except ValueError:
            return
        if not (isinstance(message, dict) and message.get("type") == "resync"):
            return
        now = time.monotonic()
        if now - self.last_resync >= RESYNC_INTERVAL:
            self.last_resync = now
            await self.push()

    async def balance_changed(self, event: dict[str, Any]) -> None:
        await self.push()

    async def notifications_changed(self, event: dict[str, Any]) -> None:
        await self.push()

    async def push(self) -> None:
        assert self.user_id is not None, "joined as a signed-in user (connect)"
        html = await off_thread(header_fragments)(self.user_id, self.language)
        await self.send(text_data=html)


def header_fragments(user_id: int, language: str) -> str:
    return coin_balance_fragment(user_id, language) + bell_fragment(user_id, language)
