"""How strong is each CPU level? Full games between the levels and baselines, and its speed.

    python bench/cpu_strength.py [--games N] [--workers W] [--rows PLAYER ...]
                                 [--presets | --presets-only]
                                 [--preset-pairing PLAYER OPPONENT]

Each row plays N complete games (default rules, to the end) of one player, in seat 0, against
one opponent heads-up or three at a four-player table: each level against the level below it
(the ladder), ``expert`` against ``hard`` (the CPU as it was before the levels, unchanged), and
``hard`` against the greedy and random baselines. The engine draws the first starter at
random. With ``--presets`` (or ``--presets-only``, without the ladder) a row per docs/rules.md §12
preset follows: ``hard`` against ``greedy`` heads-up and at four seats, and at eight for
``least_count`` (two decks); ``--preset-pairing expert hard`` has other players play them. A
win is a first place; a first place shared by k players counts 1/k of a win, so the shares of
one game add up to 1 and par at a table of n equal players is exactly 1/n. Intervals are 95%
Wilson score intervals. Decision time is that of the seat-0 player's ``choose_action`` alone
(building the view and applying the move are not counted), as CPU time, which a busy machine
does not inflate. ``--rows expert`` plays only the ladder rows
of that player (both table sizes), for a quick look at one level; by default every row is played.
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
from functools import partial
from pathlib import Path
from typing import NamedTuple

# Run as a script (`python bench/cpu_strength.py`), the repository root is not on the path.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engine.cards import RANK
from games.engine.cpu import Level, choose_action
from games.engine.moves import legal_groups
from games.engine.rng import Rng
from games.engine.rules import DEFAULT_RULES, Preset, Rules
from games.engine.state import STOCK, Action, CallYaniv, GameState, Play, apply, start_game
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
    values = seen["rules"].card_values(seen["wild"])  # the round's values (docs/rules.md §12)
    groups = legal_groups(you["hand"], _wild_rank(seen))
    top = max(sum(values[card] for card in group) for group in groups)
    heaviest = [group for group in groups if sum(values[card] for card in group) == top]
    group = heaviest[rng.randrange(len(heaviest))]
    low = min(seen["discard"]["takeable"], key=values.__getitem__)
    take = values[low] <= 3 and values[low] < max(values[card] for card in group)
    return Play(seat, group, low if take or not seen["stock_count"] else STOCK)


def _wild_rank(seen: ViewData) -> int:
    return RANK[seen["wild"]] if seen["wild"] else 0


def random_legal(seen: ViewData, rng: Rng) -> Action:
    """A move drawn uniformly from every legal one, Yaniv included when allowed."""
    you = seen["you"]
    seat = you["seat"]
    draws = [STOCK] if seen["stock_count"] else []
    draws += dict.fromkeys(seen["discard"]["takeable"])
    groups = legal_groups(you["hand"], _wild_rank(seen))
    count = len(groups) * len(draws) + (1 if you["can_call_yaniv"] else 0)
    pick = rng.randrange(count)
    if pick == len(groups) * len(draws):
        return CallYaniv(seat)
    return Play(seat, groups[pick // len(draws)], draws[pick % len(draws)])


PLAYERS: dict[str, Player] = {
    **{level.value: partial(choose_action, level=level) for level in Level},
    "greedy": greedy,
    "random": random_legal,
}
# (player, opponent): each level against the one below it, the new player against the CPU
# as it was, and that CPU against the baselines; each at two and at four seats.
PAIRINGS = [
    ("easy", "random"),
    ("medium", "easy"),
    ("hard", "medium"),
    ("expert", "hard"),
    ("hard", "greedy"),
    ("hard", "random"),
]
PRESET_PAIRING = ("hard", "greedy")
"""Each preset's rows: the CPU against the greedy baseline."""


def preset_tables(preset: Preset) -> tuple[int, ...]:
    """Heads-up and four seats, and the most seats (eight) for a two-deck preset."""
    rules = Rules.from_dict({"preset": preset.value})
    return (2, 4, rules.max_players) if rules.decks > 1 else (2, 4)


class Result(NamedTuple):
    share: float
    """Seat 0's share of first place."""
    cpu_ns: int
    """CPU time of its decisions: what they cost even on a busy machine."""
    buckets: Counter[int]
    """How many of its decisions took each whole number of _BUCKET_NS of CPU time."""


