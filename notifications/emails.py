"""Notification e-mails: the recipient's language and time zone, an absolute link to the
page (``SITE_URL``), a text and an HTML part, and RFC 8058 one-click unsubscribe
(``List-Unsubscribe`` with ``List-Unsubscribe-Post``) through a signed token that works
without logging in. Address verification links are signed the same way."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core import signing
from django.core.mail import EmailMultiAlternatives
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext

from notifications.models import Notification
from notifications.texts import as_recipient, render

UNSUBSCRIBE_SALT = "notifications.unsubscribe"
VERIFY_SALT = "notifications.verify-email"
#: A verification link works for this long (seconds).
VERIFY_MAX_AGE = 3 * 24 * 3600


def absolute(path: str) -> str:
    return settings.SITE_URL.rstrip("/") + path


def unsubscribe_token(*, user_id: int, kind: str) -> str:
    return signing.dumps({"u": user_id, "k": kind}, salt=UNSUBSCRIBE_SALT)


def read_unsubscribe_token(token: str) -> tuple[int, str] | None:
    try:
        data = signing.loads(token, salt=UNSUBSCRIBE_SALT)
    except signing.BadSignature:
        return None
    if not isinstance(data, dict) or not isinstance(data.get("u"), int) or not isinstance(data.get("k"), str):
        return None
    return data["u"], data["k"]


def verification_token(*, user_id: int, email: str) -> str:
    return signing.TimestampSigner(salt=VERIFY_SALT).sign_object({"u": user_id, "e": email})


def read_verification_token(token: str) -> tuple[int, str] | None:
    try:
        data = signing.TimestampSigner(salt=VERIFY_SALT).unsign_object(token, max_age=VERIFY_MAX_AGE)
    except signing.BadSignature:
        return None
    if not isinstance(data, dict) or not isinstance(data.get("u"), int) or not isinstance(data.get("e"), str):
        return None
    return data["u"], data["e"]


def notification_email(notification: Notification, *, address: str) -> EmailMultiAlternatives:
    recipient = notification.recipient
    unsubscribe = absolute(
        reverse(
            "notifications:unsubscribe",
            args=[unsubscribe_token(user_id=recipient.pk, kind=notification.kind)],
        )
    )
    with as_recipient(recipient):
        text = render(notification)
        context: dict[str, Any] = {
            "title": text.title,
            "body": text.body,
            "link": absolute(text.path or "/"),
            "unsubscribe": unsubscribe,
            "settings_link": absolute(reverse("notifications:settings")),
        }
        message = EmailMultiAlternatives(
            subject=text.title,
            body=render_to_string("notifications/email.txt", context),
            to=[address],
            headers={
                "List-Unsubscribe": f"<{unsubscribe}>",
                "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
                "Auto-Submitted": "auto-generated",
            },
        )
        message.attach_alternative(render_to_string("notifications/email.html", context), "text/html")
    return message


def verification_email(user: Any, *, address: str) -> EmailMultiAlternatives:
    link = absolute(
        reverse("notifications:verify-email", args=[verification_token(user_id=user.pk, email=address)])
    )
    with as_recipient(user):
        subject = gettext("Confirm your e-mail address for Wordgame")
        context = {"title": subject, "link": link}
        message = EmailMultiAlternatives(
            subject=subject, body=render_to_string("notifications/verify_email.txt", context), to=[address]
        )
        message.attach_alternative(render_to_string("notifications/verify_email.html", context), "text/html")
    return message
