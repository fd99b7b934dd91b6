from django.urls import path

from tournaments.consumers import StandingsConsumer

websocket_urlpatterns = [
    path("ws/v1/tournaments/<uuid:tournament_id>/", StandingsConsumer.as_asgi()),
]
