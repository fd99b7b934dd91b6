"""The Prometheus metrics (prometheus-client, multiprocess mode), all defined here.

Every process (each uvicorn worker, each Celery worker or prefork child) writes its samples to
PROMETHEUS_MULTIPROC_DIR, and /metrics (ops/views.py) sums them. The variable must be set
before prometheus_client is imported: this module sets it, to var/prometheus/ unless the
environment names a directory. Scrape-time gauges that read the database are in
ops/collectors.py, above the apps they read.

A scrape reads one directory: a Kubernetes pod's own (an emptyDir), so each pod is scraped on
its own and its /metrics is its processes'. One directory may also be shared by the processes
of several containers of one host (compose gives web, worker and beat one volume, so there any
web replica's /metrics is the whole deployment's): a process's files are named by its host and
pid (`counter_<host>-<pid>.db`), so pids that repeat across containers never share a file.
What the staff page shows for the whole deployment does not come from the directory: each
process also publishes those few series to Redis (core/metrics_shared.py, through the value
class below). Whether a process is still there is told by
a lock, not by its pid (which another container cannot look up): each process holds an
exclusive `flock` on `<host>-<pid>.lock` while it lives, which the kernel lets go however it
ends. A scrape drops the live gauges of every process whose lock is free (counters stay
counted), and a process starting under a name a dead one had (a restarted container's pids
repeat) drops that one's live gauges before it writes its own.
"""

from __future__ import annotations

import fcntl
import os
import re
import socket
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

_DIR_VAR = "PROMETHEUS_MULTIPROC_DIR"
_DEFAULT_DIR = Path(__file__).resolve().parent.parent / "var" / "prometheus"
# No `_` (prometheus_client splits file names on it) and nothing glob would read.
_HOST = re.sub(r"[^A-Za-z0-9.-]", "-", socket.gethostname()) or "host"


def _lock_path(directory: Path, name: str) -> Path:
    return directory / f"{name}.lock"


def _name_of(file: Path) -> str:
    """The process a file is of: `counter_<name>.db`, `gauge_livesum_<name>.db`, `<name>.lock`."""
    return file.stem.rsplit("_", 1)[-1]


def process_gone(directory: Path, name: str) -> bool:
    """Whether the process `name` has ended: nobody holds its lock (a file of a process that
    never took one, written before locks were, counts as gone). The lock file of a process
    gone is removed."""
    path = _lock_path(directory, name)
    try:
        fd = os.open(path, os.O_RDONLY)  # flock needs no write access
    except FileNotFoundError:
        return True
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        path.unlink(missing_ok=True)  # under its lock: see _Owner.claim
        return True
    finally:
        os.close(fd)


def _drop_live_gauges(directory: Path, name: str) -> None:
    for file in directory.glob(f"gauge_live*_{name}.db"):
        file.unlink(missing_ok=True)


@dataclass
class _Owner:
    """This process's name in the directory, and the lock that says it is alive."""

    pid: int = 0
    name: str = ""
    fd: int | None = None

    def identifier(self) -> str:
        """prometheus_client's process identifier (called at every write: cheap once set)."""
        pid = os.getpid()
        if pid != self.pid:
            self.claim(pid)
        return self.name

    def claim(self, pid: int) -> None:
        if self.fd is not None:
            # Inherited from the parent by a fork: the parent's lock is the parent's to hold.
            os.close(self.fd)
            self.fd = None
        name = f"{_HOST}-{pid}"
        for attempt in range(_CLAIM_ATTEMPTS):
            fd = _try_lock(_lock_path(MULTIPROC_DIR, name))
            if fd is not None:
                break
            time.sleep(0.01)  # a scrape looking at a dead namesake holds the lock a moment
            if attempt == _CLAIM_ATTEMPTS // 2:
                # A live namesake: containers given one hostname. A name of its own, then.
                name = f"{_HOST}-{pid}.{uuid.uuid4().hex[:8]}"
        else:
            raise RuntimeError(f"cannot lock {name}.lock in {MULTIPROC_DIR}")
        self.pid, self.name, self.fd = pid, name, fd
        # A dead namesake's live gauges (same host, same pid) must not become this one's.
        _drop_live_gauges(MULTIPROC_DIR, name)


