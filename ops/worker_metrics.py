"""A Celery worker's own /metrics, for a worker that shares no metrics directory with web (a
Kubernetes worker pod, whose directory is its own emptyDir): with WORKER_METRICS_PORT set, the
worker's main process serves `GET /metrics` on that port, the samples of its tasks (its own in
threads, its children's in prefork: the pod's directory), under the same rule as web's
(ops/views.py): with METRICS_TOKEN set it wants `Authorization: Bearer <token>` (401
otherwise); unset, it answers loopback clients only (404 to anyone else). The gauges read from
the database are web's to serve, not these.

Unset (0, compose's and `make run`'s default), nothing listens: web's /metrics reads the
worker's samples from the directory they share.
"""

from __future__ import annotations

import hmac
import ipaddress
import logging
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from django.conf import settings
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

from ops.collectors import scrape_registry

logger = logging.getLogger(__name__)


def allowed(authorization: str, address: str) -> int:
    """200 when the request may read the metrics, else its status (401, 404)."""
    token: str = settings.METRICS_TOKEN
    if token:
        expected = f"Bearer {token}".encode()
        return 200 if hmac.compare_digest(authorization.encode(), expected) else 401
    try:
        return 200 if ipaddress.ip_address(address).is_loopback else 404
    except ValueError:
        return 404


class _Handler(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        if self.path.split("?", 1)[0] != "/metrics":
            self._answer(404, b"Not found.\n")
            return
        status = allowed(self.headers.get("Authorization", ""), self.client_address[0])
        if status == 401:
            self._answer(
                401,
                b"A bearer token is required.\n",
                {"WWW-Authenticate": 'Bearer realm="metrics"'},
            )
        elif status != 200:
            self._answer(status, b"Not found.\n")
        else:
            body = generate_latest(scrape_registry(database=False))
            self._answer(200, body, {"Content-Type": CONTENT_TYPE_LATEST})

    def _answer(self, status: int, body: bytes, headers: dict[str, str] | None = None) -> None:
        self.send_response(status)
        for name, value in {"Content-Type": "text/plain; charset=utf-8", **(headers or {})}.items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:
        """Scrapes are not worth a log line each."""


def serve(port: int, host: str = "") -> ThreadingHTTPServer:
    """Serve /metrics on `port` (0: any free one) from a daemon thread; the server, to stop."""
    server = ThreadingHTTPServer((host, port), _Handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, name="worker-metrics", daemon=True).start()
    return server


def on_worker_ready(**_: Any) -> None:
    """Celery's worker_ready (the main process, its children forked): serve when asked to."""
    port: int = settings.WORKER_METRICS_PORT
    if port:
        serve(port)
        logger.info("worker metrics on port %d", port)
