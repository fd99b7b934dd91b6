"""bench._server's web command: uvicorn as the Procfile runs it unless BENCH_ASGI names Granian,
which then serves the same application on the same address with the same workers, its lifespan
and websockets on (bench/README.md, "The ASGI server")."""

from __future__ import annotations

import threading
import time
import uuid
from pathlib import Path

import pytest
import redis

from bench import _server


def _option(command: list[str], name: str) -> str:
    return command[command.index(name) + 1]


def test_uvicorn_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("BENCH_ASGI", raising=False)
    command = _server.web_command(8765, 2)
    assert Path(command[0]).name == "uvicorn"
    assert command[1] == "config.asgi:application"
    assert (_option(command, "--ws"), _option(command, "--workers")) == ("wsproto", "2")
    assert "--no-proxy-headers" in command


def test_bench_asgi_granian_serves_the_same_application_alike(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    (tmp_path / "granian").touch()  # installed by hand, not a dependency
    monkeypatch.setattr(_server, "BIN", tmp_path)
    monkeypatch.setenv("BENCH_ASGI", "granian")
    command = _server.web_command(8765, 2, host="127.0.0.9")
    assert command[0] == str(tmp_path / "granian")
    assert command[-1] == "config.asgi:application"
    assert _option(command, "--interface") == "asgi"  # with the lifespan (asginl: without)
    assert (_option(command, "--host"), _option(command, "--port")) == ("127.0.0.9", "8765")
    assert (_option(command, "--workers"), _option(command, "--http")) == ("2", "1")
    assert "--ws" in command
    # An explicit server wins over the environment (bench.game_reads --asgi).
    assert Path(_server.web_command(8765, 1, server="uvicorn")[0]).name == "uvicorn"


def test_granian_not_installed_or_an_unknown_server_stops_the_bench(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(_server, "BIN", tmp_path)
    with pytest.raises(SystemExit, match="not installed"):
        _server.web_command(8765, 2, server="granian")
    monkeypatch.setenv("BENCH_ASGI", "daphne")
    with pytest.raises(SystemExit, match="BENCH_ASGI='daphne'"):
        _server.web_command(8765, 2)


def test_a_backlog_of_an_earlier_run_is_run_before_anything_is_measured(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The worker runs what an earlier run left queued (here a thread stands in for it) and
    the server is handed over only once the queue is empty."""
    from django.conf import settings

    queue = f"bench-test-queue-{uuid.uuid4()}"
    monkeypatch.setattr(_server, "QUEUE", queue)
    broker = redis.Redis.from_url(settings.REDIS_URL)
    broker.rpush(queue, "a", "b", "c")

    def worker() -> None:
        time.sleep(0.5)  # the bench reads its queue first
        while broker.lpop(queue) is not None:
            time.sleep(0.2)

    server = _server.Server("http://127.0.0.1:1", {"REDIS_URL": settings.REDIS_URL}, {})
    server.processes["worker"] = None  # type: ignore[assignment]  # ours: its queue is read
    thread = threading.Thread(target=worker)
    thread.start()
    try:
        _server.backlog_run(server, most=10)
        assert broker.llen(queue) == 0
    finally:
        thread.join(10)
        broker.delete(queue)

    assert "holds 3 tasks of an earlier run" in capsys.readouterr().out
