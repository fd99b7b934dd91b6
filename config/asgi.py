"""The ASGI entry point: HTTP through Django, websockets through Channels."""

from __future__ import annotations

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django_asgi_app = get_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402

from accounts.ws_auth import PlayerAuthMiddleware  # noqa: E402
from config.routing import websocket_urlpatterns  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        # No Origin check: sockets authenticate with a ticket or a bearer token, never a
        # cookie, so another site cannot ride a browser's session; and mobile clients send
        # no Origin at all.
        "websocket": PlayerAuthMiddleware(URLRouter(websocket_urlpatterns)),
    }
)
