"""Arena pairing benchmark: ``python -m bench.arena_pairing [--seed S] [--passes N]``.

One pairing pass of an arena tournament (tournaments/arena.py `seat`; no database), on one
core, over 200 and 2,000 idle players: random ranks (1 to the count, ties allowed), idle
0-10 s (under the 15 s repeat wait, so no repeat is allowed), and a third of them just back
from tables of 2 to 5 among themselves (each with those table-mates as `previous`). For each
table sizes asked ({2,3,4,5} and {4}), the median and the longest CPU time of `--passes`
passes (each over a fresh random pool), tables formed, players left over, repeats seated
(target 0), and the mean rank spread of a table (its last rank minus its first). A last row
is a small arena's worst pass: 8 idle, two tables of four just finished, which the deal
cannot seat without a repeat, so the pass searches every seating (`EXACT_LIMIT`).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tournaments.arena import Idle, seat

REPEAT_WAIT = 15.0
TARGET_MS = 50.0
"""A pass over 2,000 idle players (issue 28)."""
COUNTS = (200, 2000)
SIZES = (frozenset({2, 3, 4, 5}), frozenset({4}))


def pool(count: int, rng: random.Random) -> list[Idle]:
    """`count` idle players, a third of them back from tables among themselves."""
    keys = [f"p{index}" for index in range(count)]
    back = rng.sample(keys, count // 3)
    previous: dict[str, frozenset[str]] = {}
    while back:
        size = min(len(back), rng.randint(2, 5))
        table, back = back[:size], back[size:]
        for key in table:
            previous[key] = frozenset(table) - {key}
    return [
        Idle(key, rng.randint(1, count), rng.uniform(0, 10), previous.get(key, frozenset()))
        for key in keys
    ]


def two_tables(count: int, rng: random.Random) -> list[Idle]:
    """`count` idle players, all back from tables of four among themselves."""
    keys = [f"p{index}" for index in range(count)]
    rng.shuffle(keys)
    players = []
    for first in range(0, count, 4):
        table = frozenset(keys[first : first + 4])
        players += [
            Idle(key, rng.randint(1, count), rng.uniform(0, 10), table - {key}) for key in table
        ]
    return players


def repeats(tables: list[tuple[str, ...]], players: list[Idle]) -> int:
    previous = {player.key: player.previous for player in players}
    return sum(
        other in previous[key] or key in previous[other]
        for table in tables
        for index, key in enumerate(table)
        for other in table[index + 1 :]
    )


def measure(
    count: int,
    sizes: frozenset[int],
    make: Callable[[int, random.Random], list[Idle]],
    passes: int,
    rng: random.Random,
) -> list[str]:
    """One row of the table: `passes` passes, each over a fresh pool from `make`."""
    times, tables, left, repeated, spreads = [], [], [], 0, []
    for _ in range(passes):
        players = make(count, rng)
        ranks = {player.key: player.rank for player in players}
        started = time.process_time()
        seated = seat(players, sizes, REPEAT_WAIT)
        times.append(time.process_time() - started)
        tables.append(len(seated))
        left.append(count - sum(len(table) for table in seated))
        repeated += repeats(seated, players)
        spreads += [ranks[table[-1]] - ranks[table[0]] for table in seated]
    median = statistics.median(times) * 1000
    met = "" if count != 2000 else (" (met)" if median < TARGET_MS else " (NOT met)")
    return [
        "{" + ",".join(map(str, sorted(sizes))) + "}",
        f"{median:.1f}{met}",
        f"{max(times) * 1000:.1f}",
        f"{statistics.mean(tables):.1f}",
        f"{statistics.mean(left):.1f}",
        str(repeated),
        f"{statistics.mean(spreads):.1f}" if spreads else "-",
    ]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--passes", type=int, default=20)
    options = parser.parse_args()
    rng = random.Random(options.seed)

    rows = [
        [f"{count:,}", *measure(count, sizes, pool, options.passes, rng)]
        for count in COUNTS
        for sizes in SIZES
    ]
    small = measure(8, SIZES[0], two_tables, options.passes, rng)
    rows.append(["8, two tables just finished", *small])
    header = [
        "idle players",
        "sizes",
        "pass, median ms",
        "longest ms",
        "tables",
        "left over",
        "repeats",
        "rank spread",
    ]
    print(
        f"Python {sys.version.split()[0]}; CPU time of one process, {options.passes} passes "
        f"each; target under {TARGET_MS:.0f} ms at 2,000, 0 repeats."
    )
    widths = [max(len(header[i]), *(len(row[i]) for row in rows)) for i in range(len(header))]
    print("| " + " | ".join(h.ljust(w) for h, w in zip(header, widths, strict=True)) + " |")
    print("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    for row in rows:
        print("| " + " | ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
