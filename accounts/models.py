from __future__ import annotations

import zlib
from datetime import datetime
from typing import Any, ClassVar, NoReturn

from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.contrib.auth.models import UserManager as DjangoUserManager
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.db import models
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext

from accounts import glicko2
from accounts.names import username_key, validate_name
from accounts.reasons import reason_label


def bot_label(name: str) -> str:
    """``name`` marked as a bot's, e.g. "wordbot (bot)"."""
    return pgettext("a bot's name", "%(name)s (bot)") % {"name": name}


class UserManager(DjangoUserManager["User"]):
    def get_by_natural_key(self, username: str | None) -> User:
        # Log-in finds the account by the same key that keeps usernames unique.
        return self.get(username_key=username_key(username or ""))

    def named(self, name: str) -> models.QuerySet[User]:
        """The account called ``name``, whatever its case or Unicode form (at most one)."""
        return self.filter(username_key=username_key(name.strip()))


class User(AbstractUser):
    """A player (or moderator, or organiser). Usernames are unique regardless of case, in
    every alphabet: ``username_key`` (``accounts.names.username_key``: NFKC and case folding)
    is derived from the username on every save and is unique in the database.

    ``coins`` is the player's balance: only ``accounts.services`` changes it, in the
    same locked transaction as the ledger entry (``CoinEntry``) that explains it, so it
    always equals the sum of the player's entries and never goes below zero.
    """

    username = models.CharField(
        _("username"),
        max_length=150,
        unique=True,
        help_text=_("Required. 150 characters or fewer. Letters, digits and @/./+/-/_ only."),
        validators=[UnicodeUsernameValidator(), validate_name],
        error_messages={"unique": _("A user with that username already exists.")},
    )
    # Case folding can lengthen a name (ß → ss, ﬃ → ffi): room for three times as long.
    username_key = models.CharField(_("username key"), max_length=450, unique=True, editable=False)
    coins = models.PositiveIntegerField(_("coins"), default=0, editable=False)
    #: The UTC day of the last daily bonus (``None``: never had one).
    last_daily_bonus = models.DateField(_("last daily bonus"), null=True, blank=True, editable=False)
    display_name = models.CharField(
        _("display name"),
        max_length=40,
        blank=True,
        help_text=_("Shown on your profile; optional."),
        validators=[validate_name],
    )
    # A game language code (engine.LANGUAGES) and an interface language code (settings.LANGUAGES).
    game_language = models.CharField(_("preferred game language"), max_length=8, blank=True)
    interface_language = models.CharField(_("interface language"), max_length=8, blank=True)
    # Set when the account was deleted: the row stays, anonymised, for the games it played.
    deleted_at = models.DateTimeField(_("deleted"), null=True, blank=True)
    # Set for good when the player marks one of their API tokens as a bot's: the account
    # is labelled "bot" wherever its name shows and plays rated games only against bots.
    is_bot = models.BooleanField(_("bot"), default=False, editable=False)
    # The player's own choice: off, they neither see nor write chat lines.
    chat_enabled = models.BooleanField(
        _("chat"), default=True, help_text=_("Show the chat in your games and let you write in it.")
    )

    # An IANA name ("Europe/Stockholm"); notifications and mails give times in it.
    time_zone = models.CharField(_("time zone"), max_length=64, blank=True)
    # The address the player confirmed through the signed link (notifications.emails);
    # mail goes only to ``email`` while it equals this, so changing the address unverifies it.
    verified_email = models.EmailField(_("verified e-mail address"), blank=True, editable=False)
    # Quiet hours in the player's time zone (start and end hour, 0-23; none: no quiet
    # hours): push notifications that are not urgent wait until they end.
    quiet_hours_start = models.PositiveSmallIntegerField(_("quiet hours from"), null=True, blank=True)
    quiet_hours_end = models.PositiveSmallIntegerField(_("quiet hours until"), null=True, blank=True)

    objects: ClassVar[UserManager] = UserManager()

    class Meta:
        verbose_name = _("user")
        verbose_name_plural = _("users")
        permissions = [("adjust_coins", "Can grant or take coins")]
        constraints = [
            models.CheckConstraint(condition=Q(coins__gte=0), name="accounts_user_coins_not_negative"),
        ]

    def __str__(self) -> str:
        return self.username

    def save(self, *args: Any, **kwargs: Any) -> None:
        # The key is the username's shadow, not a workflow: it must follow every write of
        # the username, whoever makes it (sign-up, the admin, anonymisation, a rename).
        self.username_key = username_key(self.username)
        update_fields = kwargs.get("update_fields")
        if update_fields is not None and "username" in update_fields:
            kwargs["update_fields"] = {*update_fields, "username_key"}
        super().save(*args, **kwargs)

    @property
    def shown_name(self) -> str:
        """The display name, or the username when there is none; a bot says it is one."""
        name = self.display_name or self.username
        return bot_label(name) if self.is_bot else name

    @property
    def avatar_initial(self) -> str:
        return (self.shown_name[:1] or "?").upper()

    @property
    def avatar_index(self) -> int:
        """Which of the ``AVATAR_COLOURS`` is this player's (the CSS class ``avatar-cN``)."""
        return zlib.crc32(str(self.pk).encode()) % len(AVATAR_COLOURS)

    @property
    def avatar_colour(self) -> str:
        """A colour of its own per player, stable across renames (it follows the id)."""
        return AVATAR_COLOURS[self.avatar_index]


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


