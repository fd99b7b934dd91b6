"""The pure core of arena tournaments (issue 28): who sits at which table in a pairing pass,
what a game's places are worth, who is on fire, and the order of the standings.
Pure Python: no Django, no I/O.

A pass seats the idle participants, by these rules in this order of importance:

1. Two players who shared a player's previous table (one is in the other's `previous`) never
   sit together while both have been idle less than `repeat_wait`: such a *repeat* waits. Two
   players kept `apart` (a block) never sit together at all.
2. As few players as possible are left over (a lone idle player always is).
3. Of those left over, as few as possible have waited `repeat_wait` (nobody is stranded).
4. As few repeats as possible: one is made only where one of the pair has waited `repeat_wait`
   and the pass found no other seat for them.
5. Larger tables first: of the ways to split the seated players into the allowed sizes, the
   one whose sizes, largest first, are greatest (7 with sizes {2, 3}: 3 + 2 + 2).
6. Players of near rank sit together; those left over are the ones who have waited least.

How: the split is precomputed (which counts are sums of the sizes, then the largest size that
still leaves a sum, over and over), the seated players are dealt to the tables in rank order,
each table taking the next players who repeat no one already at it (looking a few ranks
ahead), and a table left with a repeat is repaired by swapping one of the pair with a player
of a nearby table, or with one left over, that repeats no one at either table. A table the
repairs could not mend is kept when each of its repeats has a long waiter in it; otherwise its
players are seated again, with those left over, by the same steps. A small pool (up to
`EXACT_LIMIT` players) whose greedy seating made or left a repeat is solved exactly instead:
every seating that breaks rule 1, best by rules 2-6.

Sorting costs O(n log n); the deal looks at a bounded window per seat and the repairs at a
bounded number of tables per repeat, so a pass grows as n log n.

Points: at a table of `n`, a player scores the number of players they finished ahead of, and
players tied share the points of the places they span: `points`. A player whose previous two
games of the tournament were both outright first places is on fire (`on_fire`) and scores
double: `scores` applies it, so the caller doubles nothing itself.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations
from typing import TypeVar

__all__ = [
    "EXACT_LIMIT",
    "Idle",
    "Tally",
    "on_fire",
    "outright_first",
    "points",
    "scores",
    "seat",
    "split",
    "standings_order",
    "standings_ranks",
    "tally",
]

EXACT_LIMIT = 8
"""The largest pool solved exactly when the greedy seating repeats (every partition of 8
players is some 4,000 seatings: a few milliseconds)."""
LOOKAHEAD = 12
"""How many ranks past a table's first player the deal looks for players who repeat no one."""
REPAIR_REACH = 3
"""How many tables on each side a repair looks at for a player to swap."""


@dataclass(frozen=True, slots=True)
class Idle:
    key: str
    rank: int  # 1-based position in the current standings; ties allowed
    idle_seconds: float  # since their last game ended, or since they joined
    # The others at this player's previous table of the tournament; empty before the first.
    previous: frozenset[str]


Table = list[Idle]


class _Clashes:
    """Who would repeat whom in this pass, who has waited long enough to be let, and who is
    kept apart whatever the wait (a block between them)."""

    def __init__(
        self, players: Sequence[Idle], repeat_wait: float, apart: Collection[frozenset[str]] = ()
    ) -> None:
        present = {player.key for player in players}
        self.others: dict[str, set[str]] = {}
        pairs = [(player.key, other) for player in players for other in player.previous]
        self.apart = {pair for pair in apart if len(pair) == 2 and pair <= present}
        for a, b in [*pairs, *(tuple(pair) for pair in self.apart)]:
            if b in present and a != b:
                self.others.setdefault(a, set()).add(b)
                self.others.setdefault(b, set()).add(a)
        self.waited = {player.key for player in players if player.idle_seconds >= repeat_wait}

    def clash(self, a: Idle, b: Idle) -> bool:
        return b.key in self.others.get(a.key, ())

    def forbidden(self, a: Idle, b: Idle) -> bool:
        """Two who may not sit together: kept apart, or a repeat while neither of them has
        waited `repeat_wait`."""
        if frozenset((a.key, b.key)) in self.apart:
            return True
        return self.clash(a, b) and a.key not in self.waited and b.key not in self.waited

    def fits(self, player: Idle, table: Sequence[Idle]) -> bool:
        """`player` repeats no one at `table`."""
        others = self.others.get(player.key)
        return not others or not any(member.key in others for member in table)

    def repeats(self, table: Sequence[Idle]) -> int:
        return sum(self.clash(a, b) for a, b in combinations(table, 2))

    def allowed(self, table: Sequence[Idle]) -> bool:
        return not any(self.forbidden(a, b) for a, b in combinations(table, 2))


