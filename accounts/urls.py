from __future__ import annotations

from django.urls import include, path

from accounts import views

urlpatterns = [
    path("signup/", views.signup, name="signup"),
    path("coins/", views.coins, name="coins"),
    path("settings/", views.preferences, name="preferences"),
    path("vacation/", views.vacation, name="vacation"),
    path("delete/", views.delete_account, name="delete-account"),
    path("data/", views.download_data, name="download-data"),
    path("friends/", views.friends, name="friends"),
    path("friends/<str:username>/", views.friend_action, name="friend-action"),
    path("blocked/", views.blocked, name="blocked"),
    path("notices/<int:notice_id>/read/", views.acknowledge_notice, name="acknowledge-notice"),
    # Django's auth views; these two also close the sessions they sign out.
    path("password_change/", views.PasswordChangeView.as_view(), name="password_change"),
    path("reset/<uidb64>/<token>/", views.PasswordResetConfirmView.as_view(), name="password_reset_confirm"),
    path("", include("django.contrib.auth.urls")),
]
