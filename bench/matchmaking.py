"""Matchmaking benchmark: ``python bench/matchmaking.py [--seed S] [--rates R,..] [--fill F,..]``.

The pairing algorithm alone (matchmaking/pairing.py; no database), on one core:

1. One pass over a standing queue of 1,000 / 10,000 / 100,000 tickets: CPU time per pass (the
   best of a few), tables formed, share of tickets seated, rating spread per table (mean and
   max, in ordinal points), and time / (n log2 n), which stays flat if the pass grows as
   n log n.
2. A simulated arrival stream at each rate (default 20, 2, 0.2 and 0.05 players a second:
   busy hours down to few players online) for ten minutes, with CPU fills off and after 30 s
   (YANIV_QUEUE_CPU_FILL_SECONDS; the CPU levels rated as ratings/cpu_start.json says), a
   pass per simulated second, then passes with no arrivals until the queue is empty: the
   wait from queueing to being seated (p50 / p95 / max), tickets expired (10 minutes, as the
   server does: in practice the last arrivals, left without enough players who accept their
   sizes once arrivals stop), tables filled with CPUs, tables of humans alone by size,
   spreads (CPUs included), pass times.

Players: 30% provisional (ordinal about N(2, 4)), 70% established (about N(18, 8)); 40%
accept every table size, the rest a random non-empty subset of 2..5. Standing-queue tickets
have waited uniformly 0-120 s.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.engine.cpu import Level
from matchmaking.pairing import Match, Policy, Ticket, pair
from ratings.cpu import cpu_start

SIZES = (2, 3, 4, 5)
SUBSETS = [frozenset(s for s in SIZES if mask >> (s - 2) & 1) for mask in range(1, 16)]
EXPIRY_SECONDS = 600
STREAM_SECONDS = 600


def rating(rng: random.Random) -> float:
    return rng.gauss(2, 4) if rng.random() < 0.3 else rng.gauss(18, 8)


def sizes(rng: random.Random) -> frozenset[int]:
    return frozenset(SIZES) if rng.random() < 0.4 else rng.choice(SUBSETS)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else math.nan


def table(header: list[str], rows: list[list[str]]) -> None:
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    print("| " + " | ".join(h.ljust(w) for h, w in zip(header, widths, strict=True)) + " |")
    print("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    for row in rows:
        print("| " + " | ".join(c.rjust(w) for c, w in zip(row, widths, strict=True)) + " |")


def standing_queue(seed: int) -> None:
    print("\nOne pass over a standing queue (CPU time, one core)\n")
    rows = []
    for n in (1_000, 10_000, 100_000):
        rng = random.Random(seed)
        queue = [Ticket(str(i), rating(rng), sizes(rng), rng.uniform(0, 120)) for i in range(n)]
        best = math.inf
        tables: list[Match] = []
        for _ in range(3 if n < 100_000 else 1):
            started = time.process_time()
            tables = pair(queue)
            best = min(best, time.process_time() - started)
        spreads = [t.spread for t in tables]
        seated = sum(len(t.tickets) for t in tables)
        rows.append(
            [
                f"{n:,}",
                f"{best * 1000:,.0f} ms",
                f"{len(tables):,}",
                f"{seated / n:.1%}",
                f"{statistics.fmean(spreads):.2f}",
                f"{max(spreads):.2f}",
                f"{best / (n * math.log2(n)) * 1e9:.0f} ns",
            ]
        )
    table(
        ["tickets", "pass", "tables", "seated", "mean spread", "max spread", "pass / n log2 n"],
        rows,
    )


def stream(rate: float, fill: float, seed: int) -> list[str]:
    """Arrivals at `rate` a second for STREAM_SECONDS, one pass a second (CPU fills after
    `fill` s, 0: none), then passes until nobody waits; the summary row."""
    cpus = tuple((level.value, cpu_start(level).ordinal) for level in Level)
    policy = Policy(cpu_fill_seconds=fill, cpus=cpus)
    filled = 0
    rng = random.Random(seed)
    # key -> (arrival second, rating, sizes); the queue as the server would hold it.
    waiting: dict[str, tuple[float, float, frozenset[int]]] = {}
    waits: list[float] = []
    spreads: list[float] = []
    table_sizes: Counter[int] = Counter()
    pass_times: list[float] = []
    expired = 0
    arrivals = 0
    owed = 0.0
    now = 0
    while now < STREAM_SECONDS or waiting:
        if now < STREAM_SECONDS:
            owed += rate
            while owed >= 1:
                owed -= 1
                # Arrivals spread over the second before this pass.
                waiting[str(arrivals)] = (now - rng.random(), rating(rng), sizes(rng))
                arrivals += 1
        for key in [k for k, (at, _, _) in waiting.items() if now - at >= EXPIRY_SECONDS]:
            del waiting[key]
            expired += 1
        queue = [Ticket(k, r, s, now - at) for k, (at, r, s) in waiting.items()]
        started = time.process_time()
        tables = pair(queue, policy)
        pass_times.append(time.process_time() - started)
        for seated in tables:
            filled += bool(seated.cpus)
            spreads.append(seated.spread)
            table_sizes[len(seated.tickets)] += 1
            for key in seated.tickets:
                waits.append(now - waiting.pop(key)[0])
        now += 1
    share = ", ".join(f"{size}: {table_sizes[size]:,}" for size in SIZES)
    return [
        f"{rate:g}/s",
        f"{fill:g} s" if fill else "off",
        f"{arrivals:,}",
        f"{percentile(waits, 0.5):.1f} s",
        f"{percentile(waits, 0.95):.1f} s",
        f"{max(waits, default=math.nan):.1f} s",
        f"{expired:,}",
        f"{filled:,}",
        share,
        f"{statistics.fmean(spreads):.2f} / {max(spreads):.2f}",
        f"{statistics.fmean(pass_times) * 1000:.2f} / {max(pass_times) * 1000:.2f} ms",
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rates", default="20,2,0.2,0.05", help="arrival rates, players a second")
    parser.add_argument("--fill", default="0,30", help="CPU fill after seconds (0: off)")
    args = parser.parse_args()
    standing_queue(args.seed)
    print(
        f"\nArrival streams: {STREAM_SECONDS // 60} minutes of arrivals, a pass a second, "
        "until the queue is empty\n"
    )
    rows = [
        stream(float(rate), float(fill), args.seed)
        for rate in args.rates.split(",")
        for fill in args.fill.split(",")
    ]
    table(
        [
            "rate",
            "CPU fill",
            "players",
            "wait p50",
            "wait p95",
            "wait max",
            "expired",
            "CPU-filled",
            "human tables by size",
            "spread mean / max",
            "pass mean / max",
        ],
        rows,
    )


if __name__ == "__main__":
    main()
