"""GET /metrics: every metric after a game is played, and who may read them."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test.client import Client as DjangoClient
from django.utils import timezone
from prometheus_client import CollectorRegistry
from prometheus_client.multiprocess import MultiProcessCollector
from prometheus_client.parser import text_string_to_metric_families

from config.asgi import application
from core import local_tasks, metrics
from games.models import Game, GameStatus
from games.services.clock import CPU_REPLY, game_cpu_turn
from games.tasks import games_rate_pending, games_timeout_overdue
from matchmaking.services import matchmaking_pass, ticket_create
from tests.games.conftest import Client, simple_move

ROOT = Path(__file__).resolve().parents[2]

NAMES = [
    "yaniv_http_requests_total",
    "yaniv_http_request_duration_seconds",
    "yaniv_moves_applied_total",
    "yaniv_moves_refused_total",
    "yaniv_move_duration_seconds",
    "yaniv_active_games",
    "yaniv_open_websockets",
    "yaniv_tickets_searching",
    "yaniv_ticket_wait_seconds",
    "yaniv_matchmaking_pass_seconds",
    "yaniv_cpu_fills_total",
    "yaniv_games_unrated",
    "yaniv_overdue_turns_total",
    "yaniv_celery_task_runs_total",
    "yaniv_celery_task_duration_seconds",
    "yaniv_local_task_runs_total",
    "yaniv_gc_full_seconds",
    "yaniv_event_loop_lag_seconds",
]


def _scrape(**headers: Any) -> dict[str, list[Any]]:
    response = DjangoClient().get("/metrics", **headers)
    assert response.status_code == 200, response.content
    return {
        family.name: family.samples
        for family in text_string_to_metric_families(response.content.decode())
    }


def _value(families: dict[str, list[Any]], name: str, **labels: str) -> float:
    return sum(
        sample.value
        for family in families.values()
        for sample in family
        if sample.name == name and all(sample.labels.get(k) == v for k, v in labels.items())
    )


def _play_against_a_cpu(host: Client) -> dict[str, Any]:
    game = host.post("/api/v1/games/", {"max_players": 2}).json()
    host.post(f"/api/v1/games/{game['id']}/cpu/")
    game = host.post(f"/api/v1/games/{game['id']}/start/").json()
    # A refused move (a stale seq), then moves until the CPU has played.
    assert host.act({**game, "seq": game["seq"] + 5}, **simple_move(game)).status_code == 409
    for _ in range(4):
        game = host.game(game["id"])
        if game["status"] != GameStatus.ACTIVE:
            break
        if game["turn"]["seat"] == game["you"]["seat"]:
            assert host.act(game, **simple_move(game)).status_code == 200
        else:
            game_cpu_turn(game_id=game["id"], seq=game["seq"])
    return game


def test_every_metric_is_exposed_after_a_game(db, local_runner) -> None:
    host = Client.guest("Host")
    game = _play_against_a_cpu(host)
    ran = threading.Event()  # a web process's local task (its runs are counted)
    assert local_tasks.call_later(0, ran.set, CPU_REPLY)
    assert ran.wait(5)
    ticket_create(player=Client.guest("Searcher").player, player_counts=[2, 3])
    matchmaking_pass()
    games_timeout_overdue.apply()
    games_rate_pending.apply()

    families = _scrape()

    # (The parser names a counter's family without its `_total`.)
    assert {name.removesuffix("_total") for name in NAMES} <= set(families)
    route = "/api/v1/games/{game_id}/actions/"
    assert _value(families, "yaniv_http_requests_total", route=route, method="POST", status="200")
    assert _value(families, "yaniv_http_requests_total", route=route, status="409")
    assert _value(families, "yaniv_http_request_duration_seconds_count", route=route)
    assert not any(game["id"] in str(s.labels) for f in families.values() for s in f)
    assert _value(families, "yaniv_moves_applied_total", source="player")
    assert _value(families, "yaniv_moves_applied_total", source="cpu")
    assert _value(families, "yaniv_moves_refused_total", code="stale_seq")
    assert _value(families, "yaniv_move_duration_seconds_count")
    if Game.objects.get(pk=game["id"]).status == GameStatus.ACTIVE:
        assert _value(families, "yaniv_active_games", size="2", ranked="false") == 1
    assert _value(families, "yaniv_tickets_searching", size="3") == 1
    assert _value(families, "yaniv_matchmaking_pass_seconds_count")
    task = "games.tasks.games_timeout_overdue"
    assert _value(families, "yaniv_celery_task_runs_total", task=task, state="success")
    assert _value(families, "yaniv_celery_task_duration_seconds_count", task=task)
    assert _value(families, "yaniv_local_task_runs_total", task=CPU_REPLY, state="success")


def test_a_matched_ticket_counts_its_wait_and_a_cpu_fill(db, settings) -> None:
    settings.YANIV_QUEUE_CPU_FILL_SECONDS = 30
    before = _scrape()
    ticket_create(player=Client.guest("Alone").player, player_counts=[2])
    result = matchmaking_pass(now=timezone.now() + timedelta(seconds=40))
    assert result is not None
    assert len(result.games) == 1
    after = _scrape()
    assert _value(after, "yaniv_cpu_fills_total") == _value(before, "yaniv_cpu_fills_total") + 1
    count = "yaniv_ticket_wait_seconds_count"
    assert _value(after, count) == _value(before, count) + 1
    wait = "yaniv_ticket_wait_seconds_sum"
    assert _value(after, wait) >= _value(before, wait) + 40
    assert _value(after, "yaniv_games_unrated") == 0


def test_the_token_is_required_when_set(db, settings) -> None:
    settings.METRICS_TOKEN = "s3cret"
    assert DjangoClient().get("/metrics").status_code == 401
    wrong = DjangoClient().get("/metrics", HTTP_AUTHORIZATION="Bearer nope")
    assert wrong.status_code == 401
    assert wrong["WWW-Authenticate"].startswith("Bearer")
    # With the token, from anywhere.
    remote = DjangoClient(REMOTE_ADDR="203.0.113.9")
    assert remote.get("/metrics", HTTP_AUTHORIZATION="Bearer s3cret").status_code == 200


@pytest.mark.parametrize("address", ["203.0.113.9", "10.0.0.2", "::ffff:8.8.8.8"])
def test_without_a_token_only_loopback_may_scrape(db, settings, address) -> None:
    settings.METRICS_TOKEN = ""
    assert DjangoClient(REMOTE_ADDR=address).get("/metrics").status_code == 404
    # A forged header changes nothing: the address is the connection's (config/asgi.py).
    forged = DjangoClient(REMOTE_ADDR=address, HTTP_X_FORWARDED_FOR="127.0.0.1")
    assert forged.get("/metrics").status_code == 404
    assert DjangoClient(REMOTE_ADDR="::1").get("/metrics").status_code == 200


@pytest.mark.django_db(transaction=True)
async def test_open_websockets_counts_connected_sockets() -> None:
    client = await database_sync_to_async(Client.guest)("Watcher")
    scrape = database_sync_to_async(_scrape)
    before = _value(await scrape(), "yaniv_open_websockets")
    socket = WebsocketCommunicator(
        application, "/ws/v1/me/", headers=[(b"authorization", f"Bearer {client.token}".encode())]
    )
    connected, _ = await socket.connect()
    assert connected
    assert _value(await scrape(), "yaniv_open_websockets") == before + 1
    await socket.disconnect()
    assert _value(await scrape(), "yaniv_open_websockets") == before


def test_a_scrape_and_a_probe_by_a_replicas_address_pass_the_host_check(db, settings) -> None:
    """Prometheus and health checks call a replica by its IP, which ALLOWED_HOSTS cannot
    list (config/internal.py); any other path still refuses an unknown host."""
    settings.METRICS_TOKEN = "s3cret"
    settings.ALLOWED_HOSTS = ["yaniv.example"]
    client = DjangoClient(REMOTE_ADDR="172.30.80.3")
    scrape = client.get(
        "/metrics", HTTP_HOST="172.30.80.5:8000", HTTP_AUTHORIZATION="Bearer s3cret"
    )
    assert scrape.status_code == 200
    assert b"yaniv_http_requests_total" in scrape.content
    assert client.get("/healthz", HTTP_HOST="172.30.80.5:8000").status_code in (200, 503)
    assert client.get("/leaderboard", HTTP_HOST="172.30.80.5:8000").status_code == 400


# A process of another container: its hostname (and, with a third argument, its pid: pids
# repeat across containers) as given, it counts moves and opens sockets, says so, and lives
# until its stdin closes. With FORK set it forks first, and the child opens one socket more.
_OTHER_PROCESS = """
import os, socket, sys
socket.gethostname = lambda: sys.argv[1]
if len(sys.argv) > 3:
    os.getpid = lambda: int(sys.argv[3])