def seat(
    idle: Sequence[Idle],
    sizes: frozenset[int],
    repeat_wait: float,
    apart: Collection[frozenset[str]] = (),
) -> list[tuple[str, ...]]:
    """The tables of one pairing pass, each the keys of its players in rank order, the tables
    in the order of their best-ranked player. Every table has a size in `sizes`, nobody sits
    twice, no table holds two players of a pair in `apart` (one blocks the other: they wait
    rather), and the rules of the module's docstring hold. Deterministic for a given input (in
    any order)."""
    if not sizes or min(sizes) < 2:
        raise ValueError(f"table sizes must be 2 or more: {sorted(sizes)}")
    keys = [player.key for player in idle]
    if len(set(keys)) != len(keys):
        raise ValueError("a player is idle twice")
    # Rank order; equal ranks go to the longest waiter first, and the key makes it total.
    players = sorted(idle, key=lambda player: (player.rank, -player.idle_seconds, player.key))
    clashes = _Clashes(players, repeat_wait, apart)
    tables = _solve(players, sizes, clashes)
    order = {player.key: index for index, player in enumerate(players)}
    seated = [sorted(table, key=lambda player: order[player.key]) for table in tables]
    seated.sort(key=lambda table: order[table[0].key])
    return [tuple(player.key for player in table) for table in seated]


@lru_cache(maxsize=256)
def split(players: int, sizes: frozenset[int]) -> tuple[int, ...]:
    """The table sizes to seat `players` at, largest first: as few left over as possible,
    then the greatest sizes (7 with {2, 3}: (3, 2, 2); 7 with {4}: (4,); 1: ())."""
    reachable = [True] + [False] * players
    for total in range(1, players + 1):
        reachable[total] = any(size <= total and reachable[total - size] for size in sizes)
    total = max(count for count in range(players + 1) if reachable[count])
    plan = []
    while total:
        size = max(size for size in sizes if size <= total and reachable[total - size])
        plan.append(size)
        total -= size
    return tuple(plan)


def _solve(players: Sequence[Idle], sizes: frozenset[int], clashes: _Clashes) -> list[Table]:
    if len(players) < min(sizes):
        return []
    tables = _deal(players, sizes, clashes)
    if not any(clashes.repeats(table) for table in tables):
        return tables
    if len(players) <= EXACT_LIMIT:
        return _exact(players, sizes, clashes)
    kept = [table for table in tables if clashes.allowed(table)]
    if not kept:
        # Tables this large cannot be formed without a forbidden repeat (players back from a
        # few tables that just ended: a table of 5 from two tables of 5 always repeats): try
        # smaller ones, as rule 4 ranks fewer repeats above larger tables.
        smaller = frozenset(size for size in sizes if size < max(sizes))
        return _solve(players, smaller, clashes) if smaller else []
    seated = {player.key for table in kept for player in table}
    rest = [player for player in players if player.key not in seated]
    return kept + _solve(rest, sizes, clashes)


def _deal(players: Sequence[Idle], sizes: frozenset[int], clashes: _Clashes) -> list[Table]:
    """The split's tables dealt in rank order, then repaired; those left over are the ones
    who have waited least."""
    plan = split(len(players), sizes)
    left = len(players) - sum(plan)
    waiting = sorted(players, key=lambda player: (player.idle_seconds, player.key))[:left]
    out = {player.key for player in waiting}
    pool = [player for player in players if player.key not in out]
    taken = [False] * len(pool)
    tables: list[Table] = []
    first = 0
    for size in plan:
        while taken[first]:
            first += 1
        tables.append([pool[k] for k in _take(pool, taken, first, size, clashes)])
    for number, table in enumerate(tables):
        if clashes.repeats(table):
            _repair(number, tables, waiting, clashes)
    return tables