#: Avatar backgrounds; white initials on each keep a contrast of at least 4.5:1 (WCAG AA).
AVATAR_COLOURS = ("#1d4ed8", "#b91c1c", "#15803d", "#7c3aed", "#c2410c", "#0f766e", "#be185d", "#4d5b6b")


class Friendship(models.Model):
    """A friend request from ``from_user`` to ``to_user``; accepted, they are friends both ways."""

    class Status(models.TextChoices):
        PENDING = "pending", _("Pending")
        ACCEPTED = "accepted", _("Accepted")

    from_user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    to_user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.PENDING)
    created_at = models.DateTimeField(_("asked"), auto_now_add=True)
    accepted_at = models.DateTimeField(_("accepted"), null=True, blank=True)

    class Meta:
        verbose_name = _("friendship")
        verbose_name_plural = _("friendships")
        constraints = [
            models.UniqueConstraint(fields=["from_user", "to_user"], name="accounts_friendship_unique"),
            models.CheckConstraint(condition=~Q(from_user=F("to_user")), name="accounts_friendship_not_self"),
        ]

    def __str__(self) -> str:
        return f"{self.from_user_id} -> {self.to_user_id} ({self.status})"


class Block(models.Model):
    """``blocker`` blocked ``blocked``: no chat lines, invitations or random pairings between them."""

    blocker = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    blocked = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(_("blocked at"), auto_now_add=True)

    class Meta:
        verbose_name = _("block")
        verbose_name_plural = _("blocks")
        constraints = [
            models.UniqueConstraint(fields=["blocker", "blocked"], name="accounts_block_unique"),
            models.CheckConstraint(condition=~Q(blocker=F("blocked")), name="accounts_block_not_self"),
        ]

    def __str__(self) -> str:
        return f"{self.blocker_id} blocks {self.blocked_id}"


class Report(models.Model):
    """A player reported by another, waiting in the moderators' queue until resolved."""

    class Reason(models.TextChoices):
        CHEATING = "cheating", _("Cheating (outside help)")
        ABUSE = "abuse", _("Abusive chat or harassment")
        NAME = "name", _("Offensive name or profile")
        STALLING = "stalling", _("Stalling or abandoning games")
        OTHER = "other", _("Something else")

    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="reports_made"
    )
    reported = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="reports")
    reason = models.CharField(_("reason"), max_length=10, choices=Reason.choices)
    details = models.TextField(_("details"), max_length=1000, blank=True)
    # The game it happened in, if any (a plain number: accounts knows nothing of games).
    game_id = models.PositiveIntegerField(_("game"), null=True, blank=True)
    created_at = models.DateTimeField(_("reported at"), auto_now_add=True)
    resolved = models.BooleanField(_("resolved"), default=False, db_index=True)
    resolved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    resolved_at = models.DateTimeField(_("resolved at"), null=True, blank=True)
    moderator_note = models.TextField(_("moderator's note"), blank=True)
    # Filed by the site itself (no reporter): the fair-play review of rated games
    # (games.moderation.review_fair_play), for one game language, with the figures that
    # crossed its thresholds. At most one such report is open per player and language.
    by_system = models.BooleanField(_("filed by the system"), default=False)
    language = models.CharField(_("game language"), max_length=8, blank=True)
    figures = models.JSONField(_("figures"), default=dict, blank=True)

    class Meta:
        verbose_name = _("report")
        verbose_name_plural = _("reports")
        ordering = ["resolved", "created_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["reported", "language"],
                condition=Q(by_system=True, resolved=False),
                name="accounts_report_one_open_system_report",
            )
        ]

    def __str__(self) -> str:
        return f"#{self.pk} {self.reported} ({self.reason})"


