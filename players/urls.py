from django.urls import path

from players import apis

urlpatterns = [
    path("auth/guest/", apis.GuestCreateApi.as_view(), name="auth-guest"),
    path("auth/register/", apis.RegisterApi.as_view(), name="auth-register"),
    path("auth/login/", apis.LoginApi.as_view(), name="auth-login"),
    path("auth/logout/", apis.LogoutApi.as_view(), name="auth-logout"),
    path("auth/ws-ticket/", apis.WsTicketApi.as_view(), name="auth-ws-ticket"),
    path("me/", apis.MeApi.as_view(), name="me"),
    path("bot/upgrade/", apis.BotUpgradeApi.as_view(), name="bot-upgrade"),
    path("bot/tokens/", apis.BotTokensApi.as_view(), name="bot-tokens"),
    path("bot/tokens/<int:token_id>/", apis.BotTokenDetailApi.as_view(), name="bot-token"),
    path("players/", apis.PlayerSearchApi.as_view(), name="players-search"),
    path("players/<uuid:player_id>/", apis.PlayerDetailApi.as_view(), name="players-detail"),
    path("players/<uuid:player_id>/games/", apis.PlayerGamesApi.as_view(), name="players-games"),
    path(
        "players/<uuid:player_id>/rating-history/",
        apis.PlayerRatingHistoryApi.as_view(),
        name="players-rating-history",
    ),
    path(
        "players/<uuid:player_id>/seasons/",
        apis.PlayerSeasonsApi.as_view(),
        name="players-seasons",
    ),
    path("leaderboard/", apis.LeaderboardApi.as_view(), name="leaderboard"),
]
