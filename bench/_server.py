"""Start the real server (uvicorn + Celery worker) for a benchmark, on the current servers.

Benchmarks that talk HTTP use this unless given `--url`: they then measure exactly what
`make run` serves, with DATABASE_URL / REDIS_URL as `make bench` sets them. `BENCH_ASGI=granian`
runs the web tier under Granian instead (bench/README.md, "The ASGI server").
"""

from __future__ import annotations

import os
import resource
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

import httpx
import psutil
import redis
from prometheus_client.parser import text_string_to_metric_families
from prometheus_client.samples import Sample

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent


def wait_healthy(url: str, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"{url}/healthz", timeout=2) as response:  # noqa: S310
                if response.status == 200:
                    return
        except OSError:
            pass
        time.sleep(0.2)
    raise RuntimeError(f"{url} did not become healthy")


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def spawn(name: str, command: list[str], env: dict[str, str]) -> subprocess.Popen[bytes]:
    log = open(ROOT / "var" / f"bench-{name}.log", "ab")  # noqa: SIM115 - lives with the process
    return subprocess.Popen(
        command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
    )


# The ASGI servers the web tier can run under (`BENCH_ASGI`, default uvicorn): the same
# application, interface, host, port and workers; bench/README.md, "The ASGI server".
ASGI_SERVERS = ("uvicorn", "granian")


def asgi_server() -> str:
    """The ASGI server the benches run the web tier under: `BENCH_ASGI`, else uvicorn."""
    server = os.environ.get("BENCH_ASGI", "uvicorn")
    if server not in ASGI_SERVERS:
        raise SystemExit(f"BENCH_ASGI={server!r}: one of {', '.join(ASGI_SERVERS)}")
    return server


def web_command(
    port: int, workers: int, host: str = "127.0.0.1", server: str | None = None
) -> list[str]:
    """The web tier as the Procfile runs it: uvicorn (its websockets, no proxy headers of its
    own), or Granian (`server`, else `BENCH_ASGI`) set up to match."""
    if (server or asgi_server()) == "granian":
        return granian_command(port, workers, host)
    return [
        str(BIN / "uvicorn"),
        "config.asgi:application",
        *_listening(port, workers, host),
        "--http",
        "httptools",
        "--ws",
        # The Procfile's wsproto; `BENCH_WS=websockets` for uvicorn's other implementation.
        os.environ.get("BENCH_WS", "wsproto"),
        "--ws-per-message-deflate",
        "false",
        "--no-proxy-headers",
        "--no-access-log",
        "--log-level",
        "warning",
    ]


def _listening(port: int, workers: int, host: str) -> list[str]:
    """What both servers are told alike: where to listen, how many processes, uvloop."""
    return ["--host", host, "--port", str(port), "--workers", str(workers), "--loop", "uvloop"]


def granian_command(port: int, workers: int, host: str = "127.0.0.1") -> list[str]:
    """Granian serving the same application: ASGI with its lifespan (`asgi`, not `asginl`),
    websockets on, HTTP/1 only (what uvicorn's httptools speaks; a proxy in front speaks
    HTTP/1 to it too), uvloop. It has no proxy-header handling of its own (the application
    trusts FORWARDED_ALLOW_IPS itself, config/asgi.py). Not a dependency of the project: it is
    installed by hand for a comparison."""
    if not (BIN / "granian").exists():
        raise SystemExit("BENCH_ASGI=granian: granian is not installed (pip install granian)")
    return [
        str(BIN / "granian"),
        "--interface",
        "asgi",
        *_listening(port, workers, host),
        "--http",
        "1",
        "--ws",
        "--no-access-log",
        "--log-level",
        "warning",
        "config.asgi:application",
    ]


def worker_command(concurrency: int = 4, name: str = "celery") -> list[str]:
    """A Celery worker as deployed: its pool is WORKER_POOL's, threads unless the environment
    says otherwise (`WORKER_POOL=prefork python -m bench.api_moves` measures the other)."""
    return [
        str(BIN / "celery"),
        "-A",
        "config",
        "worker",
        "--hostname",
        f"{name}@%h",
        "--loglevel",
        "WARNING",
        "--concurrency",
        str(concurrency),
        "--without-mingle",
        "--without-gossip",
    ]


def beat_command(schedule: Path = ROOT / "var" / "bench-celerybeat-schedule") -> list[str]:
    return [
        str(BIN / "celery"),
        "-A",
        "config",
        "beat",
        "--loglevel",
        "WARNING",
        "--schedule",
        str(schedule),
    ]


