from django.urls import path

from tournaments import apis

urlpatterns = [
    path("tournaments/", apis.TournamentListApi.as_view(), name="tournaments"),
    path("tournaments/<uuid:tournament_id>/", apis.TournamentDetailApi.as_view()),
    path("tournaments/<uuid:tournament_id>/join/", apis.TournamentJoinApi.as_view()),
    path("tournaments/<uuid:tournament_id>/pause/", apis.TournamentPauseApi.as_view()),
    path("tournaments/<uuid:tournament_id>/withdraw/", apis.TournamentWithdrawApi.as_view()),
    path("tournaments/<uuid:tournament_id>/standings/", apis.TournamentStandingsApi.as_view()),
    path("tournaments/<uuid:tournament_id>/games/", apis.TournamentGamesApi.as_view()),
]
