from django.urls import path

from games import apis

urlpatterns = [
    path("rules/", apis.RulesApi.as_view(), name="rules"),
    path("games/", apis.GameCreateApi.as_view(), name="games-create"),
    path("games/live/", apis.LiveGamesApi.as_view(), name="games-live"),
    path("games/<uuid:game_id>/", apis.GameDetailApi.as_view(), name="games-detail"),
    path("games/<uuid:game_id>/join/", apis.GameJoinApi.as_view(), name="games-join"),
    path("games/<uuid:game_id>/cpu/", apis.GameCpuApi.as_view(), name="games-cpu"),
    path("games/<uuid:game_id>/start/", apis.GameStartApi.as_view(), name="games-start"),
    path("games/<uuid:game_id>/actions/", apis.GameActionApi.as_view(), name="games-act"),
    path(
        "games/<uuid:game_id>/legal-moves/",
        apis.GameLegalMovesApi.as_view(),
        name="games-legal-moves",
    ),
    path("games/<uuid:game_id>/events/", apis.GameEventsApi.as_view(), name="games-events"),
    path("games/<uuid:game_id>/record/", apis.GameRecordApi.as_view(), name="games-record"),
    path("games/<uuid:game_id>/leave/", apis.GameLeaveApi.as_view(), name="games-leave"),
    path("games/<uuid:game_id>/rematch/", apis.GameRematchApi.as_view(), name="games-rematch"),
]
