from __future__ import annotations

from django import forms
from django.contrib.auth.forms import UserCreationForm, UsernameField
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from accounts.services import MAX_AMOUNT


class SignupForm(UserCreationForm[User]):
    class Meta:
        model = User
        fields = ("username", "email")
        field_classes = {"username": UsernameField}

    def clean_username(self) -> str:
        username: str = self.cleaned_data["username"]
        # The database constraint is case-insensitive; say so before it would refuse.
        if User.objects.filter(username__iexact=username).exists():
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
