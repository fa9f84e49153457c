from __future__ import annotations

from django.contrib.auth.forms import UserCreationForm, UsernameField
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from accounts.models import User


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
