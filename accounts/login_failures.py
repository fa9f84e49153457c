"""django-axes's storage of failed log-ins, with a limit per address across user names
(``AXES_HANDLER``; imported by axes once the apps are ready, since it needs its models)."""

from __future__ import annotations

from typing import Any

from axes.attempts import get_cool_off_threshold
from axes.handlers.database import AxesDatabaseHandler
from axes.helpers import get_failure_limit
from axes.models import AccessAttempt
from django.conf import settings
from django.db.models import Sum


class LoginFailuresHandler(AxesDatabaseHandler):
    """django-axes's database handler, counting failed log-ins two ways: per user name and
    address (``AXES_FAILURE_LIMIT``: someone guessing one account's password), and per
    address across every user name (``LOGIN_ADDRESS_FAILURE_LIMIT``, higher, since an
    office or a school shares one address: someone trying one password on many accounts,
    password spraying). Either reached locks the log-in for ``AXES_COOLOFF_TIME``."""

    def get_failures(self, request: Any, credentials: dict[str, Any] | None = None) -> int:
        per_name = int(super().get_failures(request, credentials))
        address = getattr(request, "axes_ip_address", None)
        if not address:
            return per_name
        per_address = (
            AccessAttempt.objects.filter(
                ip_address=address, attempt_time__gte=get_cool_off_threshold(request)
            ).aggregate(total=Sum("failures_since_start"))["total"]
            or 0
        )
        if per_address >= settings.LOGIN_ADDRESS_FAILURE_LIMIT:
            # axes compares one number with its limit: report it reached.
            return max(per_name, int(get_failure_limit(request, credentials)))
        return per_name
