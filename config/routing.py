"""Websocket routes of every app, in one list."""

from __future__ import annotations

from games.routing import websocket_urlpatterns as games_routes

websocket_urlpatterns = [*games_routes]
