"""The pairing algorithm: waiting tickets in, matches out (the tickets to seat at one table).
Pure Python: no Django, no I/O.

Two ideas from the systems that do this at scale:

- lichess's pools: pairing runs in waves, and the rating gap a player accepts widens the longer
  they wait; two players' waits add up, so a long waiter is paired even with a newcomer. Here a
  table forms when its spread (highest ordinal minus lowest) is within the table's tolerance,
  `base_gap + gap_per_second * (its members' mean wait)`: a fresh table of near-equals at once,
  a spread of 20 once its members have waited 36 s on average, and an outlier who waited long
  brings the tolerance of any table it joins up with it, so it is not left behind by neighbours
  who keep finding closer matches before their own tolerance reaches it.
- Nakama's matchmaker: hold out for the largest table for a few intervals, then settle for
  smaller ones. A ticket opens its accepted sizes one at a time, largest first, one more every
  `hold_seconds`.

A pass fills sizes from the largest down. For one size it takes the tickets that accept that
size now, in rating order, and picks tables among windows of neighbours by dynamic
programming: as many tables as possible, then the least total spread, with each second a
member has waited worth `gap_per_second` points of spread (the rate at which tolerance widens),
so an old ticket is not passed over forever for closer newcomers. A window is `size`
neighbours, or up to `skip` more with the freshest interior tickets left out.

- Players kept apart: the pass is handed the pairs of tickets that must not share a table (one
  of the two players blocks the other) as data, and no table it forms holds such a pair: a
  window with one is passed over (a wider window may leave one of the two out). A ticket that
  could only sit with someone it is kept apart from waits, and the CPU fill serves it in time.
- Bots filling empty seats after a wait (the most requested matchmaking feature): a ticket
  still unseated after `cpu_fill_seconds` is seated at a table of its largest accepted size
  with the CPU levels whose ratings are nearest its own. Fills are made only from what the
  human pass left: every ticket that pass could seat with humans is seated with them first,
  so a fill never takes a seat a human could have had.

Sorting costs O(n log n); each size's program looks at O(skip) windows of O(size + skip)
tickets per ticket, so the pass grows as n log n.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass

__all__ = ["Match", "Policy", "Ticket", "pair"]


@dataclass(frozen=True, slots=True)
class Ticket:
    key: str
    rating: float
    sizes: frozenset[int]  # the table sizes the player accepts, each 2 or more
    waited: float  # seconds in the queue so far


@dataclass(frozen=True, slots=True)
class Match:
    """The tickets to seat at one table, together, and the CPU players (their keys) that fill
    the rest of it."""

    tickets: tuple[str, ...]
    spread: float  # highest rating minus lowest, CPUs included
    cpus: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Policy:
    # What a table of fresh tickets accepts: about what a rated game moves an ordinal.
    base_gap: float = 2.0
    # How fast tolerance widens: a 40-point spread (most of the ladder) after a 76 s mean wait.
    gap_per_second: float = 0.5
    # How long a ticket holds out for each larger size before accepting the next one down.
    hold_seconds: float = 5.0
    # Extra neighbours a window may span, leaving those interior tickets out of the table.
    skip: int = 2
    # After this long unseated, a ticket is seated with CPU players (0: never), chosen among
    # `cpus`: (key, rating) of each CPU player, each at most once a table.
    cpu_fill_seconds: float = 0.0
    cpus: tuple[tuple[str, float], ...] = ()

    def tolerance(self, mean_waited: float) -> float:
        """The widest spread a table whose members waited `mean_waited` s on average accepts."""
        return self.base_gap + self.gap_per_second * mean_waited

    def open_sizes(self, ticket: Ticket) -> frozenset[int]:
        """The sizes the ticket accepts now: its largest, then one more per `hold_seconds`."""
        opened = 1 + int(ticket.waited // self.hold_seconds)
        return frozenset(sorted(ticket.sizes, reverse=True)[:opened])


def pair(
    tickets: Iterable[Ticket],
    policy: Policy | None = None,
    apart: Collection[frozenset[str]] = (),
) -> list[Match]:
    """The matches to seat now: each ticket in at most one, every member accepting the match's
    size (now), each match's spread within its tolerance, and no match holding both keys of a
    pair in `apart`; then, with `cpu_fill_seconds` set, the fills of the tickets left that
    waited that long. Deterministic for a given input."""
    policy = policy or Policy()
    tickets = list(tickets)
    matches = _pair_humans(tickets, policy, _Apart(apart))
    cpus = dict(policy.cpus)
    if policy.cpu_fill_seconds > 0 and cpus:
        seated = {key for match in matches for key in match.tickets}
        due = [t for t in tickets if t.key not in seated and t.waited >= policy.cpu_fill_seconds]
        due.sort(key=lambda ticket: (-ticket.waited, ticket.key))
        matches.extend(_fill(ticket, cpus) for ticket in due if max(ticket.sizes) - 1 <= len(cpus))
    return matches


def _fill(ticket: Ticket, cpus: Mapping[str, float]) -> Match:
    """The ticket at a table of its largest size, the other seats the nearest-rated CPUs."""
    nearest = sorted(cpus, key=lambda key: (abs(cpus[key] - ticket.rating), key))
    chosen = tuple(nearest[: max(ticket.sizes) - 1])
    ratings = [ticket.rating, *(cpus[key] for key in chosen)]
    return Match((ticket.key,), max(ratings) - min(ratings), chosen)


class _Apart:
    """Which tickets may not share a table, by key."""

    def __init__(self, pairs: Collection[frozenset[str]]) -> None:
        self.of: dict[str, set[str]] = {}
        for pair_ in pairs:
            one, other = tuple(pair_)
            self.of.setdefault(one, set()).add(other)
            self.of.setdefault(other, set()).add(one)

    def clash(self, key: str, keys: Iterable[str]) -> bool:
        """Whether `key` is kept apart from any of `keys`."""
        kept = self.of.get(key)
        return kept is not None and any(other in kept for other in keys)


def _pair_humans(tickets: Sequence[Ticket], policy: Policy, apart: _Apart) -> list[Match]:
    entries = [(ticket, policy.open_sizes(ticket)) for ticket in tickets]
    # Ties in rating (every new player's) go to the longest waiter first; the key makes the
    # order total, so the result does not depend on the input order.
    entries.sort(key=lambda entry: (entry[0].rating, -entry[0].waited, entry[0].key))
    matches: list[Match] = []
    seated: set[str] = set()
    for size in sorted({s for _, opened in entries for s in opened}, reverse=True):
        queue = [t for t, opened in entries if size in opened and t.key not in seated]
        for members in _windows(queue, size, policy, apart):
            ratings = [queue[k].rating for k in members]
            keys = tuple(queue[k].key for k in members)
            matches.append(Match(keys, max(ratings) - min(ratings)))
            seated.update(keys)
    return matches


def _windows(
    queue: Sequence[Ticket], size: int, policy: Policy, apart: _Apart
) -> list[tuple[int, ...]]:
    """The best set of disjoint tables of `size` among `queue` (sorted by rating), as tuples of
    indices into it: most tables, then least total (spread - gap_per_second * waited), none
    holding two tickets kept `apart`."""
    n = len(queue)
    ratings = [ticket.rating for ticket in queue]
    waits = [ticket.waited for ticket in queue]
    # tables[i], cost[i]: the best choice among queue[:i]; chosen[i]: the table that ends at
    # queue[i - 1] in it, or None when queue[i - 1] sits out.
    tables = [0] * (n + 1)
    cost = [0.0] * (n + 1)
    chosen: list[tuple[int, ...] | None] = [None] * (n + 1)
    for i in range(size, n + 1):
        best_tables, best_cost, best = tables[i - 1], cost[i - 1], None
        last = i - 1
        for span in range(size, min(size + policy.skip, i) + 1):
            first = i - span
            window: tuple[int, ...] | None
            if span == size:
                window = tuple(range(first, i))
                if apart.of and not _together(queue, window, apart):
                    continue
            else:
                # The spread is the same whoever sits inside: seat the longest waiters.
                inner = sorted(range(first + 1, last), key=waits.__getitem__, reverse=True)
                window = _seat_inside(queue, first, last, inner, size, apart)
            if window is None:
                continue
            members = window
            spread = ratings[last] - ratings[first]
            waited = sum(waits[k] for k in members)
            if spread > policy.tolerance(waited / size):
                continue
            here_tables = tables[first] + 1
            here_cost = cost[first] + spread - policy.gap_per_second * waited
            if here_tables > best_tables or (here_tables == best_tables and here_cost < best_cost):
                best_tables, best_cost, best = here_tables, here_cost, members
        tables[i], cost[i], chosen[i] = best_tables, best_cost, best
    picked = []
    i = n
    while i > 0:
        table = chosen[i]
        if table is None:
            i -= 1
        else:
            picked.append(table)
            i = table[0]
    picked.reverse()
    return picked


def _together(queue: Sequence[Ticket], members: Sequence[int], apart: _Apart) -> bool:
    """Whether these tickets may share a table: no two of them kept apart."""
    keys = [queue[k].key for k in members]
    return not any(apart.clash(key, keys[:index]) for index, key in enumerate(keys))


def _seat_inside(
    queue: Sequence[Ticket], first: int, last: int, inner: list[int], size: int, apart: _Apart
) -> tuple[int, ...] | None:
    """A window's table: its two ends, and the first of `inner` (longest waiters first) that
    none of those already chosen is kept apart from; None when too few are left."""
    if not apart.of:
        return (first, *inner[: size - 2], last)
    chosen = [first, last]
    if not _together(queue, chosen, apart):
        return None
    keys = [queue[first].key, queue[last].key]
    for k in inner:
        if len(chosen) == size:
            break
        if not apart.clash(queue[k].key, keys):
            chosen.append(k)
            keys.append(queue[k].key)
    if len(chosen) < size:
        return None
    return (first, *sorted(chosen[2:], key=inner.index), last)
