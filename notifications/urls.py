from __future__ import annotations

from django.urls import path

from notifications import views

app_name = "notifications"

urlpatterns = [
    path("notifications/", views.notification_list, name="list"),
    path("notifications/read/", views.read_all, name="read-all"),
    path("notifications/<int:notification_id>/", views.open_notification, name="open"),
    path("notifications/unsubscribe/<str:token>/", views.unsubscribe, name="unsubscribe"),
    path("accounts/notifications/", views.notification_settings, name="settings"),
    path("accounts/notifications/verify/", views.resend_verification, name="resend-verification"),
    path("accounts/email/verify/<str:token>/", views.verify_email, name="verify-email"),
    path("notifications/push/subscribe/", views.push_subscribe, name="push-subscribe"),
    path("notifications/push/<int:device_id>/remove/", views.push_remove, name="push-remove"),
    path("sw.js", views.service_worker, name="service-worker"),
    path("manifest.webmanifest", views.manifest, name="manifest"),
    path("offline/", views.offline, name="offline"),
]