def play_game(
    players: list[Player],
    seed: int,
    rules: Rules = DEFAULT_RULES,
    peek: Callable[[GameState], None] | None = None,
) -> Result:
    """One full game with the player measured in seat 0; ``peek``, if given, is shown the
    whole state before each decision (for bench/cpu_ceiling.py's players who cheat)."""
    rng = random.Random(seed)
    state, _ = start_game(len(players), rules, rng)
    cpu = 0
    buckets: Counter[int] = Counter()
    for _ in range(_MAX_ACTIONS):
        if state.standings is not None:
            firsts = [seat for seat, place in state.standings if place == 1]
            share = 1 / len(firsts) if 0 in firsts else 0.0
            return Result(share, cpu, buckets)
        if state.out_round[0] is not None:
            # Out before the others, seat 0 can no longer share first place.
            return Result(0.0, cpu, buckets)
        seat = state.turn
        assert seat is not None
        seen = view(state, seat)
        if peek is not None:
            peek(state)
        if seat == 0:
            cpu_start = time.thread_time_ns()
            action = players[0](seen, rng)
            spent = time.thread_time_ns() - cpu_start
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


def _run(job: tuple[str, str, int, int, str]) -> Result:
    player, opponent, table, seed, preset = job
    rules = Rules.from_dict({"preset": preset})
    return play_game([PLAYERS[player]] + [PLAYERS[opponent]] * (table - 1), seed, rules)


def wilson(wins: float, games: int) -> tuple[float, float]:
    centre = (wins + _Z95**2 / 2) / (games + _Z95**2)
    spread = _Z95 * math.sqrt(wins * (games - wins) / games + _Z95**2 / 4) / (games + _Z95**2)
    return centre - spread, centre + spread


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="games per row")
    parser.add_argument("--workers", type=int, default=multiprocessing.cpu_count())
    parser.add_argument("--seed", type=int, default=1, help="first game's seed")
    parser.add_argument(
        "--rows",
        nargs="+",
        choices=sorted({player for player, _ in PAIRINGS}),
        help="play only the rows of these players (default: every row)",
    )
    presets = parser.add_mutually_exclusive_group()
    presets.add_argument("--presets", action="store_true", help="add a row per §12 preset")
    presets.add_argument("--presets-only", action="store_true", help="only the preset rows")
    parser.add_argument(
        "--preset-pairing",
        nargs=2,
        metavar=("PLAYER", "OPPONENT"),
        choices=sorted(PLAYERS),
        default=PRESET_PAIRING,
        help="who plays the preset rows (default: %(default)s)",
    )
    args = parser.parse_args(argv)
    pairings = [pair for pair in PAIRINGS if args.rows is None or pair[0] in args.rows]

    plan: list[tuple[str, str, int, str]] = []
    if not args.presets_only:
        plan += [
            (player, opponent, table, Preset.STANDARD.value)
            for table in (2, 4)
            for player, opponent in pairings
        ]
    if args.presets or args.presets_only:
        plan += [
            (*args.preset_pairing, table, preset.value)
            for preset in Preset
            if preset is not Preset.STANDARD
            for table in preset_tables(preset)
        ]
    rows = []
    timing: dict[str, Counter[int]] = {}
    with multiprocessing.Pool(args.workers) as pool:
        for player, opponent, table, preset in plan:
            jobs = [
                (player, opponent, table, args.seed + game, preset) for game in range(args.games)
            ]
            wins = 0.0
            started = time.perf_counter()
            buckets = timing.setdefault(player, Counter())
            results = pool.imap_unordered(_run, jobs, chunksize=10)
            for done, result in enumerate(results, 1):
                wins += result.share
                buckets.update(result.buckets)
                if done % 100 == 0 or done == args.games:
                    print(
                        f"\r  {player} vs {table - 1} x {opponent} ({preset}): {done}/{args.games}"
                        f" games, {wins / done:.1%} won, {time.perf_counter() - started:.0f} s",
                        end="",
                        file=sys.stderr,
                        flush=True,
                    )
            print(file=sys.stderr)
            low, high = wilson(wins, args.games)
            rows.append((player, opponent, table, preset, wins / args.games, low, high))

    print(f"\n{args.games} games per row; a first place shared k ways = 1/k\n")
    print("| player | opponents | players | rules | wins | 95% interval | par |")
    print("|---|---|---|---|---|---|---|")
    for player, opponent, table, preset, rate, low, high in rows:
        print(
            f"| {player} | {table - 1} x {opponent} | {table} | {preset} | {rate:.1%} "
            f"| {low:.1%} - {high:.1%} | {1 / table:.0%} |"
        )
    print("\n| level | decisions | CPU time p50 | p99 | slowest |")
    print("|---|---|---|---|---|")
    for level in Level:
        if level.value not in timing:
            continue
        buckets = timing[level.value]
        print(
            f"| {level.value} | {sum(buckets.values())} | {percentile(buckets, 0.5)} µs "
            f"| {percentile(buckets, 0.99)} µs | {percentile(buckets, 1.0)} µs |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
