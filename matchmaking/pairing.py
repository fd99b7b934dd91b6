"""The pairing algorithm: waiting tickets in, tables out. Pure Python: no Django, no I/O.

Two ideas from the systems that do this at scale:

- lichess's pools: pairing runs in waves, and what a waiting player accepts widens the longer
  they wait. Here each ticket accepts a rating gap (in ordinal points) of
  `base_gap + gap_per_second * waited`, and a table forms only when its spread (highest rating
  minus lowest) is within the gap of every member: acceptance is mutual.
- Nakama's matchmaker: hold out for the largest table for a few intervals, then settle for
  smaller ones. A ticket opens its accepted sizes one at a time, largest first, one more every
  `hold_seconds`.

A pass fills sizes from the largest down. For one size it takes the tickets that accept that
size now, in rating order, and picks tables among windows of neighbours by dynamic
programming: as many tables as possible, then the least total spread, with each second a
member has waited worth `gap_per_second` points of spread (the exchange rate at which its
tolerance widens), so an old ticket is not passed over forever for closer newcomers. A window
is `size` neighbours, or up to `skip` more with the extra interior tickets left out, so that a
fresh ticket (with a narrow gap) sitting between two compatible ones does not keep them apart.

Sorting costs O(n log n); each size's program looks at O(skip) windows of O(size + skip)
tickets per ticket, so the pass grows as n log n.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

__all__ = ["Policy", "Table", "Ticket", "pair"]


@dataclass(frozen=True, slots=True)
class Ticket:
    key: str
    rating: float
    sizes: frozenset[int]  # the table sizes the player accepts, each 2 or more
    waited: float  # seconds in the queue so far


@dataclass(frozen=True, slots=True)
class Table:
    tickets: tuple[str, ...]
    spread: float  # highest rating minus lowest


@dataclass(frozen=True, slots=True)
class Policy:
    # What a fresh ticket accepts; about the rating a new player gains or loses in a game.
    base_gap: float = 2.0
    # How fast acceptance widens: a 40-point gap (most of the ladder) after about 76 s.
    gap_per_second: float = 0.5
    # How long a ticket holds out for each larger size before accepting the next one down.
    hold_seconds: float = 5.0
    # Extra neighbours a window may span, leaving those interior tickets out of the table.
    skip: int = 2

    def gap(self, waited: float) -> float:
        return self.base_gap + self.gap_per_second * waited

    def open_sizes(self, ticket: Ticket) -> frozenset[int]:
        """The sizes the ticket accepts now: its largest, then one more per `hold_seconds`."""
        opened = 1 + int(ticket.waited // self.hold_seconds)
        return frozenset(sorted(ticket.sizes, reverse=True)[:opened])


@dataclass(slots=True)
class _Entry:
    ticket: Ticket
    gap: float
    open: frozenset[int]
    # The credit a ticket's wait earns against spread in the objective.
    credit: float


def pair(tickets: Iterable[Ticket], policy: Policy | None = None) -> list[Table]:
    """The tables to form now: each ticket in at most one, every member accepting the table's
    size (now) and its spread. Deterministic for a given input."""
    policy = policy or Policy()
    entries = [
        _Entry(t, policy.gap(t.waited), policy.open_sizes(t), policy.gap_per_second * t.waited)
        for t in tickets
    ]
    # Ties in rating (every new player's) go to the longest waiter first; the key makes the
    # order total, so the result does not depend on the input order.
    entries.sort(key=lambda e: (e.ticket.rating, -e.ticket.waited, e.ticket.key))
    tables: list[Table] = []
    seated: set[str] = set()
    for size in sorted({s for e in entries for s in e.open}, reverse=True):
        queue = [e for e in entries if size in e.open and e.ticket.key not in seated]
        for members in _windows(queue, size, policy.skip):
            ratings = [queue[k].ticket.rating for k in members]
            keys = tuple(queue[k].ticket.key for k in members)
            tables.append(Table(keys, max(ratings) - min(ratings)))
            seated.update(keys)
    return tables


def _windows(queue: Sequence[_Entry], size: int, skip: int) -> list[tuple[int, ...]]:
    """The best set of disjoint tables of `size` among `queue` (sorted by rating), as tuples of
    indices into it: most tables, then least total (spread - credit)."""
    n = len(queue)
    # best[i]: the best choice among queue[:i], as (tables, cost); chosen[i]: the table that
    # ends at queue[i - 1] in it, or None when queue[i - 1] sits out.
    tables = [0] * (n + 1)
    cost = [0.0] * (n + 1)
    chosen: list[tuple[int, ...] | None] = [None] * (n + 1)
    inner_needed = size - 2
    for i in range(1, n + 1):
        best_tables, best_cost, best = tables[i - 1], cost[i - 1], None
        last = queue[i - 1]
        for span in range(size, min(size + skip, i) + 1):
            start = i - span
            first = queue[start]
            spread = last.ticket.rating - first.ticket.rating
            if spread > last.gap:
                break  # a wider window only spreads further
            if spread > first.gap:
                continue
            inner = [k for k in range(start + 1, i - 1) if queue[k].gap >= spread]
            if len(inner) < inner_needed:
                continue
            if len(inner) > inner_needed:
                # Same spread whoever sits: seat the longest waiters.
                inner.sort(key=lambda k: -queue[k].credit)
                inner = inner[:inner_needed]
            members = (start, *inner, i - 1)
            here_tables = tables[start] + 1
            here_cost = cost[start] + spread - sum(queue[k].credit for k in members)
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
