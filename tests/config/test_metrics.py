"""GET /metrics: every metric after a game is played, and who may read them."""

from __future__ import annotations

import urllib.request
from datetime import timedelta
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test.client import Client as DjangoClient
from django.utils import timezone
from prometheus_client.parser import text_string_to_metric_families

from config import metrics
from config.asgi import application
from games.models import Game, GameStatus
from games.services.clock import game_cpu_turn
from games.tasks import rate_pending_games, sweep_deadlines
from matchmaking.services import matchmaking_pass, ticket_create
from ops import tasks_signals
from tests.games.conftest import Client, simple_move

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


def test_every_metric_is_exposed_after_a_game(db) -> None:
    host = Client.guest("Host")
    game = _play_against_a_cpu(host)
    ticket_create(player=Client.guest("Searcher").player, player_counts=[2, 3])
    matchmaking_pass()
    sweep_deadlines.apply()
    rate_pending_games.apply()

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
    task = "games.tasks.sweep_deadlines"
    assert _value(families, "yaniv_celery_task_runs_total", task=task, state="success")
    assert _value(families, "yaniv_celery_task_duration_seconds_count", task=task)


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


def test_a_worker_serves_its_own_metrics_on_its_port(settings) -> None:
    """A worker's figures live in its container's directory: with METRICS_WORKER_PORT set it
    serves them itself (ops/tasks_signals.py), for Prometheus' worker job."""
    settings.METRICS_WORKER_PORT = None
    assert tasks_signals.serve_worker_metrics() is None
    settings.METRICS_WORKER_PORT = 0  # a free port
    metrics.CELERY_TASK_RUNS.labels("games.tasks.cpu_turn", "success").inc()
    port = tasks_signals.serve_worker_metrics()
    assert port
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as answer:
        body = answer.read().decode()
    assert 'yaniv_celery_task_runs_total{state="success",task="games.tasks.cpu_turn"}' in body


def test_a_probe_is_counted_by_its_route(db) -> None:
    before = _value(_scrape(), "yaniv_http_requests_total", route="/healthz")
    DjangoClient().get("/healthz")
    assert _value(_scrape(), "yaniv_http_requests_total", route="/healthz") == before + 1
