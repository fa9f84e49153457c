"""Personal API tokens, stored hashed.

A token is shown once, when it is created; the database keeps only its SHA-256 (a token
is 256 random bits, so a fast hash is enough: there is nothing to guess from it) and a
short prefix so its owner can tell tokens apart on ``/accounts/tokens/``.
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import models, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

#: Every token starts with this, so a leaked one is easy to recognise (and to scan for).
TOKEN_PREFIX = "wg_"
#: How many characters of a token are kept in clear to tell tokens apart.
SHOWN_CHARS = 8
#: ``last_used_at`` is written at most this often per token (not on every request).
LAST_USED_RESOLUTION = timedelta(minutes=1)


def hash_token(raw: str) -> str:
    return hashlib.sha256(raw.encode("utf-8", "surrogatepass")).hexdigest()


class ApiToken(models.Model):
    """A personal token: ``Authorization: Bearer <token>`` acts as its user."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens")
    name = models.CharField(_("name"), max_length=100)
    key_hash = models.CharField(_("SHA-256 of the token"), max_length=64, unique=True)
    prefix = models.CharField(_("first characters"), max_length=16)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    last_used_at = models.DateTimeField(_("last used"), null=True, blank=True)
    # A bot's token: issuing one makes its account a bot for good (``User.is_bot``).
    is_bot = models.BooleanField(_("bot"), default=False, editable=False)

    class Meta:
        verbose_name = _("API token")
        verbose_name_plural = _("API tokens")
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return f"{self.user} / {self.name} ({self.prefix}…)"

    @classmethod
    def issue(cls, user: Any, name: str, *, bot: bool = False) -> tuple[ApiToken, str]:
        """A new token for ``user``: the row, and the token itself (shown once, never stored).

        ``bot``: the token is a bot's, and so is the account from now on (labelled
        "bot" wherever its name shows, rated games only against other bots, as Lichess's
        BOT accounts); the token and the account's mark are one transaction."""
        raw = TOKEN_PREFIX + secrets.token_urlsafe(32)
        with transaction.atomic():
            token = cls.objects.create(
                user=user,
                name=name,
                key_hash=hash_token(raw),
                prefix=raw[: len(TOKEN_PREFIX) + SHOWN_CHARS],
                is_bot=bot,
            )
            if bot and not user.is_bot:
                # The model, not type(user): a request's user is a lazy proxy.
                get_user_model().objects.filter(pk=user.pk).update(is_bot=True)
                user.is_bot = True
        return token, raw

    @classmethod
    def find(cls, raw: str) -> ApiToken | None:
        """The token ``raw`` stands for, if it exists and its user is active."""
        if not raw.startswith(TOKEN_PREFIX) or len(raw) > 100:
            return None
        token = cls.objects.select_related("user").filter(key_hash=hash_token(raw)).first()
        if token is None or not token.user.is_active:
            return None
        return token

    def touch(self, now: Any = None) -> None:
        """Record a use, at most once per ``LAST_USED_RESOLUTION`` (one conditional UPDATE)."""
        now = now or timezone.now()
        if self.last_used_at is not None and now - self.last_used_at < LAST_USED_RESOLUTION:
            return
        ApiToken.objects.filter(pk=self.pk).update(last_used_at=now)
        self.last_used_at = now
