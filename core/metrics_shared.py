"""The few figures the staff page shows for the whole deployment, shared through Redis.

Each process's metrics files (core/metrics.py) are local to its host or pod: a pod's /metrics
is that pod's. The staff page (ops/live.py) wants the whole deployment's moves, errors and
matched waits, and its open sockets, whichever process serves it. So every process also tells
Redis what it counted of those few series (`series`: the page's keys):

- Counters: what each process added since it last published, added in turn to the deployment's
  totals (one hash, `HINCRBYFLOAT`). The totals only grow: a process that restarts counts from
  zero in memory and publishes only what it adds after, so nothing is counted twice and nothing
  goes down (its files' counts, which a restarted namesake in a shared directory counts on
  from, are never read). A process killed loses what it added since it last published (at
  most METRICS_PUBLISH_SECONDS' worth), nothing more. The hash carries an epoch, made with it:
  a Redis that lost the totals starts a new epoch, and ops/live.py never compares counts of
  two epochs.
- Live gauges (the sockets open): each process's own values under a key of its own with a TTL
  (3 publishing intervals), renewed at each publish, listed in a set; the reader sums the keys
  still there (and forgets the names of those expired). A process that ends cleanly deletes its
  key (`retire`: a Celery child's exit, atexit); one killed loses its key at the TTL.

Publishing is a thread of each process, started at the process's first write of one of these
series, every METRICS_PUBLISH_SECONDS (0: never; only `publish()` calls do, as the page and the
minute's snapshot make before they read: the test suite). Nothing here is on a request's path
but an in-memory addition under a lock. Keys are under the cache's key prefix.
"""

from __future__ import annotations

import atexit
import logging
import os
import re
import socket
import threading
import uuid
from collections import defaultdict
from typing import Any

logger = logging.getLogger(__name__)

TOTALS = "metrics:totals"  # hash: series -> total; EPOCH -> the hash's own id
EPOCH = "epoch"
PROCESSES = "metrics:processes"  # set: the names of the processes that published gauges
GAUGES = "metrics:gauges:"  # + a process's name: hash, series -> value, with a TTL
TTL_INTERVALS = 3

_HOST = re.sub(r"[^A-Za-z0-9.-]", "-", socket.gethostname()) or "host"


def series(name: str, labels: dict[str, str]) -> str | None:
    """The page's key of a sample prometheus-client writes (`name`: the sample's, with its
    `_total`, `_bucket`, `_sum`), None for one it does not share: `moves/<source>`,
    `5xx/<route>`, `failed/<task>`, `wait/bucket=<le>` (the observations in that bucket alone,
    as prometheus-client stores them; `totals()` makes them cumulative), `wait/sum`, and the
    gauge `sockets`."""
    if name == "yaniv_moves_applied_total":
        return f"moves/{labels['source']}"
    if name == "yaniv_http_requests_total":
        return (
            f"5xx/{labels['route']}"
            if labels["status"].isdigit() and int(labels["status"]) >= 500
            else None
        )
    if name in ("yaniv_celery_task_runs_total", "yaniv_local_task_runs_total"):
        return f"failed/{labels['task']}" if labels["state"] == "failure" else None
    if name == "yaniv_ticket_wait_seconds_bucket":
        return f"wait/bucket={labels['le']}"
    if name == "yaniv_ticket_wait_seconds_sum":
        return "wait/sum"
    if name == "yaniv_open_websockets":
        return "sockets"
    return None


class Tally:
    """This process's additions not yet published, and its live gauges' values (in memory:
    a fork's child starts with none, `os.register_at_fork`)."""

    def __init__(self) -> None:
        self.forked()

    def forked(self) -> None:
        self.lock = threading.Lock()
        self.added: dict[str, float] = defaultdict(float)
        self.gauges: dict[str, float] = {}
        self.name = f"{_HOST}-{os.getpid()}-{uuid.uuid4().hex[:8]}"
        self.decided = False  # whether the thread is started (or is not to be)
        self.stop = threading.Event()

    def add(self, key: str, amount: float, *, gauge: bool) -> None:
        with self.lock:
            if gauge:
                self.gauges[key] = self.gauges.get(key, 0.0) + amount
            else:
                self.added[key] += amount
        if not self.decided:
            self._start()

    def set(self, key: str, value: float) -> None:
        with self.lock:
            self.gauges[key] = value
        if not self.decided:
            self._start()

    def take(self) -> tuple[dict[str, float], dict[str, float]]:
        with self.lock:
            added, self.added = self.added, defaultdict(float)
            return {k: v for k, v in added.items() if v}, dict(self.gauges)

    def give_back(self, added: dict[str, float]) -> None:
        with self.lock:
            for key, amount in added.items():
                self.added[key] += amount

    def _start(self) -> None:
        from django.conf import settings

        if not settings.configured:  # not yet (or never: a bare script): publish() only
            return
        with self.lock:
            if self.decided:
                return
            self.decided = True
        atexit.register(retire)
        interval = float(settings.METRICS_PUBLISH_SECONDS)
        if interval > 0:
            threading.Thread(
                target=_publish_every,
                args=(interval, self.stop),
                name="metrics-publish",
                daemon=True,
            ).start()