#: The speeds a rating is kept for (a game's pace, ``games.pace``): live and
#: correspondence games are rated apart.
CORRESPONDENCE, LIVE = "correspondence", "live"
RATING_SPEEDS = [(CORRESPONDENCE, _("Correspondence")), (LIVE, _("Live"))]


class Rating(models.Model):
    """A player's Glicko-2 rating in one game language at one speed (live or
    correspondence; see ``accounts.glicko2``)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings")
    language = models.CharField(_("game language"), max_length=8)
    speed = models.CharField(_("speed"), max_length=16, choices=RATING_SPEEDS, default=CORRESPONDENCE)
    rating = models.FloatField(_("rating"), default=glicko2.DEFAULT_RATING)
    deviation = models.FloatField(_("rating deviation"), default=glicko2.DEFAULT_DEVIATION)
    volatility = models.FloatField(_("volatility"), default=glicko2.DEFAULT_VOLATILITY)
    games = models.PositiveIntegerField(_("rated games"), default=0)
    # The last rated game: the leaderboard lists players active lately, and the
    # deviation grows with the time since.
    last_played_at = models.DateTimeField(_("last rated game"), null=True, blank=True, db_index=True)

    class Meta:
        verbose_name = _("rating")
        verbose_name_plural = _("ratings")
        constraints = [
            models.UniqueConstraint(fields=["user", "language", "speed"], name="accounts_rating_unique_speed")
        ]

    def __str__(self) -> str:
        return f"{self.user_id} {self.language} {self.speed} {self.rating:.0f}"

    def as_glicko(self) -> glicko2.Rating:
        return glicko2.Rating(self.rating, self.deviation, self.volatility)


class RatingChange(models.Model):
    """One rated result applied to a rating: the rating history, one row per player per game."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    language = models.CharField(_("game language"), max_length=8)
    speed = models.CharField(_("speed"), max_length=16, choices=RATING_SPEEDS, default=CORRESPONDENCE)
    opponent = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    score = models.FloatField(_("score"))
    rating_before = models.FloatField(_("rating before"))
    rating_after = models.FloatField(_("rating after"))
    deviation_after = models.FloatField(_("deviation after"))
    volatility_after = models.FloatField(_("volatility after"))
    # What was rated, opaque to accounts ("game:42"); a second call with it changes nothing.
    reference = models.CharField(_("reference"), max_length=40)
    created_at = models.DateTimeField(_("rated at"))

    class Meta:
        verbose_name = _("rating change")
        verbose_name_plural = _("rating changes")
        ordering = ["user", "language", "created_at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["user", "reference"], name="accounts_ratingchange_unique_ref")
        ]

    def __str__(self) -> str:
        return f"{self.user_id} {self.language} {self.rating_before:.0f} -> {self.rating_after:.0f}"


class VacationPeriod(models.Model):
    """A vacation: the player's inactivity clocks stand still from ``started_at`` until
    ``ended_at`` (they came back) or ``ends_by`` (the year's allowance ran out)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="vacations")
    started_at = models.DateTimeField(_("started"))
    ends_by = models.DateTimeField(_("ends at the latest"))
    ended_at = models.DateTimeField(_("ended"), null=True, blank=True)

    class Meta:
        verbose_name = _("vacation")
        verbose_name_plural = _("vacations")
        ordering = ["user", "started_at"]
        constraints = [
            models.CheckConstraint(condition=Q(ends_by__gte=F("started_at")), name="accounts_vacation_order")
        ]

    def __str__(self) -> str:
        return f"{self.user_id} {self.started_at:%Y-%m-%d}"

    @property
    def effective_end(self) -> datetime:
        """When the clocks start again: the earlier of coming back and the allowance's end."""
        return min(self.ended_at, self.ends_by) if self.ended_at is not None else self.ends_by


class ModerationActionQuerySet(models.QuerySet["ModerationAction"]):
    """Reads only: the moderation log is never updated or deleted in bulk."""

    def update(self, **kwargs: Any) -> NoReturn:
        raise AppendOnlyError("moderation actions are never updated")

    def delete(self) -> NoReturn:
        raise AppendOnlyError("moderation actions are never deleted")

    def in_force(self, kind: str, now: datetime | None = None) -> ModerationActionQuerySet:
        """Mutes or suspensions (``kind``) that have not ended yet: each ends on its own."""
        return self.filter(kind=kind, until__gt=now or timezone.now())


