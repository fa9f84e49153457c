from __future__ import annotations

from typing import Any

from django.apps import AppConfig
from django.contrib.auth.signals import user_logged_in, user_logged_out
from django.db.models.signals import post_migrate, pre_save
from django.utils.translation import gettext_lazy as _

MODERATORS = "Moderators"
REPORT_PERMISSIONS = ("view_report", "change_report")
#: Moderating players: the users with their moderation log, and the actions (0006).
PLAYER_PERMISSIONS = ("view_user", "view_moderationaction", "moderate_players")


def restore_report_permissions(**kwargs: Any) -> None:
    """After every migrate and flush (framework plumbing, like Django's own permissions):
    moderators may work through the reports queue and moderate players (migrations 0004
    and 0006 grant it first; a flush, as transactional tests do, empties the group)."""
    from django.contrib.auth.models import Group, Permission

    group, _created = Group.objects.get_or_create(name=MODERATORS)
    group.permissions.add(
        *Permission.objects.filter(
            content_type__app_label="accounts", content_type__model="report", codename__in=REPORT_PERMISSIONS
        ),
        *Permission.objects.filter(content_type__app_label="accounts", codename__in=PLAYER_PERMISSIONS),
    )


def tell_renames(sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
    """At log-in (framework plumbing: Django's ``user_logged_in``), tell a player whose
    account was renamed by migration 0008 its new name, once. There is no notification
    centre yet; this message on the next page is how they learn it."""
    from django.contrib import messages
    from django.utils import timezone
    from django.utils.translation import gettext

    from accounts.models import UsernameRename

    renames = list(UsernameRename.objects.filter(user=user, told_at__isnull=True))
    if not renames or request is None:
        return
    for rename in renames:
        messages.warning(
            request,
            gettext(
                "Usernames are now unique regardless of case, and an older account was already "
                "called %(old)s: yours is now %(new)s. Sign in with the new name from now on."
            )
            % {"old": rename.old_username, "new": rename.new_username},
        )
    UsernameRename.objects.filter(pk__in=[r.pk for r in renames]).update(told_at=timezone.now())


def end_live_connections(sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
    """At log-out (framework plumbing: Django's ``user_logged_out``, sent before the
    session is flushed), the session's open sockets are closed, in every process
    (``accounts.livesocket``)."""
    from accounts import realtime

    session = getattr(request, "session", None)
    if user is not None and session is not None and session.session_key:
        realtime.auth_changed(user.pk, ended_session=session.session_key)


def derive_username_key(sender: Any, instance: Any, raw: bool = False, **kwargs: Any) -> None:
    """``loaddata`` saves raw, past ``User.save()``: the unique key must still follow the
    username (framework plumbing, like a cache key)."""
    if raw:
        from accounts.names import username_key

        instance.username_key = username_key(instance.username)


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = _("Accounts")

    def ready(self) -> None:
        post_migrate.connect(restore_report_permissions, sender=self, dispatch_uid="accounts.reports")
        user_logged_in.connect(tell_renames, dispatch_uid="accounts.tell_renames")
        user_logged_out.connect(end_live_connections, dispatch_uid="accounts.end_live_connections")
        pre_save.connect(
            derive_username_key, sender=self.get_model("User"), dispatch_uid="accounts.username_key"
        )
        from django.contrib.auth.signals import user_login_failed

        from accounts import logins, metrics

        # One structured line per log-in attempt (django-axes's own lines are kept to errors).
        user_logged_in.connect(logins.logged_in, dispatch_uid="accounts.logins.success")
        user_login_failed.connect(logins.login_failed, dispatch_uid="accounts.logins.failure")

        # Framework plumbing: finished tasks counted, the pool's figures kept fresh.
        metrics.connect_signals()
