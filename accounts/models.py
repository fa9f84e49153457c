from __future__ import annotations

from typing import Any, ClassVar, NoReturn

from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.contrib.auth.models import UserManager as DjangoUserManager
from django.db import models
from django.db.models import Q
from django.db.models.functions import Lower
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.reasons import reason_label


class UserManager(DjangoUserManager["User"]):
    def get_by_natural_key(self, username: str | None) -> User:
        # Log-in is case-insensitive, matching the case-insensitive uniqueness below.
        return self.get(username__iexact=username)


class User(AbstractUser):
    """A player (or moderator, or organiser). Usernames are unique regardless of case.

    ``coins`` is the player's balance: only ``accounts.services`` changes it, in the
    same locked transaction as the ledger entry (``CoinEntry``) that explains it, so it
    always equals the sum of the player's entries and never goes below zero.
    """

    coins = models.PositiveIntegerField(_("coins"), default=0, editable=False)
    #: The UTC day of the last daily bonus (``None``: never had one).
    last_daily_bonus = models.DateField(_("last daily bonus"), null=True, blank=True, editable=False)

    objects: ClassVar[UserManager] = UserManager()

    class Meta:
        verbose_name = _("user")
        verbose_name_plural = _("users")
        permissions = [("adjust_coins", "Can grant or take coins")]
        constraints = [
            models.UniqueConstraint(Lower("username"), name="accounts_user_username_ci_unique"),
            models.CheckConstraint(condition=Q(coins__gte=0), name="accounts_user_coins_not_negative"),
        ]

    def __str__(self) -> str:
        return self.username


class AppendOnlyError(Exception):
    """A ledger entry was about to be changed or deleted: entries are never edited."""


class CoinEntryQuerySet(models.QuerySet["CoinEntry"]):
    """Reads only: bulk updates and deletes of ledger entries are refused."""

    def update(self, **kwargs: Any) -> NoReturn:
        raise AppendOnlyError("coin ledger entries are never updated")

    def delete(self) -> NoReturn:
        raise AppendOnlyError("coin ledger entries are never deleted")


class CoinEntry(models.Model):
    """One line of the coins ledger: append-only, never edited or deleted.

    ``amount`` is signed (earned and refunded coins are positive, spent coins
    negative); ``balance_after`` is the player's balance once this entry was applied.
    ``reason`` is a short code (``accounts.reasons``), ``reference`` an opaque string the
    caller chooses (``"game:42"``); the ledger knows nothing of games. A non-empty
    reference is unique per user and reason, which makes a retried grant or purchase
    harmless. Create entries only through ``accounts.services``.
    """

    class Kind(models.TextChoices):
        EARNED = "earned", _("earned")
        SPENT = "spent", _("spent")
        REFUNDED = "refunded", _("refunded")
        ADJUSTED = "adjusted", _("adjusted by staff")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,  # accounts are anonymised, never deleted with their entries
        related_name="coin_entries",
        verbose_name=_("user"),
    )
    kind = models.CharField(_("kind"), max_length=10, choices=Kind.choices)
    amount = models.IntegerField(_("amount"))
    balance_after = models.PositiveIntegerField(_("balance after"))
    reason = models.CharField(_("reason"), max_length=40)
    reference = models.CharField(_("reference"), max_length=100, blank=True)
    note = models.CharField(_("note"), max_length=200, blank=True)
    refund_of = models.OneToOneField(
        "self",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="refund",
        verbose_name=_("refund of"),
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("by"),
    )
    created_at = models.DateTimeField(_("time"), default=timezone.now, db_index=True)

    objects = CoinEntryQuerySet.as_manager()

    class Meta:
        verbose_name = _("coin entry")
        verbose_name_plural = _("coin entries")
        ordering = ["-created_at", "-pk"]
        indexes = [models.Index(fields=["user", "-created_at"], name="accounts_coin_user_time")]
        constraints = [
            models.CheckConstraint(condition=~Q(amount=0), name="accounts_coinentry_amount_not_zero"),
            models.CheckConstraint(
                condition=(Q(kind="earned") & Q(amount__gt=0))
                | (Q(kind="spent") & Q(amount__lt=0))
                | (Q(kind="refunded") & Q(amount__gt=0) & Q(refund_of__isnull=False))
                | Q(kind="adjusted"),
                name="accounts_coinentry_sign_matches_kind",
            ),
            models.UniqueConstraint(
                fields=["user", "reason", "reference"],
                # A refund repeats its purchase's reference; refund_of keeps it to one.
                condition=~Q(reference="") & ~Q(kind="refunded"),
                name="accounts_coinentry_unique_reference",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} {self.amount:+d} {self.reason}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self._state.adding:
            raise AppendOnlyError("coin ledger entries are never edited")
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise AppendOnlyError("coin ledger entries are never deleted")

    @property
    def label(self) -> str:
        """The statement's words for this entry, translated (a refund names what it refunds)."""
        if self.refund_of is not None:
            return f"{reason_label(self.reason)}: {reason_label(self.refund_of.reason)}"
        return reason_label(self.reason)