from core import metrics
metrics.MOVES_APPLIED.labels("player").inc(int(sys.argv[2]))
metrics.OPEN_WEBSOCKETS.inc(int(sys.argv[2]))
if os.environ.get("FORK"):
    written, told = os.pipe()
    if os.fork() == 0:
        metrics.OPEN_WEBSOCKETS.inc(100)
        os.write(told, b"x")
        sys.stdin.readline()
        os._exit(0)
    os.read(written, 1)  # the child has written: then the parent says it is ready
print("ready", os.getpid(), flush=True)
sys.stdin.readline()
"""


class Container:
    """Processes as in other containers, writing into one metrics directory."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.processes: list[subprocess.Popen[str]] = []

    def start(self, host: str, moves: int, *args: str, fork: bool = False) -> subprocess.Popen[str]:
        env = {**os.environ, "PROMETHEUS_MULTIPROC_DIR": str(self.directory)}
        if fork:
            env["FORK"] = "1"
        process = subprocess.Popen(
            [sys.executable, "-c", _OTHER_PROCESS, host, str(moves), *args],
            cwd=ROOT,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        self.processes.append(process)
        assert process.stdout is not None
        assert process.stdout.readline().startswith("ready")
        return process

    def kill(self, process: subprocess.Popen[str]) -> None:
        process.kill()  # as a container ends at once: no hook runs
        process.wait()

    def read(self) -> dict[str, float]:
        metrics.mark_dead_processes(self.directory)
        registry = CollectorRegistry()
        MultiProcessCollector(registry, path=str(self.directory))  # type: ignore[no-untyped-call]
        found = {"moves": 0.0, "sockets": 0.0}
        for family in registry.collect():
            for sample in family.samples:
                if sample.name == "yaniv_moves_applied_total":
                    found["moves"] += sample.value
                elif sample.name == "yaniv_open_websockets":
                    found["sockets"] += sample.value
        return found

    def close(self) -> None:
        for process in self.processes:
            assert process.stdin is not None
            process.stdin.close()  # a forked child still reading it ends too
            if process.poll() is None:
                process.kill()
                process.wait()


@pytest.fixture
def containers(tmp_path: Path) -> Iterator[Container]:
    shared = Container(tmp_path)
    yield shared
    shared.close()


def test_processes_of_containers_sharing_a_directory_are_summed(containers) -> None:
    """Two containers' processes with the same pid write files of their own, summed; one
    that ends at once keeps its counts, and its live gauge goes at the next read."""
    web = containers.start("web-1", 3, "7")
    worker = containers.start("worker-1", 4, "7")
    assert sorted(p.name for p in containers.directory.glob("counter_*.db")) == [
        "counter_web-1-7.db",
        "counter_worker-1-7.db",
    ]
    assert containers.read() == {"moves": 7, "sockets": 7}
    containers.kill(worker)
    assert containers.read() == {"moves": 7, "sockets": 3}
    assert not list(containers.directory.glob("*worker-1-7.lock"))
    assert (containers.directory / "web-1-7.lock").exists()  # alive: its lock is held
    containers.kill(web)
    assert containers.read() == {"moves": 7, "sockets": 0}


def test_a_restarted_container_does_not_inherit_its_dead_namesakes_live_gauges(
    containers,
) -> None:
    """The same hostname and pid after a restart: the live gauge starts afresh (not from what
    the dead one left), the counter counts on from it."""
    first = containers.start("web-1", 5, "9")
    containers.kill(first)
    containers.start("web-1", 2, "9")  # nothing read in between
    assert containers.read() == {"moves": 7, "sockets": 2}


def test_two_live_namesakes_each_get_a_name_of_their_own(containers) -> None:
    """Containers given one hostname (compose's `hostname:`), pids that repeat: the second
    process finds the name's lock held and takes a name of its own, and nothing is lost."""
    containers.start("web", 3, "7")
    containers.start("web", 4, "7")
    assert len(list(containers.directory.glob("counter_web-7*.db"))) == 2
    assert containers.read() == {"moves": 7, "sockets": 7}


def test_a_forked_child_is_a_process_of_its_own(containers) -> None:
    """Celery's prefork children: a child writes under its own pid and holds its own lock, so
    its parent's end drops the parent's live gauge and not the child's."""
    parent = containers.start("worker-1", 1, fork=True)
    assert containers.read() == {"moves": 1, "sockets": 101}
    containers.kill(parent)
    assert containers.read() == {"moves": 1, "sockets": 100}


def test_a_probe_is_counted_by_its_route(db) -> None:
    before = _value(_scrape(), "yaniv_http_requests_total", route="/healthz")
    DjangoClient().get("/healthz")
    assert _value(_scrape(), "yaniv_http_requests_total", route="/healthz") == before + 1
