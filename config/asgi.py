"""The ASGI entry point: HTTP through Django's sync handler in threads, websockets via Channels."""

from __future__ import annotations

import asyncio
import os
from typing import Any

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django_wsgi_app = get_wsgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.conf import settings  # noqa: E402
from django.urls import get_resolver  # noqa: E402
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware  # noqa: E402

from accounts.authentication import header_authenticate  # noqa: E402
from accounts.ws_auth import PlayerAuthMiddleware  # noqa: E402
from config.routing import websocket_urlpatterns  # noqa: E402
from core import drain, local_tasks  # noqa: E402
from core.heartbeat import heartbeat  # noqa: E402
from core.lean import Lean  # noqa: E402
from core.perf import garbage, loop_lag  # noqa: E402
from core.perf.http import ThreadedWSGI  # noqa: E402
from games import lean as games_lean  # noqa: E402
from players import lean as players_lean  # noqa: E402


async def lifespan(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """The server's start and stop (uvicorn sends them; the tests' servers do not): once
    started, the process's garbage collection goes on a clock (core/perf/garbage.py), its event
    loop's lateness is watched (core/perf/loop_lag.py), its SIGTERM drains it before uvicorn's
    shutdown (core/drain.py: uvicorn has set its own signal handlers by now, and hears the
    signal at the drain's end), and it plays the CPU's replies to the moves it takes
    (core/local_tasks.py), those still pending at its shutdown at once."""
    while True:
        message = await receive()
        if message["type"] == "lifespan.startup":
            get_resolver().url_patterns  # noqa: B018 (imports every view before the freeze)
            garbage.install(settings.WEB_GC_FULL_SECONDS)
            loop_lag.install()
            drain.install(settings.WEB_DRAIN_SECONDS, lambda: list(heartbeat().sockets))
            local_tasks.install(asyncio.get_running_loop())
            await send({"type": "lifespan.startup.complete"})
        elif message["type"] == "lifespan.shutdown":
            await local_tasks.shutdown()
            await send({"type": "lifespan.shutdown.complete"})
            return


def lean() -> Lean:
    """The lean path (core/lean.py) with every app's routes (a game, its events, a move, a
    websocket ticket)."""
    return Lean((*games_lean.ROUTES, *players_lean.ROUTES), header_authenticate)


router = ProtocolTypeRouter(
    {
        "http": ThreadedWSGI(
            django_wsgi_app,
            threads=settings.WEB_THREADS,
            # Django refuses a larger body anyway; this refuses it before it is all read.
            max_body=settings.DATA_UPLOAD_MAX_MEMORY_SIZE or 2**31,
            # A game's reads, a move and a ticket without Django's request cycle, where it can.
            lean=lean(),
        ),
        # No Origin check: sockets authenticate with a ticket or a bearer token, never a
        # cookie, so another site cannot ride a browser's session; and mobile clients send
        # no Origin at all.
        # A draining process refuses new sockets (4503) before they cost a ticket or a query.
        "websocket": drain.refusing_while_draining(
            PlayerAuthMiddleware(URLRouter(websocket_urlpatterns))
        ),
        "lifespan": lifespan,
    }
)


def trusting_proxies(app: Any) -> Any:
    """`app`, seeing through the proxies of FORWARDED_ALLOW_IPS: a request from one of them
    gets the client its X-Forwarded-For names (and the scheme of X-Forwarded-Proto) as its
    address, so REMOTE_ADDR is the client's; from anyone else the headers change nothing.
    The trust list is the project's, not the server's: the Dockerfile and the Procfile run
    uvicorn with `--no-proxy-headers` (uvicorn's own default trusts localhost)."""
    trusted: list[str] = settings.FORWARDED_ALLOW_IPS
    return ProxyHeadersMiddleware(app, trusted_hosts=trusted) if trusted else app


application = trusting_proxies(router)