def stop(process: subprocess.Popen[bytes], sig: int = signal.SIGTERM) -> None:
    if process.poll() is None:
        os.killpg(process.pid, sig)
        try:
            process.wait(15)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


@dataclass
class Server:
    url: str
    env: dict[str, str]
    processes: dict[str, subprocess.Popen[bytes]]

    def restart(self, role: str, command: list[str]) -> None:
        self.processes[role] = spawn(role, command, self.env)


def setup_django(env: dict[str, str] | None = None) -> None:
    """Django in the bench's own process, on the servers the bench's server uses."""
    os.environ.update(env or {})
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.setdefault("LOG_LEVEL", "WARNING")  # not every request the bench makes
    import django

    django.setup()


def abort_games(game_ids: list[str]) -> None:
    """End the tables a run left unfinished, so that no CPU plays them on into the next
    measurement (after `setup_django`)."""
    from games.models import Game, GameStatus, Seat

    Game.objects.filter(pk__in=game_ids, status=GameStatus.ACTIVE).update(
        status=GameStatus.ABORTED, turn_deadline=None
    )
    # Their players are at no table any more (a live seat would keep them from every later
    # one, and the live seats' index would grow with every run).
    Seat.objects.filter(game_id__in=game_ids, live=True).update(live=False)


def cpu_of(processes: list[psutil.Process]) -> float:
    """CPU seconds (user + system) these processes have used so far."""
    total = 0.0
    for process in processes:
        try:
            times = process.cpu_times()
        except psutil.Error:
            continue  # gone since it was listed
        total += times.user + times.system
    return total


def cpu_exact(processes: list[psutil.Process]) -> float:
    """CPU seconds these processes' threads have used so far, from the scheduler's own count
    in ns (`/proc/<pid>/task/<tid>/schedstat`), not from `cpu_times`' 10 ms ticks: for windows
    short enough that the ticks would be most of the figure. Only the threads alive now count
    (one that ended meanwhile takes its time with it: read the two ends close together)."""
    total = 0
    for process in processes:
        try:
            tasks = list(Path(f"/proc/{process.pid}/task").iterdir())
        except OSError:
            continue  # gone since it was listed
        for task in tasks:
            try:
                total += int((task / "schedstat").read_text().split()[0])
            except (OSError, IndexError, ValueError):
                continue  # a thread gone since it was listed
    return total / 1e9


def process_tree(pid: int) -> list[psutil.Process]:
    """A process with all its descendants (none when it is gone)."""
    try:
        root = psutil.Process(pid)
        return [root, *root.children(recursive=True)]
    except psutil.Error:
        return []


def listeners(url: str) -> list[psutil.Process]:
    """The local processes serving `url`'s port (a PostgreSQL postmaster with its backends),
    not those of the other checkouts on this machine; none for a server elsewhere."""
    port = urlsplit(url).port
    pids = {
        connection.pid
        for connection in psutil.net_connections("tcp")
        # laddr: (address, port), or () for none
        if connection.status == psutil.CONN_LISTEN and connection.laddr[1:2] == (port,)
    }
    return [process for pid in pids if pid for process in process_tree(pid)]


def cpu_seconds(server: Server | None) -> dict[str, float]:
    """CPU time used so far by each part: the server's processes (with their children), the
    PostgreSQL and Redis of DATABASE_URL / REDIS_URL, and this process (the load generator)."""
    figures = {part: cpu_of(processes) for part, processes in server_processes(server).items()}
    usage = resource.getrusage(resource.RUSAGE_SELF)
    figures["clients"] = usage.ru_utime + usage.ru_stime
    return figures


def server_processes(server: Server | None) -> dict[str, list[psutil.Process]]:
    """The processes of each part of the server: its own (with their children), and the
    PostgreSQL and Redis of DATABASE_URL / REDIS_URL."""
    if server is None or not server.processes:
        return {}
    parts = {role: process_tree(popen.pid) for role, popen in server.processes.items()}
    for name, variable in (("postgres", "DATABASE_URL"), ("redis", "REDIS_URL")):
        parts[name] = listeners(server.env.get(variable, ""))
    return parts


def memory_bytes(processes: list[psutil.Process]) -> int:
    """The memory of these processes together: the sum of their PSS (a page shared by n
    processes counts 1/n in each: PostgreSQL's shared buffers, forked workers' pages), where
    the kernel lets us read it, else of their RSS."""
    total = 0
    for process in processes:
        try:
            try:
                total += process.memory_full_info().pss
            except (psutil.AccessDenied, AttributeError):
                total += process.memory_info().rss
        except psutil.Error:
            continue  # gone since it was listed
    return total


