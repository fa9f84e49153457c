"""Dictionaries: one per game language, and the moderated changes to its word list.

A language's word list is its built base graph (``fixtures/lexicons/<lang>.dawg``) plus
its approved ``WordChange`` rows. Every approval bumps ``Dictionary.version`` and stamps
the change with the version it produced, so "the list at version N" is the base graph
plus the approved changes with ``version <= N`` (see ``dictionaries/lexicons.py``).
Decided changes are never deleted: they are the moderation record.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models, transaction
from django.utils import timezone, translation
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from dictionaries import live
from dictionaries.graphs import base_graph
from engine.normalize import is_lexicon_length, normalize_word
from engine.tiles import LANGUAGES

#: Display names of the seven game languages (interface strings, so translated).
LANGUAGE_NAMES: dict[str, Promise] = {
    "en": _("English (US)"),
    "en-GB": _("English (UK)"),
    "es": _("Spanish"),
    "it": _("Italian"),
    "pt-BR": _("Portuguese (Brazil)"),
    "de": _("German"),
    "fr": _("French"),
}
LANGUAGE_CHOICES = [(code, LANGUAGE_NAMES[code]) for code in LANGUAGES]
#: The longest word a proposal may hold, typed or normalised (the columns' max_length).
MAX_WORD_LENGTH = 64


def language_name(code: str) -> str:
    return str(LANGUAGE_NAMES.get(code, code))


class Dictionary(models.Model):
    """The word list of one game language and its current version."""

    language = models.CharField(_("language"), max_length=8, unique=True, choices=LANGUAGE_CHOICES)
    version = models.PositiveIntegerField(
        _("version"), default=0, help_text=_("Bumped by every approved word change.")
    )
    graph_file = models.CharField(_("graph file"), max_length=100, help_text=_("In LEXICON_DIR."))
    word_count = models.PositiveIntegerField(_("words in the base graph"), default=0)
    updated_at = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        ordering = ["language"]
        verbose_name = _("dictionary")
        verbose_name_plural = _("dictionaries")

    def __str__(self) -> str:
        return language_name(self.language)

    def word_is_valid(self, word: str) -> bool:
        """Whether the normalised ``word`` is valid at the current version, read from the
        database (not the per-process lexicon cache): the latest approved change for the
        word decides, otherwise the base graph does. Used for decisions, under the lock."""
        last = (
            self.changes.filter(status=WordChange.Status.APPROVED, normalized=word)
            .order_by("-version", "-pk")
            .values_list("action", flat=True)
            .first()
        )
        if last is not None:
            return bool(last == WordChange.Action.ADD)
        return word in base_graph(self.language)


class WordChangeQuerySet(models.QuerySet["WordChange"]):
    def proposed(self) -> WordChangeQuerySet:
        return self.filter(status=WordChange.Status.PROPOSED)

    def approved_up_to(self, version: int) -> WordChangeQuerySet:
        """Approved changes that are part of the word list at ``version``."""
        return self.filter(status=WordChange.Status.APPROVED, version__lte=version)


class WordChange(models.Model):
    """A proposal to add a word to, or remove one from, a dictionary, and its decision."""

    class Action(models.TextChoices):
        ADD = "add", _("add")
        REMOVE = "remove", _("remove")

    class Status(models.TextChoices):
        PROPOSED = "proposed", _("proposed")
        APPROVED = "approved", _("approved")
        REJECTED = "rejected", _("rejected")

    dictionary = models.ForeignKey(
        Dictionary, on_delete=models.PROTECT, related_name="changes", verbose_name=_("dictionary")
    )
    word = models.CharField(_("word as typed"), max_length=MAX_WORD_LENGTH)
    normalized = models.CharField(
        _("normalised word"), max_length=MAX_WORD_LENGTH, db_index=True, editable=False
    )
    action = models.CharField(_("action"), max_length=8, choices=Action.choices)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.PROPOSED, editable=False
    )
    reason = models.TextField(_("reason"), blank=True)
    proposed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="proposed_word_changes",
        verbose_name=_("proposed by"),
        help_text=_("Empty for changes loaded by the system (the English additions)."),
    )
    proposed_at = models.DateTimeField(_("proposed"), default=timezone.now, editable=False)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="decided_word_changes",
        verbose_name=_("decided by"),
        editable=False,
    )
    decided_at = models.DateTimeField(_("decided"), null=True, blank=True, editable=False)
    decision_note = models.TextField(_("decision note"), blank=True, editable=False)
    version = models.PositiveIntegerField(
        _("version"),
        null=True,
        blank=True,
        editable=False,
        help_text=_("The dictionary version this approval produced."),
    )

    objects = WordChangeQuerySet.as_manager()

    class Meta:
        ordering = ["-proposed_at", "-pk"]
        verbose_name = _("word change")
        verbose_name_plural = _("word changes")
        indexes = [models.Index(fields=["dictionary", "status", "version"])]

    def __str__(self) -> str:
        return f"{self.get_action_display()} {self.normalized or self.word} ({self.dictionary_id and self.dictionary})"

    def delete(self, *args: Any, **kwargs: Any) -> tuple[int, dict[str, int]]:
        # Decisions are the moderation record: only an undecided proposal may go.
        if self.status != self.Status.PROPOSED:
            raise ValidationError(_("A decided word change cannot be deleted."), code="decided")
        return super().delete(*args, **kwargs)

    def clean(self) -> None:
        """Validate a new proposal (the admin's add form and the services call this)."""
        if self.pk is None and self.dictionary_id is not None and self.word and self.action:
            self.normalized = check_proposal(self.dictionary, self.word, self.action)

    def approve(self, *, by: Any) -> None:
        """Approve this proposal: the word becomes valid (add) or invalid (remove).

        One transaction: locks the ``Dictionary`` row with ``select_for_update`` (which
        serialises every decision and version bump of that language across processes),
        re-reads this change under the lock, checks it is still proposed and still
        applicable (``ValidationError`` otherwise, nothing changes), bumps
        ``Dictionary.version`` and records the decision with that version. After commit
        this process drops its cached live lexicon; other processes notice the new
        version within ``lexicons.LIVE_CHECK_SECONDS``.
        """
        self._decide(approve=True, by=by, note="")

    def reject(self, *, by: Any, reason: str = "") -> None:
        """Reject this proposal, recording who, when and why (``reason``).

        One transaction that locks the ``Dictionary`` row with ``select_for_update``
        like :meth:`approve`, so a change cannot be approved and rejected at once. A
        rejection changes no word, so it does not bump the version (pinned versions of
        the word list stay comparable). ``ValidationError`` if already decided.
        """
        self._decide(approve=False, by=by, note=reason)

    def _decide(self, *, approve: bool, by: Any, note: str) -> None:
        with transaction.atomic():
            dictionary = Dictionary.objects.select_for_update().get(pk=self.dictionary_id)
            change = WordChange.objects.select_for_update().get(pk=self.pk)
            if change.status != self.Status.PROPOSED:
                raise ValidationError(
                    _("“%(word)s” was already %(status)s."),
                    code="already_decided",
                    params={"word": change.word, "status": change.get_status_display()},
                )
            change.decided_by = by
            change.decided_at = timezone.now()
            change.decision_note = note
            if approve:
                # A proposal checked against an older word list may have become moot.
                check_applicable(dictionary, change.word, change.normalized, change.action)
                dictionary.version += 1
                dictionary.save(update_fields=["version", "updated_at"])
                change.status = self.Status.APPROVED
                change.version = dictionary.version
                transaction.on_commit(lambda: live.forget(dictionary.language))
            else:
                change.status = self.Status.REJECTED
            change.save(update_fields=["status", "decided_by", "decided_at", "decision_note", "version"])
            tell_proposers(change, dictionary)
        for field in ("status", "decided_by", "decided_at", "decision_note", "version"):
            setattr(self, field, getattr(change, field))


class WordSuggestion(models.Model):
    """One player's suggestion of a word: who, when, the game it came from, a source.

    Players suggest words to add; the first suggestion of a word makes the proposed
    ``WordChange``, and every later one (by another player) adds a row here instead of a
    second change, so the change's suggestions count how often it was asked for. Every
    suggester is told the decision. ``game_id`` is a plain number: dictionaries knows
    nothing of games.
    """

    change = models.ForeignKey(
        WordChange, on_delete=models.PROTECT, related_name="suggestions", verbose_name=_("word change")
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,  # accounts are anonymised, never deleted
        related_name="word_suggestions",
        verbose_name=_("suggested by"),
    )
    game_id = models.PositiveIntegerField(_("game"), null=True, blank=True)
    source_url = models.URLField(_("source"), max_length=500, blank=True)
    created_at = models.DateTimeField(_("suggested"), default=timezone.now, db_index=True)

    class Meta:
        verbose_name = _("word suggestion")
        verbose_name_plural = _("word suggestions")
        ordering = ["change", "created_at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["change", "user"], name="dictionaries_suggestion_once_per_player")
        ]

    def __str__(self) -> str:
        return f"{self.user_id} suggests {self.change_id}"


def tell_proposers(change: WordChange, dictionary: Dictionary) -> None:
    """Leave every player who suggested ``change`` a notice of the decision (inside the
    decision's transaction, so a decision and its notices are one)."""
    from accounts.models import Notice
    from accounts.notices import notify

    approved = change.status == WordChange.Status.APPROVED
    with translation.override("en"):
        # The English name is a message id: the notice is translated when it is shown.
        english_name = language_name(dictionary.language)
    for suggestion in change.suggestions.select_related("user"):
        notify(
            user=suggestion.user,
            kind=Notice.Kind.WORD_APPROVED if approved else Notice.Kind.WORD_REJECTED,
            word=change.normalized,
            language=english_name,
            version=change.version,
            reason=change.decision_note,
        )


def check_proposal(dictionary: Dictionary, word: str, action: str) -> str:
    """Return the normalised ``word`` when proposing ``action`` on it makes sense.

    Raises ``ValidationError`` when the word cannot be spelled in the language, is
    shorter than two letters, is already valid (add) or not valid (remove), or the same
    proposal is already open.
    """
    name = language_name(dictionary.language)
    normalized = normalize_word(dictionary.language, word)
    if normalized is None:
        raise ValidationError(
            _(
                "“%(word)s” cannot be a word in %(language)s: it has a character that is not a letter of that alphabet."
            ),
            code="not_normalisable",
            params={"word": word.strip(), "language": name},
        )
    if not is_lexicon_length(normalized):
        raise ValidationError(_("Words need at least two letters."), code="too_short")
    # Checked here, not only by the admin form: a pasted bulk list has no per-word field,
    # and normalising can lengthen a word (German ß -> SS). PostgreSQL refused the
    # insert with a DataError (a 500) before this check.
    if len(word.strip()) > MAX_WORD_LENGTH or len(normalized) > MAX_WORD_LENGTH:
        raise ValidationError(
            _("Words can have at most %(max)d letters."), code="too_long", params={"max": MAX_WORD_LENGTH}
        )
    check_applicable(dictionary, word, normalized, action)
    if dictionary.changes.proposed().filter(normalized=normalized, action=action).exists():
        raise ValidationError(
            _("“%(normalized)s” already has an open proposal to %(action)s it in %(language)s."),
            code="duplicate",
            params={"normalized": normalized, "action": WordChange.Action(action).label, "language": name},
        )
    return normalized


def check_applicable(dictionary: Dictionary, word: str, normalized: str, action: str) -> None:
    """``ValidationError`` when adding a valid word or removing one that is not valid."""
    valid = dictionary.word_is_valid(normalized)
    params = {"word": word.strip(), "normalized": normalized, "language": language_name(dictionary.language)}
    if action == WordChange.Action.ADD and valid:
        raise ValidationError(
            _("“%(word)s” (%(normalized)s) is already valid in %(language)s."),
            code="already_valid",
            params=params,
        )
    if action == WordChange.Action.REMOVE and not valid:
        raise ValidationError(
            _("“%(word)s” (%(normalized)s) is not valid in %(language)s, so it cannot be removed."),
            code="not_valid",
            params=params,
        )
