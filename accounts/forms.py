from __future__ import annotations

import zoneinfo
from typing import Any

from django import forms
from django.conf import settings
from django.contrib.auth.forms import UserCreationForm, UsernameField
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

import engine
from accounts.models import Report, User
from accounts.names import username_key
from accounts.services import MAX_AMOUNT, RESERVED_USERNAMES


class SignupForm(UserCreationForm[User]):
    class Meta:
        model = User
        # time_zone: hidden, filled in from the browser (static/js/timezone.js).
        fields = ("username", "email", "time_zone")
        field_classes = {"username": UsernameField}
        widgets = {"time_zone": forms.HiddenInput}

    def clean_time_zone(self) -> str:
        """The browser's zone if it is one we know; otherwise none (the player can choose
        it in the notification settings): never a reason to refuse a sign-up."""
        zone: str = self.cleaned_data.get("time_zone") or ""
        return zone if zone in zoneinfo.available_timezones() else ""

    def clean_username(self) -> str:
        username: str = self.cleaned_data["username"]
        if username_key(username) in RESERVED_USERNAMES:
            raise ValidationError(_("That username is reserved."), code="username_reserved")
        # The database refuses a name whose key (case folded, NFKC) is taken; say so first.
        if User.objects.named(username).exists():
            raise ValidationError(_("That username is taken."), code="username_taken")
        return username


class CoinAdjustmentForm(forms.Form):
    """The staff's "grant or take coins" (admin action on users)."""

    amount = forms.IntegerField(
        label=_("Coins"),
        min_value=-MAX_AMOUNT,
        max_value=MAX_AMOUNT,
        help_text=_("A positive number grants coins, a negative number takes them."),
    )
    note = forms.CharField(
        label=_("Reason"), max_length=200, help_text=_("The player sees it on their statement.")
    )

    def clean_amount(self) -> int:
        amount: int = self.cleaned_data["amount"]
        if amount == 0:
            raise ValidationError(_("Grant or take at least one coin."), code="zero")
        return amount


def game_language_choices() -> list[tuple[str, str]]:
    """The game languages by their own names ("Español"), as the language switcher
    lists interface languages (accounts does not import the dictionaries app)."""
    return [(code, engine.tileset(code).native_name) for code in engine.LANGUAGES]


class PreferencesForm(forms.ModelForm[User]):
    """What a player sets about themselves: the name shown and their languages."""

    class Meta:
        model = User
        fields = (
            "display_name",
            "first_name",
            "last_name",
            "game_language",
            "interface_language",
            "chat_enabled",
        )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # The real name rating bodies need ("Last, First" in tournament files).
        self.fields["first_name"].label = _("Given name")
        self.fields["first_name"].help_text = _(
            "Your real name, for tournament results sent to rating bodies."
        )
        self.fields["last_name"].label = _("Family name")
        nothing: list[tuple[str, Any]] = [("", _("No preference"))]
        self.fields["game_language"] = forms.ChoiceField(
            label=_("Preferred game language"),
            choices=nothing + game_language_choices(),
            required=False,
            help_text=_("New games and the how-to-play page start in it."),
        )
        self.fields["interface_language"] = forms.ChoiceField(
            label=_("Interface language"),
            choices=nothing + [(code, str(name)) for code, name in settings.LANGUAGES],
            required=False,
            help_text=_("Follows you to every device you sign in on."),
        )

    def clean_display_name(self) -> str:
        name: str = " ".join(self.cleaned_data.get("display_name", "").split())
        if name and not any(ch.isalnum() for ch in name):
            raise ValidationError(_("A display name needs at least one letter or digit."), code="bad_name")
        return name


class UsernameForm(forms.Form):
    username = forms.CharField(label=_("Username"), max_length=150)

    def clean_username(self) -> User:
        name = self.cleaned_data["username"].strip()
        user = User.objects.named(name).filter(is_active=True).first()
        if user is None:
            raise ValidationError(_("There is no player with that name."), code="unknown_player")
        return user


class PlayerSearchForm(forms.Form):
    q = forms.CharField(label=_("Name"), max_length=150, min_length=2, required=False)


class ReportForm(forms.Form):
    reason = forms.ChoiceField(label=_("What happened?"), choices=Report.Reason.choices)
    details = forms.CharField(
        label=_("Details (optional)"),
        max_length=1000,
        required=False,
        widget=forms.Textarea(attrs={"rows": 4}),
    )
    game = forms.IntegerField(label=_("Game number (optional)"), min_value=1, required=False)


class DeleteAccountForm(forms.Form):
    password = forms.CharField(
        label=_("Your password"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )

    def __init__(self, *args: Any, user: User, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.user = user

    def clean_password(self) -> str:
        password: str = self.cleaned_data["password"]
        if not self.user.check_password(password):
            raise ValidationError(_("That is not your password."), code="wrong_password")
        return password


class ModerationForm(forms.Form):
    """A moderator's mute, suspension or warning: for how many days (not for a warning)
    and why (the player is told)."""

    days = forms.IntegerField(label=_("Days"), min_value=1, max_value=365, initial=3, required=False)
    reason = forms.CharField(
        label=_("Reason (the player is told)"), max_length=1000, widget=forms.Textarea(attrs={"rows": 3})
    )

    def __init__(self, *args: Any, needs_days: bool = True, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if needs_days:
            self.fields["days"].required = True
        else:
            del self.fields["days"]


class ReportModerationForm(forms.Form):
    """The report page's one form: what to do about the reported player."""

    action = forms.ChoiceField(
        choices=[("mute", "mute"), ("suspend", "suspend"), ("warn", "warn"), ("resolve", "resolve")]
    )
    days = forms.IntegerField(label=_("Days"), min_value=1, max_value=365, required=False)
    reason = forms.CharField(label=_("Reason"), max_length=1000, required=False)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("action") in ("mute", "suspend") and not data.get("days"):
            self.add_error("days", _("Choose between 1 and 365 days."))
        if data.get("action") in ("mute", "suspend", "warn") and not (data.get("reason") or "").strip():
            self.add_error("reason", _("Give a reason: the player is told it."))
        return data