def _take(
    pool: Sequence[Idle], taken: list[bool], first: int, size: int, clashes: _Clashes
) -> list[int]:
    """A table of `size` from `pool[first]` on: the next players not yet taken who repeat no
    one at it, at most LOOKAHEAD ranks on; short of them, the nearest, for the repairs."""
    seats = [first]
    taken[first] = True
    for index in range(first + 1, min(len(pool), first + 1 + LOOKAHEAD)):
        if len(seats) == size:
            break
        if not taken[index] and clashes.fits(pool[index], [pool[k] for k in seats]):
            seats.append(index)
            taken[index] = True
    index = first + 1
    while len(seats) < size:
        if not taken[index]:
            seats.append(index)
            taken[index] = True
        index += 1
    return seats


def _repair(number: int, tables: list[Table], waiting: list[Idle], clashes: _Clashes) -> None:
    """Swap players out of `tables[number]` until it repeats no one, each swap with a player
    of a table at most REPAIR_REACH away (the nearest first) or one left over, who repeats no
    one at this table and whom the player swapped out repeats no one at theirs. A player who
    has waited `repeat_wait` is not swapped out for one left over who has not."""
    table = tables[number]
    nearby = [
        tables[other]
        for distance in range(1, REPAIR_REACH + 1)
        for other in (number - distance, number + distance)
        if 0 <= other < len(tables)
    ]
    position = len(table) - 1
    while position >= 0:
        member = table[position]
        rest = table[:position] + table[position + 1 :]
        if clashes.fits(member, rest):
            position -= 1
            continue
        if not _swap(table, position, rest, nearby, waiting, clashes):
            position -= 1
            continue
        position = len(table) - 1  # the table changed: look at everyone again


def _swap(
    table: Table,
    position: int,
    rest: Table,
    nearby: list[Table],
    waiting: list[Idle],
    clashes: _Clashes,
) -> bool:
    member = table[position]
    for other in nearby:
        for index, candidate in enumerate(other):
            if not clashes.fits(candidate, rest):
                continue
            if clashes.fits(member, other[:index] + other[index + 1 :]):
                table[position], other[index] = candidate, member
                return True
    long = member.key in clashes.waited
    for index, candidate in enumerate(waiting):
        if (long and candidate.key not in clashes.waited) or not clashes.fits(candidate, rest):
            continue
        table[position], waiting[index] = candidate, member
        return True
    return False


def _exact(players: Sequence[Idle], sizes: frozenset[int], clashes: _Clashes) -> list[Table]:
    """Every seating of `players` (at most EXACT_LIMIT of them) with no forbidden repeat; the
    best by the rules' order, the first found among equals. The first three measures (left
    over, long waiters left over, repeats) only grow as players are placed, so a seating whose
    count of them is already worse than the best one's is cut short."""
    count = len(players)
    order = sorted(sizes, reverse=True)
    free = [True] * count
    long = [player.key in clashes.waited for player in players]
    clash = [[clashes.clash(a, b) for b in players] for a in players]
    banned = [[clashes.forbidden(a, b) for b in players] for a in players]
    tables: list[tuple[int, ...]] = []
    # Running measures: left over, long waiters of them, repeats, rank spread, idle left over.
    run = [0, 0, 0, 0, 0.0]
    best_score: tuple[float, ...] = (float(count + 1),)
    best: list[tuple[int, ...]] = []

    def judge() -> None:
        nonlocal best_score, best
        seated = sorted((len(table) for table in tables), reverse=True)
        score = (*run[:3], *(-size for size in seated), *run[3:])
        if score < best_score:
            best_score, best = score, list(tables)

    def place(start: int) -> None:
        while start < count and not free[start]:
            start += 1
        if start == count:
            judge()
            return
        if tuple(run[:3]) > best_score[:3]:
            return
        free[start] = False
        partners = [k for k in range(start + 1, count) if free[k] and not banned[start][k]]
        for size in order:
            for chosen in combinations(partners, size - 1):
                if any(banned[a][b] for a, b in combinations(chosen, 2)):
                    continue
                table = (start, *chosen)
                repeats = sum(clash[a][b] for a, b in combinations(table, 2))
                spread = players[table[-1]].rank - players[start].rank
                for k in chosen:
                    free[k] = False
                tables.append(table)
                run[2] += repeats
                run[3] += spread
                place(start + 1)
                run[2] -= repeats
                run[3] -= spread
                tables.pop()
                for k in chosen:
                    free[k] = True
        run[0] += 1
        run[1] += long[start]
        run[4] += players[start].idle_seconds
        place(start + 1)
        run[0] -= 1
        run[1] -= long[start]
        run[4] -= players[start].idle_seconds
        free[start] = True

    place(0)
    return [[players[k] for k in table] for table in best]


