"""Forms for the tournament pages: they validate input; services decide."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django import forms
from django.contrib.auth import get_user_model
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

import engine
from dictionaries.models import language_name
from games.forms import challenge_rule_field, preset_field
from tournaments.models import Pairing, RatingBody, Tournament

REASON_MAX = 300


def rating_caps(text: str) -> list[int]:
    """ "1600, 1300" as [1600, 1300]; anything else is a form error."""
    caps = [part.strip() for part in text.split(",") if part.strip()]
    if not all(c.isdigit() and 0 < int(c) <= 4000 for c in caps):
        raise forms.ValidationError(_("Write rating caps as whole numbers separated by commas."))
    return [int(c) for c in caps]


class TournamentForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=100)
    language = forms.ChoiceField(label=_("Game language"))
    system = forms.ChoiceField(label=_("Pairing system"), choices=Tournament.System.choices)
    rounds = forms.IntegerField(label=_("Number of rounds"), min_value=1, max_value=50, initial=3)
    days_per_move = forms.IntegerField(label=_("Days per move"), min_value=1, max_value=30, initial=3)
    rated = forms.BooleanField(label=_("Rated on the site"), required=False, initial=True)
    starts_at = forms.DateTimeField(
        label=_("Start time (UTC)"),
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M", "%Y-%m-%dT%H:%M:%S"],
    )
    checkin_opens_at = forms.DateTimeField(
        label=_("Check-in opens (UTC)"),
        required=False,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M", "%Y-%m-%dT%H:%M:%S"],
        help_text=_(
            "Leave empty for no check-in. Players who have not checked in when the first round is paired are withdrawn."
        ),
    )
    auto_rounds = forms.BooleanField(
        label=_("Next round by itself"),
        required=False,
        help_text=_("Pair and start the next round as soon as every game of the round has finished."),
    )
    round_hours = forms.IntegerField(
        label=_("Hours per round"),
        min_value=1,
        max_value=720,
        required=False,
        help_text=_("Leave empty for no time limit. When the time is up, unfinished games are adjudicated."),
    )
    adjudication = forms.ChoiceField(
        label=_("Unfinished games at the time limit"), choices=Tournament.Adjudication.choices, required=False
    )
    no_forfeit_without_warning = forms.BooleanField(
        label=_("No forfeit without a warning"),
        required=False,
        help_text=_(
            "A turn that runs out before any warning reached the player (a push, an e-mail, or a "
            "look at the game) gets one more day instead of a loss. It may hold up a round."
        ),
    )
    dictionary_version = forms.IntegerField(
        label=_("Dictionary version"),
        min_value=0,
        required=False,
        help_text=_("Leave empty for the version current when the tournament starts."),
    )
    rating_body = forms.ChoiceField(
        label=_("Rating body"), choices=[("", _("none")), *RatingBody.choices], required=False
    )
    king_of_the_hill = forms.BooleanField(
        label=_("King of the Hill in the last round"),
        required=False,
        help_text=_("Swiss only: first plays second, third plays fourth, repeats allowed."),
    )
    gibsonize = forms.BooleanField(
        label=_("Gibsonisation"),
        required=False,
        help_text=_(
            "Swiss only: a player who has clinched first place plays the best player who can no longer win a prize."
        ),
    )
    prize_bands = forms.CharField(
        label=_("Prizes by rating band"),
        required=False,
        max_length=100,
        help_text=_(
            "Rating caps separated by commas (1600, 1300): a prize for the best player rated below each."
        ),
    )
    prize_places = forms.IntegerField(
        label=_("Prize places"), min_value=1, max_value=50, initial=1, required=False
    )
    rules_preset = preset_field()
    challenge_rule = challenge_rule_field()

    def clean_prize_bands(self) -> list[int]:
        return rating_caps(self.cleaned_data.get("prize_bands") or "")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        language = self.fields["language"]
        assert isinstance(language, forms.ChoiceField)
        language.choices = [(code, language_name(code)) for code in engine.LANGUAGES]
        self.fields["starts_at"].initial = (timezone.now() + timedelta(days=1)).replace(
            minute=0, second=0, microsecond=0
        )


class PlayerForm(forms.Form):
    """The organiser adds a player by username."""

    username = forms.CharField(label=_("Username"), max_length=150)
    reason = forms.CharField(label=_("Reason (optional)"), max_length=REASON_MAX, required=False)
    missed = forms.ChoiceField(
        label=_("Rounds already paired count as"),
        choices=[("loss", _("losses")), ("bye", _("byes"))],
        required=False,
    )

    def clean_username(self) -> Any:
        name = self.cleaned_data["username"].strip()
        user = get_user_model().objects.named(name).first()
        if user is None:
            raise forms.ValidationError(_("There is no player with that username."))
        return user


class DivisionForm(forms.Form):
    name = forms.CharField(label=_("Division name"), max_length=100)
    rating_min = forms.IntegerField(label=_("Lowest rating"), min_value=0, max_value=4000, required=False)
    rating_max = forms.IntegerField(label=_("Highest rating"), min_value=0, max_value=4000, required=False)


class MoveForm(forms.Form):
    division = forms.ModelChoiceField(label=_("Move to division"), queryset=Tournament.objects.none())
    reason = forms.CharField(label=_("Reason (optional)"), max_length=REASON_MAX, required=False)

    def __init__(self, *args: Any, event_id: int, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        division = self.fields["division"]
        assert isinstance(division, forms.ModelChoiceField)
        division.queryset = Tournament.objects.filter(event_id=event_id)


class ReasonForm(forms.Form):
    reason = forms.CharField(label=_("Reason (optional)"), max_length=REASON_MAX, required=False)


class PrizeBandsForm(forms.Form):
    prize_bands = forms.CharField(label=_("Prizes by rating band"), required=False, max_length=100)
    reason = forms.CharField(label=_("Reason (optional)"), max_length=REASON_MAX, required=False)

    def clean_prize_bands(self) -> list[int]:
        return rating_caps(self.cleaned_data.get("prize_bands") or "")


class RealNameForm(forms.Form):
    real_name = forms.CharField(
        label=_("Real name (Last, First)"),
        max_length=150,
        required=False,
        help_text=_("Leave empty for the name the player gave in their settings."),
    )
    reason = forms.CharField(label=_("Reason (optional)"), max_length=REASON_MAX, required=False)


class RatingForm(forms.Form):
    member_number = forms.CharField(label=_("Member number"), max_length=32, required=False)
    rating = forms.IntegerField(label=_("Rating"), min_value=0, max_value=4000, required=False)
    reason = forms.CharField(label=_("Reason (optional)"), max_length=REASON_MAX, required=False)


class PairingOverrideForm(forms.Form):
    """Which players sit at a table of the round not started yet (players by number)."""

    table = forms.IntegerField(label=_("Table"), min_value=1)
    first = forms.IntegerField(label=_("Goes first (player number)"), min_value=1)
    second = forms.IntegerField(
        label=_("Goes second (player number; empty for the bye)"), min_value=1, required=False
    )
    reason = forms.CharField(label=_("Reason"), max_length=REASON_MAX)


class ResultOverrideForm(forms.Form):
    OVERRIDES = [
        (Pairing.Override.SCORES, _("Set the scores")),
        (Pairing.Override.FORFEIT, _("Forfeit")),
        ("game", _("The game's own result")),
    ]
    round = forms.IntegerField(label=_("Round"), min_value=1)
    table = forms.IntegerField(label=_("Table"), min_value=1)
    override = forms.ChoiceField(label=_("Result"), choices=OVERRIDES)
    first_score = forms.IntegerField(
        label=_("First player's score"), min_value=0, max_value=2000, required=False
    )
    second_score = forms.IntegerField(
        label=_("Second player's score"), min_value=0, max_value=2000, required=False
    )
    absent = forms.ChoiceField(
        label=_("Who forfeited"), choices=[c for c in Pairing.Absent.choices if c[0]], required=False
    )
    reason = forms.CharField(label=_("Reason"), max_length=REASON_MAX)

    def override_value(self) -> str:
        value = str(self.cleaned_data["override"])
        return "" if value == "game" else value


class MembershipForm(forms.Form):
    """A player's member numbers and ratings with every rating body."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for body, label in RatingBody.choices:
            self.fields[f"{body}_number"] = forms.CharField(
                label=_("%(body)s member number") % {"body": label}, max_length=32, required=False
            )
            self.fields[f"{body}_rating"] = forms.IntegerField(
                label=_("%(body)s rating") % {"body": label}, min_value=0, max_value=4000, required=False
            )