_CLAIM_ATTEMPTS = 40


def _try_lock(path: Path) -> int | None:
    """The file `path`, created if need be and locked, or None when another process holds it
    (or a scrape removed it meanwhile, a dead namesake's: the caller tries again)."""
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        if os.fstat(fd).st_ino == os.stat(path).st_ino:
            return fd
    except (BlockingIOError, FileNotFoundError):
        pass
    os.close(fd)
    return None


_OWNER = _Owner()


def _multiproc_dir() -> Path:
    """The directory, created; in the dev/test default, files of processes gone are removed
    (a deployment's own directory starts empty: a tmpfs volume)."""
    if os.environ.get(_DIR_VAR):
        path = Path(os.environ[_DIR_VAR])
        path.mkdir(parents=True, exist_ok=True)
        return path
    _DEFAULT_DIR.mkdir(parents=True, exist_ok=True)
    os.environ[_DIR_VAR] = str(_DEFAULT_DIR)
    for name in {_name_of(file) for file in _DEFAULT_DIR.glob("*.db")}:
        if process_gone(_DEFAULT_DIR, name):
            for file in _DEFAULT_DIR.glob(f"*_{name}.db"):
                file.unlink(missing_ok=True)
    return _DEFAULT_DIR


MULTIPROC_DIR = _multiproc_dir()

from prometheus_client import Counter, Gauge, Histogram, values  # noqa: E402

from core import metrics_shared  # noqa: E402

_MmapedValue: Any = values.MultiProcessValue(process_identifier=_OWNER.identifier)  # type: ignore[no-untyped-call]


class _Value(_MmapedValue):  # type: ignore[misc]
    """prometheus-client's value in multiprocess mode (written under this process's host and
    pid), which also tells core/metrics_shared.py what it adds to a series the staff page
    shares through Redis."""

    def __init__(
        self,
        typ: str,
        metric_name: str,
        name: str,
        labelnames: tuple[str, ...],
        labelvalues: tuple[str, ...],
        help_text: str,
        **kwargs: Any,
    ) -> None:
        super().__init__(typ, metric_name, name, labelnames, labelvalues, help_text, **kwargs)
        self._shared = metrics_shared.series(name, dict(zip(labelnames, labelvalues, strict=True)))
        self._gauge = typ == "gauge"

    def inc(self, amount: float) -> None:
        super().inc(amount)
        if self._shared is not None:
            metrics_shared.TALLY.add(self._shared, amount, gauge=self._gauge)

    def set(self, value: float, timestamp: float | None = None) -> None:
        super().set(value, timestamp)
        if self._shared is not None and self._gauge:
            metrics_shared.TALLY.set(self._shared, value)


# Before any metric is made.
values.ValueClass = _Value


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
GC_FULL_DURATION = Histogram(
    "yaniv_gc_full_seconds",
    "A web process's full garbage collection, which stops the process (core/perf/garbage.py)",
    buckets=(0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5),
)
LOOP_LAG = Histogram(
    "yaniv_event_loop_lag_seconds",
    "How late a web process's event loop woke for a timer (core/perf/loop_lag.py)",
    buckets=(0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5),
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
# A web process's own delayed work (core/local_tasks.py: the CPU's replies); "dropped": still
# pending when the process shut, left to the sweeper.
LOCAL_TASK_RUNS = Counter(
    "yaniv_local_task_runs_total", "Local task runs of web processes by outcome", ["task", "state"]
)


def mark_process_dead() -> None:
    """Drop this process's live gauges as it finishes (its counters stay counted), here and
    in Redis (core/metrics_shared.py, after publishing what is left)."""
    _drop_live_gauges(MULTIPROC_DIR, _OWNER.identifier())
    metrics_shared.retire()


def mark_dead_processes(directory: Path = MULTIPROC_DIR) -> None:
    """Drop the live gauges (and the lock file) of every process gone, of any host sharing the
    directory: uvicorn has no hook for a worker's exit, and a container may end at once, so
    /metrics does this before it reads."""
    files = [*directory.glob("gauge_live*.db"), *directory.glob("*.lock")]
    for name in {_name_of(file) for file in files}:
        if process_gone(directory, name):
            _drop_live_gauges(directory, name)


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
