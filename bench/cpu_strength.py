"""How strong is the CPU player? Full games against two baseline players, and its speed.

    python bench/cpu_strength.py [--games N] [--workers W]

Each pairing plays N complete games (default rules, to the end): the CPU heads-up against
one baseline, and the CPU at a four-player table of three baselines. The CPU sits in seat 0;
the engine draws the first starter at random. A win is a first place; a first place shared by
k players counts 1/k of a win, so the shares of one game add up to 1 and par at a table of
n equal players is exactly 1/n. Intervals are 95% Wilson score intervals. Decision time is
that of ``choose_action`` alone (building the view and applying the move are not counted),
as wall time and as CPU time, which a busy machine does not inflate.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import random
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

# Run as a script (`python bench/cpu_strength.py`), the repository root is not on the path.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engine.cards import VALUE
from games.engine.cpu import choose_action
from games.engine.moves import legal_groups
from games.engine.rng import Rng
from games.engine.rules import DEFAULT_RULES
from games.engine.state import STOCK, Action, CallYaniv, Play, apply, start_game
from games.engine.view import ViewData, view

Player = Callable[[ViewData, Rng], Action]

# A game that runs this long has a player that never ends a round: a bug, not a result.
_MAX_ACTIONS = 20_000
_Z95 = 1.959964
_BUCKET_NS = 10_000


def greedy(seen: ViewData, rng: Rng) -> Action:
    """Calls Yaniv as soon as it may; else throws its highest-value group and takes the
    lowest discard on offer when it is worth 3 or less, or else the stock.

    It does not take a card as high as the highest one it throws: two greedy players holding
    A-2-3 would otherwise hand a 3 back and forth for ever.
    """
    you = seen["you"]
    seat = you["seat"]
    if you["can_call_yaniv"]:
        return CallYaniv(seat)
    groups = legal_groups(you["hand"])
    top = max(sum(VALUE[card] for card in group) for group in groups)
    heaviest = [group for group in groups if sum(VALUE[card] for card in group) == top]
    group = heaviest[rng.randrange(len(heaviest))]
    low = min(seen["discard"]["takeable"], key=VALUE.__getitem__)
    take = VALUE[low] <= 3 and VALUE[low] < max(VALUE[card] for card in group)
    return Play(seat, group, low if take else STOCK)


def random_legal(seen: ViewData, rng: Rng) -> Action:
    """A move drawn uniformly from every legal one, Yaniv included when allowed."""
    you = seen["you"]
    seat = you["seat"]
    draws = [STOCK, *dict.fromkeys(seen["discard"]["takeable"])]
    groups = legal_groups(you["hand"])
    count = len(groups) * len(draws) + (1 if you["can_call_yaniv"] else 0)
    pick = rng.randrange(count)
    if pick == len(groups) * len(draws):
        return CallYaniv(seat)
    return Play(seat, groups[pick // len(draws)], draws[pick % len(draws)])


BASELINES: dict[str, Player] = {"greedy": greedy, "random": random_legal}


class Result(NamedTuple):
    share: float
    """The CPU's share of first place."""
    wall_ns: int
    """Wall time of its decisions."""
    cpu_ns: int
    """CPU time of its decisions: what they cost even on a busy machine."""
    buckets: Counter[int]
    """How many of its decisions took each whole number of _BUCKET_NS of CPU time."""


def play_game(players: list[Player], seed: int) -> Result:
    """One full game with the CPU in seat 0."""
    rng = random.Random(seed)
    state, _ = start_game(len(players), DEFAULT_RULES, rng)
    wall = cpu = 0
    buckets: Counter[int] = Counter()
    for _ in range(_MAX_ACTIONS):
        if state.standings is not None:
            firsts = [seat for seat, place in state.standings if place == 1]
            share = 1 / len(firsts) if 0 in firsts else 0.0
            return Result(share, wall, cpu, buckets)
        if state.out_round[0] is not None:
            # Out before the others, the CPU can no longer share first place.
            return Result(0.0, wall, cpu, buckets)
        seat = state.turn
        assert seat is not None
        seen = view(state, seat)
        if seat == 0:
            wall_start, cpu_start = time.perf_counter_ns(), time.thread_time_ns()
            action = choose_action(seen, rng)
            spent = time.thread_time_ns() - cpu_start
            wall += time.perf_counter_ns() - wall_start
            cpu += spent
            buckets[spent // _BUCKET_NS] += 1
        else:
            action = players[seat](seen, rng)
        state, _ = apply(state, action, rng)
    raise RuntimeError(f"game {seed} did not end in {_MAX_ACTIONS} actions")


def percentile(buckets: Counter[int], fraction: float) -> int:
    """The upper bound, in µs, of the bucket holding that fraction of the decisions."""
    needed = fraction * sum(buckets.values())
    seen = 0
    for bucket in sorted(buckets):
        seen += buckets[bucket]
        if seen >= needed:
            return (bucket + 1) * _BUCKET_NS // 1000
    return 0


def _run(job: tuple[str, int, int]) -> Result:
    baseline, table, seed = job
    players: list[Player] = [choose_action] + [BASELINES[baseline]] * (table - 1)
    return play_game(players, seed)


def wilson(wins: float, games: int) -> tuple[float, float]:
    centre = (wins + _Z95**2 / 2) / (games + _Z95**2)
    spread = _Z95 * math.sqrt(wins * (games - wins) / games + _Z95**2 / 4) / (games + _Z95**2)
    return centre - spread, centre + spread


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000, help="games per pairing")
    parser.add_argument("--workers", type=int, default=multiprocessing.cpu_count())
    parser.add_argument("--seed", type=int, default=1, help="first game's seed")
    args = parser.parse_args(argv)

    pairings = [(baseline, table) for table in (2, 4) for baseline in BASELINES]
    rows = []
    wall = cpu = 0
    buckets: Counter[int] = Counter()
    with multiprocessing.Pool(args.workers) as pool:
        for baseline, table in pairings:
            jobs = [(baseline, table, args.seed + game) for game in range(args.games)]
            wins = 0.0
            started = time.perf_counter()
            results = pool.imap_unordered(_run, jobs, chunksize=20)
            for done, result in enumerate(results, 1):
                wins += result.share
                wall += result.wall_ns
                cpu += result.cpu_ns
                buckets.update(result.buckets)
                if done % 200 == 0 or done == args.games:
                    print(
                        f"\r  CPU vs {table - 1} x {baseline}: {done}/{args.games} games, "
                        f"{wins / done:.1%} won, {time.perf_counter() - started:.0f} s",
                        end="",
                        file=sys.stderr,
                        flush=True,
                    )
            print(file=sys.stderr)
            low, high = wilson(wins, args.games)
            rows.append((baseline, table, wins / args.games, low, high, 1 / table))

    print(f"\n{args.games} games per pairing, default rules; a first place shared k ways = 1/k\n")
    print("| opponents | players | CPU wins | 95% interval | par |")
    print("|---|---|---|---|---|")
    for baseline, table, rate, low, high, par in rows:
        print(
            f"| {table - 1} x {baseline} | {table} | {rate:.1%} | {low:.1%} - {high:.1%} "
            f"| {par:.0%} |"
        )
    decisions = sum(buckets.values())
    print(
        f"\nCPU decisions: {decisions}; mean {wall / decisions / 1000:.0f} µs wall, "
        f"{cpu / decisions / 1000:.0f} µs CPU time; CPU time median "
        f"{percentile(buckets, 0.5)} µs, 99th percentile {percentile(buckets, 0.99)} µs, "
        f"slowest {percentile(buckets, 1.0)} µs"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