class ModerationAction(models.Model):
    """One thing a moderator did to a player: append-only, never edited or deleted.

    Who (``moderator``), whom (``subject``), what (``kind``), why (``reason``) and, for
    a mute or a suspension, until when (``until``: it ends on its own then). ``game_id``
    and ``chat_message_id`` are plain numbers (accounts knows nothing of games). When an
    account is deleted its row stays, anonymised, so the log keeps its entries. Made only
    through ``accounts.moderation``.
    """

    class Kind(models.TextChoices):
        HIDE_CHAT = "hide_chat", _("chat line hidden")
        MUTE = "mute", _("chat muted")
        SUSPEND = "suspend", _("suspended from new games")
        WARN = "warn", _("warned")
        REPORT_RESOLVED = "report_resolved", _("report dealt with")

    moderator = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name=_("moderator")
    )
    subject = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="moderation_actions",
        verbose_name=_("player"),
    )
    kind = models.CharField(_("action"), max_length=20, choices=Kind.choices)
    reason = models.TextField(_("reason"), max_length=1000)
    until = models.DateTimeField(_("until"), null=True, blank=True)
    game_id = models.PositiveIntegerField(_("game"), null=True, blank=True)
    chat_message_id = models.PositiveIntegerField(_("chat line"), null=True, blank=True)
    report = models.ForeignKey(
        Report, on_delete=models.PROTECT, null=True, blank=True, related_name="+", verbose_name=_("report")
    )
    created_at = models.DateTimeField(_("time"), default=timezone.now, db_index=True)

    objects = ModerationActionQuerySet.as_manager()

    class Meta:
        verbose_name = _("moderation action")
        verbose_name_plural = _("moderation actions")
        ordering = ["-created_at", "-pk"]
        indexes = [models.Index(fields=["subject", "kind", "until"], name="accounts_modaction_in_force")]
        permissions = [("moderate_players", "Can hide chat lines, mute, suspend and warn players")]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} {self.subject_id} by {self.moderator_id}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self._state.adding:
            raise AppendOnlyError("moderation actions are never edited")
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise AppendOnlyError("moderation actions are never deleted")


class Notice(models.Model):
    """A message for one player, shown on every page they open until they acknowledge
    it: a moderator's warning, a mute or suspension, the outcome of a word they
    suggested or of a report they made. ``params`` fill the kind's sentence, which is
    translated when shown (``accounts.notices``)."""

    class Kind(models.TextChoices):
        WARNING = "warning", _("warning")
        MUTED = "muted", _("chat muted")
        SUSPENDED = "suspended", _("suspended")
        REPORT_RESOLVED = "report_resolved", _("report dealt with")
        WORD_APPROVED = "word_approved", _("word approved")
        WORD_REJECTED = "word_rejected", _("word rejected")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notices", verbose_name=_("player")
    )
    kind = models.CharField(_("kind"), max_length=20, choices=Kind.choices)
    params = models.JSONField(_("details"), default=dict)
    created_at = models.DateTimeField(_("time"), default=timezone.now)
    acknowledged_at = models.DateTimeField(_("acknowledged"), null=True, blank=True)

    class Meta:
        verbose_name = _("notice")
        verbose_name_plural = _("notices")
        ordering = ["created_at", "pk"]
        indexes = [models.Index(fields=["user", "acknowledged_at"], name="accounts_notice_open")]

    def __str__(self) -> str:
        return f"{self.user_id} {self.kind}"


class UsernameRename(models.Model):
    """An account renamed because its name clashed with an older one once usernames became
    unique regardless of case in every alphabet (migration ``0008``). Never merged, never
    deleted: the newer account got a number appended. The owner is told at their next log-in
    (``told_at``), and staff see every rename in the admin."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="renames", verbose_name=_("user")
    )
    old_username = models.CharField(_("old username"), max_length=150)
    new_username = models.CharField(_("new username"), max_length=150)
    #: The older account that kept the name.
    kept_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        related_name="+",
        verbose_name=_("kept by"),
    )
    renamed_at = models.DateTimeField(_("renamed at"))
    told_at = models.DateTimeField(_("owner told at"), null=True, blank=True)

    class Meta:
        verbose_name = _("username rename")
        verbose_name_plural = _("username renames")
        ordering = ["-renamed_at", "pk"]

    def __str__(self) -> str:
        return f"{self.old_username} → {self.new_username}"
