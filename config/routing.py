"""Websocket routes of every app, in one list, and the answer to a path none of them serves."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from django.urls import re_path
from django.utils.translation import gettext

from core.i18n import handshake_language, speaking
from games.routing import websocket_urlpatterns as games_routes
from players.routing import websocket_urlpatterns as players_routes
from tournaments.routing import websocket_urlpatterns as tournaments_routes

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]


async def not_found(scope: Scope, receive: Receive, send: Send) -> None:
    """Refuse the handshake: 404 where the server can answer it with an HTTP response (the
    ASGI denial-response extension, which uvicorn has), else a close before the accept, which
    servers send as 403. (Channels' router raises on an unknown path: a 500 and a traceback.)"""
    if (await receive())["type"] != "websocket.connect":
        return  # the client left before its handshake was read
    if "websocket.http.response" in scope.get("extensions", {}):
        headers = [(b"content-type", b"application/json")]
        await send({"type": "websocket.http.response.start", "status": 404, "headers": headers})
        with speaking(handshake_language(scope)):
            body = {"detail": gettext("Not found."), "code": "not_found"}
        await send({"type": "websocket.http.response.body", "body": json.dumps(body).encode()})
    else:
        await send({"type": "websocket.close"})


# Last: matches every path. (django-stubs types a route's target as a Django view; Channels'
# router takes any ASGI application.)
websocket_urlpatterns = [
    *games_routes,
    *players_routes,
    *tournaments_routes,
    re_path(r"", not_found),  # type: ignore[arg-type]
]
