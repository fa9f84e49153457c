"""``{{ deadline|time_left }}``: how long a turn has left, "2 days 3 h left", "3 h 20 min
left", "less than a minute left" (a duration reads the same in every time zone; the
deadline itself is shown in the viewer's, ``notifications.middleware``)."""

from __future__ import annotations

from datetime import datetime

from django import template
from django.utils import timezone
from django.utils.translation import gettext, ngettext

register = template.Library()


def time_left_text(deadline: datetime, now: datetime) -> str:
    seconds = int((deadline - now).total_seconds())
    if seconds < 60:
        return gettext("less than a minute left")
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    minutes = rest // 60
    if days:
        text = ngettext("%(days)s day", "%(days)s days", days) % {"days": days}
        return (
            gettext("%(days)s %(hours)s h left") % {"days": text, "hours": hours}
            if hours
            else (gettext("%(days)s left") % {"days": text})
        )
    if hours:
        return gettext("%(hours)s h %(minutes)s min left") % {"hours": hours, "minutes": minutes}
    return gettext("%(minutes)s min left") % {"minutes": minutes}


@register.filter
def time_left(deadline: datetime | None) -> str:
    if deadline is None:
        return ""
    return time_left_text(deadline, timezone.now())