def busy_seconds() -> float:
    """CPU time the whole machine has spent so far, every core, every process (what the
    bench's own processes did not use of it shows how busy others kept the machine)."""
    times = psutil.cpu_times()
    return float(times.user + times.nice + times.system + times.irq + times.softirq + times.steal)


def _exit_on_sigterm(signum: int, frame: object) -> None:
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    sys.exit(143)


def prepared(env_extra: dict[str, str] | None = None) -> dict[str, str]:
    """The environment of a bench's server processes, its database migrated (and the logs of
    the last run removed)."""
    # A SIGTERM (a `timeout`, a CI limit) must still stop what we started; a second one (a
    # signal to the group is passed on once more by devtools.devservers) must not cut that short.
    signal.signal(signal.SIGTERM, _exit_on_sigterm)
    (ROOT / "var").mkdir(exist_ok=True)
    for log in (ROOT / "var").glob("bench-*.log"):
        log.unlink()
    env = {**os.environ, "YANIV_CPU_THINK_SECONDS": "0", **(env_extra or {})}
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v0"], cwd=ROOT, env=env, check=True
    )
    return env


def metric_samples(url: str, name: str, timeout: float = 30.0) -> list[Sample]:
    """The samples named `name` on the server's /metrics (loopback clients may read it),
    every process's (a histogram's `_bucket`s by their `le`, a counter's by its labels)."""
    response = httpx.get(f"{url}/metrics", timeout=timeout)
    response.raise_for_status()
    return [
        sample
        for family in text_string_to_metric_families(response.text)
        for sample in family.samples
        if sample.name == name
    ]


QUEUE = "celery"  # Celery's default queue: the server's tasks all go there


def queue_drained(server: Server, most: float = 60.0) -> float:
    """Wait (at most `most` seconds) until the worker has taken every task queued. The seconds
    waited."""
    url = server.env.get("REDIS_URL")
    if not url or not server.processes:
        return 0.0  # a server of someone else's (--url): its queue is not ours to read
    broker = redis.Redis.from_url(url)
    begun = time.monotonic()
    try:
        while time.monotonic() - begun < most and broker.llen(QUEUE):
            time.sleep(0.5)
    finally:
        broker.close()
    return time.monotonic() - begun


def backlog_run(server: Server, most: float = 300.0) -> None:
    """Let the worker run what an earlier run left queued before anything is measured: the
    embedded Redis keeps its data between runs, and a run stopped with sockets open leaves a
    task for each (their presence told), which the next run's worker would otherwise run
    while measured (bench.api_moves once counted 3,776 such tasks in its moves' CPU)."""
    url = server.env.get("REDIS_URL")
    if not url:
        return
    broker = redis.Redis.from_url(url)
    try:
        left = int(broker.llen(QUEUE))
    finally:
        broker.close()
    if left:
        print(f"  the worker's queue holds {left:,} tasks of an earlier run: running them first")
        waited = queue_drained(server, most)
        print(f"  ... done in {waited:.0f} s", flush=True)


@contextmanager
def running_server(
    port: int,
    *,
    web_workers: int = 2,
    beat: bool = False,
    env_extra: dict[str, str] | None = None,
    asgi: str | None = None,
) -> Iterator[Server]:
    """The web server (under `asgi`, else BENCH_ASGI's), a worker (and beat), migrated and
    healthy."""
    env = prepared(env_extra)
    processes = {
        "web": spawn("web", web_command(port, web_workers, server=asgi), env),
        "worker": spawn("worker", worker_command(), env),
    }
    if beat:
        processes["beat"] = spawn("beat", beat_command(), env)
    server = Server(f"http://127.0.0.1:{port}", env, processes)
    try:
        wait_healthy(server.url)
        backlog_run(server)
        yield server
    finally:
        for process in server.processes.values():
            stop(process)


@contextmanager
def serving(
    url: str | None,
    port: int,
    env_extra: dict[str, str],
    *,
    web_workers: int = 2,
    beat: bool = False,
) -> Iterator[Server]:
    """`url` when given (a server someone runs: no processes of ours to watch), else a server
    of our own for the duration."""
    if url:
        yield Server(url, dict(os.environ), {})
        return
    with running_server(port, web_workers=web_workers, beat=beat, env_extra=env_extra) as server:
        yield server
