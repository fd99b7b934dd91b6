"""The live figures of the staff page (admin, "Live figures"), for the whole deployment
whichever process serves the page: the gauges read from the database (the queue, active games,
unrated games: ops.collectors.DatabaseCollector, as /metrics has them), and the series every
process publishes to Redis (core/metrics_shared.py): the sockets open, summed over the processes
alive, and the deployment's totals of moves, errors and matched tickets' waits.

Rates (moves per minute, errors and matched tickets' waits over the last hour) are what the
totals gained since an earlier reading: beat has a worker snapshot the totals every minute
(ops.tasks), kept in the cache, the last 60; the page compares its own reading with the
snapshot of one minute, or one hour, before (or the oldest there is, saying how far back that
is). The totals only grow (each process adds what it counted since it last published); should
one go down anyway (a failover lost its last increments), the fall counts nothing. Snapshots
of another epoch of the totals (a Redis that lost them) are left out, so a rate never compares
two.
"""

from __future__ import annotations

import itertools
import math
import time
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, TypedDict

from django.core.cache import cache
from django.utils.translation import gettext
from prometheus_client.metrics_core import Metric
from prometheus_client.registry import Collector

from core import metrics_shared

SNAPSHOTS_KEY = "ops:metric-snapshots"
SNAPSHOTS_KEPT = 60  # one a minute: an hour


class Snapshot(TypedDict):
    at: float  # time.time()
    source: str  # the epoch of the totals read (core/metrics_shared.py)
    values: dict[str, float]


def source() -> str:
    """The epoch of the deployment's totals (core/metrics_shared.py)."""
    return metrics_shared.epoch()


def reading(*, now: float | None = None) -> Snapshot:
    """The deployment's totals now, this process's own counts published first (the others'
    are at most METRICS_PUBLISH_SECONDS old)."""
    metrics_shared.publish()
    epoch, values = metrics_shared.totals()
    return Snapshot(at=time.time() if now is None else now, source=epoch, values=values)


def snapshot_take(*, now: float | None = None) -> Snapshot:
    """Read the totals and keep the reading, the last SNAPSHOTS_KEPT of them (ops.tasks:
    once a minute, from beat; one writer, so a read-modify-write of the list is safe)."""
    taken = reading(now=now)
    kept: list[Snapshot] = cache.get(SNAPSHOTS_KEY, [])
    cache.set(SNAPSHOTS_KEY, [*kept, taken][-SNAPSHOTS_KEPT:], timeout=None)
    return taken


def snapshots(mine: str | None = None) -> list[Snapshot]:
    """The snapshots of the totals' epoch `mine` (the current one by default), oldest first."""
    mine = source() if mine is None else mine
    return [taken for taken in cache.get(SNAPSHOTS_KEY, []) if taken["source"] == mine]


# What the counters gained --------------------------------------------------------------------


def increase(values: Sequence[float]) -> float:
    """What a total read at these times gained. Totals only grow: a fall means a Redis
    failover lost the last increments (a replica had not got them), and counts nothing, not
    as Prometheus's reset, after which the whole total would count again (a whole loss is a
    new epoch, left out before this)."""
    return sum(max(after - before, 0.0) for before, after in itertools.pairwise(values))


@dataclass(frozen=True)
class Gained:
    """What each counter gained over `seconds` (0 when there is nothing to compare with)."""

    values: dict[str, float]
    seconds: float

    def of(self, prefix: str) -> dict[str, float]:
        """The gains of the series under `prefix` (`moves/`: by source), those that moved."""
        return {
            key.removeprefix(prefix): value
            for key, value in sorted(self.values.items())
            if key.startswith(prefix) and value
        }


def gained_since(history: Sequence[Snapshot], live: Snapshot, seconds: float) -> Gained:
    """What the counters gained from the newest snapshot at least `seconds` old (else the
    oldest there is) to `live`."""
    past = [taken for taken in history if taken["at"] <= live["at"]]
    if not past:
        return Gained({}, 0.0)
    start = 0
    for index, taken in enumerate(past):
        if taken["at"] <= live["at"] - seconds:
            start = index
    series = [*past[start:], live]
    values = {
        key: increase([taken["values"].get(key, 0.0) for taken in series]) for key in live["values"]
    }
    return Gained(values, live["at"] - past[start]["at"])


