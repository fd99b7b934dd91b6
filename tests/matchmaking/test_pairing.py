"""The pairing algorithm alone: tickets in, matches out."""

from __future__ import annotations

import random
import statistics
from collections.abc import Iterable
from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from matchmaking.pairing import Match, Policy, Ticket, pair

POLICY = Policy()
ALL = (2, 3, 4, 5)
# Long enough for every size to be open and every gap on the ladder below to be accepted.
LONG = 200.0


def ticket(key: str, rating: float = 0.0, sizes: Iterable[int] = ALL, waited: float = 0.0):
    return Ticket(key, rating, frozenset(sizes), waited)


def seated(matches: list[Match]) -> list[set[str]]:
    return [set(match.tickets) for match in matches]


def test_nothing_to_pair() -> None:
    assert pair([]) == []
    assert pair([ticket("a", waited=LONG)]) == []


def test_four_alike_who_want_four_make_one_table() -> None:
    tables = pair([ticket(key, sizes=[4]) for key in "abcd"])

    assert seated(tables) == [set("abcd")]
    assert tables[0].spread == 0


def test_a_table_has_a_size_all_its_members_accept() -> None:
    tickets = [
        *(ticket(f"three{i}", sizes=[3], waited=LONG) for i in range(2)),
        *(ticket(f"two{i}", sizes=[2], waited=LONG) for i in range(2)),
    ]

    assert seated(pair(tickets)) == [{"two0", "two1"}]


def test_the_largest_table_everyone_accepts_comes_first() -> None:
    tickets = [ticket(str(i), rating=i / 10, waited=LONG) for i in range(10)]

    assert [len(table.tickets) for table in pair(tickets)] == [5, 5]


def test_fresh_tickets_hold_out_for_a_larger_table_then_settle() -> None:
    def tables_after(waited: float) -> list[int]:
        return [len(t.tickets) for t in pair([ticket(k, waited=waited) for k in "abcd"])]

    hold = POLICY.hold_seconds
    assert tables_after(0) == []  # everyone still hopes for five
    assert tables_after(hold - 0.1) == []
    assert tables_after(hold) == [4]


def test_a_ticket_opens_its_sizes_largest_first() -> None:
    flexible = ticket("a", sizes=[2, 3, 5])
    opened = [POLICY.open_sizes(replace(flexible, waited=w)) for w in (0, 5, 10, 60)]

    assert opened == [{5}, {5, 3}, {5, 3, 2}, {5, 3, 2}]


def test_a_far_apart_pair_waits_then_matches() -> None:
    def matched(waited: float) -> bool:
        return bool(pair([ticket("low", 0, [2], waited), ticket("high", 20, [2], waited)]))

    # A spread of 20 is accepted once base_gap + gap_per_second * waited reaches it: at 36 s.
    assert not matched(0)
    assert not matched(35.9)
    assert matched(36)
    assert matched(LONG)


def test_a_long_waiter_widens_the_tables_it_joins() -> None:
    """Tolerance goes by the members' mean wait: a newcomer joins someone who waited long."""
    old, new = ticket("old", 0, [2], 0), ticket("new", 20, [2], 0)

    assert pair([replace(old, waited=35), new]) == []  # mean wait 17.5 s: tolerance 10.75
    assert seated(pair([replace(old, waited=LONG), new])) == [{"old", "new"}]


def test_an_outlier_is_seated_while_others_keep_arriving() -> None:
    """Its neighbours keep finding closer company before their own tolerance could reach it;
    its wait, counted in the tolerance of any table it joins, gets it a seat all the same."""
    rng = random.Random(7)
    queue = {"outlier": (0.0, -16.0)}
    for second in range(1, 600):
        queue.update({f"{second}.{i}": (second, rng.gauss(2, 2)) for i in range(6)})
        tickets = [ticket(k, r, [4], second - at) for k, (at, r) in queue.items()]
        tables = pair(tickets)
        for table in tables:
            for key in table.tickets:
                del queue[key]
        if "outlier" not in queue:
            break
    # Its nearest company sits about 14 points away: a table of four with that spread needs a
    # mean wait of 24 s, which its own wait alone gives after 96 s.
    assert second <= 120, f"seated after {second} s"


def test_the_closest_ratings_sit_together() -> None:
    tickets = [ticket(k, r, [2], LONG) for k, r in (("a", 0), ("b", 10), ("c", 11))]

    tables = pair(tickets)

    assert seated(tables) == [{"b", "c"}]
    assert tables[0].spread == 1


