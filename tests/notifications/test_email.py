"""E-mail that works, through a real SMTP server (aiosmtpd on a free port of 127.0.0.1):
the recipient's language and time zone, an absolute link, text and HTML parts, RFC 8058
one-click unsubscribe without a session, nothing to an unverified address, retries with
back-off when the mail server is away."""

from __future__ import annotations

import re
import zoneinfo
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from games.models import Game
from games.services import expire_games
from notifications import preferences
from notifications.models import Channel, Delivery, Kind, Notification
from notifications.services import notify
from notifications.tasks import deliver, dispatch
from tests.factories import PASSWORD
from tests.notifications.conftest import Mailbox, free_port

pytestmark = pytest.mark.django_db


def verified(user: Any, **fields: Any) -> Any:
    for name, value in fields.items():
        setattr(user, name, value)
    user.verified_email = user.email
    user.save()
    return user


def text_and_html(message: Any) -> tuple[str, str]:
    text = message.get_body(preferencelist=("plain",))
    html = message.get_body(preferencelist=("html",))
    assert text is not None
    assert html is not None
    return text.get_content(), html.get_content()


def test_a_swedish_players_warning_in_swedish_with_link_and_one_click_unsubscribe(
    ana: Any, game_ana_ben: Game, smtp_server: Mailbox, django_capture_on_commit_callbacks: Any
) -> None:
    verified(ana, interface_language="sv", time_zone="Europe/Stockholm")
    deadline = timezone.now() + timedelta(hours=20)
    Game.objects.filter(pk=game_ana_ben.pk).update(turn_deadline=deadline)
    with django_capture_on_commit_callbacks(execute=True):
        assert expire_games(now=timezone.now()).reminded == [game_ana_ben.pk]

    (message,) = smtp_server.messages
    assert message["To"] == "ana@example.org"
    # (Django folds the encoded subject onto a continuation line: its first space is folding.)
    assert message["Subject"].strip() == "Tiden håller på att ta slut i ditt parti mot ben"
    text, html = text_and_html(message)
    local = deadline.astimezone(zoneinfo.ZoneInfo("Europe/Stockholm")).strftime("%H:%M")
    assert local in text
    assert "Europe/Stockholm" in text
    link = f"https://wordgame.example/games/{game_ana_ben.pk}/"
    assert link in text
    assert f'href="{link}"' in html
    assert message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    header = "".join(str(message["List-Unsubscribe"]).split())  # unfolded
    match = re.fullmatch(r"<https://wordgame\.example(/notifications/unsubscribe/[^>]+/)>", header)
    assert match is not None

    # The mail client's one-click POST: no session, no CSRF token.
    anonymous = Client(enforce_csrf_checks=True)
    assert anonymous.get(match.group(1)).status_code == 200  # a GET changes nothing
    assert Channel.EMAIL in preferences.wanted(ana)[Kind.DEADLINE_WARNING]
    answer = anonymous.post(
        match.group(1), "List-Unsubscribe=One-Click", content_type="application/x-www-form-urlencoded"
    )
    assert answer.status_code == 200
    assert Channel.EMAIL not in preferences.wanted(ana)[Kind.DEADLINE_WARNING]
    # Other kinds are untouched.
    assert Channel.EMAIL in preferences.wanted(ana)[Kind.INVITATION]


def test_a_forged_unsubscribe_token_changes_nothing(ana: Any) -> None:
    answer = Client().post("/notifications/unsubscribe/forged:token/")
    assert answer.status_code == 400
    assert Channel.EMAIL in preferences.wanted(ana)[Kind.DEADLINE_WARNING]


def test_an_unverified_address_gets_nothing(
    ana: Any, game_ana_ben: Game, smtp_server: Mailbox, django_capture_on_commit_callbacks: Any
) -> None:
    assert ana.email
    assert ana.verified_email == ""
    Game.objects.filter(pk=game_ana_ben.pk).update(turn_deadline=timezone.now() + timedelta(hours=20))
    with django_capture_on_commit_callbacks(execute=True):
        assert expire_games(now=timezone.now()).reminded == [game_ana_ben.pk]
    assert Notification.objects.filter(recipient=ana, kind=Kind.DEADLINE_WARNING).exists()
    assert not Delivery.objects.exists()
    assert smtp_server.messages == []


def test_an_address_is_verified_by_its_signed_link(ana: Any, smtp_server: Mailbox) -> None:
    client = Client()
    assert client.login(username="ana", password=PASSWORD)
    answer = client.post(
        "/accounts/notifications/", {"email": "ana.new@example.org", "time_zone": "Europe/Paris"}
    )
    assert answer.status_code == 302
    ana.refresh_from_db()
    assert (ana.email, ana.time_zone, ana.verified_email) == ("ana.new@example.org", "Europe/Paris", "")
    (message,) = smtp_server.messages
    assert message["To"] == "ana.new@example.org"
    text, _html = text_and_html(message)
    found = re.search(r"https://wordgame\.example(/accounts/email/verify/\S+/)", text)
    assert found is not None
    # A tampered link is refused; the real one works without a session.
    assert Client().get(found.group(1).replace("/verify/", "/verify/x")).status_code == 400
    ana.refresh_from_db()
    assert ana.verified_email == ""
    assert Client().get(found.group(1)).status_code == 200
    ana.refresh_from_db()
    assert ana.verified_email == "ana.new@example.org"
    assert preferences.email_address(ana) == "ana.new@example.org"


