"""HTTP through Django's synchronous handler: one thread hop per request.

Replaces: Django's ASGI handler (config/asgi.py routes `http` here; websockets stay on Channels).
Why: the API is synchronous (DRF, the ORM). Under Django's ASGI handler every middleware hook
and the view each cross from the event loop to a thread and back, about fifteen crossings per
API request, and they cost more than the request itself (`/healthz` 113 -> 381 requests/s, web
CPU per request 4.0 -> 1.0 ms: bench/README.md, "What helped"). Here a request is read on the event
loop, handed whole to Django's WSGI handler in a thread of a fixed pool, and its response
written back from the loop: two crossings.

A streaming response (Django's StreamingHttpResponse, and FileResponse, which WhiteNoise
serves the admin's static files with) is not joined: the thread that runs it sends each chunk
as its iterator yields it, and stops when the client goes.

Relies on (Django's WSGI handler, tests/core/perf/test_http.py): the iterable it returns is
the response itself, and its `streaming` attribute tells a streaming one (a FileResponse
included, since the environ offers no `wsgi.file_wrapper`); the response's `close()` is where
Django sends `request_finished`, which gives the request's database connection back.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import sys
import threading
from collections.abc import Awaitable, Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from tempfile import SpooledTemporaryFile
from typing import IO, Any

Scope = dict[str, Any]
Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]
WSGIApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]
Response = tuple[int, list[tuple[bytes, bytes]], bytes]

# A body larger than this is spooled to a temporary file instead of held in memory.
SPOOL_BYTES = 64 * 1024


class ThreadedWSGI:
    """An ASGI `http` application running a WSGI application in a pool of threads."""

    def __init__(
        self,
        app: WSGIApp,
        threads: int,
        max_body: int,
        lean: Callable[[dict[str, Any]], Response | None] | None = None,
    ) -> None:
        self.app = app
        self.lean = lean
        self.executor = ThreadPoolExecutor(threads, thread_name_prefix="http")
        self.max_body = max_body

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        assert scope["type"] == "http"
        with SpooledTemporaryFile(max_size=SPOOL_BYTES) as body:
            while True:
                message = await receive()
                if message["type"] == "http.disconnect":
                    return
                body.write(message.get("body", b""))
                if body.tell() > self.max_body:
                    await _too_large(send, self.max_body, scope)
                    return
                if not message.get("more_body"):
                    break
            request = environ(scope, body)
            # Django reads CONTENT_LENGTH bytes of the body and no more (none when it is absent,
            # as in a chunked request), so give it the length of what was read.
            request["CONTENT_LENGTH"] = str(body.tell())
            body.seek(0)
            loop = asyncio.get_running_loop()
            response = await loop.run_in_executor(
                self.executor, self.respond, request, Stream(loop, receive, send)
            )
        if response is None:
            return  # streamed from the thread
        status, headers, content = response
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": content})

    def respond(self, environ: dict[str, Any], stream: Stream) -> Response | None:
        """Run the WSGI application to completion, in a pool thread: the response, or None
        when it was a streaming one, which this thread has sent through `stream`. The lean
        path (core/lean.py) answers first where it can."""
        if self.lean is not None and (answer := self.lean(environ)) is not None:
            return answer
        started: list[Any] = []

        def start_response(
            status: str, headers: list[tuple[str, str]], exc_info: Any = None
        ) -> Any:
            started[:] = [status, headers]
            return lambda data: chunks.append(data)

        chunks: list[bytes] = []
        result = self.app(environ, start_response)
        try:
            if getattr(result, "streaming", False):  # Django's mark of a streaming response
                stream.run(*_status_and_headers(*started), itertools.chain(chunks, result))
                return None
            chunks.extend(result)
        finally:
            close = getattr(result, "close", None)
            if close is not None:
                close()  # Django sends request_finished here: connections go back to the pool
        return *_status_and_headers(*started), b"".join(chunks)


def _status_and_headers(
    status: str, headers: list[tuple[str, str]]
) -> tuple[int, list[tuple[bytes, bytes]]]:
    encoded = [(name.lower().encode("latin1"), value.encode("latin1")) for name, value in headers]
    return int(status.split(" ", 1)[0]), encoded


class Stream:
    """Sends a streaming response from the pool thread that iterates it, which keeps the
    request's thread (and its database connection) for the whole response, as a WSGI server
    does. Each send waits until the loop has written it, so a slow client slows the iterator
    instead of filling memory; a client that goes stops the iteration at the next chunk
    (the server would drop the chunks anyway, and an endless stream would hold the thread)."""

    def __init__(self, loop: asyncio.AbstractEventLoop, receive: Receive, send: Send) -> None:
        self.loop = loop
        self.receive = receive
        self.send = send

    def run(self, status: int, headers: list[tuple[bytes, bytes]], body: Iterable[bytes]) -> None:
        gone = threading.Event()
        watching = asyncio.run_coroutine_threadsafe(self._watch(gone), self.loop)
        try:
            self._send({"type": "http.response.start", "status": status, "headers": headers})
            for chunk in body:
                if gone.is_set():
                    return
                if chunk:
                    self._send({"type": "http.response.body", "body": chunk, "more_body": True})
            self._send({"type": "http.response.body", "body": b""})
        finally:
            watching.cancel()

    def _send(self, message: dict[str, Any]) -> None:
        asyncio.run_coroutine_threadsafe(self._on_loop(message), self.loop).result()

    async def _on_loop(self, message: dict[str, Any]) -> None:
        await self.send(message)

    async def _watch(self, gone: threading.Event) -> None:
        """The request's body has been read: what the server says next is that the client went."""
        while (await self.receive())["type"] != "http.disconnect":
            pass
        gone.set()