def test_tables_minimise_the_total_spread() -> None:
    ratings = {"a": 0, "b": 1, "c": 5, "d": 6, "e": 20, "f": 21}
    tables = pair([ticket(k, r, [2], LONG) for k, r in ratings.items()])

    assert sorted(map(sorted, seated(tables))) == [["a", "b"], ["c", "d"], ["e", "f"]]


def test_a_table_may_leave_out_a_fresher_ticket_between_its_members() -> None:
    tickets = [ticket("a", 0, [2], LONG), ticket("fresh", 5, [2], 0), ticket("b", 10, [2], LONG)]

    assert seated(pair(tickets)) == [{"a", "b"}]


def test_an_old_ticket_is_not_passed_over_forever_for_closer_newcomers() -> None:
    def tables_with(old_waited: float) -> list[set[str]]:
        newcomers = [ticket("y", 10, [2], 20), ticket("z", 10.5, [2], 20)]
        return seated(pair([ticket("x", 0, [2], old_waited), *newcomers]))

    assert tables_with(20) == [{"y", "z"}]  # as new as they are: the closest pair
    assert tables_with(100) == [{"x", "y"}]  # it waited long enough to come first


def test_the_longest_waiters_take_the_seats() -> None:
    tickets = [ticket(str(waited), 0, [2], waited) for waited in (31, 1, 30)]

    assert seated(pair(tickets)) == [{"31", "30"}]


def test_every_table_of_five_is_seated_before_smaller_ones() -> None:
    fives = [ticket(f"f{i}", sizes=[5], waited=LONG) for i in range(5)]
    flexible = [ticket(f"x{i}", waited=LONG) for i in range(3)]

    tables = pair([*fives, *flexible])

    assert sorted(len(table.tickets) for table in tables) == [3, 5]


def test_ten_thousand_tickets() -> None:
    """Everyone alike and long waiting: all seated, in tables of five."""
    tables = pair([ticket(str(i), waited=LONG) for i in range(10_000)])

    assert len(tables) == 2000
    assert {len(table.tickets) for table in tables} == {5}


# Properties over random queues -----------------------------------------------------------

sizes = st.frozensets(st.sampled_from(ALL), min_size=1)
ratings = st.floats(min_value=-20, max_value=60, allow_nan=False)


@st.composite
def queues(draw: st.DrawFn, waited: st.SearchStrategy[float]) -> list[Ticket]:
    count = draw(st.integers(min_value=0, max_value=60))
    return [Ticket(str(i), draw(ratings), draw(sizes), draw(waited)) for i in range(count)]


any_wait = st.floats(min_value=0, max_value=700, allow_nan=False)


@settings(max_examples=150, deadline=None)
@given(queues(any_wait))
def test_every_table_is_one_all_its_members_accept_now(tickets: list[Ticket]) -> None:
    by_key = {t.key: t for t in tickets}
    seen: list[str] = []
    for table in pair(tickets):
        members = [by_key[key] for key in table.tickets]
        seen.extend(table.tickets)
        member_ratings = [t.rating for t in members]
        assert table.spread == max(member_ratings) - min(member_ratings)
        for member in members:
            assert len(members) in POLICY.open_sizes(member)
        assert table.spread <= POLICY.tolerance(statistics.fmean(t.waited for t in members))
    assert len(seen) == len(set(seen)), "a ticket sits at two tables"


@settings(max_examples=150, deadline=None)
@given(queues(st.floats(min_value=LONG, max_value=700, allow_nan=False)))
def test_nobody_is_left_waiting_who_could_make_a_table(tickets: list[Ticket]) -> None:
    """Once every size is open and every gap accepted, no `s` unseated tickets all accept
    `s`: whoever is compatible with enough others is seated."""
    left = {t.key for t in tickets} - {key for table in pair(tickets) for key in table.tickets}
    for size in ALL:
        assert sum(1 for t in tickets if t.key in left and size in t.sizes) < size


@settings(max_examples=100, deadline=None)
@given(st.data())
def test_the_input_order_does_not_matter(data: st.DataObject) -> None:
    tickets = data.draw(queues(any_wait))
    shuffled = data.draw(st.permutations(tickets))

    assert pair(shuffled) == pair(tickets)
