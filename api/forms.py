from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _


class TokenForm(forms.Form):
    name = forms.CharField(
        label=_("Token name"),
        max_length=100,
        help_text=_("What will use it, e.g. “my bot”: to tell your tokens apart."),
    )
