from django.urls import path

from players.consumers import MeConsumer

websocket_urlpatterns = [
    path("ws/v1/me/", MeConsumer.as_asgi()),
]
