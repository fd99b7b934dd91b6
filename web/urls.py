"""The client's routes (docs/api.md, "The web client"): the paths a browser test may open."""

from django.urls import URLPattern, re_path

from web.views import client

UUID = r"[0-9a-fA-F-]{36}"

urlpatterns: list[URLPattern] = [
    re_path(r"^$", client, name="web-home"),
    re_path(rf"^games/(?P<game_id>{UUID})/?$", client, name="web-game"),
    re_path(rf"^join/(?P<game_id>{UUID})/(?P<code>[^/]+)/?$", client, name="web-join"),
    re_path(rf"^players/(?P<player_id>{UUID})/?$", client, name="web-player"),
    re_path(r"^leaderboard/?$", client, name="web-leaderboard"),
    re_path(r"^seasons/?$", client, name="web-seasons"),
    re_path(r"^seasons/(?P<number>[0-9]+)/?$", client, name="web-season"),
    re_path(r"^tournaments/?$", client, name="web-tournaments"),
    re_path(rf"^tournaments/(?P<tournament_id>{UUID})/?$", client, name="web-tournament"),
    re_path(r"^watch/?$", client, name="web-watch"),
    re_path(r"^friends/?$", client, name="web-friends"),
    re_path(r"^how-to-play/?$", client, name="web-how-to-play"),
    re_path(rf"^replay/(?P<game_id>{UUID})/?$", client, name="web-replay"),
]
