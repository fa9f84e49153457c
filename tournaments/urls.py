from __future__ import annotations

from django.urls import path

from tournaments import views

app_name = "tournaments"

urlpatterns = [
    path("", views.tournament_list, name="list"),
    path("new/", views.new, name="new"),
    path("memberships/", views.memberships, name="memberships"),
    path("<int:tournament_id>/", views.detail, name="detail"),
    path("<int:tournament_id>/register/", views.register, name="register"),
    path("<int:tournament_id>/results/", views.results_summary, name="summary"),
    path("<int:tournament_id>/prizes/", views.prize_bands, name="prize-bands"),
    path("<int:tournament_id>/screen/", views.screen, name="screen"),
    path("<int:tournament_id>/print/<str:sheet>/", views.print_sheet, name="print"),
    path("<int:tournament_id>/withdraw/", views.withdraw, name="withdraw"),
    path("<int:tournament_id>/check-in/", views.check_in, name="check-in"),
    path(
        "<int:tournament_id>/players/<int:registration_id>/check-in/",
        views.check_in_player,
        name="check-in-player",
    ),
    path("<int:tournament_id>/round-controls/", views.round_controls, name="round-controls"),
    path("<int:tournament_id>/players/add/", views.add_player, name="add-player"),
    path(
        "<int:tournament_id>/players/<int:registration_id>/withdraw/",
        views.withdraw_player,
        name="withdraw-player",
    ),
    path(
        "<int:tournament_id>/players/<int:registration_id>/reinstate/",
        views.reinstate_player,
        name="reinstate-player",
    ),
    path(
        "<int:tournament_id>/players/<int:registration_id>/rating/", views.player_rating, name="player-rating"
    ),
    path("<int:tournament_id>/rounds/pair/", views.pair_round, name="pair-round"),
    path("<int:tournament_id>/rounds/start/", views.start_round, name="start-round"),
    path("<int:tournament_id>/rounds/pairing/", views.override_pairing, name="override-pairing"),
    path("<int:tournament_id>/rounds/result/", views.override_result, name="override-result"),
    path("<int:tournament_id>/export/<str:fmt>/", views.export, name="export"),
    path("<int:tournament_id>/divisions/add/", views.add_division, name="add-division"),
    path("<int:tournament_id>/divisions/tsh/", views.export_event, name="export-event"),
    path("<int:tournament_id>/players/<int:registration_id>/move/", views.move_player, name="move-player"),
    path("<int:tournament_id>/players/<int:registration_id>/name/", views.player_name, name="player-name"),
]
