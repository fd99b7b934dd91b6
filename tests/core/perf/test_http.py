"""core/perf/http.py, HTTP through Django's WSGI handler in a thread: the environ, the bridge,
the real application; and what the bridge leans on in Django's handler, each test failing if
Django stops doing it."""

from __future__ import annotations

import asyncio
import io
import json
import threading
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import pytest
from django.conf import settings
from django.core.signals import request_finished
from django.http import FileResponse, HttpRequest, HttpResponse, StreamingHttpResponse
from django.urls import path

from config.asgi import application, django_wsgi_app
from core.perf.http import SPOOL_BYTES, ThreadedWSGI, environ

StartResponse = Callable[..., Any]


def _scope(**overrides: Any) -> dict[str, Any]:
    scope: dict[str, Any] = {
        "type": "http",
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": "/",
        "query_string": b"",
        "root_path": "",
        "headers": [],
        "client": ("10.0.0.7", 51000),
        "server": ("example.com", 8080),
    }
    scope.update(overrides)
    return scope


# environ -----------------------------------------------------------------------------------


def test_environ_maps_the_request_line_and_the_wsgi_keys() -> None:
    body = io.BytesIO(b"")
    scope = _scope(method="PUT", path="/api/v1/me/", query_string=b"a=1&b=%C3%A9", scheme="https")

    result = environ(scope, body)

    assert result["REQUEST_METHOD"] == "PUT"
    assert result["SCRIPT_NAME"] == ""
    assert result["PATH_INFO"] == "/api/v1/me/"
    assert result["QUERY_STRING"] == "a=1&b=%C3%A9"
    assert result["SERVER_PROTOCOL"] == "HTTP/1.1"
    assert result["SERVER_NAME"] == "example.com"
    assert result["SERVER_PORT"] == "8080"
    assert result["REMOTE_ADDR"] == "10.0.0.7"
    assert result["wsgi.url_scheme"] == "https"
    assert result["wsgi.input"] is body
    assert result["wsgi.version"] == (1, 0)
    assert result["wsgi.multithread"] is True
    assert result["wsgi.run_once"] is False


def test_environ_splits_the_root_path_off_the_path() -> None:
    result = environ(_scope(root_path="/yaniv", path="/yaniv/api/v1/me/"), io.BytesIO())

    assert result["SCRIPT_NAME"] == "/yaniv"
    assert result["PATH_INFO"] == "/api/v1/me/"


def test_environ_keeps_a_path_outside_the_root_path_whole() -> None:
    result = environ(_scope(root_path="/yaniv", path="/other/"), io.BytesIO())

    assert result["SCRIPT_NAME"] == "/yaniv"
    assert result["PATH_INFO"] == "/other/"


def test_environ_path_is_utf8_bytes_as_latin1() -> None:
    """PEP 3333: native strings hold the raw bytes, one character per byte."""
    result = environ(_scope(path="/players/é/"), io.BytesIO())

    assert result["PATH_INFO"] == "/players/\xc3\xa9/"
    assert result["PATH_INFO"].encode("latin1").decode("utf8") == "/players/é/"


def test_environ_maps_headers() -> None:
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", b"42"),
        (b"authorization", b"Bearer abc"),
        (b"x-forwarded-for", b"1.2.3.4"),
        (b"accept", b"text/html"),
        (b"accept", b"application/json"),
    ]

    result = environ(_scope(headers=headers), io.BytesIO())

    assert result["CONTENT_TYPE"] == "application/json"
    assert result["CONTENT_LENGTH"] == "42"
    assert "HTTP_CONTENT_TYPE" not in result
    assert "HTTP_CONTENT_LENGTH" not in result
    assert result["HTTP_AUTHORIZATION"] == "Bearer abc"
    assert result["HTTP_X_FORWARDED_FOR"] == "1.2.3.4"
    assert result["HTTP_ACCEPT"] == "text/html,application/json"


def test_environ_drops_headers_with_an_underscore() -> None:
    """Else `X_Forwarded_For: 6.6.6.6` from a client would pass for the proxy's X-Forwarded-For."""
    headers = [(b"x_forwarded_for", b"6.6.6.6"), (b"x-real_ip", b"6.6.6.6"), (b"x-ok", b"1")]

    result = environ(_scope(headers=headers), io.BytesIO())

    assert "HTTP_X_FORWARDED_FOR" not in result
    assert "HTTP_X_REAL_IP" not in result
    assert "6.6.6.6" not in result.values()
    assert result["HTTP_X_OK"] == "1"