TALLY = Tally()
os.register_at_fork(after_in_child=TALLY.forked)


def _redis() -> Any:
    from core.redis import get_redis

    return get_redis()


def _key(key: str) -> str:
    from django.core.cache import cache

    return cache.make_key(key)


def _ttl() -> int:
    from django.conf import settings

    interval = float(settings.METRICS_PUBLISH_SECONDS) or 10.0
    return max(1, round(TTL_INTERVALS * interval))


def publish() -> None:
    """Add this process's counts since its last publish to the totals, and renew its live
    gauges. On a Redis error the counts are kept for the next time (and it raises)."""
    added, gauges = TALLY.take()
    try:
        pipe = _redis().pipeline(transaction=True)
        pipe.hsetnx(_key(TOTALS), EPOCH, uuid.uuid4().hex)  # a new hash: a new epoch
        for key, amount in added.items():
            pipe.hincrbyfloat(_key(TOTALS), key, amount)
        if gauges:
            mine = _key(GAUGES + TALLY.name)
            pipe.hset(mine, mapping=gauges)
            pipe.expire(mine, _ttl())
            pipe.sadd(_key(PROCESSES), TALLY.name)
        pipe.execute()
    except Exception:
        TALLY.give_back(added)
        raise


def retire() -> None:
    """A process's end: publish what is left, drop its live gauges (best effort)."""
    TALLY.stop.set()
    try:
        publish()
        pipe = _redis().pipeline(transaction=True)
        pipe.delete(_key(GAUGES + TALLY.name))
        pipe.srem(_key(PROCESSES), TALLY.name)
        pipe.execute()
    except Exception:  # Redis gone, settings gone: the TTL does it
        logger.debug("metrics: could not retire %s", TALLY.name, exc_info=True)


def _publish_every(interval: float, stop: threading.Event) -> None:
    failing = False
    while not stop.wait(interval):
        try:
            publish()
            failing = False
        except Exception:
            if not failing:  # once per outage, not every interval
                logger.warning("metrics: could not publish to Redis", exc_info=True)
            failing = True


def totals() -> tuple[str, dict[str, float]]:
    """The epoch and the deployment's totals, in the page's keys: `wait/le=<bound>`
    (cumulative) and `wait/count` from the buckets."""
    found: dict[str, str] = _redis().hgetall(_key(TOTALS))
    epoch = found.pop(EPOCH, "")
    values: dict[str, float] = {}
    buckets: list[tuple[float, str, float]] = []
    for key, value in found.items():
        if key.startswith("wait/bucket="):
            bound = key.removeprefix("wait/bucket=")
            buckets.append((float(bound), bound, float(value)))
        else:
            values[key] = float(value)
    below = 0.0
    for _, bound, n in sorted(buckets):
        below += n
        values[f"wait/le={bound}"] = below
    if buckets:
        values["wait/count"] = below
    return epoch, values


def epoch() -> str:
    return str(_redis().hget(_key(TOTALS), EPOCH) or "")


def live_gauges() -> dict[str, float]:
    """The live gauges of every process whose key has not expired, summed."""
    redis = _redis()
    names = sorted(redis.smembers(_key(PROCESSES)))
    if not names:
        return {}
    pipe = redis.pipeline(transaction=False)
    for name in names:
        pipe.hgetall(_key(GAUGES + name))
    summed: dict[str, float] = defaultdict(float)
    gone = []
    for name, gauges in zip(names, pipe.execute(), strict=True):
        if not gauges:
            gone.append(name)
        for key, value in gauges.items():
            summed[key] += float(value)
    if gone:
        # Expired (a process killed); one still alive adds itself back at its next publish.
        redis.srem(_key(PROCESSES), *gone)
    return dict(summed)