async def _too_large(send: Send, limit: int, scope: Scope) -> None:
    """413 in the API's error format, before the rest of an oversized body is read; in the
    language the request's Accept-Language names (Django's middleware has not run yet)."""
    from django.utils.translation import gettext

    from core.i18n import handshake_language, speaking

    with speaking(handshake_language(scope)):
        detail = gettext("The request body is larger than %(limit)s bytes.") % {"limit": limit}
    content = json.dumps({"detail": detail, "code": "too_large"}).encode()
    headers = [(b"content-type", b"application/json"), (b"connection", b"close")]
    await send({"type": "http.response.start", "status": 413, "headers": headers})
    await send({"type": "http.response.body", "body": content})


def environ(scope: Scope, body: IO[bytes]) -> dict[str, Any]:
    """The WSGI environ (PEP 3333) of an ASGI http scope."""
    script_name = scope.get("root_path", "").encode("utf8").decode("latin1")
    path_info = scope["path"].encode("utf8").decode("latin1")
    if script_name and path_info.startswith(script_name):
        path_info = path_info[len(script_name) :]
    server = scope.get("server") or ("localhost", 80)
    result: dict[str, Any] = {
        "REQUEST_METHOD": scope["method"],
        "SCRIPT_NAME": script_name,
        "PATH_INFO": path_info,
        "QUERY_STRING": scope.get("query_string", b"").decode("latin1"),
        "SERVER_PROTOCOL": f"HTTP/{scope.get('http_version', '1.1')}",
        "SERVER_NAME": server[0],
        "SERVER_PORT": str(server[1] if server[1] is not None else 80),
        "wsgi.version": (1, 0),
        "wsgi.url_scheme": scope.get("scheme", "http"),
        "wsgi.input": body,
        "wsgi.errors": sys.stderr,
        "wsgi.multithread": True,
        "wsgi.multiprocess": True,
        "wsgi.run_once": False,
    }
    if scope.get("client"):
        result["REMOTE_ADDR"] = scope["client"][0]
    for raw_name, raw_value in scope.get("headers", []):
        name = raw_name.decode("latin1").upper()
        if "_" in name:
            # As gunicorn and runserver do: X_Forwarded_For must not pass as X-Forwarded-For.
            continue
        name = name.replace("-", "_")
        if name not in ("CONTENT_LENGTH", "CONTENT_TYPE"):
            name = f"HTTP_{name}"
        value = raw_value.decode("latin1")
        result[name] = f"{result[name]},{value}" if name in result else value
    return result
