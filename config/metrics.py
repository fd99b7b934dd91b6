"""The Prometheus metrics (prometheus-client, multiprocess mode), all defined here.

Every process (each uvicorn worker, each Celery prefork child) writes its samples to files in
PROMETHEUS_MULTIPROC_DIR, and /metrics (ops/views.py) sums them. The variable must be set
before prometheus_client is imported: this module sets it, to var/prometheus/ unless the
environment names a directory (deployments do, and empty it at each start). Scrape-time
gauges that read the database are in ops/collectors.py, above the apps they read.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path

from config.devservers import _alive  # a pid still running (as for the dev servers)

_DIR_VAR = "PROMETHEUS_MULTIPROC_DIR"
_DEFAULT_DIR = Path(__file__).resolve().parent.parent / "var" / "prometheus"


def _multiproc_dir() -> Path:
    """The directory, created; in the dev/test default, files of processes gone are removed
    (a deployment's own directory is emptied by its start, never here)."""
    if os.environ.get(_DIR_VAR):
        path = Path(os.environ[_DIR_VAR])
        path.mkdir(parents=True, exist_ok=True)
        return path
    _DEFAULT_DIR.mkdir(parents=True, exist_ok=True)
    os.environ[_DIR_VAR] = str(_DEFAULT_DIR)
    for file in _DEFAULT_DIR.glob("*.db"):
        pid = file.stem.rsplit("_", 1)[-1]
        if pid.isdigit() and not _alive(int(pid)):
            file.unlink(missing_ok=True)
    return _DEFAULT_DIR


MULTIPROC_DIR = _multiproc_dir()

from prometheus_client import Counter, Gauge, Histogram  # noqa: E402
from prometheus_client import multiprocess as _multiprocess  # noqa: E402

HTTP_REQUESTS = Counter(
    "yaniv_http_requests_total", "HTTP requests answered", ["route", "method", "status"]
)
HTTP_DURATION = Histogram(
    "yaniv_http_request_duration_seconds", "Time to answer an HTTP request", ["route"]
)
MOVES_APPLIED = Counter("yaniv_moves_applied_total", "Moves applied to games", ["source"])
MOVES_REFUSED = Counter("yaniv_moves_refused_total", "Player moves refused", ["code"])
MOVE_DURATION = Histogram(
    "yaniv_move_duration_seconds",
    "Service time of a player's move (lock, engine, write, commit)",
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5),
)
OPEN_WEBSOCKETS = Gauge(
    "yaniv_open_websockets", "Websockets connected", multiprocess_mode="livesum"
)
TICKET_WAIT = Histogram(
    "yaniv_ticket_wait_seconds",
    "How long matched tickets searched",
    buckets=(1, 2, 5, 10, 20, 30, 45, 60, 120, 300, 600),
)
MATCHMAKING_PASS = Histogram("yaniv_matchmaking_pass_seconds", "Duration of a matchmaking pass")
CPU_FILLS = Counter("yaniv_cpu_fills_total", "Matchmaking tables seated with CPU players")
OVERDUE_TURNS = Counter("yaniv_overdue_turns_total", "Overdue turns the sweeper enforced")
CELERY_TASK_RUNS = Counter(
    "yaniv_celery_task_runs_total", "Celery task runs by outcome", ["task", "state"]
)
CELERY_TASK_DURATION = Histogram(
    "yaniv_celery_task_duration_seconds", "Duration of Celery task runs", ["task"]
)


def mark_process_dead(pid: int | None = None) -> None:
    """Drop a finished process's live gauges (its counters stay counted)."""
    _multiprocess.mark_process_dead(  # type: ignore[no-untyped-call]
        os.getpid() if pid is None else pid, str(MULTIPROC_DIR)
    )


def mark_dead_processes() -> None:
    """mark_process_dead for every process gone whose live gauges are still on disk: uvicorn
    has no hook for a worker's exit, so /metrics does this before it reads."""
    for file in MULTIPROC_DIR.glob("gauge_live*.db"):
        pid = file.stem.rsplit("_", 1)[-1]
        if pid.isdigit() and not _alive(int(pid)):
            mark_process_dead(int(pid))


_PARAMETER = re.compile(r"<(?:\w+:)?(\w+)>")


@lru_cache(maxsize=512)
def route_label(route: str) -> str:
    """`api/v1/games/<uuid:game_id>/actions/` -> `/api/v1/games/{game_id}/actions/`."""
    return "/" + _PARAMETER.sub(r"{\1}", route)


class HttpMetricsMiddleware:
    """Counts and times every request by its URL pattern (never the raw path: its ids would
    make a series each); a request no pattern matched counts as `unmatched`."""

    def __init__(self, get_response: Callable[..., object]) -> None:
        self.get_response = get_response

    def __call__(self, request: object) -> object:
        start = time.perf_counter()
        response = self.get_response(request)
        elapsed = time.perf_counter() - start
        match = getattr(request, "resolver_match", None)
        route = route_label(match.route) if match is not None and match.route else "unmatched"
        HTTP_DURATION.labels(route).observe(elapsed)
        HTTP_REQUESTS.labels(
            route, getattr(request, "method", ""), getattr(response, "status_code", 0)
        ).inc()
        return response