def points(places: Sequence[int]) -> list[float]:
    """Per seat, the players finished behind, plus half of those tied with (docs/rules.md §8 places,
    1 the best): two tied first of three score 1.5 each, three tied of three 1 each."""
    return [
        sum(other > place for other in places) + (sum(other == place for other in places) - 1) / 2
        for place in places
    ]


def scores(places: Sequence[int], fire: Sequence[bool]) -> list[float]:
    """Per seat, `points`, doubled for a player on fire."""
    if len(fire) != len(places):
        raise ValueError("one fire flag a seat")
    return [value * 2 if hot else value for value, hot in zip(points(places), fire, strict=True)]


def outright_first(places: Sequence[int], seat: int) -> bool:
    """The player at `seat` finished first alone (a shared first is a draw, docs/rules.md §8)."""
    return places[seat] == 1 and sum(place == 1 for place in places) == 1


def on_fire(previous_firsts: Sequence[bool]) -> bool:
    """On fire in the next game: the player's last two games of the tournament (oldest first,
    each `outright_first`) were both outright first places."""
    return len(previous_firsts) >= 2 and previous_firsts[-1] and previous_firsts[-2]


@dataclass(frozen=True, slots=True)
class Tally:
    score: float
    games: int
    firsts: int  # outright first places
    streak: int  # outright firsts in a row, up to the last game
    scored: int | None  # the index of the last game that gave points, or None


def tally(games: Sequence[tuple[Sequence[int], int]]) -> Tally:
    """One player's standing from their counted games in the order they finished, each its
    places (docs/rules.md §8, every seat's) and the player's seat: what the games' points,
    scored one by one as they end (`scores`, `outright_first`), add up to."""
    score, firsts, streak, scored = 0.0, 0, 0, None
    for index, (places, seat) in enumerate(games):
        fire = [False] * len(places)
        fire[seat] = streak >= 2
        gained = scores(places, fire)[seat]
        if gained:
            score, scored = score + gained, index
        first = outright_first(places, seat)
        firsts += first
        streak = streak + 1 if first else 0
    return Tally(score, len(games), firsts, streak, scored)


Reached = TypeVar("Reached")


def standings_order(score: float, firsts: int, reached: Reached) -> tuple[float, int, Reached]:
    """The sort key of a standings row: score (highest first), then firsts (most first), then
    `reached`, the moment the player reached their score (earliest first; for a score of 0,
    when they joined). `firsts` counts outright first places, as `on_fire` does."""
    return (-score, -firsts, reached)


def standings_ranks(ordered_keys: Sequence[tuple[float, int, object]]) -> list[int]:
    """The 1-based ranks of rows sorted by `standings_order`: equal keys share a rank, and the
    next rank skips as many (standard competition ranking, as docs/rules.md §8's places)."""
    ranks: list[int] = []
    for index, key in enumerate(ordered_keys):
        tied = index > 0 and key == ordered_keys[index - 1]
        ranks.append(ranks[-1] if tied else index + 1)
    return ranks
