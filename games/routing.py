from django.urls import path

from games.consumers import GameConsumer

websocket_urlpatterns = [
    path("ws/v1/games/<uuid:game_id>/", GameConsumer.as_asgi()),
]
