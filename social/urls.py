from django.urls import path

from social import apis

urlpatterns = [
    path("me/friends/", apis.FriendsApi.as_view(), name="me-friends"),
    path("me/friends/<uuid:player_id>/", apis.FriendDetailApi.as_view(), name="me-friend"),
    path("me/friend-requests/", apis.FriendRequestsApi.as_view(), name="me-friend-requests"),
    path("me/blocks/", apis.BlocksApi.as_view(), name="me-blocks"),
    path("me/blocks/<uuid:player_id>/", apis.BlockDetailApi.as_view(), name="me-block"),
    path("challenges/", apis.ChallengesApi.as_view(), name="challenges"),
    path("challenges/<uuid:challenge_id>/", apis.ChallengeDetailApi.as_view(), name="challenge"),
    path(
        "challenges/<uuid:challenge_id>/accept/",
        apis.ChallengeAcceptApi.as_view(),
        name="challenge-accept",
    ),
    path(
        "challenges/<uuid:challenge_id>/decline/",
        apis.ChallengeDeclineApi.as_view(),
        name="challenge-decline",
    ),
]
