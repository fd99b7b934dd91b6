from django.urls import path

from seasons import apis

urlpatterns = [
    path("seasons/", apis.SeasonListApi.as_view(), name="seasons"),
    path("seasons/current/", apis.SeasonCurrentApi.as_view(), name="seasons-current"),
    path("seasons/<int:number>/", apis.SeasonDetailApi.as_view(), name="seasons-detail"),
    path(
        "seasons/<int:number>/leaderboard/",
        apis.SeasonLeaderboardApi.as_view(),
        name="seasons-leaderboard",
    ),
]
