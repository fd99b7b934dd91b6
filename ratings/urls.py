from django.urls import path

from ratings import apis

urlpatterns = [
    path("players/<uuid:player_id>/", apis.PlayerDetailApi.as_view(), name="players-detail"),
    path("players/<uuid:player_id>/games/", apis.PlayerGamesApi.as_view(), name="players-games"),
    path(
        "players/<uuid:player_id>/rating-history/",
        apis.PlayerRatingHistoryApi.as_view(),
        name="players-rating-history",
    ),
    path("leaderboard/", apis.LeaderboardApi.as_view(), name="leaderboard"),
]