def quantile(q: float, buckets: Iterable[tuple[float, float]]) -> float | None:
    """The q-quantile from cumulative histogram buckets (upper bound, count), interpolated
    within its bucket as Prometheus's `histogram_quantile` does; None when empty. In the +Inf
    bucket it is the largest finite bound (all that is known)."""
    ordered = sorted(buckets)
    if not ordered or ordered[-1][1] <= 0:
        return None
    rank = q * ordered[-1][1]
    lower, below = 0.0, 0.0
    for bound, count in ordered:
        if count >= rank:
            if math.isinf(bound):
                return lower
            return (
                lower + (bound - lower) * (rank - below) / (count - below)
                if count > below
                else bound
            )
        lower, below = bound, count
    return lower


@dataclass
class Waits:
    matched: int
    mean: float | None
    p50: float | None
    p95: float | None


def waits(gained: Gained) -> Waits:
    """Matched tickets' waits, from the gains of the wait histogram."""
    count = gained.values.get("wait/count", 0.0)
    buckets = [
        (float(key.removeprefix("wait/le=")), value)
        for key, value in gained.values.items()
        if key.startswith("wait/le=")
    ]
    return Waits(
        matched=round(count),
        mean=gained.values.get("wait/sum", 0.0) / count if count else None,
        p50=quantile(0.5, buckets),
        p95=quantile(0.95, buckets),
    )


# The page's figures --------------------------------------------------------------------------


@dataclass
class Figures:
    read_at: float
    queue: list[tuple[str, int]]  # (table size, tickets searching)
    active_games: list[tuple[str, str, int]]  # (size, "ranked" / "private", games)
    sockets: int
    unrated: int
    minute: Gained  # over about the last minute
    hour: Gained  # over about the last hour
    moves: dict[str, float] = field(default_factory=dict)  # per minute, by source
    waits: Waits | None = None
    snapshots: int = 0


def _gauges(families: Iterable[Metric]) -> dict[str, list[tuple[dict[str, str], float]]]:
    found: dict[str, list[tuple[dict[str, str], float]]] = defaultdict(list)
    for family in families:
        if family.type == "gauge":
            for sample in family.samples:
                found[sample.name].append((sample.labels, sample.value))
    return found


def figures(database: Collector, *, now: float | None = None) -> Figures:
    """The page's figures: the database's gauges (`database`: ops.collectors.DatabaseCollector),
    the sockets of the processes alive, and the totals' gains."""
    live = reading(now=now)
    read_at = live["at"]
    gauges = _gauges(database.collect())
    history = snapshots(live["source"])
    minute = gained_since(history, live, 60)
    hour = gained_since(history, live, 3600)
    per_minute = 60 / max(minute.seconds, 60)  # a shorter history: its count, not scaled up
    return Figures(
        read_at=read_at,
        queue=sorted(
            ((labels["size"], int(n)) for labels, n in gauges["yaniv_tickets_searching"]),
            key=lambda row: int(row[0]),
        ),
        active_games=sorted(
            (
                (labels["size"], "ranked" if labels["ranked"] == "true" else "private", int(n))
                for labels, n in gauges["yaniv_active_games"]
            ),
            key=lambda row: (int(row[0]), row[1]),
        ),
        sockets=round(metrics_shared.live_gauges().get("sockets", 0.0)),
        unrated=int(sum(n for _, n in gauges["yaniv_games_unrated"])),
        minute=minute,
        hour=hour,
        moves={where: n * per_minute for where, n in minute.of("moves/").items()},
        waits=waits(hour),
        snapshots=len(history),
    )


def span(seconds: float) -> str:
    """45 -> "45 s", 97 -> "1 min 37 s", 3540 -> "59 min"."""
    whole = round(seconds)
    if whole < 60:
        return gettext("%(seconds)d s") % {"seconds": whole}
    minutes, rest = divmod(whole, 60)
    if minutes < 10 and rest:
        return gettext("%(minutes)d min %(seconds)d s") % {"minutes": minutes, "seconds": rest}
    return gettext("%(minutes)d min") % {"minutes": minutes}


def page_context(found: Figures) -> dict[str, Any]:
    """The template's view of the figures."""
    errors_http, errors_tasks = found.hour.of("5xx/"), found.hour.of("failed/")
    minute = span(found.minute.seconds)
    return {
        "figures": found,
        "read_at": datetime.fromtimestamp(found.read_at, UTC),
        "moves_total": sum(found.moves.values()),
        "moves_caption": (
            gettext("Moves per minute, over the last %(span)s")
            if found.minute.seconds >= 60
            else gettext("Moves in the last %(span)s (the history there is: less than a minute)")
        )
        % {"span": minute},
        "errors_http": errors_http,
        "errors_tasks": errors_tasks,
        "errors_total": sum(errors_http.values()) + sum(errors_tasks.values()),
        "hour_span": span(found.hour.seconds),
    }
