from __future__ import annotations

import zoneinfo
from functools import cache
from typing import Any

from django import forms
from django.db import transaction
from django.utils.translation import gettext_lazy as _

from notifications import emails, preferences
from notifications.models import Channel, Kind


@cache
def time_zone_choices() -> list[tuple[str, str]]:
    return [(name, name.replace("_", " ")) for name in sorted(zoneinfo.available_timezones())]


class NotificationSettingsForm(forms.Form):
    """The address mail goes to, the time zone times are given in, and which kinds of
    notification go by which channel."""

    email = forms.EmailField(
        label=_("E-mail address"),
        required=False,
        help_text=_("A new address is used once you confirm it through the link we send to it."),
    )
    time_zone = forms.ChoiceField(label=_("Time zone"), required=False)
    quiet_hours_start = forms.TypedChoiceField(
        label=_("Quiet hours from"),
        required=False,
        coerce=int,
        empty_value=None,
        help_text=_(
            "In your time zone. Push notifications wait until the quiet hours end, except time running out."
        ),
    )
    quiet_hours_end = forms.TypedChoiceField(
        label=_("Quiet hours until"), required=False, coerce=int, empty_value=None
    )

    def __init__(self, *args: Any, wanted: dict[str, set[str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        zone = self.fields["time_zone"]
        assert isinstance(zone, forms.ChoiceField)
        zone.choices = [("", _("UTC (not chosen)")), *time_zone_choices()]
        hours = [("", _("No quiet hours")), *((str(h), f"{h:02d}:00") for h in range(24))]
        for name in ("quiet_hours_start", "quiet_hours_end"):
            field = self.fields[name]
            assert isinstance(field, forms.ChoiceField)
            field.choices = hours
        for kind, label in Kind.choices:
            for channel, channel_label in Channel.choices:
                self.fields[self.field_name(kind, channel)] = forms.BooleanField(
                    label=f"{label}: {channel_label}",
                    required=False,
                    initial=channel in wanted.get(kind, set()),
                )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if (data.get("quiet_hours_start") is None) != (data.get("quiet_hours_end") is None):
            raise forms.ValidationError(_("Choose both ends of the quiet hours, or neither."))
        return data

    @staticmethod
    def field_name(kind: str, channel: str) -> str:
        return f"{channel}__{kind}"

    def choices(self) -> list[tuple[str, str, bool]]:
        """(kind, channel, enabled) for every box of the form."""
        return [
            (kind, channel, bool(self.cleaned_data[self.field_name(kind, channel)]))
            for kind in Kind.values
            for channel in Channel.values
        ]

    def save(self, user: Any) -> None:
        """Store the valid form's choices for ``user`` (the page and the API): a new
        address is unverified until its link is followed, and the link is mailed now."""
        email = self.cleaned_data["email"].strip()
        with transaction.atomic():
            for kind, channel, enabled in self.choices():
                preferences.set_wanted(user=user, kind=kind, channel=channel, enabled=enabled)
            changed = email != user.email
            user.email = email
            user.time_zone = self.cleaned_data["time_zone"]
            user.quiet_hours_start = self.cleaned_data["quiet_hours_start"]
            user.quiet_hours_end = self.cleaned_data["quiet_hours_end"]
            user.save(update_fields=["email", "time_zone", "quiet_hours_start", "quiet_hours_end"])
        if changed and email and email != user.verified_email:
            emails.verification_email(user, address=email).send()


def data_for(user: Any, wanted: dict[str, set[str]]) -> dict[str, Any]:
    """The form's data as ``user``'s settings are now (what the API's PATCH starts from)."""
    data: dict[str, Any] = {
        "email": user.email,
        "time_zone": user.time_zone,
        "quiet_hours_start": "" if user.quiet_hours_start is None else str(user.quiet_hours_start),
        "quiet_hours_end": "" if user.quiet_hours_end is None else str(user.quiet_hours_end),
    }
    for kind in Kind.values:
        for channel in wanted.get(kind, set()):
            data[NotificationSettingsForm.field_name(kind, channel)] = "on"
    return data