def test_environ_defaults_without_server_or_client() -> None:
    scope = _scope()
    del scope["server"], scope["client"], scope["root_path"], scope["query_string"]

    result = environ(scope, io.BytesIO())

    assert result["SERVER_NAME"] == "localhost"
    assert result["SERVER_PORT"] == "80"
    assert "REMOTE_ADDR" not in result
    assert result["SCRIPT_NAME"] == ""
    assert result["QUERY_STRING"] == ""


def test_environ_unix_socket_server_has_port_80() -> None:
    result = environ(_scope(server=("/run/web.sock", None), client=None), io.BytesIO())

    assert result["SERVER_PORT"] == "80"
    assert "REMOTE_ADDR" not in result


# ThreadedWSGI with a fake WSGI application ---------------------------------------------------


class Recorder:
    """A WSGI application that answers with what it was given, and remembers the call."""

    def __init__(self) -> None:
        self.calls: list[dict[str, Any]] = []
        self.threads: list[str] = []

    def __call__(self, env: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        self.threads.append(threading.current_thread().name)
        body = env["wsgi.input"].read()
        self.calls.append({**env, "body": body})
        start_response("201 Created", [("Content-Type", "text/plain"), ("X-Seen", str(len(body)))])
        return [b"got ", body[:10]]


@pytest.fixture
def recorder() -> Recorder:
    return Recorder()


@pytest.fixture
def bridge(recorder: Recorder) -> Iterator[ThreadedWSGI]:
    app = ThreadedWSGI(recorder, threads=2, max_body=1024 * 1024)
    yield app
    app.executor.shutdown(wait=True)


async def _run(
    app: ThreadedWSGI, messages: list[dict[str, Any]], scope: dict[str, Any] | None = None
) -> list[dict[str, Any]]:
    """Call `app` with `messages` to receive (then a disconnect): what it sent."""
    pending = iter(messages)
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return next(pending, {"type": "http.disconnect"})

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    await app(scope or _scope(method="POST"), receive, send)
    return sent


def _chunk(body: bytes, more: bool) -> dict[str, Any]:
    return {"type": "http.request", "body": body, "more_body": more}


def _a_client_that_stays() -> Callable[[], Awaitable[dict[str, Any]]]:
    """An ASGI `receive`: an empty request body, then nothing (the client stays connected)."""
    requested = False

    async def receive() -> dict[str, Any]:
        nonlocal requested
        if not requested:
            requested = True
            return _chunk(b"", more=False)
        await asyncio.Event().wait()
        raise AssertionError("unreachable")

    return receive


async def test_status_headers_and_body_are_forwarded(bridge, recorder) -> None:
    sent = await _run(bridge, [_chunk(b"hello", more=False)])

    assert sent == [
        {
            "type": "http.response.start",
            "status": 201,
            "headers": [(b"content-type", b"text/plain"), (b"x-seen", b"5")],
        },
        {"type": "http.response.body", "body": b"got hello"},
    ]
    assert len(recorder.calls) == 1
    assert recorder.threads[0].startswith("http")  # in the pool, not on the loop's thread
    assert recorder.threads[0] != threading.current_thread().name


async def test_the_lean_path_answers_first_and_django_gets_what_it_leaves(recorder) -> None:
    """core/lean.py's place: asked in the pool thread before the WSGI application; its answer
    is sent as it is, and a request it leaves (None) reaches the application, body and all."""
    asked: list[bytes] = []

    def lean(env: dict[str, Any]) -> tuple[int, list[tuple[bytes, bytes]], bytes] | None:
        asked.append(env["wsgi.input"].read())
        env["wsgi.input"].seek(0)  # as core/lean.py does for a request it leaves
        if env["PATH_INFO"] == "/lean":
            return 200, [(b"content-type", b"application/json")], b"{}"
        return None

    app = ThreadedWSGI(recorder, threads=1, max_body=1024, lean=lean)
    try:
        lean_sent = await _run(app, [_chunk(b"a move", more=False)], _scope(path="/lean"))
        django_sent = await _run(app, [_chunk(b"other", more=False)], _scope(path="/other"))
    finally:
        app.executor.shutdown(wait=True)
    assert lean_sent[0]["status"] == 200
    assert lean_sent[1]["body"] == b"{}"
    assert [call["PATH_INFO"] for call in recorder.calls] == ["/other"]
    assert recorder.calls[0]["body"] == b"other"
    assert django_sent[1]["body"] == b"got other"
    assert asked == [b"a move", b"other"]


async def test_a_body_in_several_chunks_reaches_the_app_whole(bridge, recorder) -> None:
    chunks = [_chunk(b"one,", True), _chunk(b"", True), _chunk(b"two,", True), _chunk(b"3", False)]

    sent = await _run(bridge, chunks)

    assert recorder.calls[0]["body"] == b"one,two,3"
    assert sent[1]["body"] == b"got one,two,3"


async def test_a_body_without_content_length_is_read_by_its_length(bridge, recorder) -> None:
    """A chunked request has no Content-Length; Django reads CONTENT_LENGTH bytes, no more."""
    await _run(bridge, [_chunk(b"abc", True), _chunk(b"de", False)])

    assert recorder.calls[0]["CONTENT_LENGTH"] == "5"


async def test_a_body_larger_than_the_spool_works(bridge, recorder) -> None:
    piece = bytes(range(256)) * 256  # 64 KiB
    body = piece * 3 + b"tail"
    assert len(body) > SPOOL_BYTES
    chunks = [_chunk(piece, True), _chunk(piece, True), _chunk(piece + b"tail", False)]

    sent = await _run(bridge, chunks)

    assert recorder.calls[0]["body"] == body
    assert sent[0]["headers"][1] == (b"x-seen", str(len(body)).encode())


async def test_a_body_over_the_limit_is_refused_before_it_is_all_read(recorder) -> None:
    app = ThreadedWSGI(recorder, threads=1, max_body=10)
    chunks = [_chunk(b"123456", True), _chunk(b"789012", True), _chunk(b"never read", False)]
    pending = iter(chunks)

    async def receive() -> dict[str, Any]:
        return next(pending)

    sent: list[dict[str, Any]] = []

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    await app(_scope(method="POST"), receive, send)
    app.executor.shutdown(wait=True)

    assert sent[0]["status"] == 413
    assert json.loads(sent[1]["body"])["code"] == "too_large"
    assert recorder.calls == []
    assert next(pending)["body"] == b"never read"  # the rest was not read


async def test_a_body_at_the_limit_is_accepted(recorder) -> None:
    app = ThreadedWSGI(recorder, threads=1, max_body=10)
    sent = await _run(app, [_chunk(b"12345", True), _chunk(b"67890", False)])
    app.executor.shutdown(wait=True)

    assert sent[0]["status"] == 201
    assert recorder.calls[0]["body"] == b"1234567890"


async def test_a_disconnect_before_the_body_ends_calls_nothing(bridge, recorder) -> None:
    sent = await _run(bridge, [_chunk(b"part", True), {"type": "http.disconnect"}])

    assert sent == []
    assert recorder.calls == []


async def test_start_response_may_come_during_iteration_and_write_is_kept() -> None:
    def app(env: dict[str, Any], start_response: StartResponse) -> Iterator[bytes]:
        write = start_response("200 OK", [("X-Lazy", "yes")])
        write(b"written,")
        yield b"yielded"

    bridge = ThreadedWSGI(app, threads=1, max_body=1024)
    try:
        sent = await _run(bridge, [_chunk(b"", False)])
    finally:
        bridge.executor.shutdown(wait=True)

    assert sent[0]["status"] == 200
    assert sent[0]["headers"] == [(b"x-lazy", b"yes")]
    assert sent[1]["body"] == b"written,yielded"


class Failing:
    """A response iterable that breaks halfway, and records that it was closed."""

    def __init__(self) -> None:
        self.closed = False

    def __iter__(self) -> Iterator[bytes]:
        yield b"first"
        raise RuntimeError("broken while iterating")

    def close(self) -> None:
        self.closed = True


async def test_close_is_called_when_iteration_raises() -> None:
    result = Failing()

    def app(env: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        start_response("200 OK", [])
        return result

    bridge = ThreadedWSGI(app, threads=1, max_body=1024)
    try:
        with pytest.raises(RuntimeError, match="broken while iterating"):
            await _run(bridge, [_chunk(b"", False)])
    finally:
        bridge.executor.shutdown(wait=True)

    assert result.closed


async def test_an_exception_in_the_app_propagates_and_nothing_is_sent() -> None:
    def app(env: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        raise ValueError("boom")

    bridge = ThreadedWSGI(app, threads=1, max_body=1024)
    sent: list[dict[str, Any]] = []
    try:
        with pytest.raises(ValueError, match="boom"):
            sent = await _run(bridge, [_chunk(b"", False)])
    finally:
        bridge.executor.shutdown(wait=True)

    assert sent == []


# Streaming responses -------------------------------------------------------------------------


class Streamed:
    """A streaming response as Django's WSGI handler returns it (marked `streaming`) that
    yields its second chunk only once the first has reached the client (or after 10 s)."""

    streaming = True

    def __init__(self) -> None:
        self.delivered = threading.Event()
        self.closed = False
        self.threads: set[str] = set()

    def __iter__(self) -> Iterator[bytes]:
        self.threads.add(threading.current_thread().name)
        yield b"first"
        yield b"second" if self.delivered.wait(10) else b"sent only after the end"
        self.threads.add(threading.current_thread().name)

    def close(self) -> None:
        self.closed = True


def _streaming_app(response: Streamed) -> Callable[..., Any]:
    def app(env: dict[str, Any], start_response: StartResponse) -> Streamed:
        start_response("200 OK", [("Content-Type", "text/plain")])
        return response

    return app


async def test_a_streaming_response_is_sent_chunk_by_chunk_as_it_is_produced() -> None:
    response = Streamed()
    bridge = ThreadedWSGI(_streaming_app(response), threads=1, max_body=1024)
    sent: list[dict[str, Any]] = []
    receive = _a_client_that_stays()

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)
        if message.get("body") == b"first":
            response.delivered.set()

    try:
        await bridge(_scope(), receive, send)
    finally:
        bridge.executor.shutdown(wait=True)

    assert sent == [
        {
            "type": "http.response.start",
            "status": 200,
            "headers": [(b"content-type", b"text/plain")],
        },
        {"type": "http.response.body", "body": b"first", "more_body": True},
        {"type": "http.response.body", "body": b"second", "more_body": True},
        {"type": "http.response.body", "body": b""},
    ]
    assert response.closed
    assert len(response.threads) == 1  # one thread iterates it from start to end, off the loop
    assert response.threads != {threading.current_thread().name}


async def test_a_client_that_goes_stops_the_stream_and_closes_it() -> None:
    response = Streamed()
    bridge = ThreadedWSGI(_streaming_app(response), threads=1, max_body=1024)
    requested = False
    leaves = asyncio.Event()
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        nonlocal requested
        if not requested:
            requested = True
            return _chunk(b"", more=False)
        await leaves.wait()
        # The iterator goes on only once the bridge has heard of it.
        asyncio.get_running_loop().call_soon(response.delivered.set)
        return {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)
        if message.get("body") == b"first":
            leaves.set()

    try:
        await bridge(_scope(), receive, send)
    finally:
        bridge.executor.shutdown(wait=True)

    assert [message.get("body") for message in sent] == [None, b"first"]
    assert response.closed


def streaming_view(request: HttpRequest) -> StreamingHttpResponse:
    def chunks() -> Iterator[bytes]:
        yield b"first,"
        yield b"second" if VIEW_DELIVERED.wait(10) else b"sent only after the end"

    return StreamingHttpResponse(chunks(), content_type="text/plain")


def plain_view(request: HttpRequest) -> HttpResponse:
    return HttpResponse(b"plain", content_type="text/plain")


def file_view(request: HttpRequest) -> FileResponse:
    return FileResponse(io.BytesIO(b"file"), content_type="text/plain")


VIEW_DELIVERED = threading.Event()
urlpatterns = [
    path("stream/", streaming_view),
    path("plain/", plain_view),
    path("file/", file_view),
]


@pytest.mark.urls(__name__)
@pytest.mark.parametrize(
    ("url", "streaming"), [("/plain/", False), ("/stream/", True), ("/file/", True)]
)
def test_djangos_handler_returns_the_response_marked_streaming_or_not(
    url: str, streaming: bool
) -> None:
    """The bridge tells a streaming response by its mark, and closes every response when it is
    done with it: Django sends `request_finished` (the connection goes back) then, not before."""
    request = environ(_scope(path=url, server=("127.0.0.1", 80)), io.BytesIO())
    assert "wsgi.file_wrapper" not in request  # else Django would hand a FileResponse's file over
    finished: list[object] = []

    def on_finished(**kwargs: Any) -> None:
        finished.append(kwargs["sender"])

    def run() -> tuple[bool, int, int]:
        result = django_wsgi_app(request, lambda *started: lambda data: None)
        marked = getattr(result, "streaming", False)
        before = len(finished)
        result.close()
        return marked, before, len(finished)

    request_finished.connect(on_finished)
    try:
        # In a thread of its own, as the bridge runs it: `request_finished` closes its connections.
        with ThreadPoolExecutor(1) as pool:
            marked, before, after = pool.submit(run).result(10)
    finally:
        request_finished.disconnect(on_finished)
    assert marked is streaming
    assert (before, after) == (0, 1)


@pytest.mark.urls(__name__)
async def test_a_streaming_http_response_through_the_asgi_application() -> None:
    VIEW_DELIVERED.clear()
    sent: list[dict[str, Any]] = []
    receive = _a_client_that_stays()

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)
        if message.get("body") == b"first,":
            VIEW_DELIVERED.set()

    await application(_scope(path="/stream/", server=("127.0.0.1", 80)), receive, send)

    assert sent[0]["status"] == 200
    assert (b"content-type", b"text/plain") in sent[0]["headers"]
    assert sent[1:] == [
        {"type": "http.response.body", "body": b"first,", "more_body": True},
        {"type": "http.response.body", "body": b"second", "more_body": True},
        {"type": "http.response.body", "body": b""},
    ]


# The real application ----------------------------------------------------------------------


def _client() -> httpx.AsyncClient:
    return httpx.AsyncClient(
        transport=httpx.ASGITransport(app=application), base_url="http://127.0.0.1"
    )


@pytest.mark.django_db(transaction=True)  # the request runs in a pool thread, on its own connection
async def test_healthz_through_the_asgi_application() -> None:
    async with _client() as client:
        response = await client.get("/healthz")

    assert response.status_code == 200
    assert response.headers["content-type"] == "application/json"
    assert response.json() == {"db": "ok", "redis": "ok"}


@pytest.mark.django_db(transaction=True)
async def test_guest_creation_through_the_asgi_application(clear_throttles) -> None:
    async with _client() as client:
        response = await client.post("/api/v1/auth/guest/", json={"display_name": "Dana"})
        me = await client.get(
            "/api/v1/me/", headers={"Authorization": f"Bearer {response.json()['token']}"}
        )

    assert response.status_code == 201
    body = response.json()
    assert body["token"]
    assert body["player"]["display_name"] == "Dana"
    assert me.status_code == 200
    assert me.json()["id"] == body["player"]["id"]


@pytest.mark.django_db(transaction=True)
async def test_a_chunked_body_through_the_asgi_application(clear_throttles) -> None:
    """No Content-Length: the body arrives in pieces, and Django must still read all of it."""

    async def pieces() -> AsyncIterator[bytes]:
        payload = json.dumps({"display_name": "Chunky"}).encode()
        for start in range(0, len(payload), 5):
            yield payload[start : start + 5]

    async with _client() as client:
        response = await client.post(
            "/api/v1/auth/guest/",
            content=pieces(),
            headers={"Content-Type": "application/json"},
        )

    assert response.request.headers.get("transfer-encoding") == "chunked"
    assert "content-length" not in response.request.headers
    assert response.status_code == 201
    assert response.json()["player"]["display_name"] == "Chunky"


async def test_an_unknown_api_url_is_a_json_404() -> None:
    async with _client() as client:
        response = await client.get("/api/v1/nope/")

    assert response.status_code == 404
    assert response.headers["content-type"] == "application/json"
    assert response.json() == {"detail": "Not found.", "code": "not_found"}


async def test_an_oversized_body_through_the_asgi_application_is_a_json_413() -> None:
    async with _client() as client:
        response = await client.post(
            "/api/v1/auth/guest/",
            content=b"x" * (settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 1),
            headers={"Content-Type": "application/json"},
        )

    assert response.status_code == 413
    assert response.json()["code"] == "too_large"


async def test_the_admin_static_files_are_served() -> None:
    async with _client() as client:
        response = await client.get("/static/admin/css/base.css")

    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/css")
    assert b"body" in response.content
