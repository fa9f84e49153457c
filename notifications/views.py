"""The notification centre's pages: the list (newest first, "mark all read"), opening one
(marked read, then its page), the settings per kind and channel, the one-click
unsubscribe of a mail (RFC 8058, no log-in) and the address verification link."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.templatetags.static import static
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from notifications import emails, preferences, push, services
from notifications.forms import NotificationSettingsForm
from notifications.models import Channel, Kind, Notification, PushSubscription
from notifications.texts import render as render_text

PAGE_SIZE = 30

if TYPE_CHECKING:
    from accounts.models import User

    class AuthedRequest(HttpRequest):
        user: User
else:
    AuthedRequest = HttpRequest


@require_GET
@login_required
def notification_list(request: AuthedRequest) -> HttpResponse:
    rows = Notification.objects.filter(recipient=request.user)
    page = Paginator(rows, PAGE_SIZE).get_page(request.GET.get("page"))
    items = [(n, render_text(n)) for n in page.object_list]
    return render(request, "notifications/list.html", {"page": page, "items": items})


@require_POST
@login_required
def read_all(request: AuthedRequest) -> HttpResponse:
    services.mark_read(user=request.user)
    return redirect("notifications:list")


@require_GET
@login_required
def open_notification(request: AuthedRequest, notification_id: int) -> HttpResponse:
    """Marked read, then on to its page (only a path of this site)."""
    notification = get_object_or_404(Notification, pk=notification_id, recipient=request.user)
    services.mark_read(user=request.user, ids=[notification.pk])
    path = notification.path
    if not path or not url_has_allowed_host_and_scheme(path, allowed_hosts=None):
        path = "/notifications/"
    return redirect(path)


@require_http_methods(["GET", "POST"])
@login_required
def notification_settings(request: AuthedRequest) -> HttpResponse:
    user: Any = request.user
    wanted = preferences.wanted(user)
    initial = {
        "email": user.email,
        "time_zone": user.time_zone,
        "quiet_hours_start": user.quiet_hours_start,
        "quiet_hours_end": user.quiet_hours_end,
    }
    form = NotificationSettingsForm(
        request.POST if request.method == "POST" else None, initial=initial, wanted=wanted
    )
    if request.method == "POST" and form.is_valid():
        form.save(user)
        messages.success(request, gettext("Your notification settings are saved."))
        return redirect("notifications:settings")
    return render(
        request,
        "notifications/settings.html",
        {
            "form": form,
            "verified": bool(preferences.email_address(user)),
            "devices": PushSubscription.objects.filter(user=user),
            "vapid_public_key": settings.VAPID_PUBLIC_KEY if push.enabled() else "",
        },
    )


@require_POST
@login_required
def resend_verification(request: AuthedRequest) -> HttpResponse:
    user: Any = request.user
    if user.email and not preferences.email_address(user):
        emails.verification_email(user, address=user.email).send()
        messages.success(request, gettext("We sent you a new confirmation link."))
    return redirect("notifications:settings")


@require_GET
def verify_email(request: HttpRequest, token: str) -> HttpResponse:
    """The signed link of a verification mail: the address it names is confirmed if it
    is still the account's address (no log-in needed: the signature is the proof)."""
    read = emails.read_verification_token(token)
    user = get_user_model().objects.filter(pk=read[0]).first() if read else None
    ok = read is not None and user is not None and user.email == read[1]
    if ok:
        assert user is not None
        assert read is not None
        user.verified_email = read[1]
        user.save(update_fields=["verified_email"])
    return render(request, "notifications/verified.html", {"ok": ok}, status=200 if ok else 400)


@csrf_exempt
@require_http_methods(["GET", "POST"])
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    """RFC 8058: a mail client POSTs here (``List-Unsubscribe=One-Click``) without any
    session, so the signed token is the only proof; the form of the GET page does the
    same. A GET changes nothing (link checkers follow links)."""
    read = emails.read_unsubscribe_token(token)
    if read is None or read[1] not in Kind.values:
        return render(request, "notifications/unsubscribe.html", {"bad": True}, status=400)
    user = get_object_or_404(get_user_model(), pk=read[0])
    label = Kind(read[1]).label
    done = request.method == "POST"
    if done:
        preferences.set_wanted(user=user, kind=read[1], channel=Channel.EMAIL, enabled=False)
    return render(request, "notifications/unsubscribe.html", {"kind": label, "done": done, "token": token})


@require_POST
@login_required
def push_subscribe(request: AuthedRequest) -> HttpResponse:
    """The page's subscription of this device (``PushSubscription.toJSON()``), checked
    like any address the server will call; 400 with the reason, nothing stored."""
    try:
        data = json.loads(request.body)
        keys = data.get("keys") or {}
        push.subscribe(
            user=request.user,
            endpoint=data.get("endpoint"),
            p256dh=keys.get("p256dh"),
            auth=keys.get("auth"),
            user_agent=request.headers.get("User-Agent", ""),
        )
    except (ValueError, AttributeError) as exc:
        message = (
            str(exc) if isinstance(exc, push.BadEndpoint) else gettext("This is not a push subscription.")
        )
        return HttpResponse(message, status=400, content_type="text/plain; charset=utf-8")
    return HttpResponse(status=204)


@require_POST
@login_required
def push_remove(request: AuthedRequest, device_id: int) -> HttpResponse:
    PushSubscription.objects.filter(pk=device_id, user=request.user).delete()
    return redirect("notifications:settings")


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    """``/sw.js``: at the root, so its scope is the whole site."""
    response = render(
        request,
        "notifications/sw.js",
        {"icon": static("img/apple-touch-icon.png")},
        content_type="text/javascript; charset=utf-8",
    )
    response["Cache-Control"] = "no-cache"
    return response


@require_GET
def manifest(request: HttpRequest) -> HttpResponse:
    """The web app manifest: the site installs as an app that opens on the lobby."""
    icons = [
        {
            "src": static(f"img/icon-{size}.png"),
            "sizes": f"{size}x{size}",
            "type": "image/png",
            "purpose": "any",
        }
        for size in (192, 512)
    ] + [
        {
            "src": static(f"img/icon-maskable-{size}.png"),
            "sizes": f"{size}x{size}",
            "type": "image/png",
            "purpose": "maskable",
        }
        for size in (192, 512)
    ]
    data = {
        "name": "Wordgame",
        "short_name": "Wordgame",
        "id": "/",
        "start_url": "/games/",
        "scope": "/",
        "display": "standalone",
        "background_color": "#f6e7c1",
        "theme_color": "#2b2116",
        "icons": icons,
    }
    return HttpResponse(json.dumps(data), content_type="application/manifest+json")


@require_GET
def offline(request: HttpRequest) -> HttpResponse:
    """What the service worker shows when the network is gone (cached when it installs)."""
    return render(request, "notifications/offline.html")
