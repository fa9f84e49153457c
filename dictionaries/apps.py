from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class DictionariesConfig(AppConfig):
    name = "dictionaries"
    verbose_name = _("Dictionaries")
