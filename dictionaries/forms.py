"""Forms of the look-up page and the moderators' admin pages."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from dictionaries.models import LANGUAGE_CHOICES, WordChange

MAX_BULK_WORDS = 500


class LookupForm(forms.Form):
    word = forms.CharField(label=_("Word"), max_length=64, required=False, strip=True)
    language = forms.ChoiceField(label=_("Language"), choices=LANGUAGE_CHOICES, initial="en", required=False)

    def clean_language(self) -> str:
        # An empty or missing choice means the default, so a bare /words/?word=x works.
        return self.cleaned_data.get("language") or "en"


class BulkProposeForm(forms.Form):
    language = forms.ChoiceField(label=_("Language"), choices=LANGUAGE_CHOICES)
    action = forms.ChoiceField(label=_("Action"), choices=WordChange.Action.choices)
    words = forms.CharField(
        label=_("Words"),
        widget=forms.Textarea(attrs={"rows": 12, "cols": 40}),
        help_text=_("One word per line (commas also separate words)."),
    )
    reason = forms.CharField(
        label=_("Reason"), widget=forms.Textarea(attrs={"rows": 2, "cols": 60}), required=False
    )

    def clean_words(self) -> list[str]:
        from dictionaries.services import split_word_list

        words = split_word_list(self.cleaned_data["words"])
        if not words:
            raise forms.ValidationError(_("Paste at least one word."))
        if len(words) > MAX_BULK_WORDS:
            raise forms.ValidationError(
                _("At most %(max)d words at once."), params={"max": MAX_BULK_WORDS}, code="too_many"
            )
        return words


class RejectForm(forms.Form):
    reason = forms.CharField(
        label=_("Reason for the rejection"),
        widget=forms.Textarea(attrs={"rows": 3, "cols": 60}),
        required=False,
    )


class SuggestForm(forms.Form):
    """A player suggests a word to add (``services.suggest_word`` checks the word)."""

    word = forms.CharField(label=_("Word"), max_length=64, strip=True)
    language = forms.ChoiceField(label=_("Language"), choices=LANGUAGE_CHOICES)
    source_url = forms.URLField(
        label=_("Source (optional)"),
        max_length=500,
        required=False,
        assume_scheme="https",
        help_text=_("A dictionary page that lists the word helps the moderators decide."),
    )
    game = forms.IntegerField(widget=forms.HiddenInput, required=False, min_value=1)
