"""The probes `/livez` and `/readyz` (config/health.py), and the drain's parts that need no real
process (core/drain.py): a handshake refused while draining, the closes spread over the window,
a drained me socket that leaves its player online. tests/config/test_drain.py drains a real
uvicorn process with SIGTERM."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client as DjangoClient
from django.test import override_settings

from accounts.services import auth_token_issue
from config.asgi import application
from core import drain, presence
from core.heartbeat import heartbeat
from core.redis import get_redis
from tests.factories import PlayerFactory


@pytest.fixture
def draining() -> Iterator[None]:
    drain.start_draining()
    try:
        yield
    finally:
        drain.stop_draining()


def test_livez_answers_without_the_database_or_redis(settings) -> None:
    """No `django_db` mark: a query would fail the test. Nor does Redis matter."""
    get_redis.cache_clear()
    try:
        settings.REDIS_URL = "redis://127.0.0.1:1/0"
        response = DjangoClient().get("/livez")
    finally:
        get_redis.cache_clear()
    assert response.status_code == 200
    assert response.json() == {"status": "ok"}


@pytest.mark.django_db
def test_readyz_ok() -> None:
    response = DjangoClient().get("/readyz")
    assert response.status_code == 200
    assert response.json() == {"db": "ok", "redis": "ok", "draining": False}


@pytest.mark.django_db
def test_readyz_503_names_redis_when_it_is_unreachable() -> None:
    get_redis.cache_clear()
    try:
        with override_settings(REDIS_URL="redis://127.0.0.1:1/0"):
            response = DjangoClient().get("/readyz")
    finally:
        get_redis.cache_clear()
    assert response.status_code == 503
    assert response.json() == {"db": "ok", "redis": "error", "draining": False}


@pytest.mark.django_db
def test_readyz_503_names_the_database_when_it_fails(monkeypatch) -> None:
    from django.db import connection

    monkeypatch.setattr(connection, "cursor", _refused)
    response = DjangoClient().get("/readyz")
    assert response.status_code == 503
    assert response.json() == {"db": "error", "redis": "ok", "draining": False}


def _refused() -> None:
    raise OSError("connection refused")


@pytest.mark.django_db
@pytest.mark.usefixtures("draining")
def test_readyz_503_while_draining_and_livez_still_200() -> None:
    client = DjangoClient()
    response = client.get("/readyz")
    assert response.status_code == 503
    assert response.json() == {"db": "ok", "redis": "ok", "draining": True}
    assert client.get("/livez").status_code == 200
    assert client.get("/healthz").json() == {"db": "ok", "redis": "ok"}  # unchanged


@pytest.mark.django_db
def test_probes_answer_any_host_without_auth_and_say_their_language(settings) -> None:
    """As /healthz (config/internal.py): a probe calls a replica by its address; no token, no
    session, no CSRF (GET), the answer's language as every answer's."""
    settings.ALLOWED_HOSTS = ["yaniv.example"]
    client = DjangoClient(REMOTE_ADDR="172.30.80.3")
    for path in ("/livez", "/readyz", "/healthz"):
        response = client.get(path, HTTP_HOST="172.30.80.5:8000", HTTP_ACCEPT_LANGUAGE="he")
        assert response.status_code == 200, path
        assert response["Content-Language"] == "he", path
    assert client.get("/leaderboard", HTTP_HOST="172.30.80.5:8000").status_code == 400


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("draining")
async def test_a_handshake_while_draining_is_accepted_then_closed_with_4503() -> None:
    """Before authentication: the ticket is not spent (the client reconnects elsewhere with it)."""
    socket = WebsocketCommunicator(application, "/ws/v1/me/?ticket=not-even-looked-at")
    connected, _ = await socket.connect()
    assert connected
    assert await socket.receive_output(timeout=5) == {
        "type": "websocket.close",
        "code": drain.CLOSE_DRAINING,
    }
    await socket.wait()


class Recorded:
    """A socket that notes when it was told to close."""

    def __init__(self, closed: list[tuple[float, Recorded]]) -> None:
        self.closed = closed

    async def drain_close(self) -> None:
        self.closed.append((asyncio.get_running_loop().time(), self))


async def test_drain_closes_each_socket_once_at_its_own_moment_over_the_window() -> None:
    closed: list[tuple[float, Recorded]] = []
    sockets = [Recorded(closed) for _ in range(40)]
    open_now = list(sockets)
    moments = random.Random(7)
    same = random.Random(7)
    expected = sorted(same.uniform(0, 0.6) for _ in sockets)
    late = Recorded(closed)

    async def opens_late() -> None:
        await asyncio.sleep(0.2)
        open_now.append(late)  # its handshake began before the drain: closed at the end

    start = asyncio.get_running_loop().time()
    opening = asyncio.create_task(opens_late())
    await drain.drain(0.6, lambda: list(open_now), moments)
    await opening
    ended = asyncio.get_running_loop().time()

    assert sorted(id(s) for _, s in closed) == sorted(id(s) for s in [*sockets, late])
    assert closed[-1][1] is late
    offsets = [at - start for at, _ in closed[:-1]]
    # Each at (or just after) its drawn moment, in the drawn order: spread, not at once.
    for offset, moment in zip(offsets, expected, strict=True):
        assert moment - 0.01 <= offset
    assert offsets == sorted(offsets)
    assert ended - start >= 0.6 - 0.01


async def test_a_window_of_0_closes_every_socket_at_once() -> None:
    closed: list[tuple[float, Recorded]] = []
    sockets = [Recorded(closed) for _ in range(5)]
    await drain.drain(0, lambda: sockets)
    assert len(closed) == 5


@pytest.mark.django_db(transaction=True)
async def test_a_drained_me_socket_leaves_its_player_online_to_reconnect() -> None:
    """Closed by the drain, the me socket leaves its presence to lapse: its client reconnects
    at once, and the player's friends see no offline-and-back (core/drain.py)."""
    player = await database_sync_to_async(PlayerFactory.create)()
    raw = await database_sync_to_async(auth_token_issue)(player=player)
    socket = WebsocketCommunicator(
        application, "/ws/v1/me/", headers=[(b"authorization", f"Bearer {raw}".encode())]
    )
    connected, _ = await socket.connect()
    assert connected
    assert (await socket.receive_json_from(timeout=10))["type"] == "hello"
    assert len(heartbeat().sockets) == 1

    await drain.drain(0, lambda: list(heartbeat().sockets))

    assert await socket.receive_output(timeout=5) == {
        "type": "websocket.close",
        "code": drain.CLOSE_DRAINING,
    }
    await socket.send_input({"type": "websocket.disconnect", "code": drain.CLOSE_DRAINING})
    await socket.wait()
    assert heartbeat().sockets == set()
    assert await database_sync_to_async(presence.online)([player.pk]) == {str(player.pk)}
