"""Dictionary workflows: setting the dictionaries up, and proposing word changes.

Decisions (approve / reject) are model methods on ``WordChange``; this module holds the
workflows that create rows: ``ensure_dictionaries`` (run by ``manage.py setup_site``),
``propose_change`` and ``propose_changes`` (the admin's add form and bulk-propose page).
The project's curated English additions are part of the built ``en`` graph
(``dictionaries/wordlists.py``), not moderated changes.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from django.apps import apps as global_apps
from django.apps.registry import Apps
from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.services import lock_users
from dictionaries.graphs import base_graph, graph_file_name, graph_path
from dictionaries.models import (
    MAX_WORD_LENGTH,
    Dictionary,
    WordChange,
    WordSuggestion,
    check_applicable,
    check_proposal,
    language_name,
)
from engine.normalize import is_lexicon_length, normalize_word
from engine.tiles import LANGUAGES

MODERATORS_GROUP = "Moderators"
#: Exactly what a moderator needs: see and search the changes and dictionaries, propose
#: (add), and approve/reject (admin actions require "change"). No delete: decisions stay.
MODERATOR_PERMISSIONS = (
    ("wordchange", "view_wordchange"),
    ("wordchange", "add_wordchange"),
    ("wordchange", "change_wordchange"),
    ("dictionary", "view_dictionary"),
)


@dataclass
class BulkProposal:
    """What a bulk proposal did: the changes created and the words refused, with why."""

    created: list[WordChange] = field(default_factory=list)
    refused: list[tuple[str, str]] = field(default_factory=list)


def dictionary_for(language: str) -> Dictionary:
    """The ``Dictionary`` row of ``language``, created (version 0) if missing."""
    if language not in LANGUAGES:
        raise ValidationError(f"Unknown game language {language!r}.", code="unknown_language")
    dictionary, _ = Dictionary.objects.get_or_create(
        language=language,
        defaults={"graph_file": graph_file_name(language), "word_count": _word_count(language)},
    )
    return dictionary


def propose_change(
    *, language: str, word: str, action: str, proposed_by: Any, reason: str = ""
) -> WordChange:
    """Record a proposal to add or remove ``word``; ``ValidationError`` when it makes no
    sense (see ``models.check_proposal``)."""
    dictionary = dictionary_for(language)
    normalized = check_proposal(dictionary, word, action)
    return WordChange.objects.create(
        dictionary=dictionary,
        word=word.strip(),
        normalized=normalized,
        action=action,
        reason=reason,
        proposed_by=proposed_by,
    )


def suggest_word(
    *, user: Any, language: str, word: str, game_id: int | None = None, source_url: str = ""
) -> WordSuggestion:
    """A player suggests adding ``word`` to ``language``'s list.

    The first suggestion makes a proposed ``WordChange``; a later one by another player
    joins it (one more ``WordSuggestion``), so the moderators see one row with a count.
    Refused (``ValidationError``, nothing changes) when the word cannot be spelled in the
    language, is too short or too long, is already valid, when this player suggested it
    already, or past ``WORD_SUGGESTIONS_PER_DAY`` suggestions in 24 hours. One
    transaction: the player's row is locked (the daily limit), then the dictionary's
    (two first suggestions of one word at once make one change; decisions lock it too).
    """
    dictionary = dictionary_for(language)
    normalized = normalize_word(language, word)
    if normalized is None:
        raise ValidationError(
            _(
                "“%(word)s” cannot be a word in %(language)s: it has a character that is not a letter of that alphabet."
            ),
            code="not_normalisable",
            params={"word": word.strip(), "language": language_name(language)},
        )
    if not is_lexicon_length(normalized):
        raise ValidationError(_("Words need at least two letters."), code="too_short")
    if len(word.strip()) > MAX_WORD_LENGTH or len(normalized) > MAX_WORD_LENGTH:
        raise ValidationError(
            _("Words can have at most %(max)d letters."), code="too_long", params={"max": MAX_WORD_LENGTH}
        )
    with transaction.atomic():
        lock_users(user)
        since = timezone.now() - timedelta(days=1)
        limit = int(settings.WORD_SUGGESTIONS_PER_DAY)
        if WordSuggestion.objects.filter(user=user, created_at__gte=since).count() >= limit:
            raise ValidationError(
                _("You can suggest at most %(limit)d words a day. Try again tomorrow."),
                code="too_many_suggestions",
                params={"limit": limit},
            )
        dictionary = Dictionary.objects.select_for_update().get(pk=dictionary.pk)
        check_applicable(dictionary, word, normalized, WordChange.Action.ADD)
        change = (
            dictionary.changes.proposed().filter(normalized=normalized, action=WordChange.Action.ADD).first()
        )
        if change is None:
            change = WordChange.objects.create(
                dictionary=dictionary,
                word=word.strip(),
                normalized=normalized,
                action=WordChange.Action.ADD,
                proposed_by=user,
            )
        elif change.suggestions.filter(user=user).exists():
            raise ValidationError(
                _("You already suggested “%(word)s”: the moderators will decide."),
                code="already_suggested",
                params={"word": normalized},
            )
        return WordSuggestion.objects.create(
            change=change, user=user, game_id=game_id, source_url=source_url.strip()
        )


def split_word_list(text: str) -> list[str]:
    """A pasted list: one entry per line (commas and semicolons also separate)."""
    return [w.strip() for w in re.split(r"[\n\r,;]+", text) if w.strip()]


def propose_changes(
    *, language: str, words: Iterable[str], action: str, proposed_by: Any, reason: str = ""
) -> BulkProposal:
    """One proposal per word; the words that cannot be proposed are listed with the reason."""
    result = BulkProposal()
    for word in words:
        try:
            change = propose_change(
                language=language, word=word, action=action, proposed_by=proposed_by, reason=reason
            )
        except ValidationError as error:
            result.refused.append((word, " ".join(error.messages)))
        else:
            result.created.append(change)
    return result


def ensure_dictionaries() -> list[str]:
    """Create the seven dictionaries (recording their base graphs' word counts) and the
    Moderators group.

    Idempotent: a second run changes nothing. Returns what it did, as lines for
    ``manage.py setup_site``. The curated English additions are in the built ``en``
    graph; a database that loaded them as approved changes before keeps those rows
    (the moderation record), which add nothing to the graph.
    """
    lines: list[str] = []
    for language in LANGUAGES:
        count = _word_count(language)
        if not graph_path(language).exists():
            lines.append(
                f"Dictionary {language}: no built graph at {graph_path(language)} (run import_wordlist)"
            )
        dictionary, created = Dictionary.objects.get_or_create(
            language=language, defaults={"graph_file": graph_file_name(language), "word_count": count}
        )
        if created:
            lines.append(f"Dictionary {language}: created ({count} words in the base graph)")
        elif (dictionary.graph_file, dictionary.word_count) != (graph_file_name(language), count):
            dictionary.graph_file, dictionary.word_count = graph_file_name(language), count
            dictionary.save(update_fields=["graph_file", "word_count", "updated_at"])
            lines.append(f"Dictionary {language}: base graph now has {count} words")
    lines += ensure_moderators_group()
    return lines


def ensure_moderators_group(apps: Apps = global_apps) -> list[str]:
    """Give the "Moderators" group exactly the dictionaries permissions it needs.

    Permissions of other apps in the group are left alone, so other apps may grant their
    own. ``apps`` is the app registry (a migration passes its historical one).
    """
    group_model = apps.get_model("auth", "Group")
    permission_model = apps.get_model("auth", "Permission")
    group, created = group_model.objects.get_or_create(name=MODERATORS_GROUP)
    wanted = {
        permission_model.objects.get(
            content_type__app_label="dictionaries", content_type__model=model, codename=codename
        )
        for model, codename in MODERATOR_PERMISSIONS
    }
    current = set(group.permissions.filter(content_type__app_label="dictionaries"))
    if current == wanted:
        return [] if not created else [f"Group {MODERATORS_GROUP}: created"]
    group.permissions.remove(*(current - wanted))
    group.permissions.add(*(wanted - current))
    return [f"Group {MODERATORS_GROUP}: {'created' if created else 'permissions set'}"]


def _word_count(language: str) -> int:
    try:
        return base_graph(language).word_count
    except FileNotFoundError:
        return 0
