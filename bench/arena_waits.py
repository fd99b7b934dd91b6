"""Arena waits, simulated: ``python -m bench.arena_waits [--players 200] [--seeds 30]``.

What the arena's rules alone make players wait for their next table, without a server: the
real pairing (tournaments/arena.py `seat`) over a simulated arena of `--players` for 6 minutes,
a pass every 3 s (YANIV_TOURNAMENT_PAIRING_SECONDS), everyone seated at the start, each table
lasting 60-180 s (uniform; places at random), the standings by points. A wait runs from a
table's end to its players' next pass that seats them. Per setting, over `--seeds` arenas: the
median and p99 wait (the mean of each arena's), the worst arena's p99, and the mean table size.
The settings: the repeat wait of 15 s (the issue's) and shorter ones, each with the pass only on
the beat and with the pass a game's end also runs when someone has waited a whole interval
(tournaments/services.py `_score_and_pair`). bench/tournament.py measures the same waits on
the real server; this says which part of them the rules set.
"""

from __future__ import annotations

import argparse
import heapq
import random
import statistics
import sys
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tournaments.arena import Idle, seat

EVERY = 3.0
SECONDS = 360.0
LASTS = (60.0, 180.0)
SIZES = frozenset({2, 3, 4, 5})
WAITS = (15.0, 10.0, 8.0, 6.0)
P99_TARGET = 10.0  # issue 28


def arena(players: int, repeat_wait: float, at_end: bool, seed: int) -> tuple[list[float], float]:
    """One simulated arena: every wait, and the mean size of the tables made."""
    rng = random.Random(seed)
    keys = [f"p{index}" for index in range(players)]
    idle_since = dict.fromkeys(keys, 0.0)
    previous = dict.fromkeys(keys, frozenset[str]())
    score = dict.fromkeys(keys, 0.0)
    busy: set[str] = set()
    waits: list[float] = []
    sizes: list[int] = []
    # (time, order, kind, table): the beat's passes, the tables' ends, the passes they run.
    events: list[tuple[float, int, str, tuple[str, ...]]] = [(0.0, 0, "beat", ())]
    order = 1
    while events:
        now, _, kind, table = heapq.heappop(events)
        if now > SECONDS:
            break
        if kind == "end":
            places = rng.sample(range(len(table)), len(table))
            for key, place in zip(table, places, strict=True):
                idle_since[key], previous[key] = now, frozenset(table) - {key}
                score[key] += len(table) - 1 - place
                busy.discard(key)
            if at_end:
                heapq.heappush(events, (now, order, "end-pass", ()))
                order += 1
            continue
        if kind == "beat":
            heapq.heappush(events, (now + EVERY, order, "beat", ()))
            order += 1
        free = sorted((key for key in keys if key not in busy), key=lambda key: -score[key])
        if kind == "end-pass" and all(now - idle_since[key] < EVERY for key in free):
            continue  # nobody has waited a whole interval: the next beat seats them
        pool = [
            Idle(key, rank, now - idle_since[key], previous[key])
            for rank, key in enumerate(free, 1)
        ]
        for seated in seat(pool, SIZES, repeat_wait):
            if now > 0:
                waits += [now - idle_since[key] for key in seated]
            busy.update(seated)
            sizes.append(len(seated))
            heapq.heappush(events, (now + rng.uniform(*LASTS), order, "end", seated))
            order += 1
    return waits, statistics.mean(sizes)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--seeds", type=int, default=30)
    args = parser.parse_args()
    print(
        f"{args.players} players, {SECONDS / 60:g} min, a pass every {EVERY:g} s, tables of "
        f"{LASTS[0]:g}-{LASTS[1]:g} s, {args.seeds} arenas a row\n"
    )
    print(
        "| repeat wait | pass at a game's end | median | p99 (mean) | p99 (worst) | arenas with "
        f"a p99 over {P99_TARGET:g} s | table |"
    )
    print("|---|---|---|---|---|---|---|")
    for repeat_wait in WAITS:
        for at_end in (False, True):
            runs = [arena(args.players, repeat_wait, at_end, seed) for seed in range(args.seeds)]
            cuts = [statistics.quantiles(waits, n=100) for waits, _ in runs]
            print(
                f"| {repeat_wait:g} s | {'yes' if at_end else 'no'} | "
                f"{statistics.mean(cut[49] for cut in cuts):.2f} s | "
                f"{statistics.mean(cut[98] for cut in cuts):.2f} s | "
                f"{max(cut[98] for cut in cuts):.2f} s | "
                f"{sum(cut[98] > P99_TARGET for cut in cuts)} of {len(cuts)} | "
                f"{statistics.mean(size for _, size in runs):.2f} |",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
