"""A real web process drained by SIGTERM (core/drain.py; docs/operations.md, "Deploys that drop
nothing"): uvicorn as the Procfile runs it, in a process of its own on 127.0.0.21, with one
worker and with two (the supervisor hands SIGTERM to each). With sockets open and a request in
flight, SIGTERM turns /readyz to 503 at once, refuses a new socket with 4503, closes every open
socket with 4503 at moments spread over WEB_DRAIN_SECONDS, finishes the request, and the process
exits after the window. A worker that hears SIGTERM twice (the process group's, the
supervisor's) drains once. A CPU's reply still waiting out its think time when the process
stops is played before it exits (core/local_tasks.py)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

import psycopg
import pytest
from channels.db import database_sync_to_async
from django.db import connection
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from accounts.services import auth_token_issue
from core.drain import CLOSE_DRAINING
from games.models import Game, GameStatus
from tests.factories import PlayerFactory
from tests.games.conftest import simple_move
from tests.servers import procfile_command, uvicorn_arguments

pytestmark = pytest.mark.django_db(transaction=True)

ROOT = Path(__file__).resolve().parents[2]
HOST = "127.0.0.21"
WINDOW = 2.0
SOCKETS = 12


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        port: int = probe.getsockname()[1]
        return port


def _get(url: str) -> tuple[int, dict[str, object]]:
    try:
        with urllib.request.urlopen(url, timeout=5) as response:  # noqa: S310 (our own URL)
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


@contextlib.contextmanager
def web_process(workers: int, **settings: str) -> Iterator[tuple[subprocess.Popen[bytes], str]]:
    """uvicorn serving the test database, until it exits or the block ends (then killed,
    with its workers: it leads a process group of its own); `settings`: more of its
    environment."""
    db = connection.settings_dict
    port = _free_port()
    env = {
        **os.environ,
        "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
        "PGAPPNAME": "drained-web",  # its sessions, told apart from the test's
        "WEB_DRAIN_SECONDS": str(WINDOW),
        "WEB_THREADS": "2",
        "DB_POOL_MAX": "4",  # its HTTP threads' and its CPU replies' (WEB_CPU_REPLIES)
        **settings,
    }
    # The Procfile's command, on this test's address and with its workers (the last wins).
    command = [
        sys.executable, "-m", "uvicorn", *uvicorn_arguments(procfile_command()),
        "--host", HOST, "--port", str(port), "--workers", str(workers),
    ]  # fmt: skip
    with tempfile.TemporaryFile() as log:
        process = subprocess.Popen(
            command, cwd=ROOT, env=env, stdout=log, stderr=log, start_new_session=True
        )
        try:
            url = f"http://{HOST}:{port}"
            deadline = time.monotonic() + 60
            while True:
                assert process.poll() is None, _tail(log)
                assert time.monotonic() < deadline, _tail(log)
                with contextlib.suppress(OSError):
                    if _get(f"{url}/readyz")[0] == 200:
                        break
                time.sleep(0.2)
            yield process, url
        except BaseException:
            print(_tail(log))  # the server's log, shown on failure
            raise
        finally:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGKILL)
            process.wait(10)
            _until_its_sessions_end(str(db["NAME"]))


def _until_its_sessions_end(database: str) -> None:
    """The server's database sessions end with it (a killed one's a moment later): the test
    database is dropped at the end of the run, which they would block."""
    db = connection.settings_dict
    deadline = time.monotonic() + 10
    with psycopg.connect(
        host=db["HOST"], port=db["PORT"], user=db["USER"], dbname="postgres", autocommit=True
    ) as maintenance:
        while time.monotonic() < deadline:
            sessions = maintenance.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = %s AND application_name"
                " = 'drained-web'",
                [database],
            ).fetchone()
            if sessions is None or sessions[0] == 0:
                return
            time.sleep(0.1)


def _tail(log: IO[bytes]) -> str:
    log.seek(0)
    return log.read()[-4000:].decode(errors="replace")


async def _me_socket(ws_url: str, token: str) -> ClientConnection:
    socket = await connect(
        f"{ws_url}/ws/v1/me/", additional_headers={"Authorization": f"Bearer {token}"}
    )
    assert json.loads(await socket.recv())["type"] == "hello"
    return socket


async def _closed(socket: ClientConnection) -> tuple[float, int | None]:
    """When the server closed `socket` (the loop's clock), and with what code."""
    with contextlib.suppress(ConnectionClosed):
        while True:
            await socket.recv()
    return asyncio.get_running_loop().time(), socket.close_code


async def _slow_request(host: str, port: int, body_sent: asyncio.Event) -> bytes:
    """A POST /livez whose body comes a byte a second until `body_sent`: a request still in
    flight when the window ends (the process stops listening)."""
    reader, writer = await asyncio.open_connection(host, port)
    body = b'{"slow": true}'
    writer.write(
        b"POST /livez HTTP/1.1\r\nHost: probe\r\nContent-Type: application/json\r\n"
        b"Content-Length: %d\r\n\r\n" % len(body)
    )
    sent = 0
    while not body_sent.is_set() and sent < len(body) - 1:
        writer.write(body[sent : sent + 1])
        await writer.drain()
        sent += 1
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(body_sent.wait(), 0.5)
    writer.write(body[sent:])
    await writer.drain()
    answer = await asyncio.wait_for(reader.read(), 10)  # the server closes after answering
    writer.close()
    return answer


@pytest.mark.parametrize("workers", [1, 2])
async def test_sigterm_drains_the_process_over_the_window(workers: int) -> None:
    player = await database_sync_to_async(PlayerFactory.create)()
    token = await database_sync_to_async(auth_token_issue)(player=player)
    with web_process(workers) as (process, url):
        ws_url = url.replace("http://", "ws://")
        port = int(url.rsplit(":", 1)[1])
        loop = asyncio.get_running_loop()
        sockets = [await _me_socket(ws_url, token) for _ in range(SOCKETS)]
        closes = [asyncio.create_task(_closed(socket)) for socket in sockets]
        body_sent = asyncio.Event()
        in_flight = asyncio.create_task(_slow_request(HOST, port, body_sent))
        await asyncio.sleep(0.3)  # the request's headers are in

        if workers == 1:
            os.kill(process.pid, signal.SIGTERM)
        else:
            # As `kill -TERM -<pgid>` or a terminal does: every worker hears it twice, from the
            # group and from the supervisor, and drains once.
            os.killpg(process.pid, signal.SIGTERM)
        signalled = loop.time()

        # /readyz turns 503 at once (the supervisor passes the signal on within half a second),
        # and stays so; /livez still answers.
        while (await asyncio.to_thread(_get, f"{url}/readyz"))[0] == 200:
            assert loop.time() - signalled < WINDOW / 2
            await asyncio.sleep(0.05)
        status, body = await asyncio.to_thread(_get, f"{url}/readyz")
        assert (status, body["draining"]) == (503, True)
        assert (await asyncio.to_thread(_get, f"{url}/livez"))[0] == 200

        # A new socket is refused with the drain's code, before any message.
        refused = await connect(f"{ws_url}/ws/v1/me/?ticket=unused")
        with pytest.raises(ConnectionClosed):
            await refused.recv()
        assert refused.close_code == CLOSE_DRAINING

        closed = await asyncio.wait_for(asyncio.gather(*closes), WINDOW + 10)
        assert [code for _, code in closed] == [CLOSE_DRAINING] * SOCKETS
        moments = sorted(at - signalled for at, _ in closed)
        assert moments[-1] <= WINDOW + 1.0  # within the window (and the supervisor's delay)
        assert moments[-1] - moments[0] >= WINDOW / 4  # spread, not all in one instant
        assert process.poll() is None  # not before the window's end

        # The window ends with the request still in flight: it is finished, then the exit.
        await asyncio.sleep(max(0.0, signalled + WINDOW + 0.5 - loop.time()))
        body_sent.set()
        answer = await in_flight
        assert answer.startswith(b"HTTP/1.1 200 "), answer[:200]
        assert answer.endswith(b'{"status": "ok"}\r\n0\r\n\r\n')  # chunked, then closed
        exit_code = await asyncio.to_thread(process.wait, 15)
        assert loop.time() - signalled >= WINDOW
        # uvicorn re-raises the SIGTERM it handled once it has shut down (or exits 0 as the
        # supervisor of its workers).
        assert exit_code in (0, -signal.SIGTERM)


def _api(url: str, token: str, path: str, body: dict[str, Any] | None = None) -> Any:
    request = urllib.request.Request(  # noqa: S310 (our own URL)
        f"{url}/api/v1/{path}",
        data=None if body is None else json.dumps(body).encode(),
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
        method="GET" if body is None else "POST",
    )
    with urllib.request.urlopen(request, timeout=10) as response:  # noqa: S310
        return json.loads(response.read())


def test_a_stopping_process_plays_the_cpu_replies_it_still_holds() -> None:
    """The CPU's reply is played by the web process that took the move (no Celery worker
    runs here), and one still waiting out its think time when SIGTERM comes is played before
    the process exits, not left to the sweeper."""
    player = PlayerFactory.create()
    token = auth_token_issue(player=player)
    think = {"YANIV_CPU_THINK_SECONDS": "60", "WEB_DRAIN_SECONDS": "0", "ALLOWED_HOSTS": HOST}
    with web_process(1, **think) as (process, url):
        game = _api(url, token, "games/", {"max_players": 2})
        _api(url, token, f"games/{game['id']}/cpu/", {})
        game = _api(url, token, f"games/{game['id']}/start/", {})
        if game["turn"]["seat"] == game["you"]["seat"]:  # the host's: move, the CPU's is next
            game = _api(url, token, f"games/{game['id']}/actions/", {
                "seq": game["seq"], **simple_move(game),
            })  # fmt: skip
        assert game["turn"]["seat"] != game["you"]["seat"]  # the CPU's reply, pending 60 s
        time.sleep(0.5)
        assert Game.objects.get(pk=game["id"]).seq == game["seq"]  # still pending
        start = time.monotonic()
        os.kill(process.pid, signal.SIGTERM)
        assert process.wait(20) in (0, -signal.SIGTERM)
        assert time.monotonic() - start < 15  # not after the think time
    stored = Game.objects.get(pk=game["id"])
    assert stored.seq > game["seq"]  # the CPU played before the exit
    assert stored.state["turn"] == game["you"]["seat"] or stored.status != GameStatus.ACTIVE
