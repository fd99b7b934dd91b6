"""A Celery worker's own /metrics (ops/worker_metrics.py): a Kubernetes worker pod's samples,
which no web pod reads, under web's token or loopback rule."""

from __future__ import annotations

import http.client
from collections.abc import Iterator

import pytest
from celery.signals import worker_ready
from prometheus_client.parser import text_string_to_metric_families

from core import metrics
from ops import worker_metrics


@pytest.fixture
def served() -> Iterator[str]:
    server = worker_metrics.serve(0, "127.0.0.1")
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def _get(url: str, **headers: str) -> tuple[int, str, dict[str, str]]:
    address, path = url.removeprefix("http://").split("/", 1)
    host, port = address.rsplit(":", 1)
    connection = http.client.HTTPConnection(host, int(port), timeout=10)
    try:
        connection.request("GET", f"/{path}", headers=headers)
        response = connection.getresponse()
        return response.status, response.read().decode(), dict(response.headers)
    finally:
        connection.close()


def test_it_serves_the_directorys_samples_without_the_database_gauges(served, settings) -> None:
    settings.METRICS_TOKEN = ""
    metrics.CELERY_TASK_RUNS.labels("ops.tasks.snapshot_take", "success").inc()
    status, body, headers = _get(f"{served}/metrics")
    assert status == 200
    assert headers["Content-Type"].startswith("text/plain")
    names = {family.name for family in text_string_to_metric_families(body)}
    assert "yaniv_celery_task_runs" in names
    assert "yaniv_active_games" not in names  # web's to serve
    assert _get(f"{served}/other")[0] == 404


def test_with_a_token_it_wants_the_token(served, settings) -> None:
    settings.METRICS_TOKEN = "s3cret"
    status, _, headers = _get(f"{served}/metrics")
    assert status == 401
    assert headers["WWW-Authenticate"].startswith("Bearer")
    assert _get(f"{served}/metrics", Authorization="Bearer nope")[0] == 401
    assert _get(f"{served}/metrics", Authorization="Bearer s3cret")[0] == 200


def test_without_a_token_only_loopback_may_read(settings) -> None:
    settings.METRICS_TOKEN = ""
    assert worker_metrics.allowed("", "127.0.0.1") == 200
    assert worker_metrics.allowed("", "::1") == 200
    assert worker_metrics.allowed("", "10.0.0.2") == 404
    assert worker_metrics.allowed("Bearer s3cret", "10.0.0.2") == 404
    settings.METRICS_TOKEN = "s3cret"
    assert worker_metrics.allowed("Bearer s3cret", "10.0.0.2") == 200


def test_the_worker_serves_only_when_a_port_is_set(settings, monkeypatch) -> None:
    started: list[int] = []
    monkeypatch.setattr(worker_metrics, "serve", lambda port: started.append(port))
    settings.WORKER_METRICS_PORT = 0
    worker_ready.send(sender=None)  # as Celery's main process, its children forked
    settings.WORKER_METRICS_PORT = 9108
    worker_ready.send(sender=None)
    assert started == [9108]
