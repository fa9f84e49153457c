from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _


class TokenForm(forms.Form):
    name = forms.CharField(
        label=_("Token name"),
        max_length=100,
        help_text=_("What will use it, e.g. “my bot”: to tell your tokens apart."),
    )
    bot = forms.BooleanField(
        label=_("This token is for a bot"),
        required=False,
        help_text=_(
            "Your account is then a bot's for good: it is labelled “bot” wherever its name shows and "
            "plays rated games only against other bots."
        ),
    )
