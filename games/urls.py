from __future__ import annotations

from django.urls import path

from games import profiles, views

app_name = "games"

#: The archive lives under the player (``/players/<name>/games/``): the project's
#: ``urls.py`` includes these in the namespace ``archive``.
archive_patterns = [
    path("", views.archive, name="games"),
    path("download.<str:fmt>", views.archive_download, name="download"),
]

urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("new/", views.new_game, name="new"),
    path("new/<str:username>/", profiles.play_with, name="new-with"),
    path("watch/", views.watch, name="watch"),
    path("seeks/", views.seeks, name="seeks"),
    path("seeks/<int:game_id>/accept/", views.seek_accept, name="seek-accept"),
    path("seeks/<int:game_id>/computer/", views.seek_computer, name="seek-computer"),
    path("archive/", views.my_archive, name="my-archive"),
    path("<int:game_id>/", views.detail, name="detail"),
    path("<int:game_id>/fragments/", views.fragments, name="fragments"),
    path("<int:game_id>/preview/", views.preview, name="preview"),
    path("<int:game_id>/play/", views.play, name="play"),
    path("<int:game_id>/exchange/", views.exchange, name="exchange"),
    path("<int:game_id>/pass/", views.pass_turn, name="pass"),
    path("<int:game_id>/resign/", views.resign, name="resign"),
    path("<int:game_id>/challenge/", views.challenge, name="challenge"),
    path("<int:game_id>/accept-play/", views.accept_play, name="accept-play"),
    path("<int:game_id>/accept/", views.accept, name="accept"),
    path("<int:game_id>/decline/", views.decline, name="decline"),
    path("<int:game_id>/rematch/", views.rematch, name="rematch"),
    path("<int:game_id>/chat/", views.chat, name="chat"),
    path("<int:game_id>/gcg/", views.gcg, name="gcg"),
    path("<int:game_id>/replay/", views.replay, name="replay"),
    path("<int:game_id>/analysis/", views.analysis, name="analysis"),
    path("<int:game_id>/extras/<str:extra>/", views.buy, name="buy"),
    path("<int:game_id>/define/", views.define, name="define"),
    path("<int:game_id>/study-word", views.study_word, name="study-word"),
    path("study/<str:language>/", views.study_page, name="study"),
    path("study/<str:language>/quiz/", views.quiz, name="quiz"),
    path("study/<str:language>/export.<str:fmt>", views.study_export, name="study-export"),
]
