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
from typing import Any

from django.apps import apps as global_apps
from django.apps.registry import Apps
from django.core.exceptions import ValidationError

from dictionaries.graphs import base_graph, graph_file_name, graph_path
from dictionaries.models import Dictionary, WordChange, check_proposal
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