def test_a_changed_address_is_unverified_until_confirmed(ana: Any, smtp_server: Mailbox) -> None:
    verified(ana)
    client = Client()
    assert client.login(username="ana", password=PASSWORD)
    client.post("/accounts/notifications/", {"email": "other@example.org", "time_zone": ""})
    ana.refresh_from_db()
    assert preferences.email_address(ana) == ""


def test_a_refused_time_zone_changes_nothing(ana: Any) -> None:
    client = Client()
    assert client.login(username="ana", password=PASSWORD)
    answer = client.post("/accounts/notifications/", {"email": "x@example.org", "time_zone": "Mars/Olympus"})
    assert answer.status_code == 200
    assert "Mars/Olympus" in answer.content.decode()
    ana.refresh_from_db()
    assert (ana.email, ana.time_zone) == ("ana@example.org", "")


def test_a_failed_delivery_is_retried_with_back_off(ben: Any, smtp_server: Mailbox, settings: Any) -> None:
    from django_tasks_db.models import DBTaskResult

    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend", "QUEUES": ["default"]}}
    settings.NOTIFICATION_RETRY_SECONDS = 60
    verified(ben)
    (notification_id,) = notify(recipient_ids=[ben.pk], kind=Kind.FRIEND_REQUEST, params={"who": "ana"})
    assert dispatch.call([notification_id]) == 1
    delivery = Delivery.objects.get()
    settings.EMAIL_PORT = free_port()  # nothing listens there: the mail server is away
    before = timezone.now()
    assert deliver.call(delivery.pk) is False
    delivery.refresh_from_db()
    assert (delivery.status, delivery.attempts) == (Delivery.Status.PENDING, 1)
    assert "Connection" in delivery.last_error or "refused" in delivery.last_error.lower()
    # The retries are deferred (the first delivery was due at once: no date).
    retries = DBTaskResult.objects.filter(
        task_path="notifications.tasks.deliver", run_after__year__lt=9999
    ).order_by("run_after")
    first_retry = retries.last()
    assert first_retry is not None
    assert before + timedelta(seconds=59) <= first_retry.run_after <= timezone.now() + timedelta(seconds=61)
    assert deliver.call(delivery.pk) is False
    assert retries.last() is not None
    assert retries.last().run_after >= before + timedelta(seconds=119)  # type: ignore[union-attr]

    settings.EMAIL_PORT = smtp_server.port  # back
    assert deliver.call(delivery.pk) is True
    assert deliver.call(delivery.pk) is True  # a duplicate sends nothing more
    delivery.refresh_from_db()
    assert (delivery.status, delivery.attempts) == (Delivery.Status.SENT, 3)
    assert len(smtp_server.messages) == 1


def test_delivery_gives_up_after_the_last_attempt(ben: Any, settings: Any) -> None:
    settings.NOTIFICATION_ATTEMPTS = 2
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST = "127.0.0.1"
    settings.EMAIL_PORT = free_port()
    verified(ben)
    (notification_id,) = notify(recipient_ids=[ben.pk], kind=Kind.FRIEND_REQUEST, params={"who": "ana"})
    dispatch.call([notification_id])  # tasks run at once here: the first attempt fails
    delivery = Delivery.objects.get()
    assert deliver.call(delivery.pk) is False
    assert deliver.call(delivery.pk) is False  # given up: not tried again
    delivery.refresh_from_db()
    assert (delivery.status, delivery.attempts) == (Delivery.Status.FAILED, 2)


def test_sign_up_sends_the_verification_link_in_the_pages_language(
    client: Client, smtp_server: Mailbox
) -> None:
    client.cookies["django_language"] = "fr"
    data = {"username": "dora", "email": "dora@example.org", "password1": PASSWORD, "password2": PASSWORD}
    assert client.post("/accounts/signup/", data).status_code == 302
    (message,) = smtp_server.messages
    assert message["To"] == "dora@example.org"
    assert message["Subject"].strip() == "Confirmez votre adresse e-mail pour Wordgame"
    text, _html = text_and_html(message)
    found = re.search(r"https://wordgame\.example(/accounts/email/verify/\S+/)", text)
    assert found is not None
    assert Client().get(found.group(1)).status_code == 200
    from accounts.models import User

    assert preferences.email_address(User.objects.get(username="dora")) == "dora@example.org"
