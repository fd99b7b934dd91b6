from django.urls import path

from games.consumers import GameConsumer, MeConsumer

websocket_urlpatterns = [
    path("ws/v1/games/<uuid:game_id>/", GameConsumer.as_asgi()),
    path("ws/v1/me/", MeConsumer.as_asgi()),
]
